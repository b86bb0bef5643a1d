package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

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
prints it or writes it to step outputs or logs.

--output FILE is checked before the export starts (its folder exists and a
file can be made there), written beside FILE and renamed over it once
whole: a failed run leaves FILE as it was. If the download fails after the
export completed, mintctl prints the export's ID and the command that
downloads it again ('mintctl static-export download').

'mintctl static-export status' and 'mintctl static-export download' follow
an export already started. A site whose domain is a single word "status"
or "download" is exported with -- before it: mintctl static-export -- status`,
		Example: `  mintctl static-export --output site.tar.gz docs.example.com
  mintctl static-export --version v2 --path /api --path /guides --wait docs.example.com
  mintctl static-export status --wait se_7ugr6fbcqjmykd4kid5f3zpeai
  mintctl static-export download --output site.tar.gz se_7ugr6fbcqjmykd4kid5f3zpeai`,
		Args: exactArgs("DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if outFile == "-" && f.json {
				return usageErrorf("--output - and --json both write to stdout: choose one")
			}
			if err := a.bundleToLog(outFile); err != nil {
				return err
			}
			return f.run(a, cmd, func(ctx context.Context, c *mintlify.Client) error {
				var file *outputFile
				if outFile != "" && outFile != "-" {
					var err error
					if file, err = createOutput(outFile); err != nil {
						return err
					}
					defer file.abort()
				}
				e, err := c.StartStaticExport(ctx, mintlify.StaticExportParams{Domain: args[0], Version: version, Paths: paths})
				if err != nil {
					return f.gaveUp(fmt.Errorf("starting the static export: %w", err), "the start", "", "")
				}
				a.infof("started static export %s", e.ID)
				if !f.wait && outFile == "" {
					return a.reportExport(a.stdout, e, &f, false, nil)
				}
				done, err := a.waitExport(ctx, c, e, &f)
				if err != nil {
					return err
				}
				w := a.stdout
				if outFile == "-" {
					// stdout is for the bundle: a script piping it to a file
					// must not get this text instead.
					w = a.stderr
				}
				if done.Status != mintlify.StaticExportCompleted || outFile == "" {
					return a.reportExport(w, done, &f, true, nil)
				}
				got, err := a.download(ctx, c, done.ID, outFile, file)
				if err != nil {
					// The export is done and stays downloadable: say how.
					a.writeOutputs(exportOutputs(done, nil)...)
					again := shellJoin([]string{"mintctl", "static-export", "download", "--output", outFile, done.ID})
					fmt.Fprintf(a.stderr, "mintctl: static export %s completed; to download it again, run:\n  %s\n",
						printable(done.ID), printable(again))
					return &pickUpError{err: err, again: again, printed: true}
				}
				return a.reportExport(w, done, &f, true, got)
			})
		},
	}
	f.register(cmd, true)
	f.waitsAnyway = func() bool { return outFile != "" }
	cmd.Flags().StringVar(&version, "version", "", "the docs version to export (default: the current one)")
	cmd.Flags().StringArrayVar(&paths, "path", nil, "export only this path, repeatable (default: the whole site)")
	cmd.Flags().StringVarP(&outFile, "output", "o", "", "wait, then download the tar.gz bundle to FILE ('-' for stdout)")
	cmd.AddCommand(a.staticExportStatusCommand(), a.staticExportDownloadCommand())
	return cmd
}

func (a *app) staticExportStatusCommand() *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "status [--wait] [--timeout D] [--json] EXPORT_ID",
		Short: "Show a static export, or wait for it to end",
		Long: `Show a static export by the ID its start printed (the export_id step
output). The exit code is 0 whatever its status; with --wait, wait until it
ends: 0 completed, 3 failed.`,
		Example: `  mintctl static-export status se_7ugr6fbcqjmykd4kid5f3zpeai
  mintctl static-export status --wait --timeout 1h se_7ugr6fbcqjmykd4kid5f3zpeai`,
		Args: exactArgs("EXPORT_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(a, cmd, func(ctx context.Context, c *mintlify.Client) error {
				if !f.wait {
					e, err := c.GetStaticExport(ctx, args[0])
					if err != nil {
						return err
					}
					return a.reportExport(a.stdout, e, &f, false, nil)
				}
				done, err := a.waitExport(ctx, c, &mintlify.StaticExport{ID: args[0]}, &f)
				if err != nil {
					return err
				}
				return a.reportExport(a.stdout, done, &f, true, nil)
			})
		},
	}
	f.register(cmd, true)
	return cmd
}

func (a *app) staticExportDownloadCommand() *cobra.Command {
	var outFile string
	cmd := &cobra.Command{
		Use:   "download [--output FILE|-] EXPORT_ID",
		Short: "Download a completed static export again",
		Long: `Download a completed static export's tar.gz with a fresh link: after a
--timeout, a failed download or on another machine. FILE defaults to
EXPORT_ID.tar.gz in the current folder; '-' writes to stdout (refused in
a GitHub Actions step unless stdout is a file: the bytes are the storage
host's, unaltered, and the log runs workflow commands). The size is
checked against the bundle's; FILE is written beside its name and renamed
over it once whole, so a failed download leaves it as it was. An export not
yet completed is an error (HTTP 409): wait with 'mintctl static-export
status --wait'.`,
		Example: `  mintctl static-export download se_7ugr6fbcqjmykd4kid5f3zpeai
  mintctl static-export download --output - se_7ugr6fbcqjmykd4kid5f3zpeai | tar -xz`,
		Args: exactArgs("EXPORT_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			if err := a.bundleToLog(outFile); err != nil {
				return err
			}
			if outFile == "" {
				if !plainFileName(id) {
					return usageErrorf("the export ID %q cannot name a file: give --output FILE", id)
				}
				outFile = id + ".tar.gz"
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			var file *outputFile
			if outFile != "-" {
				if file, err = createOutput(outFile); err != nil {
					return err
				}
				defer file.abort()
			}
			got, err := a.download(cmd.Context(), c, id, outFile, file)
			if err != nil {
				return err
			}
			a.writeOutputs(exportOutputs(&mintlify.StaticExport{ID: id}, got)...)
			a.summaryf("#### Static export %s\n\n- bundle: %d bytes%s\n\n", id, got.size, got.where())
			return nil
		},
	}
	cmd.Flags().StringVarP(&outFile, "output", "o", "", "write the tar.gz to FILE ('-' for stdout; default EXPORT_ID.tar.gz)")
	return cmd
}

// plainFileName reports whether s can name a file as it is: letters,
// digits, '-', '_' and '.', not starting with '.'.
func plainFileName(s string) bool {
	return s != "" && s[0] != '.' && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	})
}

// waitExport polls the export to its end, showing progress. When the wait
// fails after the export was read, it still writes the last state seen.
func (a *app) waitExport(ctx context.Context, c *mintlify.Client, e *mintlify.StaticExport, f *waitFlags) (*mintlify.StaticExport, error) {
	done, last, err := pollShown(a, f, "static export "+e.ID, e,
		func(s *mintlify.StaticExport) string {
			return fmt.Sprintf("%s %.0f%%, %d pages", s.Status, s.Progress, s.PageCount)
		},
		func(opts ...mintlify.PollOption) (*mintlify.StaticExport, error) {
			return c.PollStaticExport(ctx, e.ID, opts...)
		})
	if err != nil {
		return nil, a.waitFailed(f, err, "static export "+e.ID, string(last.Status), exportOutputs(last, nil),
			"mintctl", "static-export", "status", "--wait", e.ID)
	}
	return done, nil
}

// downloaded is a bundle written: its size, and the file ("-": stdout).
type downloaded struct {
	size int64
	file string
}

func (d *downloaded) where() string {
	if d.file == "-" {
		return ", to stdout"
	}
	return ", written to " + d.file
}

// exportOutputs are an export's step outputs: export_id, and status when
// it was read, and bundle_file when a bundle went to a file.
func exportOutputs(e *mintlify.StaticExport, got *downloaded) []output {
	outs := []output{{"export_id", e.ID}}
	if e.Status != "" {
		outs = append(outs, output{"status", string(e.Status)})
	}
	if got != nil && got.file != "-" {
		outs = append(outs, output{"bundle_file", got.file})
	}
	return outs
}

// bundleToLog refuses a bundle to the log of a GitHub Actions step (a
// stdout that is not a file), before any request: the storage host's
// bytes reach stdout unaltered, and the runner reads every line of the
// log for workflow commands.
func (a *app) bundleToLog(outFile string) error {
	if outFile == "-" && a.stdoutIsLog() {
		return usageErrorf("--output - to the log of a GitHub Actions step would let the storage host's bytes run as workflow commands: write the bundle to a file with --output FILE")
	}
	return nil
}

// download bundles the export (a fresh link) and streams it to file, or
// to stdout for "-". The file is committed (renamed over its name) only
// once the whole bundle, its size checked, is in it.
func (a *app) download(ctx context.Context, c *mintlify.Client, id, path string, file *outputFile) (*downloaded, error) {
	b, err := c.BundleStaticExport(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("bundling static export %s: %w", id, hideLinks(err))
	}
	var w io.Writer = a.rawStdout // the bundle, unaltered
	if file != nil {
		w = file
	}
	n, err := c.DownloadStaticExport(ctx, b, w)
	if err != nil {
		return nil, &storageHostError{hideLinks(err)}
	}
	if file != nil {
		err = file.commit()
	}
	if err != nil {
		return nil, hideLinks(err)
	}
	if file != nil {
		a.infof("downloaded %d bytes to %s", n, path)
	} else {
		a.infof("downloaded %d bytes", n)
	}
	return &downloaded{size: n, file: path}, nil
}

// reportExport prints the export to w, writes its step outputs and
// summary, and after a wait turns a failure into exit code 3. got is the
// bundle downloaded, if any.
func (a *app) reportExport(w io.Writer, e *mintlify.StaticExport, f *waitFlags, waited bool, got *downloaded) error {
	// The export was read: its outputs are written whatever becomes of
	// stdout.
	a.writeOutputs(exportOutputs(e, got)...)
	bundle := mdRaw("")
	if got != nil {
		bundle = mdRaw(fmt.Sprintf("- bundle: %d bytes%s\n", got.size, md(printable(got.where()))))
	}
	a.summaryf("#### Static export %s\n\n- status: **%s** (%.0f%%, %d pages)\n%s\n", e.ID, e.Status, e.Progress, e.PageCount, bundle)
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
	if waited && e.Status == mintlify.StaticExportFailed {
		return failedError("static export "+e.ID, e.Error)
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
