// Command visitors exports the unique-visitors table of a date range as CSV
// on stdout, with progress on stderr. With no MINTLIFY_API_KEY it runs
// against the bundled mock server.
//
//	go run ./examples/visitors -from 2025-01-01 -to 2025-02-01 > january.csv
//
// The export asks for 250 rows a request, the fewest of the organization's
// 100 analytics requests an hour. If it stops (quota, network, Ctrl-C), it
// prints the offset to resume from; run it again with -offset to append the
// rest:
//
//	go run ./examples/visitors -from 2025-01-01 -to 2025-02-01 -offset 5000 >> january.csv
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func main() {
	var p mintlify.VisitorsParams
	demo.Main("visitors", 0,
		func(args []string, errOut io.Writer) (err error) { p, err = parse(args, errOut); return err },
		func(ctx context.Context) error { return run(ctx, p) })
}

// parse reads the flags; -h and --help print the usage and send nothing.
func parse(args []string, errOut io.Writer) (mintlify.VisitorsParams, error) {
	fs := flag.NewFlagSet("visitors", flag.ContinueOnError)
	fs.SetOutput(errOut)
	today := time.Now().UTC().Format(time.DateOnly)
	from := fs.String("from", "", "first day counted, YYYY-MM-DD (default: 30 days before -to)")
	to := fs.String("to", today, "day after the last one counted, YYYY-MM-DD: the range ends before it")
	offset := fs.Int("offset", 0, "rows to skip: resume an interrupted export (no CSV header is written)")
	demo.Usage(fs, "visitors [-from DAY] [-to DAY] [-offset N] > visitors.csv",
		"Exports distinct visitors per path as CSV on stdout, progress on stderr.\nWith MINTLIFY_API_KEY unset it runs against the bundled mock server.")
	if err := fs.Parse(args); err != nil {
		return mintlify.VisitorsParams{}, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments %q", fs.Args())
		fmt.Fprintln(errOut, "visitors:", err)
		return mintlify.VisitorsParams{}, err
	}
	p, err := params(*from, *to, *offset)
	if err != nil {
		fmt.Fprintln(errOut, "visitors:", err)
	}
	return p, err
}

func params(from, to string, offset int) (mintlify.VisitorsParams, error) {
	end, err := time.Parse(time.DateOnly, to)
	if err != nil {
		return mintlify.VisitorsParams{}, fmt.Errorf("-to: %w", err)
	}
	start := end.AddDate(0, 0, -30)
	if from != "" {
		if start, err = time.Parse(time.DateOnly, from); err != nil {
			return mintlify.VisitorsParams{}, fmt.Errorf("-from: %w", err)
		}
	}
	if offset < 0 {
		return mintlify.VisitorsParams{}, fmt.Errorf("-offset %d is negative", offset)
	}
	if !start.Before(end) {
		return mintlify.VisitorsParams{}, fmt.Errorf("-from %s is not before -to %s", from, to)
	}
	return mintlify.VisitorsParams{DateFrom: start, DateTo: end, Offset: offset}, nil
}

func run(ctx context.Context, p mintlify.VisitorsParams) error {
	s, err := demo.Connect(os.Stderr, mintlify.WithUserAgent("visitors-export"))
	if err != nil {
		return err
	}
	defer s.Close()

	out := csv.NewWriter(os.Stdout)
	rows, walkErr := export(ctx, s.Client, p, out)
	out.Flush() // keep every row received, so that resuming adds exactly the rest
	if err := out.Error(); err != nil {
		return err
	}
	if walkErr != nil {
		var apiErr *mintlify.APIError
		if errors.As(walkErr, &apiErr) && apiErr.RetryAfter > 0 {
			fmt.Fprintf(os.Stderr, "visitors: the server asks to wait %s\n", apiErr.RetryAfter)
		}
		return fmt.Errorf("stopped after %d rows; resume with -offset %d: %w", rows, p.Offset+rows, walkErr)
	}
	fmt.Fprintf(os.Stderr, "visitors: exported %d rows from %s to %s (exclusive)\n",
		rows, p.DateFrom.Format(time.DateOnly), p.DateTo.Format(time.DateOnly))
	return nil
}

// export writes every row from p.Offset on and reports progress about once
// a second, so a long export (many pages, perhaps waiting on retries) shows
// it is alive. A fresh export starts with a header, written only once the
// first row is in (or the export turns out empty), so that a run that failed
// at once and is resumed with >> does not leave two headers.
func export(ctx context.Context, c *mintlify.Client, p mintlify.VisitorsParams, out *csv.Writer) (int, error) {
	rows, last := 0, time.Now()
	header := func() error {
		if p.Offset > 0 || rows > 0 {
			return nil
		}
		return out.Write([]string{"path", "human", "ai", "total"})
	}
	for row, err := range c.Visitors(ctx, p) {
		if err != nil {
			return rows, err
		}
		if err := header(); err != nil {
			return rows, err
		}
		if err := out.Write([]string{row.Path, strconv.Itoa(row.Human), strconv.Itoa(row.AI), strconv.Itoa(row.Total)}); err != nil {
			return rows, err
		}
		rows++
		if time.Since(last) >= time.Second {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "visitors: %d rows so far (offset %d)\n", rows, p.Offset+rows)
		}
	}
	return rows, header()
}
