// Command export writes any analytics route as CSV or JSON Lines, with a
// count and, when it stops early, the flag that resumes it on stderr. With
// MINTLIFY_API_KEY unset it runs against the bundled mock server (and says
// so); a key that is set but empty is an error.
//
//	go run ./examples/export -route views -from 2025-01-01 -to 2025-02-01 > views.csv
//	go run ./examples/export -route searches -format jsonl > searches.jsonl
//	go run ./examples/export -route feedback -source contextual -status pending,in_progress
//	go run ./examples/export -route thread -thread 01HZY6J0V7Q4N2M8K3D5F9G1B0
//
// The iterators ask for each route's largest page, the fewest of the
// organization's 100 analytics requests an hour. If an export stops (quota,
// network, Ctrl-C), run it again with the printed -offset or -cursor and
// append: no CSV header is written on a resumed export.
package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
	"github.com/docsagent/mintlify-go/mockserver"
)

var routes = []string{"visitors", "views", "searches", "feedback", "feedback-by-page", "conversations", "thread", "caller-stats"}

// config is what the flags ask for.
type config struct {
	route, format     string
	from, to          time.Time
	limit, offset     int
	cursor, thread    string
	source            mintlify.FeedbackSource
	statuses          []mintlify.FeedbackStatus
	offsetSet, curSet bool
}

func main() {
	var cfg config
	demo.Main("export", 0, func(args []string, errOut io.Writer) (err error) {
		if cfg, err = parse(args, errOut); err != nil && !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(errOut, "export:", err)
		}
		return err
	}, func(ctx context.Context) error {
		c, closeMock, err := connect(os.Stderr)
		if err != nil {
			return err // a key set but empty, or refused by NewClient: ExitCode makes it 2
		}
		defer closeMock()
		return run(ctx, c, cfg, os.Stdout, os.Stderr)
	})
}

// parse reads the flags; -h and --help print the usage and send nothing.
func parse(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	demo.Usage(fs, "export -route ROUTE [-format csv|jsonl] [flags]",
		"Writes an analytics route on stdout. Routes: "+strings.Join(routes, ", ")+".")
	var cfg config
	var from, to, source, status string
	fs.StringVar(&cfg.route, "route", "", "the route to export (required)")
	fs.StringVar(&cfg.format, "format", "csv", "csv or jsonl")
	fs.StringVar(&from, "from", "", "first day or instant counted (YYYY-MM-DD or RFC 3339)")
	fs.StringVar(&to, "to", "", "end of the range, exclusive (YYYY-MM-DD or RFC 3339)")
	fs.IntVar(&cfg.limit, "limit", 0, "rows a request (default: the route's largest page)")
	fs.IntVar(&cfg.offset, "offset", 0, "visitors, views: resume at this offset")
	fs.StringVar(&cfg.cursor, "cursor", "", "searches, feedback, conversations: resume at this cursor")
	fs.StringVar(&source, "source", "", "feedback routes: code_snippet, contextual, agent or thumbs_only")
	fs.StringVar(&status, "status", "", "feedback routes: comma-separated statuses (pending, in_progress, resolved, dismissed)")
	fs.StringVar(&cfg.thread, "thread", "", "thread: the thread's ID (a conversation's id)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	fs.Visit(func(f *flag.Flag) {
		cfg.offsetSet = cfg.offsetSet || f.Name == "offset"
		cfg.curSet = cfg.curSet || f.Name == "cursor"
	})
	var err error
	if cfg.from, err = parseTime("-from", from); err != nil {
		return cfg, err
	}
	if cfg.to, err = parseTime("-to", to); err != nil {
		return cfg, err
	}
	cfg.source = mintlify.FeedbackSource(source)
	if status != "" {
		for s := range strings.SplitSeq(status, ",") {
			cfg.statuses = append(cfg.statuses, mintlify.FeedbackStatus(strings.TrimSpace(s)))
		}
	}
	offsetRoute := cfg.route == "visitors" || cfg.route == "views"
	cursorRoute := cfg.route == "searches" || cfg.route == "feedback" || cfg.route == "conversations"
	feedbackRoute := cfg.route == "feedback" || cfg.route == "feedback-by-page"
	switch {
	case !slices.Contains(routes, cfg.route):
		return cfg, fmt.Errorf("-route %q: want one of %s", cfg.route, strings.Join(routes, ", "))
	case cfg.format != "csv" && cfg.format != "jsonl":
		return cfg, fmt.Errorf("-format %q: want csv or jsonl", cfg.format)
	case cfg.offsetSet && !offsetRoute:
		return cfg, fmt.Errorf("-offset applies to visitors and views only")
	case cfg.curSet && !cursorRoute:
		return cfg, fmt.Errorf("-cursor applies to searches, feedback and conversations only")
	case (source != "" || status != "") && !feedbackRoute:
		return cfg, fmt.Errorf("-source and -status apply to the feedback routes only")
	case (cfg.thread != "") != (cfg.route == "thread"):
		return cfg, fmt.Errorf("-thread ID goes with -route thread, and only there")
	}
	return cfg, nil
}

func parseTime(name, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return t, fmt.Errorf("%s %q: want YYYY-MM-DD or RFC 3339", name, s)
	}
	return t, nil
}

// connect uses the real API when MINTLIFY_API_KEY is set, and starts the
// bundled mock server, seeded with every kind of event, only when it is
// unset.
func connect(stderr io.Writer) (*mintlify.Client, func(), error) {
	if !demo.OnMock() {
		if demo.EmptyKey() {
			return nil, nil, demo.ErrEmptyKey
		}
		c, err := mintlify.NewClient()
		return c, func() {}, err
	}
	mock := mockserver.New(mockserver.WithSeed(20_000))
	fmt.Fprintf(stderr, "%s is unset: using the bundled mock server at %s\n", mintlify.EnvAPIKey, mock.URL())
	c, err := mintlify.NewClient(mintlify.WithBaseURL(mock.URL()),
		mintlify.WithAPIKey(mock.APIKey()), mintlify.WithProjectID(mock.ProjectID()))
	if err != nil {
		mock.Close()
		return nil, nil, err
	}
	return c, mock.Close, nil
}

// run exports cfg's route to stdout; the count and any resume hint go to
// stderr.
func run(ctx context.Context, c *mintlify.Client, cfg config, stdout, stderr io.Writer) error {
	out := newWriter(cfg.format, stdout, !cfg.offsetSet && !cfg.curSet)
	rows, err := exportRoute(ctx, c, cfg, out)
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	fmt.Fprintf(stderr, "%d rows\n", rows)
	if we := (*mintlify.WalkError)(nil); errors.As(err, &we) {
		hint := fmt.Sprintf("-offset %d", we.Offset)
		if cfg.route != "visitors" && cfg.route != "views" {
			hint = fmt.Sprintf("-cursor %q", we.Cursor)
			if we.Cursor == "" {
				hint = "no -cursor (from the start)"
			}
		}
		fmt.Fprintf(stderr, "stopped early: run again with %s to append the rest\n", hint)
	}
	return err
}

func exportRoute(ctx context.Context, c *mintlify.Client, cfg config, out *writer) (int, error) {
	itoa, tm := strconv.Itoa, func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format(time.RFC3339Nano)
	}
	switch cfg.route {
	case "visitors":
		p := mintlify.VisitorsParams{DateFrom: cfg.from, DateTo: cfg.to, Limit: cfg.limit, Offset: cfg.offset}
		return write(out, c.Visitors(ctx, p), []string{"path", "human", "ai", "total"},
			func(r mintlify.PathVisitors) []string {
				return []string{r.Path, itoa(r.Human), itoa(r.AI), itoa(r.Total)}
			})
	case "views":
		p := mintlify.ViewsParams{DateFrom: cfg.from, DateTo: cfg.to, Limit: cfg.limit, Offset: cfg.offset}
		return write(out, c.Views(ctx, p), []string{"path", "human", "ai", "total"},
			func(r mintlify.PathViews) []string { return []string{r.Path, itoa(r.Human), itoa(r.AI), itoa(r.Total)} })
	case "searches":
		p := mintlify.SearchesParams{DateFrom: cfg.from, DateTo: cfg.to, Limit: cfg.limit, Cursor: cfg.cursor}
		return write(out, c.Searches(ctx, p), []string{"searchQuery", "hits", "ctr", "topClickedPage", "lastSearchedAt"},
			func(r mintlify.SearchTerm) []string {
				return []string{r.Query, itoa(r.Hits), strconv.FormatFloat(r.CTR, 'f', -1, 64), r.TopClickedPage, tm(r.LastSearchedAt)}
			})
	case "feedback":
		p := mintlify.FeedbackParams{DateFrom: cfg.from, DateTo: cfg.to, Source: cfg.source, Statuses: cfg.statuses,
			Limit: cfg.limit, Cursor: cfg.cursor}
		return write(out, c.Feedback(ctx, p),
			[]string{"id", "path", "comment", "createdAt", "source", "status", "helpful", "contact", "code", "filename", "lang"},
			func(r mintlify.Feedback) []string {
				helpful := ""
				if r.Helpful != nil {
					helpful = strconv.FormatBool(*r.Helpful)
				}
				return []string{r.ID, r.Path, r.Comment, tm(r.CreatedAt), string(r.Source), string(r.Status),
					helpful, r.Contact, r.Code, r.Filename, r.Lang}
			})
	case "feedback-by-page":
		p := mintlify.FeedbackByPageParams{DateFrom: cfg.from, DateTo: cfg.to, Source: cfg.source, Statuses: cfg.statuses, Limit: cfg.limit}
		report, err := c.GetFeedbackByPage(ctx, p)
		if err != nil {
			return 0, err
		}
		return write(out, slicePairs(report.Pages), []string{"path", "thumbsUp", "thumbsDown", "code", "total"},
			func(r mintlify.PageFeedback) []string {
				return []string{r.Path, itoa(r.ThumbsUp), itoa(r.ThumbsDown), itoa(r.Code), itoa(r.Total)}
			})
	case "conversations":
		p := mintlify.ConversationsParams{DateFrom: cfg.from, DateTo: cfg.to, Limit: cfg.limit, Cursor: cfg.cursor}
		return write(out, c.Conversations(ctx, p),
			[]string{"id", "timestamp", "query", "response", "responseType", "sources", "resolutionStatus", "queryCategory", "pageUrl"},
			func(r mintlify.Conversation) []string {
				var urls []string
				for _, s := range r.Sources {
					urls = append(urls, s.URL)
				}
				return []string{r.ID, tm(r.Timestamp), r.Query, r.Response, r.ResponseType, strings.Join(urls, " "),
					r.ResolutionStatus, r.QueryCategory, r.PageURL}
			})
	case "thread":
		th, err := c.GetThread(ctx, cfg.thread)
		if err != nil {
			return 0, err
		}
		return write(out, slicePairs(th.Messages), []string{"id", "role", "content", "createdAt"},
			func(m mintlify.ThreadMessage) []string { return []string{m.ID, m.Role, m.Content, tm(m.CreatedAt)} })
	default: // caller-stats
		s, err := c.GetCallerStats(ctx, mintlify.CallerStatsParams{DateFrom: cfg.from, DateTo: cfg.to})
		if err != nil {
			return 0, err
		}
		return write(out, slicePairs([]mintlify.CallerStats{*s}), []string{"web", "api", "other", "total"},
			func(s mintlify.CallerStats) []string {
				return []string{itoa(s.Web), itoa(s.API), itoa(s.Other), itoa(s.Total)}
			})
	}
}

// slicePairs gives a slice the shape of a walk.
func slicePairs[R any](rows []R) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		for _, r := range rows {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// write writes every row of seq: CSV columns from fields, JSON Lines from
// the row's own JSON form (the vendor's field names).
func write[R any](out *writer, seq iter.Seq2[R, error], header []string, fields func(R) []string) (int, error) {
	n := 0
	for row, err := range seq {
		if err != nil {
			return n, err
		}
		if err := out.write(header, row, func() []string { return fields(row) }); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// writer writes rows as CSV (with a header unless resuming) or JSON Lines.
type writer struct {
	csv        *csv.Writer
	json       *json.Encoder
	wantHeader bool
}

func newWriter(format string, w io.Writer, header bool) *writer {
	if format == "jsonl" {
		return &writer{json: json.NewEncoder(w)}
	}
	return &writer{csv: csv.NewWriter(w), wantHeader: header}
}

func (w *writer) write(header []string, row any, fields func() []string) error {
	if w.json != nil {
		return w.json.Encode(row)
	}
	if w.wantHeader {
		w.wantHeader = false
		if err := w.csv.Write(header); err != nil {
			return err
		}
	}
	return w.csv.Write(fields())
}

func (w *writer) flush() error {
	if w.csv == nil {
		return nil
	}
	w.csv.Flush()
	return w.csv.Error()
}
