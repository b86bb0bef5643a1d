package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Set by release builds (.goreleaser.yaml) and by the GitHub Action's build:
//
//	-ldflags "-X main.version=v1.2.3 -X main.commit=<sha> -X main.date=<RFC 3339>"
//
// Empty in a plain go install or go build: the build information the Go
// command embeds then tells (the module version for go install ...@v1.2.3,
// the commit and its time for a build in a git checkout).
var (
	version string
	commit  string
	date    string
)

// buildVersion is what `mintctl version` reports.
type buildVersion struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`   // "" when unknown
	Date      string `json:"date"`     // the commit's time (a checkout, a release) or the build's (the action); "" when unknown
	Modified  bool   `json:"modified"` // built from a checkout with uncommitted changes
	GoVersion string `json:"goVersion"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
}

// currentVersion reads this binary's version: the release ldflags where set,
// the embedded build information otherwise.
func currentVersion() buildVersion {
	info, _ := debug.ReadBuildInfo()
	return readVersion(version, commit, date, info)
}

// readVersion combines the ldflags values with the build information
// (nil when the binary has none). An ldflags value wins over the build
// information, which is all a go install has.
func readVersion(ldVersion, ldCommit, ldDate string, info *debug.BuildInfo) buildVersion {
	v := buildVersion{Version: ldVersion, Commit: ldCommit, Date: ldDate,
		GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if info == nil {
		info = &debug.BuildInfo{}
	}
	v.GoVersion = cmp.Or(info.GoVersion, v.GoVersion)
	// "(devel)" is what the Go command records for a build with no module version.
	v.Version = cmp.Or(v.Version, info.Main.Version, "(devel)")
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			if v.Commit == "" {
				v.Commit = s.Value
			}
		case "vcs.time":
			if v.Date == "" {
				v.Date = s.Value
			}
		case "vcs.modified":
			// Only where the commit is the checkout's: a release's ldflags
			// name a commit the build information knows nothing of.
			v.Modified = s.Value == "true" && ldCommit == ""
		}
	}
	return v
}

// text is the version as `mintctl version` and `mintctl --version` print it.
func (v buildVersion) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mintctl %s\n", v.Version)
	c := cmp.Or(v.Commit, "unknown")
	if v.Modified {
		c += " (modified)"
	}
	fmt.Fprintf(&b, "  commit:   %s\n", c)
	fmt.Fprintf(&b, "  built:    %s\n", cmp.Or(v.Date, "unknown"))
	fmt.Fprintf(&b, "  go:       %s\n", v.GoVersion)
	fmt.Fprintf(&b, "  platform: %s/%s\n", v.OS, v.Arch)
	return b.String()
}

// addVersion gives root the version command and the --version flag, both
// printing the same lines.
func (a *app) addVersion(root *cobra.Command) {
	v := currentVersion()
	root.Version = v.Version
	// The template is text/template: the text holds no braces (versions,
	// hashes and times never do), so it prints as it is.
	root.SetVersionTemplate(v.text())
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print mintctl's version, commit, build date, Go version and platform",
		Long: `Print the version of this mintctl: the release or module version, the commit
and build date (where the build recorded them), the Go version it was built
with, and its OS and architecture. 'mintctl --version' prints the same.
It sends nothing and needs no credentials.`,
		Example: `  mintctl version
  mintctl version --json | jq -r .version`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return json.NewEncoder(a.stdout).Encode(v)
			}
			_, err := fmt.Fprint(a.stdout, v.text())
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as one JSON object")
	root.AddCommand(cmd)
}
