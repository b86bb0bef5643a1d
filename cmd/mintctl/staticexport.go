package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
)

func (a *app) staticExportCommand() *cobra.Command {
	var f waitFlags
	var version, outFile string
	var paths []string
	cmd := &cobra.Command{
		Use:   "static-export [--version V] [--path P]... [--wait] [--timeout D] [--output FILE] [--json] DOMAIN",
		Short: "Export the docs site as static files (Enterprise)",
		Long: `Start a static export of the docs site at DOMAIN (a bare hostname). With
--wait, wait until it ends: 0 completed, 3 failed. With --output FILE, wait,
then bundle and download the tar.gz to FILE ('-' for stdout); the size is
checked against the bundle's. The bundle's link is presigned: mintctl never
prints it or writes it to step outputs or logs.`,
		Example: `  mintctl static-export --output site.tar.gz docs.example.com
  mintctl static-export --version v2 --path /api --path /guides --wait docs.example.com`,
		Args: exactArgs("DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if outFile == "-" && f.json {
				return usageErrorf("--output - and --json both write to stdout: choose one")
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			e, err := c.StartStaticExport(ctx, mintlify.StaticExportParams{Domain: args[0], Version: version, Paths: paths})
			if err != nil {
				return fmt.Errorf("starting the static export: %w", err)
			}
			a.infof("started static export %s", printable(e.ID))
			outs := func(e *mintlify.StaticExport) []output {
				return []output{{"export_id", e.ID}, {"status", string(e.Status)}}
			}
			if !f.wait && outFile == "" {
				return a.reportExport(a.stdout, e, &f, outs(e), false)
			}
			wctx, cancel := f.waitContext(ctx)
			defer cancel()
			done, last, err := pollShown(a, &f, "static export "+e.ID, e,
				func(s *mintlify.StaticExport) string {
					return fmt.Sprintf("%s %.0f%%, %d pages", s.Status, s.Progress, s.PageCount)
				},
				func(opts ...mintlify.PollOption) (*mintlify.StaticExport, error) {
					return c.PollStaticExport(wctx, e.ID, opts...)
				})
			if err != nil {
				_ = a.writeOutputs(outs(last)...)
				return f.gaveUp(err, "static export "+e.ID, string(last.Status), "")
			}
			if done.Status != mintlify.StaticExportCompleted || outFile == "" {
				w := a.stdout
				if outFile == "-" {
					// stdout is for the bundle: a script piping it to a file
					// must not get this text instead.
					w = a.stderr
				}
				return a.reportExport(w, done, &f, outs(done), true)
			}
			if err := a.download(wctx, c, done.ID, outFile); err != nil {
				_ = a.writeOutputs(outs(done)...)
				return err
			}
			if outFile != "-" {
				return a.reportExport(a.stdout, done, &f, append(outs(done), output{"bundle_file", outFile}), true)
			}
			return a.writeOutputs(outs(done)...)
		},
	}
	f.register(cmd, true)
	f.waitsAnyway = func() bool { return outFile != "" }
	cmd.Flags().StringVar(&version, "version", "", "the docs version to export (default: the current one)")
	cmd.Flags().StringArrayVar(&paths, "path", nil, "export only this path, repeatable (default: the whole site)")
	cmd.Flags().StringVarP(&outFile, "output", "o", "", "wait, then download the tar.gz bundle to FILE ('-' for stdout)")
	return cmd
}

// download bundles the export and streams it to path (or stdout for "-").
// A file is written beside its final name and renamed once complete, so a
// broken download never leaves a truncated bundle under that name.
func (a *app) download(ctx context.Context, c *mintlify.Client, id, path string) error {
	b, err := c.BundleStaticExport(ctx, id)
	if err != nil {
		return fmt.Errorf("bundling static export %s: %w", id, hideLinks(err))
	}
	if path == "-" {
		n, err := c.DownloadStaticExport(ctx, b, a.rawStdout) // the bundle, unaltered
		if err != nil {
			return hideLinks(err)
		}
		a.infof("downloaded %d bytes", n)
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	n, err := c.DownloadStaticExport(ctx, b, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return hideLinks(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	a.infof("downloaded %d bytes to %s", n, path)
	return nil
}

// reportExport prints the export to w and turns a failure into exit code 3.
func (a *app) reportExport(w io.Writer, e *mintlify.StaticExport, f *waitFlags, outs []output, waited bool) error {
	var err error
	if f.json {
		err = printJSON(w, e)
	} else {
		_, err = fmt.Fprintf(w, "static export %s %s: %.0f%%, %d pages\n", printable(e.ID), printable(string(e.Status)), e.Progress, e.PageCount)
		if err == nil && e.Error != "" {
			_, err = fmt.Fprintf(w, "error: %s\n", printable(e.Error))
		}
	}
	if err != nil {
		return err
	}
	if err := a.writeOutputs(outs...); err != nil {
		return err
	}
	if waited && e.Status == mintlify.StaticExportFailed {
		return &codeError{exitFailed, fmt.Errorf("static export %s failed", e.ID)}
	}
	return nil
}

// signedLink matches a link with a query: the shape of a presigned link,
// whose query is the credential.
var signedLink = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>]*\?[^\s"'<>]*`)

// hideLinks keeps err's chain but shows no link with a query in its text.
// The bundle routes' errors come from the server; one that quotes a
// presigned link (a 409 "already bundled at ...") would put the link in
// a CI log, where anyone who reads it can download the site.
func hideLinks(err error) error {
	if err == nil || !signedLink.MatchString(err.Error()) {
		return err
	}
	return &linkHiddenError{err}
}

type linkHiddenError struct{ err error }

func (e *linkHiddenError) Error() string {
	return signedLink.ReplaceAllString(e.err.Error(), "[link hidden]")
}
func (e *linkHiddenError) Unwrap() error { return e.err }
