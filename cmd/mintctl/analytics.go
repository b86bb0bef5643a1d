package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/redact"
)

// paging is how a route walks: what resumes it.
type paging int

const (
	noPaging     paging = iota // one answer, or pages without a resume point
	offsetPaging               // --offset resumes
	cursorPaging               // --cursor resumes
)

// column is one field of a route's rows, named as the API names it.
type column struct {
	name string
	// nullable fields the API sends as null are written as null in JSON
	// (and empty in CSV) when they hold the zero value.
	nullable bool
}

// exportParams are the flags of an export, resolved.
type exportParams struct {
	from, to time.Time
	limit    int
	offset   int
	cursor   string
	source   string
	statuses []string
	// warn tells the user something about the rows (on stderr).
	warn func(format string, args ...any)
}

// analyticsRoute is one analytics export: its flags, its columns and its
// walk over the SDK. Adding a route is one entry in analyticsRoutes.
type analyticsRoute struct {
	name, short string
	paging      paging
	filters     bool // --source and --status
	noLimit     bool // no --limit
	maxLimit    int  // the largest --limit the route takes
	columns     []column
	// walk yields the rows, each as values in the order of columns. A
	// failure is yielded once and carries the point to resume from.
	walk func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[[]any, error]
}

func analyticsRoutes() []analyticsRoute {
	return []analyticsRoute{
		trafficRoute("visitors", "Distinct visitors per path, human and AI",
			func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[mintlify.PathVisitors, error] {
				return c.Visitors(ctx, mintlify.VisitorsParams{DateFrom: p.from, DateTo: p.to, Limit: p.limit, Offset: p.offset})
			}),
		trafficRoute("views", "Page views per path, human and AI",
			func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[mintlify.PathViews, error] {
				return c.Views(ctx, mintlify.ViewsParams{DateFrom: p.from, DateTo: p.to, Limit: p.limit, Offset: p.offset})
			}),
		{
			name:     "searches",
			short:    "Search terms by hits, with click-through rate and top clicked page",
			paging:   cursorPaging,
			maxLimit: 100,
			columns: []column{{name: "searchQuery"}, {name: "hits"}, {name: "ctr"},
				{name: "topClickedPage", nullable: true}, {name: "lastSearchedAt"}},
			walk: func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[[]any, error] {
				rows := c.Searches(ctx, mintlify.SearchesParams{DateFrom: p.from, DateTo: p.to, Limit: p.limit, Cursor: p.cursor})
				return mapRows(rows, func(r mintlify.SearchTerm) []any {
					return []any{r.Query, r.Hits, r.CTR, r.TopClickedPage, timeAsSent(r, "lastSearchedAt")}
				})
			},
		},
		{
			name:     "feedback",
			short:    "Feedback entries: comments, thumbs and code-snippet reports",
			paging:   cursorPaging,
			maxLimit: 100,
			filters:  true,
			columns: []column{{name: "id"}, {name: "path"}, {name: "comment", nullable: true},
				{name: "createdAt", nullable: true}, {name: "source"}, {name: "status"},
				{name: "helpful", nullable: true}, {name: "contact", nullable: true},
				{name: "code", nullable: true}, {name: "filename", nullable: true}, {name: "lang", nullable: true}},
			walk: func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[[]any, error] {
				rows := c.Feedback(ctx, mintlify.FeedbackParams{DateFrom: p.from, DateTo: p.to, Limit: p.limit, Cursor: p.cursor,
					Source: mintlify.FeedbackSource(p.source), Statuses: feedbackStatuses(p.statuses)})
				return mapRows(rows, func(r mintlify.Feedback) []any {
					return []any{r.ID, r.Path, r.Comment, timeAsSent(r, "createdAt"), string(r.Source), string(r.Status),
						r.Helpful, r.Contact, r.Code, r.Filename, r.Lang}
				})
			},
		},
		{
			name:     "feedback-by-page",
			short:    "Feedback counts per path (one request: up to --limit paths, default and at most 100)",
			paging:   noPaging,
			maxLimit: maxFeedbackByPage,
			filters:  true,
			columns:  []column{{name: "path"}, {name: "thumbsUp"}, {name: "thumbsDown"}, {name: "code"}, {name: "total"}},
			walk: func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[[]any, error] {
				if p.limit == 0 {
					p.limit = maxFeedbackByPage // the route has no paging: ask for all it gives
				}
				return func(yield func([]any, error) bool) {
					page, err := c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{DateFrom: p.from, DateTo: p.to, Limit: p.limit,
						Source: mintlify.FeedbackSource(p.source), Statuses: feedbackStatuses(p.statuses)})
					if err != nil {
						yield(nil, err)
						return
					}
					if page.HasMore {
						p.warn("mintctl: more paths have feedback than the %d exported (the route has no paging)", p.limit)
					}
					for _, r := range page.Pages {
						if !yield([]any{r.Path, r.ThumbsUp, r.ThumbsDown, r.Code, r.Total}, nil) {
							return
						}
					}
				}
			},
		},
		{
			name:     "conversations",
			short:    "Assistant conversation turns: query, response, sources, resolution",
			paging:   cursorPaging,
			maxLimit: 1000,
			columns: []column{{name: "id"}, {name: "timestamp"}, {name: "query"}, {name: "response"},
				{name: "responseType"}, {name: "sources"}, {name: "resolutionStatus"},
				{name: "queryCategory", nullable: true}, {name: "pageUrl", nullable: true}},
			walk: func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[[]any, error] {
				rows := c.Conversations(ctx, mintlify.ConversationsParams{DateFrom: p.from, DateTo: p.to, Limit: p.limit, Cursor: p.cursor})
				return mapRows(rows, func(r mintlify.Conversation) []any {
					return []any{r.ID, timeAsSent(r, "timestamp"), r.Query, r.Response, r.ResponseType, orEmpty(r.Sources),
						r.ResolutionStatus, r.QueryCategory, r.PageURL}
				})
			},
		},
		{
			name:    "caller-stats",
			short:   "Assistant queries by caller: web, API, other (one row)",
			paging:  noPaging,
			noLimit: true,
			columns: []column{{name: "web"}, {name: "api"}, {name: "other"}, {name: "total"}},
			walk: func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[[]any, error] {
				return func(yield func([]any, error) bool) {
					s, err := c.GetCallerStats(ctx, mintlify.CallerStatsParams{DateFrom: p.from, DateTo: p.to})
					if err != nil {
						yield(nil, err)
						return
					}
					yield([]any{s.Web, s.API, s.Other, s.Total}, nil)
				}
			},
		},
	}
}

// maxFeedbackByPage is the most paths the by-page route answers.
const maxFeedbackByPage = 100

func feedbackStatuses(s []string) []mintlify.FeedbackStatus {
	out := make([]mintlify.FeedbackStatus, len(s))
	for i, v := range s {
		out[i] = mintlify.FeedbackStatus(v)
	}
	return out
}

// countRows passes rows on, counting them on the bar.
func countRows(rows iter.Seq2[[]any, error], bar *exportBar) iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		for row, err := range rows {
			if err == nil {
				bar.addRows(1)
			}
			if !yield(row, err) {
				return
			}
		}
	}
}

// trafficRoute is the analyticsRoutes entry of the visitors or views
// export: PathViews has PathVisitors' fields, so one column list and one
// row conversion serve both (a reordered field stops the conversion from
// compiling rather than mixing up columns).
func trafficRoute[R mintlify.PathVisitors | mintlify.PathViews](name, short string, walk func(context.Context, *mintlify.Client, exportParams) iter.Seq2[R, error]) analyticsRoute {
	return analyticsRoute{
		name:     name,
		short:    short,
		paging:   offsetPaging,
		maxLimit: 250,
		columns:  []column{{name: "path"}, {name: "human"}, {name: "ai"}, {name: "total"}},
		walk: func(ctx context.Context, c *mintlify.Client, p exportParams) iter.Seq2[[]any, error] {
			return mapRows(walk(ctx, c, p), func(r R) []any {
				v := mintlify.PathVisitors(r)
				return []any{v.Path, v.Human, v.AI, v.Total}
			})
		},
	}
}

func mapRows[R any](rows iter.Seq2[R, error], f func(R) []any) iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		for r, err := range rows {
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(f(r), nil) {
				return
			}
		}
	}
}

func (a *app) analyticsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "analytics ROUTE [--from DATE] [--to DATE] [--format csv|jsonl|json] [--output FILE] [route flags]",
		Short: "Export analytics as CSV, JSON Lines or JSON",
		Long: `Export an analytics route, row by row, to stdout or --output FILE: csv (with a
header), jsonl (one JSON object a line) or json (one array). Rows are streamed:
an export of any size runs in constant memory.

The organization has 100 analytics requests an hour; exports ask for the
largest pages. If an export stops (the quota, the network, Ctrl-C), every
row already received is kept and mintctl prints the exact command that
appends the rest (csv and jsonl).

CSV cells hold the API's values unaltered, so that a warehouse load equals
the export: a timestamp is written as the API sent it (2025-01-02T03:04:05.000Z
stays so), in JSON too. Rows carry text visitors typed (search terms, feedback, assistant
questions): before opening a CSV in a spreadsheet, export it with
--escape-formulas, which starts every text cell beginning with = + - @ tab
or CR with a ' so that the spreadsheet shows it rather than running it.

Dates are YYYY-MM-DD (midnight UTC) or RFC 3339; --to is exclusive. By
default an export covers the 30 days before today (UTC), a range that no
longer changes, so a resumed export equals an uninterrupted one.

--output FILE never destroys what FILE held: the export goes to a
temporary file beside it, renamed over FILE once complete, or once it
holds rows to resume from (a failed first request, or a JSON array cut
short, leaves FILE as it was). A resume (--offset, --cursor) appends only
to a FILE whose first line is this route's in this format, and that is
not being written by another run (a lock); a symbolic link is refused. A
new file's mode follows the umask, as with a shell redirect. The resume
command is printed only where running it can succeed (the network, 429,
5xx, Ctrl-C), not after a 400, 401, 403 or 404.

In a GitHub Actions step (GITHUB_ACTIONS=true), CSV to the log (stdout
not a file) is refused: its cells are the API's text unaltered, which the
runner would read for workflow commands. Use --output FILE, or --format
jsonl, whose text is escaped.`,
		Example: `  mintctl analytics visitors --from 2025-01-01 --to 2025-02-01 > january.csv
  mintctl analytics visitors --format jsonl --output visitors.jsonl`,
	}
	for _, r := range analyticsRoutes() {
		cmd.AddCommand(a.exportCommand(r))
	}
	cmd.AddCommand(a.threadCommand())
	return group(cmd)
}

// exportFlags are an export command's flags as given.
type exportFlags struct {
	from, to, format, output string
	limit, offset            int
	cursor, source           string
	statuses                 []string
	escapeFormulas           bool
}

func (a *app) exportCommand(r analyticsRoute) *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:     r.name + " [--from DATE] [--to DATE] [--format csv|jsonl|json] [--output FILE]",
		Short:   r.short,
		Example: fmt.Sprintf("  mintctl analytics %s --from 2025-01-01 --to 2025-02-01 --output %s.csv", r.name, r.name),
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.export(cmd, r, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.from, "from", "", "first day counted, YYYY-MM-DD or RFC 3339 (default: 30 days before --to)")
	fl.StringVar(&f.to, "to", "", "end of the range, exclusive (default: today, UTC)")
	fl.StringVar(&f.format, "format", "csv", "csv, jsonl or json")
	fl.StringVarP(&f.output, "output", "o", "", "write to FILE instead of stdout; it never destroys FILE: replaced once complete, appended to when resuming (see 'mintctl analytics --help')")
	fl.BoolVar(&f.escapeFormulas, "escape-formulas", false,
		"csv: start text cells that begin with = + - @ tab or CR with ' so a spreadsheet shows them instead of running them (alters those cells)")
	if !r.noLimit {
		fl.IntVar(&f.limit, "limit", 0, "rows per request (default: the route's maximum, the fewest requests)")
	}
	switch r.paging {
	case offsetPaging:
		fl.IntVar(&f.offset, "offset", 0, "resume: skip this many rows and append, without a CSV header")
	case cursorPaging:
		fl.StringVar(&f.cursor, "cursor", "", "resume: start at this cursor and append, without a CSV header")
	}
	if r.filters {
		fl.StringVar(&f.source, "source", "", "only this source: code_snippet, contextual, agent or thumbs_only")
		fl.StringSliceVar(&f.statuses, "status", nil, "only these statuses, comma-separated: pending, in_progress, resolved, dismissed")
	}
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"csv", "jsonl", "json"}, cobra.ShellCompDirectiveNoFileComp))
	if r.filters {
		_ = cmd.RegisterFlagCompletionFunc("source", cobra.FixedCompletions([]string{"code_snippet", "contextual", "agent", "thumbs_only"}, cobra.ShellCompDirectiveNoFileComp))
		_ = cmd.RegisterFlagCompletionFunc("status", cobra.FixedCompletions([]string{"pending", "in_progress", "resolved", "dismissed"}, cobra.ShellCompDirectiveNoFileComp))
	}
	return cmd
}

// resuming reports whether the command continues an earlier export: it
// then appends, without a CSV header.
func resuming(cmd *cobra.Command) bool {
	fl := cmd.Flags()
	return (fl.Lookup("offset") != nil && fl.Changed("offset")) || (fl.Lookup("cursor") != nil && fl.Changed("cursor"))
}

func (f *exportFlags) params(r analyticsRoute) (exportParams, error) {
	to := time.Now().UTC().Truncate(24 * time.Hour)
	if f.to != "" {
		t, err := parseDate(f.to)
		if err != nil {
			return exportParams{}, usageErrorf("--to: %v", err)
		}
		to = t
	}
	from := to.AddDate(0, 0, -30)
	if f.from != "" {
		t, err := parseDate(f.from)
		if err != nil {
			return exportParams{}, usageErrorf("--from: %v", err)
		}
		from = t
	}
	if !from.Before(to) {
		return exportParams{}, usageErrorf("--from %s is not before --to %s (--to is exclusive)", formatDate(from), formatDate(to))
	}
	if f.offset < 0 {
		return exportParams{}, usageErrorf("--offset %d is negative", f.offset)
	}
	if f.limit < 0 || (r.maxLimit > 0 && f.limit > r.maxLimit) {
		return exportParams{}, usageErrorf("--limit %d: want 1 to %d rows a request (0 or none: the most)", f.limit, r.maxLimit)
	}
	return exportParams{from: from, to: to, limit: f.limit, offset: f.offset, cursor: f.cursor, source: f.source, statuses: f.statuses}, nil
}

func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither YYYY-MM-DD nor RFC 3339", s)
	}
	return t, nil
}

// formatDate writes a date as the flags read it: the shortest exact form.
func formatDate(t time.Time) string {
	if t.Equal(t.Truncate(24*time.Hour)) && t.Location() == time.UTC {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339Nano)
}

func (a *app) export(cmd *cobra.Command, r analyticsRoute, f *exportFlags) error {
	format := f.format
	switch format {
	case "csv", "jsonl", "json":
	default:
		return usageErrorf("--format %q: want csv, jsonl or json", format)
	}
	if f.escapeFormulas && format != "csv" {
		return usageErrorf("--escape-formulas is for --format csv (JSON has no formulas)")
	}
	resume := resuming(cmd)
	if format == "json" && resume {
		return usageErrorf("--format json cannot be resumed (an array cannot be appended to): use --format jsonl")
	}
	p, err := f.params(r)
	if err != nil {
		return err
	}
	toFile := f.output != "" && f.output != "-"
	if format == "csv" && !toFile && a.stdoutIsLog() {
		// CSV cells hold the API's text unaltered, and the runner reads
		// every line of the log for workflow commands.
		return usageErrorf("--format csv to the log of a GitHub Actions step would let visitors' text run as workflow commands: write it to a file with --output FILE, or print --format jsonl (its text is escaped)")
	}
	p.warn = func(format string, args ...any) { fmt.Fprintf(a.stderr, format+"\n", args...) }
	c, err := a.client()
	if err != nil {
		return err
	}

	var out io.Writer = a.stdout
	var file *outputFile
	var fileOut *redact.Writer
	if toFile {
		if resume {
			file, err = appendOutput(f.output, resumeCheck(r, format))
		} else {
			file, err = createOutput(f.output)
		}
		if err != nil {
			return err
		}
		defer file.abort()
		// A file gets what stdout would: the same rows, the key redacted.
		fileOut = redact.NewWriter(file, a.redactKeys...)
		out = fileOut
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	w := newRowWriter(bw, format, r.columns, !resume)
	w.escapeFormulas = f.escapeFormulas

	bar := a.newExportBar(r.name)
	ctx := withRequestCounter(cmd.Context(), bar)
	n, walkErr := w.writeAll(countRows(r.walk(ctx, c, p), bar))
	bar.done()
	if walkErr == nil {
		walkErr = w.close()
	}
	flushErr := bw.Flush()
	if fileOut != nil && flushErr == nil {
		flushErr = fileOut.Flush()
	}
	// The file replaces yesterday's only with something worth keeping:
	// the whole export, or (csv, jsonl) the rows received, which the
	// printed command resumes. A JSON array cut short is never kept.
	kept := false
	if file != nil && flushErr == nil && (walkErr == nil || resume || (n > 0 && format != "json")) {
		flushErr = file.commit()
		kept = flushErr == nil
	}
	if flushErr != nil {
		return fmt.Errorf("writing the export: %w", flushErr)
	}
	if walkErr == nil {
		return nil
	}
	if errors.Is(walkErr, mintlify.ErrInvalidInput) && n == 0 {
		return walkErr // refused before any request: nothing to resume
	}
	return a.exportStopped(r, f, p, format, n, toFile && !kept, walkErr)
}

// canResume reports whether running an export again can get further: the
// network, a 429, a 5xx, an ended context (Ctrl-C), the walk's request
// cap. A 400, 401, 403 or 404, a malformed answer or refused input would
// fail the same way again.
func canResume(err error) bool {
	var ae *mintlify.APIError
	if errors.As(err, &ae) {
		return ae.StatusCode == 429 || ae.StatusCode >= 500
	}
	return !errors.Is(err, mintlify.ErrMalformedResponse) && !errors.Is(err, mintlify.ErrInvalidInput)
}

// exportStopped explains an interrupted export and, where running it again
// can succeed, prints the command that appends the rest: the same export,
// dates pinned, from the resume point. unchanged is set when --output
// FILE was left as it was (nothing worth keeping was received): the
// command then runs the export again from the start.
func (a *app) exportStopped(r analyticsRoute, f *exportFlags, p exportParams, format string, rows int, unchanged bool, err error) error {
	var ae *mintlify.APIError
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		fmt.Fprintf(a.stderr, "mintctl: the server asks to wait %s before the next request\n", ae.RetryAfter)
	}
	kept := ""
	if unchanged {
		kept = fmt.Sprintf("; %s is unchanged", f.output)
	}
	if !canResume(err) {
		return fmt.Errorf("export stopped after %d rows%s (running it again cannot succeed until this is fixed): %w", rows, kept, err)
	}
	if r.paging == noPaging || format == "json" {
		if format == "json" && r.paging != noPaging {
			fmt.Fprintf(a.stderr, "mintctl: the JSON array is incomplete and cannot be resumed%s; export with --format jsonl or csv to resume\n", kept)
		}
		return fmt.Errorf("export stopped after %d rows: %w", rows, err)
	}
	at, ok := resumePoint(r, err)
	if !ok {
		return fmt.Errorf("export stopped after %d rows, with no point to resume from: %w", rows, err)
	}
	args := []string{"mintctl", "analytics", r.name, "--from", formatDate(p.from), "--to", formatDate(p.to), "--format", format}
	if p.limit > 0 {
		args = append(args, "--limit", strconv.Itoa(p.limit))
	}
	if p.source != "" {
		args = append(args, "--source", p.source)
	}
	if len(p.statuses) > 0 {
		args = append(args, "--status", strings.Join(p.statuses, ","))
	}
	if f.escapeFormulas {
		args = append(args, "--escape-formulas")
	}
	if a.quiet {
		args = append(args, "--quiet")
	}
	if a.project != "" {
		args = append(args, "--project", a.project)
	}
	if a.maxRetryWait != defaultMaxRetryWait {
		args = append(args, "--max-retry-wait", a.maxRetryWait.String())
	}
	what := "every row received was written. To append the rest, run:"
	if unchanged {
		what = fmt.Sprintf("nothing was written and %s is unchanged. To run it again, run:", f.output)
	} else {
		args = append(args, at...)
	}
	line := shellJoin(args)
	if f.output != "" && f.output != "-" {
		line = shellJoin(append(args, "--output", f.output))
	} else {
		line += " >> FILE  # the file this run's output went to"
	}
	fmt.Fprintf(a.stderr, "mintctl: export stopped after %d rows; %s\n  %s\n", rows, what, printable(line)) // a cursor is server text
	return &pickUpError{err: fmt.Errorf("export stopped: %w", err), again: line, printed: true}
}

// resumeCheck accepts an --output file to resume into when its first line
// is the route's in the format: the CSV header, or a JSON Lines row with
// the route's fields in their order; and when it ends with a whole line.
// An empty file is accepted for jsonl only (a run that got no row).
func resumeCheck(r analyticsRoute, format string) func(first []byte, empty, endsLine bool) error {
	names := make([]string, len(r.columns))
	for i, c := range r.columns {
		names[i] = c.name
	}
	return func(first []byte, empty, endsLine bool) error {
		switch {
		case empty && format == "jsonl":
			return nil
		case empty:
			return errors.New("it is empty, where a CSV export starts with its header")
		case !endsLine:
			return errors.New("its last line is cut short (no line break at the end)")
		case format == "csv":
			if want := strings.Join(names, ","); string(first) != want {
				return fmt.Errorf("its first line is not the %s CSV header %q", r.name, want)
			}
			return nil
		}
		got, err := jsonKeys(first)
		if err != nil || !slices.Equal(got, names) {
			return fmt.Errorf("its first line is not a %s JSON Lines row (fields %s)", r.name, strings.Join(names, ", "))
		}
		return nil
	}
}

// jsonKeys returns the keys of the JSON object line, in order.
func jsonKeys(line []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// shellJoin quotes args for a POSIX shell.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, s := range args {
		if s != "" && strings.IndexFunc(s, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r))
		}) < 0 {
			quoted[i] = s
			continue
		}
		quoted[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}
