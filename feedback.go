package mintlify

import (
	"context"
	"encoding/json"
	"hash/maphash"
	"iter"
	"slices"
	"strings"
	"time"
)

// FeedbackSource is where a feedback entry was given.
type FeedbackSource string

// The feedback sources. Entries of each carry different fields: see
// [Feedback]. An entry may carry a source the vendor added since, a
// well-formed token (lower-case letters, digits, _ and -, at most 64
// bytes), kept as sent with the fields every source has; any other value
// is a malformed answer.
const (
	FeedbackCodeSnippet FeedbackSource = "code_snippet" // on a code block
	FeedbackContextual  FeedbackSource = "contextual"   // on a page, with a thumb
	FeedbackAgent       FeedbackSource = "agent"        // sent by a third-party AI agent
	FeedbackThumbsOnly  FeedbackSource = "thumbs_only"  // a vote with no comment form
)

// FeedbackStatus is where a feedback entry stands in review.
type FeedbackStatus string

// The review statuses of feedback entries. An entry may carry a status the
// vendor added since, a well-formed token as for [FeedbackSource], kept as
// sent; any other value is a malformed answer.
const (
	FeedbackPending    FeedbackStatus = "pending"
	FeedbackInProgress FeedbackStatus = "in_progress"
	FeedbackResolved   FeedbackStatus = "resolved"
	FeedbackDismissed  FeedbackStatus = "dismissed"
)

var (
	feedbackSources  = []FeedbackSource{FeedbackCodeSnippet, FeedbackContextual, FeedbackAgent, FeedbackThumbsOnly}
	feedbackStatuses = []FeedbackStatus{FeedbackPending, FeedbackInProgress, FeedbackResolved, FeedbackDismissed}
)

// encodeFilters validates the feedback filters and returns the status
// query: the statuses, comma-separated. The vendor documents no values for
// the status query: the SDK takes those of the entries' status field.
func encodeFilters(source FeedbackSource, statuses []FeedbackStatus) (string, error) {
	if source != "" && !slices.Contains(feedbackSources, source) {
		return "", invalidf("unknown feedback source %q (want one of code_snippet, contextual, agent, thumbs_only)", source)
	}
	names := make([]string, len(statuses))
	for i, s := range statuses {
		if !slices.Contains(feedbackStatuses, s) {
			return "", invalidf("unknown feedback status %q (want pending, in_progress, resolved or dismissed)", s)
		}
		names[i] = string(s)
	}
	return strings.Join(names, ","), nil
}

// FeedbackParams selects the entries of the feedback export.
type FeedbackParams struct {
	// DateFrom is the first instant counted; zero sends none. DateTo is the
	// exclusive end; zero sends none. Dates are sent as in [VisitorsParams].
	DateFrom, DateTo time.Time
	// Source keeps the entries of one source; "" keeps all.
	Source FeedbackSource
	// Statuses keeps the entries in any of these statuses; none keeps all.
	Statuses []FeedbackStatus
	// Limit is the page size, 1 to 100. With 0, GetFeedback sends none (the
	// server answers 50 entries) and the iterators use 100.
	Limit int
	// Cursor is where to start: a page's NextCursor, or a [WalkError]'s
	// Cursor to resume a walk. "" starts from the first page.
	Cursor string
}

func (p FeedbackParams) params() params {
	return params{from: p.DateFrom, to: p.DateTo, limit: p.Limit, at: position{cursor: p.Cursor}, source: p.Source, statuses: p.Statuses}
}

// Feedback is one feedback entry. Fields a source does not have stay zero,
// whatever the server sends in them: Helpful and Contact belong to
// contextual entries, Code, Filename and Lang to code-snippet entries.
//
// It marshals as the API sends it: the fields of its own source only, the
// nullable ones (Comment, CreatedAt, Contact, Filename, Lang) as null when
// zero, and a time read from the API as the API wrote it
// ("2025-01-02T03:04:05.000Z" stays so) while CreatedAt holds that time.
type Feedback struct {
	ID      string
	Path    string
	Comment string // "" when the server sends null
	// CreatedAt is zero when the server sends null or a time it cannot read.
	CreatedAt time.Time
	Source    FeedbackSource
	Status    FeedbackStatus
	// Helpful is the reader's thumb on a contextual entry, nil otherwise.
	Helpful  *bool
	Contact  string
	Code     string
	Filename string
	Lang     string

	createdAtText string // the API's text of CreatedAt, when Go writes it otherwise
}

// MarshalJSON writes the entry as the API does.
func (f Feedback) MarshalJSON() ([]byte, error) { return marshalWire(f.wire()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Feedback) UnmarshalJSON(b []byte) error { return unmarshalWire(b, f, (*wireFeedback).entry) }

// FeedbackPage is one page of the feedback export. It marshals as the API
// sends it, NextCursor "" as null.
type FeedbackPage struct {
	Feedback []Feedback
	// NextCursor leads to the next page when HasMore is set.
	NextCursor string
	HasMore    bool
}

// MarshalJSON writes the page as the API does.
func (p FeedbackPage) MarshalJSON() ([]byte, error) {
	return marshalWire(wireFeedbackPage{Rows: each(p.Feedback, (*Feedback).wire), NextCursor: nullable(p.NextCursor), HasMore: boolean(p.HasMore)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *FeedbackPage) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, p, func(w *wireFeedbackPage) FeedbackPage { return *w.page() })
}

type wireFeedbackPage struct {
	Rows       list[wireFeedback, upTo100] `json:"feedback"`
	NextCursor jsonString                  `json:"nextCursor"`
	HasMore    jsonBool                    `json:"hasMore"`
}

// wireFeedback keeps the fields of one source or another raw: they are
// read only for the entry's own source, and ignored whatever their type
// otherwise.
type wireFeedback struct {
	ID        jsonString      `json:"id"`
	Path      jsonString      `json:"path"`
	Comment   jsonString      `json:"comment"`
	CreatedAt jsonTime        `json:"createdAt"`
	Source    jsonString      `json:"source"`
	Status    jsonString      `json:"status"`
	Helpful   json.RawMessage `json:"helpful,omitempty"`
	Contact   json.RawMessage `json:"contact,omitempty"`
	Code      json.RawMessage `json:"code,omitempty"`
	Filename  json.RawMessage `json:"filename,omitempty"`
	Lang      json.RawMessage `json:"lang,omitempty"`
}

func (w *wireFeedbackPage) check() error {
	var c fieldCheck
	c.need(w.Rows != nil, "feedback")
	c.need(w.NextCursor.set, "nextCursor")
	c.need(w.HasMore.set, "hasMore")
	for i := range w.Rows {
		r := &w.Rows[i]
		// An empty ID identifies nothing: the walk's repeat filter would
		// drop every entry after the first as the same one.
		c.need(r.ID.present() && r.ID.s != "", "feedback[].id")
		c.need(r.Path.present(), "feedback[].path")
		c.need(r.Comment.set, "feedback[].comment")
		c.need(r.CreatedAt.set, "feedback[].createdAt")
		c.need(r.Source.present(), "feedback[].source")
		c.need(r.Status.present(), "feedback[].status")
		c.token("feedback[].source", r.Source)
		c.token("feedback[].status", r.Status)
	}
	return c.err
}

func (r *wireFeedback) entry() Feedback {
	f := Feedback{
		ID:            r.ID.s,
		Path:          r.Path.s,
		Comment:       r.Comment.s,
		CreatedAt:     r.CreatedAt.t,
		Source:        FeedbackSource(r.Source.s),
		createdAtText: r.CreatedAt.raw,
		Status:        FeedbackStatus(r.Status.s),
	}
	switch f.Source {
	case FeedbackContextual:
		var helpful bool
		if json.Unmarshal(r.Helpful, &helpful) == nil && len(r.Helpful) > 0 && r.Helpful[0] != 'n' {
			f.Helpful = &helpful
		}
		f.Contact = rawString(r.Contact)
	case FeedbackCodeSnippet:
		f.Code, f.Filename, f.Lang = rawString(r.Code), rawString(r.Filename), rawString(r.Lang)
	}
	return f
}

func (f Feedback) wire() wireFeedback {
	w := wireFeedback{ID: str(f.ID), Path: str(f.Path), Comment: nullable(f.Comment), CreatedAt: timeText(f.CreatedAt, f.createdAtText),
		Source: str(string(f.Source)), Status: str(string(f.Status))}
	switch f.Source {
	case FeedbackContextual:
		if f.Helpful != nil {
			w.Helpful = rawJSON(boolean(*f.Helpful))
		}
		w.Contact = rawJSON(nullable(f.Contact))
	case FeedbackCodeSnippet:
		w.Code, w.Filename, w.Lang = rawJSON(str(f.Code)), rawJSON(nullable(f.Filename)), rawJSON(nullable(f.Lang))
	}
	return w
}

func (w *wireFeedbackPage) page() *FeedbackPage {
	return &FeedbackPage{Feedback: each(w.Rows, (*wireFeedback).entry), NextCursor: w.NextCursor.s, HasMore: w.HasMore.v}
}

// rawString is raw's string, "" when raw is absent, null or not a string.
func rawString(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

var feedbackRoute = &route[wireFeedbackPage, FeedbackPage, Feedback]{
	path:        "feedback",
	maxLimit:    limitOf[upTo100](),
	cursorPaged: true,
	page:        (*wireFeedbackPage).page,
	rows:        func(p *FeedbackPage) *[]Feedback { return &p.Feedback },
	next:        func(p *FeedbackPage) (string, bool) { return p.NextCursor, p.HasMore },
	key:         func(seed maphash.Seed, r Feedback) uint64 { return hashString(seed, r.ID) },
}

// GetFeedback reads one page of feedback entries (GET
// /v1/analytics/{projectId}/feedback) from p.Cursor. Each call is one
// request of the organization's 100 analytics requests an hour.
func (c *Client) GetFeedback(ctx context.Context, p FeedbackParams) (*FeedbackPage, error) {
	return feedbackRoute.get(ctx, c, p.params())
}

// FeedbackPages walks the feedback export page by page from p.Cursor (GET
// /v1/analytics/{projectId}/feedback, one request per page of 100 entries
// unless p.Limit says otherwise) while HasMore is set. Entries do not
// change once given, and the cursor is a position among them, so a walk
// neither repeats nor skips one.
//
// The walk fetches lazily, yields a failure (or a guard against a
// misbehaving server) once as (nil, *[WalkError]) whose Cursor resumes it,
// and drops an entry already yielded (same ID).
func (c *Client) FeedbackPages(ctx context.Context, p FeedbackParams) iter.Seq2[*FeedbackPage, error] {
	return feedbackRoute.pages(ctx, c, p.params())
}

// Feedback walks every feedback entry from p.Cursor, fetching pages as
// [Client.FeedbackPages] does. A failure is yielded once as (zero,
// *[WalkError]): walk again with Cursor set to its Cursor to resume.
func (c *Client) Feedback(ctx context.Context, p FeedbackParams) iter.Seq2[Feedback, error] {
	return feedbackRoute.all(ctx, c, p.params())
}

// FeedbackByPageParams selects the rows of the feedback-by-page report.
type FeedbackByPageParams struct {
	// DateFrom is the first instant counted; zero sends none. DateTo is the
	// exclusive end; zero sends none. Dates are sent as in [VisitorsParams].
	DateFrom, DateTo time.Time
	// Source and Statuses filter the entries counted, as in [FeedbackParams].
	Source   FeedbackSource
	Statuses []FeedbackStatus
	// Limit is how many paths to return, 1 to 100; 0 sends none (the
	// server answers 10).
	Limit int
}

// PageFeedback counts the feedback entries of one documentation path.
type PageFeedback struct {
	Path string `json:"path"`
	// ThumbsUp and ThumbsDown count contextual entries by their thumb.
	ThumbsUp   int `json:"thumbsUp"`
	ThumbsDown int `json:"thumbsDown"`
	// Code counts code-snippet entries.
	Code  int `json:"code"`
	Total int `json:"total"`
}

// FeedbackByPage is the feedback-by-page report.
type FeedbackByPage struct {
	Pages []PageFeedback `json:"feedback"`
	// HasMore says more paths have feedback than Limit allowed. The route
	// has no offset or cursor: ask for a larger Limit to see them.
	HasMore bool `json:"hasMore"`
}

type wireFeedbackByPage struct {
	Rows    list[wirePageFeedback, upTo100] `json:"feedback"`
	HasMore jsonBool                        `json:"hasMore"`
}

type wirePageFeedback struct {
	Path       jsonString `json:"path"`
	ThumbsUp   jsonCount  `json:"thumbsUp"`
	ThumbsDown jsonCount  `json:"thumbsDown"`
	Code       jsonCount  `json:"code"`
	Total      jsonCount  `json:"total"`
}

func (w *wireFeedbackByPage) check() error {
	var c fieldCheck
	c.need(w.Rows != nil, "feedback")
	c.need(w.HasMore.set, "hasMore")
	for i := range w.Rows {
		r := &w.Rows[i]
		ok := r.Path.present() && r.ThumbsUp.set && r.ThumbsDown.set && r.Code.set && r.Total.set
		c.need(ok, "feedback[].path, thumbsUp, thumbsDown, code, total")
	}
	return c.err
}

func (w *wireFeedbackByPage) report() *FeedbackByPage {
	return &FeedbackByPage{HasMore: w.HasMore.v, Pages: each(w.Rows, func(r *wirePageFeedback) PageFeedback {
		return PageFeedback{Path: r.Path.s, ThumbsUp: r.ThumbsUp.n, ThumbsDown: r.ThumbsDown.n, Code: r.Code.n, Total: r.Total.n}
	})}
}

var feedbackByPageRoute = &route[wireFeedbackByPage, FeedbackByPage, PageFeedback]{
	path:     "feedback/by-page",
	maxLimit: limitOf[upTo100](),
	page:     (*wireFeedbackByPage).report,
}

// GetFeedbackByPage reads feedback counts per documentation path (GET
// /v1/analytics/{projectId}/feedback/by-page): one request of the
// organization's 100 analytics requests an hour.
func (c *Client) GetFeedbackByPage(ctx context.Context, p FeedbackByPageParams) (*FeedbackByPage, error) {
	return feedbackByPageRoute.get(ctx, c, params{from: p.DateFrom, to: p.DateTo, limit: p.Limit, source: p.Source, statuses: p.Statuses})
}
