package main

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionSources(t *testing.T) {
	t.Parallel()
	checkout := &debug.BuildInfo{
		GoVersion: "go1.26.1",
		Main:      debug.Module{Path: "github.com/docsagent/mintlify-go", Version: "v0.0.0-20260102030405-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	goInstall := &debug.BuildInfo{GoVersion: "go1.24.0", Main: debug.Module{Path: "github.com/docsagent/mintlify-go", Version: "v1.2.3"}}
	platform := func(v buildVersion) buildVersion { v.OS, v.Arch = runtime.GOOS, runtime.GOARCH; return v }
	for _, tc := range []struct {
		name                string
		ldVersion, ldCommit string
		ldDate              string
		info                *debug.BuildInfo
		want                buildVersion
	}{
		{name: "go install at a tag: the module version, no commit",
			info: goInstall,
			want: buildVersion{Version: "v1.2.3", GoVersion: "go1.24.0"}},
		{name: "a build in a checkout: the commit, its time and the uncommitted changes",
			info: checkout,
			want: buildVersion{Version: "v0.0.0-20260102030405-0123456789ab+dirty", Commit: "0123456789abcdef0123456789abcdef01234567",
				Date: "2026-01-02T03:04:05Z", Modified: true, GoVersion: "go1.26.1"}},
		{name: "a release build: the ldflags win, and the checkout's state is not the release's",
			ldVersion: "v1.2.3", ldCommit: "fedcba9876543210fedcba9876543210fedcba98", ldDate: "2026-02-03T04:05:06Z",
			info: checkout,
			want: buildVersion{Version: "v1.2.3", Commit: "fedcba9876543210fedcba9876543210fedcba98",
				Date: "2026-02-03T04:05:06Z", GoVersion: "go1.26.1"}},
		{name: "the action's build at a tag: the version from ldflags, the rest unknown",
			ldVersion: "v1.2.3", info: &debug.BuildInfo{GoVersion: "go1.24.0", Main: debug.Module{Version: "(devel)"}},
			want: buildVersion{Version: "v1.2.3", GoVersion: "go1.24.0"}},
		{name: "no build information at all",
			want: buildVersion{Version: "(devel)", GoVersion: runtime.Version()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := readVersion(tc.ldVersion, tc.ldCommit, tc.ldDate, tc.info)
			assert.Equal(t, platform(tc.want), got)
		})
	}
}

func TestVersionText(t *testing.T) {
	t.Parallel()
	v := buildVersion{Version: "v1.2.3", Commit: "0123abc", Modified: true, GoVersion: "go1.26.1", OS: "linux", Arch: "arm64"}
	assert.Equal(t, `mintctl v1.2.3
  commit:   0123abc (modified)
  built:    unknown
  go:       go1.26.1
  platform: linux/arm64
`, v.text())
}
