package mintlify

import (
	"context"
	"iter"
	"time"
)

// ViewsParams selects the rows of the page-views export. The zero value
// asks for the server's default date range, from the first row.
type ViewsParams struct {
	// DateFrom is the first instant counted; zero sends none. DateTo is the
	// exclusive end; zero sends none. Dates are sent as in [VisitorsParams].
	DateFrom, DateTo time.Time
	// Limit is the page size, 1 to 250. With 0, GetViews sends none (the
	// server answers 50 rows) and the iterators use 250.
	Limit int
	// Offset is how many rows to skip; the iterators start there.
	Offset int
}

func (p ViewsParams) params() params {
	return params{from: p.DateFrom, to: p.DateTo, limit: p.Limit, at: position{offset: p.Offset}}
}

// ViewCounts are view events by kind of traffic: every view counts, unlike
// [VisitorCounts], so Total is Human + AI.
type ViewCounts struct {
	Human int `json:"human"`
	AI    int `json:"ai"`
	Total int `json:"total"`
}

// PathViews are the view events of one documentation path: one row of the
// export.
type PathViews struct {
	Path  string `json:"path"`
	Human int    `json:"human"`
	AI    int    `json:"ai"`
	Total int    `json:"total"`
}

// ViewsPage is one page of the views export.
type ViewsPage struct {
	// Totals are the site-wide counts for the whole date range, the same on
	// every page.
	Totals ViewCounts  `json:"totals"`
	Views  []PathViews `json:"views"`
	// HasMore says rows follow this page.
	HasMore bool `json:"hasMore"`
}

// wireViewsPage is the views answer as sent, checked by send.
type wireViewsPage struct {
	Totals  *wireCounts                   `json:"totals"`
	Rows    list[wirePathCounts, upTo250] `json:"views"`
	HasMore jsonBool                      `json:"hasMore"`
}

func (w *wireViewsPage) check() error {
	return checkTraffic(w.Totals, w.Rows, w.HasMore, "views")
}

func (r *wirePathCounts) views() PathViews { return PathViews(r.visitors()) } // the same fields

var viewsRoute = trafficRoute("views", func(w *wireViewsPage) *ViewsPage {
	return &ViewsPage{Totals: ViewCounts(w.Totals.counts()), Views: each(w.Rows, (*wirePathCounts).views), HasMore: w.HasMore.v}
},
	func(p *ViewsPage) *[]PathViews { return &p.Views },
	func(p *ViewsPage) bool { return p.HasMore })

// GetViews reads one page of view events per path, with the site-wide
// totals (GET /v1/analytics/{projectId}/views). Each call is one request
// of the organization's 100 analytics requests an hour.
func (c *Client) GetViews(ctx context.Context, p ViewsParams) (*ViewsPage, error) {
	return viewsRoute.get(ctx, c, p.params())
}

// ViewPages walks the views export page by page from p.Offset (GET
// /v1/analytics/{projectId}/views, one request per page of 250 rows unless
// p.Limit says otherwise). It fetches lazily, yields a failure once as
// (nil, *[WalkError]) whose Offset is where to resume, and drops rows
// already yielded, as [Client.VisitorPages] does.
func (c *Client) ViewPages(ctx context.Context, p ViewsParams) iter.Seq2[*ViewsPage, error] {
	return viewsRoute.pages(ctx, c, p.params())
}

// Views walks every row of the views export from p.Offset, fetching pages
// as [Client.ViewPages] does. A failure is yielded once as (zero,
// *[WalkError]): walk again with Offset set to its Offset to resume. As
// with [Client.Visitors], offset pages are positions, not a snapshot: a
// path already yielded is dropped (within 4,096 rows), and a row that moves
// up past the walk while views arrive is missed; end the range in the past
// for an exact export.
func (c *Client) Views(ctx context.Context, p ViewsParams) iter.Seq2[PathViews, error] {
	return viewsRoute.all(ctx, c, p.params())
}
