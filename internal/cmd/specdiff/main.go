// Command specdiff prints what changed between the vendor's OpenAPI
// documents the repository keeps (testdata/openapi) and a newer folder of
// them: routes, parameters, statuses, media types, and the members and
// enum values of every JSON body, added (+) or removed (-), document by
// document. A member whose type changed shows as removed with the old
// type and added with the new.
//
//	go run ./internal/cmd/specdiff [-stored DIR] NEWDIR
//
// The stored folder is testdata/openapi of the module the command runs
// in, unless -stored names another. Exit status: 0 when nothing changed,
// 1 when something did, 2 for a usage error or a folder it cannot read.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docsagent/mintlify-go/internal/openapicheck"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("specdiff", flag.ContinueOnError)
	flags.SetOutput(stderr)
	stored := flags.String("stored", "", "the folder of stored documents (default: testdata/openapi of this module)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: specdiff [-stored DIR] NEWDIR")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return 2
	}
	if *stored == "" {
		dir, err := storedDocuments()
		if err != nil {
			fmt.Fprintln(stderr, "specdiff:", err)
			return 2
		}
		*stored = dir
	}
	old, err := openapicheck.Read(*stored)
	if err != nil {
		fmt.Fprintln(stderr, "specdiff:", err)
		return 2
	}
	newer, err := openapicheck.Read(flags.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "specdiff:", err)
		return 2
	}
	if changed := diff(stdout, old, newer, flags.Arg(0)); changed {
		return 1
	}
	fmt.Fprintln(stdout, "no change")
	return 0
}

// storedDocuments finds testdata/openapi in the current folder or the
// nearest one above it that has a go.mod.
func storedDocuments() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "openapi"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod here or above: run it in the repository, or pass -stored DIR")
		}
		dir = parent
	}
}

// diff writes the changes from old to newer, file by file, and reports
// whether there were any.
func diff(w io.Writer, old, newer *openapicheck.Documents, newDir string) bool {
	before, after := old.Facts(), newer.Facts()
	files := slices.Concat(old.Files(), newer.Files())
	slices.Sort(files)
	files = slices.Compact(files)
	changed := false
	for _, f := range files {
		a, inOld := before[f]
		b, inNew := after[f]
		switch {
		case !inNew:
			fmt.Fprintf(w, "%s: removed (not in %s)\n", f, newDir)
			changed = true
			continue
		case !inOld:
			fmt.Fprintf(w, "%s: added\n", f)
			changed = true
		}
		removed, added := minus(a, b), minus(b, a)
		if len(removed)+len(added) == 0 {
			continue
		}
		if inOld {
			fmt.Fprintf(w, "%s:\n", f)
		}
		changed = true
		for _, l := range removed {
			fmt.Fprintln(w, "  -", l)
		}
		for _, l := range added {
			fmt.Fprintln(w, "  +", l)
		}
	}
	return changed
}

// minus lists the lines of a (sorted) that b (sorted) lacks.
func minus(a, b []string) []string {
	var out []string
	for _, l := range a {
		if _, found := slices.BinarySearch(b, l); !found {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}
