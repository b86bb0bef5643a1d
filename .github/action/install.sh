#!/usr/bin/env bash
# Installs mintctl for the action (action.yml at the repository root).
#
#   install.sh release   the release archive of the action's ref for this
#                        runner's OS and architecture, checked against the
#                        release's checksums.txt (SHA-256) and kept in the
#                        runner's tool cache; writes installed=true to
#                        $GITHUB_OUTPUT, or installed=false when no release
#                        matches (a branch, a commit, `uses: ./`, a tag
#                        without a release or without this platform)
#   install.sh build     builds mintctl from the action's own files with
#                        the Go that actions/setup-go set up
#
# Either way mintctl's folder goes on $GITHUB_PATH for the job's later
# steps. A release whose archive does not match its checksums.txt fails the
# step and installs nothing; so does a release that cannot be read (a
# network failure is not "no release").
#
# Environment: MINTCTL_ACTION_REF and MINTCTL_ACTION_REPOSITORY (the
# action's github.action_ref and github.action_repository, passed through
# env: composite actions see them empty in run: otherwise), and for build
# MINTCTL_GO_VERSION (setup-go's go-version output). The runner's
# RUNNER_OS, RUNNER_ARCH, RUNNER_TOOL_CACHE, RUNNER_TEMP, GITHUB_PATH,
# GITHUB_OUTPUT and GITHUB_ACTION_PATH.
#
# MINTCTL_RELEASE_BASE_URL replaces https://github.com/OWNER/REPO/releases/download
# (a folder per tag holding checksums.txt and the archives). It exists for
# the project's own test (.ci/test-action-install, against a local server)
# and for nothing else: plain http is allowed only there.
#
# Written for the bash of every runner: 3.2 on macOS, Git Bash on Windows.
set -euo pipefail

fail() {
  echo "::error title=mintctl action::$*"
  exit 1
}

output() { echo "$1" >> "$GITHUB_OUTPUT"; }

# sha256 FILE prints FILE's SHA-256 in hex.
sha256() {
  if command -v sha256sum > /dev/null; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

release() {
  local ref=${MINTCTL_ACTION_REF:-} repo=${MINTCTL_ACTION_REPOSITORY:-}
  # A release tag: v, then a semantic version (goreleaser's .Version is the
  # tag without its v). Anything else has no release to download.
  if ! [[ $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]]; then
    echo "mintctl action: the action's ref is not a release tag (vX.Y.Z): building mintctl from source"
    output installed=false
    return
  fi
  local version=${ref#v} goos goarch ext=tar.gz exe=mintctl
  case ${RUNNER_OS:-} in
    Linux) goos=linux ;;
    macOS) goos=darwin ;;
    Windows) goos=windows ext=zip exe=mintctl.exe ;;
    *) goos="" ;;
  esac
  case ${RUNNER_ARCH:-} in
    X64) goarch=amd64 ;;
    ARM64) goarch=arm64 ;;
    *) goarch="" ;;
  esac
  if [[ -z $goos || -z $goarch ]]; then
    echo "mintctl action: releases have no build for this runner's OS and architecture: building mintctl from source"
    output installed=false
    return
  fi

  # The tool cache, laid out as @actions/tool-cache does: a folder per
  # version and platform, and a marker written once it is complete.
  local cache="$RUNNER_TOOL_CACHE/mintctl/$version/$goos-$goarch"
  if [[ -f $cache.complete && -f $cache/$exe ]]; then
    echo "mintctl action: mintctl $ref for $goos/$goarch from the tool cache"
    echo "$cache" >> "$GITHUB_PATH"
    "$cache/$exe" version
    output installed=true
    return
  fi

  local base=${MINTCTL_RELEASE_BASE_URL:-} proto=(--proto =https --proto-redir =https)
  if [[ -n $base ]]; then
    proto=(--proto =http,https --proto-redir =http,https) # the project's test server
  elif [[ $repo =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]]; then
    base="https://github.com/$repo/releases/download"
  else
    echo "mintctl action: the action's repository is unknown: building mintctl from source"
    output installed=false
    return
  fi

  # Global, for the trap that runs after this function returned.
  tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mintctl-install.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  # fetch URL FILE prints the answer's HTTP status, 000 when none came.
  fetch() {
    curl "${proto[@]}" --silent --show-error --location --retry 3 --connect-timeout 20 --max-time 300 \
      --output "$2" --write-out '%{http_code}' "$1" || true
  }

  local archive="mintctl_${version}_${goos}_${goarch}.$ext" code want got
  code=$(fetch "$base/$ref/checksums.txt" "$tmp/checksums.txt")
  case $code in
    200) ;;
    404)
      echo "mintctl action: $ref has no release: building mintctl from source"
      output installed=false
      return
      ;;
    *) fail "could not read checksums.txt of release $ref (HTTP $code); nothing was installed: run the job again" ;;
  esac
  # sha256sum's format, text or binary mode, LF or CRLF line ends.
  want=$(awk -v f="$archive" '{ sub(/\r$/, "") } $2 == f || $2 == "*" f { print $1; exit }' "$tmp/checksums.txt")
  if [[ -z $want ]]; then
    echo "mintctl action: release $ref has no $archive: building mintctl from source"
    output installed=false
    return
  fi
  [[ $want =~ ^[0-9a-f]{64}$ ]] || fail "checksums.txt of release $ref lists no SHA-256 for $archive; nothing was installed"

  code=$(fetch "$base/$ref/$archive" "$tmp/$archive")
  [[ $code == 200 ]] || fail "could not download $archive of release $ref (HTTP $code); nothing was installed: run the job again"
  got=$(sha256 "$tmp/$archive")
  if [[ $got != "$want" ]]; then
    fail "checksum mismatch: $archive of release $ref has SHA-256 $got, but its checksums.txt lists $want. Nothing was installed. Run the job again; if it fails the same way, the release's files were altered: report it, and do not use them."
  fi

  mkdir -p "$tmp/files"
  if [[ $ext == zip ]]; then
    if command -v unzip > /dev/null; then
      unzip -q "$tmp/$archive" -d "$tmp/files"
    else
      powershell -NoProfile -Command "Expand-Archive -LiteralPath '$tmp/$archive' -DestinationPath '$tmp/files'"
    fi
  else
    tar -xzf "$tmp/$archive" -C "$tmp/files"
  fi
  [[ -f $tmp/files/$exe ]] || fail "$archive of release $ref holds no $exe; nothing was installed"

  rm -rf "$cache" "$cache.complete"
  mkdir -p "$cache"
  cp "$tmp/files/$exe" "$cache/$exe"
  chmod 755 "$cache/$exe"
  touch "$cache.complete"
  echo "mintctl action: installed mintctl $ref for $goos/$goarch ($archive, SHA-256 checked)"
  echo "$cache" >> "$GITHUB_PATH"
  "$cache/$exe" version
  output installed=true
}

build() {
  cd "$GITHUB_ACTION_PATH"
  # The Go actions/setup-go set up, never an older one found first on PATH,
  # nor a toolchain go.mod would ask for.
  export GOTOOLCHAIN=local
  local have
  have=$(go env GOVERSION)
  if [[ -n ${MINTCTL_GO_VERSION:-} && $have != "go$MINTCTL_GO_VERSION" ]]; then
    fail "the go on PATH is $have, not the go$MINTCTL_GO_VERSION that actions/setup-go set up: a step that changes PATH runs before this action"
  fi
  # A job that cross-compiles must still get a mintctl that runs here.
  unset GOOS GOARCH
  export CGO_ENABLED=0 GOFLAGS=-mod=readonly GOWORK=off

  # The version the build reports: the ref the workflow pinned (empty for
  # `uses: ./`), else the checkout's commit. No VCS stamping: git refuses
  # a checkout owned by another user, and the download of a remote action
  # has no .git anyway.
  local ref=${MINTCTL_ACTION_REF:-} version="" commit=""
  if [[ $ref =~ ^[0-9a-f]{40}$ ]]; then
    commit=$ref
  elif [[ $ref =~ ^[A-Za-z0-9._/+-]+$ ]]; then
    version=$ref
  fi
  if [[ -z $commit && -e .git ]]; then
    commit=$(git rev-parse HEAD 2> /dev/null || true)
  fi
  local ldflags
  ldflags="-X main.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  if [[ -n $version ]]; then ldflags+=" -X main.version=$version"; fi
  if [[ -n $commit ]]; then ldflags+=" -X main.commit=$commit"; fi
  local bin="$RUNNER_TEMP/mintctl-action"
  mkdir -p "$bin"
  echo "mintctl action: building mintctl with $have"
  go build -buildvcs=false -trimpath -ldflags "$ldflags" -o "$bin/" ./cmd/mintctl
  echo "$bin" >> "$GITHUB_PATH"
  "$bin/mintctl" version
}

case ${1:-} in
  release) release ;;
  build) build ;;
  *)
    echo "usage: install.sh release|build" >&2
    exit 2
    ;;
esac
