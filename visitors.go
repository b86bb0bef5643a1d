package mintlify

import (
	"context"
	"iter"
	"time"
)

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
	// how an interrupted export resumes: see [WalkError].
	Offset int
}

func (p VisitorsParams) params() params {
	return params{from: p.DateFrom, to: p.DateTo, limit: p.Limit, at: position{offset: p.Offset}}
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
// of the export. Counts are as in [VisitorCounts].
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

// wireVisitorsPage is the visitors answer as sent, checked by send.
type wireVisitorsPage struct {
	Totals  *wireCounts                   `json:"totals"`
	Rows    list[wirePathCounts, upTo250] `json:"visitors"`
	HasMore jsonBool                      `json:"hasMore"`
}

func (w *wireVisitorsPage) check() error {
	return checkTraffic(w.Totals, w.Rows, w.HasMore, "visitors")
}

func (w *wireCounts) counts() VisitorCounts {
	return VisitorCounts{Human: w.Human.n, AI: w.AI.n, Total: w.Total.n}
}

func (r *wirePathCounts) visitors() PathVisitors {
	return PathVisitors{Path: r.Path.s, Human: r.Human.n, AI: r.AI.n, Total: r.Total.n}
}

var visitorsRoute = trafficRoute("visitors", func(w *wireVisitorsPage) *VisitorsPage {
	return &VisitorsPage{Totals: w.Totals.counts(), Visitors: each(w.Rows, (*wirePathCounts).visitors), HasMore: w.HasMore.v}
},
	func(p *VisitorsPage) *[]PathVisitors { return &p.Visitors },
	func(p *VisitorsPage) bool { return p.HasMore })

// GetVisitors reads one page of distinct visitors per path, with the
// site-wide totals (GET /v1/analytics/{projectId}/visitors). Each call is one
// request of the organization's 100 analytics requests an hour: to read
// everything use [Client.VisitorPages] or [Client.Visitors], which ask for
// the largest pages.
func (c *Client) GetVisitors(ctx context.Context, p VisitorsParams) (*VisitorsPage, error) {
	return visitorsRoute.get(ctx, c, p.params())
}

// VisitorPages walks the visitors export page by page from p.Offset (GET
// /v1/analytics/{projectId}/visitors, one request per page), with 250 rows
// a page unless p.Limit says otherwise. Use it rather than [Client.Visitors]
// to read Totals, or to write pages in batches.
//
// A page is requested only when the loop asks for it: breaking out stops
// the walk. A failure, or a guard against a misbehaving server, is yielded
// once as (nil, *[WalkError]) and ends the walk; WalkError.Offset is where
// a new walk resumes. Rows already yielded in this walk are dropped from
// later pages. See [Client.Visitors] for what happens when the data change
// during a walk.
func (c *Client) VisitorPages(ctx context.Context, p VisitorsParams) iter.Seq2[*VisitorsPage, error] {
	return visitorsRoute.pages(ctx, c, p.params())
}

// Visitors walks every row of the visitors export from p.Offset, in the
// server's order, fetching pages as [Client.VisitorPages] does (250 rows a
// request unless p.Limit says otherwise), so breaking out of the loop stops
// the requests. A failure is yielded once as (zero, *[WalkError]) and ends
// the walk: walk again with Offset set to its Offset to resume. Rows carry
// no site-wide totals: read them from VisitorPages.
//
// Offset pages are positions, not a snapshot: when visits arrive during a
// walk, rows move between two requests. A row that moves down past the
// walk's position is sent again; one that moves up past it is not sent at
// all. For an exact export, end the range in the past (DateTo today at the
// latest), where nothing changes. The walk drops the repeats: it never
// yields a path again within 4,096 rows of yielding it, and keeps no more
// than that, so its memory does not grow with the export. No client can
// bring back a row the server never sent.
func (c *Client) Visitors(ctx context.Context, p VisitorsParams) iter.Seq2[PathVisitors, error] {
	return visitorsRoute.all(ctx, c, p.params())
}
