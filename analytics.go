package mintlify

import (
	"context"
	"iter"
	"net/http"
	"strconv"
	"time"

	"github.com/google/go-querystring/query"
)

// maxVisitorsLimit is the largest page the visitors endpoint serves. The
// iterators use it by default: the analytics quota counts requests, not rows.
const maxVisitorsLimit = 250

// VisitorsParams selects the rows of the visitors export. The zero value
// asks for the server's default date range, from the first row.
type VisitorsParams struct {
	// DateFrom is the first instant counted; zero sends none. DateTo is the
	// exclusive end: visits at or after it are not counted; zero sends none.
	// A time at midnight in its location is sent as that calendar day
	// (YYYY-MM-DD), anything else as an RFC 3339 instant: pass t.UTC() to
	// send a local midnight as an exact instant.
	DateFrom, DateTo time.Time
	// Limit is the page size, 1 to 250. With 0, GetVisitors sends none (the
	// server answers 50 rows) and the iterators use 250, the fewest
	// requests of the hourly quota.
	Limit int
	// Offset is how many rows to skip. The iterators start there, which is
	// how an interrupted export resumes: see Visitors.
	Offset int
}

// visitorsQuery is the wire form of VisitorsParams: zero fields are not sent.
type visitorsQuery struct {
	DateFrom string `url:"dateFrom,omitempty"`
	DateTo   string `url:"dateTo,omitempty"`
	Limit    int    `url:"limit,omitempty"`
	Offset   int    `url:"offset,omitempty"`
}

// encode validates p as the API would and returns its query string.
func (p VisitorsParams) encode() (string, error) {
	if err := p.validate(); err != nil {
		return "", err
	}
	return p.queryString()
}

// validate rejects, before any request, what the API would reject.
func (p VisitorsParams) validate() error {
	switch {
	case p.Limit < 0 || p.Limit > maxVisitorsLimit:
		return invalidf("limit %d outside 1..%d (0 for the default)", p.Limit, maxVisitorsLimit)
	case p.Offset < 0:
		return invalidf("offset %d is negative", p.Offset)
	case !inRFC3339Range(p.DateFrom) || !inRFC3339Range(p.DateTo):
		return invalidf("dates %s..%s: years must be 0000 to 9999", p.DateFrom, p.DateTo)
	case !p.DateFrom.IsZero() && !p.DateTo.IsZero() && !asSent(p.DateFrom).Before(asSent(p.DateTo)):
		return invalidf("DateFrom %s is not before DateTo %s (DateTo is exclusive)",
			queryDate(p.DateFrom), queryDate(p.DateTo))
	}
	return nil
}

// queryString encodes p, which validate accepted, with go-querystring.
func (p VisitorsParams) queryString() (string, error) {
	v, err := query.Values(visitorsQuery{
		DateFrom: queryDate(p.DateFrom),
		DateTo:   queryDate(p.DateTo),
		Limit:    p.Limit,
		Offset:   p.Offset,
	})
	if err != nil {
		return "", invalidf("encoding query: %v", err)
	}
	return v.Encode(), nil
}

// atOffset returns the query of a page that only differs from q, encoded
// with Offset 0, by its offset. Encode sorts keys and "offset" sorts last,
// so this is exactly what encode would return, for a fraction of the cost
// (a walk sends hundreds of pages; encode allocates about 20 times).
func atOffset(q string, offset int) string {
	switch {
	case offset == 0:
		return q
	case q == "":
		return "offset=" + strconv.Itoa(offset)
	}
	return q + "&offset=" + strconv.Itoa(offset)
}

// inRFC3339Range reports whether t has four-digit years where it is and in
// UTC (queryDate may write it either way).
func inRFC3339Range(t time.Time) bool {
	local, utc := t.Year(), t.UTC().Year()
	return min(local, utc) >= 0 && max(local, utc) <= 9999
}

// queryDate writes t in the shortest form the API reads exactly: a calendar
// day for a midnight, else RFC 3339 (with fractions only when present).
func queryDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if isMidnight(t) {
		return t.Format(time.DateOnly)
	}
	if _, offset := t.Zone(); offset%60 != 0 {
		t = t.UTC() // RFC 3339 offsets have no seconds (old local mean times do)
	}
	return t.Format(time.RFC3339Nano)
}

func isMidnight(t time.Time) bool {
	h, m, s := t.Clock()
	return h == 0 && m == 0 && s == 0 && t.Nanosecond() == 0
}

// asSent is the instant the server reads from queryDate(t): a calendar day
// means its UTC midnight, whatever t's location. Validation compares these,
// so it rejects exactly what the server would.
func asSent(t time.Time) time.Time {
	if isMidnight(t) {
		y, m, d := t.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return t
}

// VisitorCounts are distinct visitors by kind of traffic. Total counts a
// visitor seen as both human and AI once, so it lies between max(Human, AI)
// and Human+AI.
type VisitorCounts struct {
	Human int `json:"human"`
	AI    int `json:"ai"`
	Total int `json:"total"`
}

// PathVisitors are the distinct visitors of one documentation path: one row
// of the export. Counts are as in VisitorCounts.
type PathVisitors struct {
	Path  string `json:"path"`
	Human int    `json:"human"`
	AI    int    `json:"ai"`
	Total int    `json:"total"`
}

// VisitorsPage is one page of the visitors export.
type VisitorsPage struct {
	// Totals are the site-wide counts for the whole date range, the same on
	// every page; they are not the sum of the rows.
	Totals   VisitorCounts  `json:"totals"`
	Visitors []PathVisitors `json:"visitors"`
	// HasMore says rows follow this page.
	HasMore bool `json:"hasMore"`
}

func (p *VisitorsPage) pageRows() []PathVisitors { return p.Visitors }
func (p *VisitorsPage) pageHasMore() bool        { return p.HasMore }

// GetVisitors reads one page of distinct visitors per path, with the
// site-wide totals (GET /v1/analytics/{projectId}/visitors). Each call is one
// request of the organization's 100 analytics requests an hour: to read
// everything use VisitorPages or Visitors, which ask for the largest pages.
func (c *Client) GetVisitors(ctx context.Context, p VisitorsParams) (*VisitorsPage, error) {
	q, err := p.encode()
	if err != nil {
		return nil, err
	}
	return call[VisitorsPage](ctx, c, http.MethodGet, c.visitorsPath, q, nil)
}

// VisitorPages walks the visitors export page by page from p.Offset (GET
// /v1/analytics/{projectId}/visitors, one request per page), with 250 rows a
// page unless p.Limit says otherwise. Use it rather than Visitors to read
// Totals, or to write pages in batches.
//
// A page is requested only when the loop asks for it: breaking out stops
// the walk. A failure (invalid p, an API error after retries, the context
// ending between pages, a server that says more follow but sends an empty
// page, or more than 10,000 pages) is yielded once as (nil, err) and ends
// the walk. To resume, start a new walk at p.Offset plus the rows of the
// pages received. Pages are as the server sent them; see Visitors for what
// happens when the data change during a walk.
func (c *Client) VisitorPages(ctx context.Context, p VisitorsParams) iter.Seq2[*VisitorsPage, error] {
	if p.Limit == 0 {
		p.Limit = maxVisitorsLimit
	}
	start := p.Offset
	err := p.validate()
	p.Offset = 0 // the walk adds each page's offset: see atOffset
	var q string
	if err == nil {
		q, err = p.queryString()
	}
	return walkPages(ctx, start, func(ctx context.Context, offset int) (*VisitorsPage, error) {
		if err != nil {
			return nil, err // invalid p: the walk yields it before any request
		}
		return call[VisitorsPage](ctx, c, http.MethodGet, c.visitorsPath, atOffset(q, offset), nil)
	})
}

// Visitors walks every row of the visitors export from p.Offset, in the
// server's order, fetching pages as VisitorPages does (250 rows a request
// unless p.Limit says otherwise), so breaking out of the loop stops the
// requests. A failure is yielded once as (zero, err) and ends the walk.
// Rows carry no site-wide totals: read them from VisitorPages.
//
// To resume an interrupted export, walk again with Offset set to the old
// p.Offset plus the number of rows the loop received.
//
// Offset pages are positions, not a snapshot: when visits arrive during a
// walk, rows move between two requests. A row that moves down past the
// walk's position is sent again; one that moves up past it is not sent at
// all. For an exact export, end the range in the past (DateTo today at the
// latest), where nothing changes. Visitors drops the repeats: it never
// yields a path again within 2,048 rows of yielding it, which covers every
// path that moved down fewer than 2,048 places during the walk. It keeps
// at most 4,096 paths for this, so its memory does not grow with the
// export. No client can bring back a row the server never sent. After a
// dropped repeat, the resume offset above is a little early: the new walk
// may repeat a row, but never skips one. Three pages in a row that hold
// nothing new end the walk with an error: that is a server or cache
// ignoring offset, and walking on would only spend the quota.
func (c *Client) Visitors(ctx context.Context, p VisitorsParams) iter.Seq2[PathVisitors, error] {
	return walkRows(c.VisitorPages(ctx, p), func(r PathVisitors) string { return r.Path })
}
