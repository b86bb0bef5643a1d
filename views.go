package mintlify

import (
	"cmp"
	"context"
	"hash/maphash"
	"iter"
	"time"
)

// maxViewsLimit is the largest page the views route serves.
const maxViewsLimit = 250

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

func (p ViewsParams) encode() (string, error) {
	if err := validateOffset(p.Offset); err != nil {
		return "", err
	}
	return encodeQuery(p.DateFrom, p.DateTo, p.Limit, maxViewsLimit, "", nil)
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
	Totals  wireCounts `json:"totals"`
	Rows    viewRows   `json:"views"`
	HasMore jsonBool   `json:"hasMore"`
}

func (w *wireViewsPage) check() error {
	return checkTraffic(w.Totals, w.Rows != nil, w.HasMore, "views")
}

type viewRows []PathViews

func (r *viewRows) UnmarshalJSON(b []byte) error {
	return decodeRows((*[]PathViews)(r), b, func(r *PathViews, b []byte) error {
		return decodePathCounts((*PathVisitors)(r), b) // the same fields
	})
}

var viewsPager = &pager[wireViewsPage, ViewsPage, PathViews]{
	path: analyticsPath + "views",
	page: func(w *wireViewsPage) *ViewsPage {
		t := w.Totals
		return &ViewsPage{Totals: ViewCounts{t.Human.n, t.AI.n, t.Total.n}, Views: w.Rows, HasMore: w.HasMore.v}
	},
	rows: func(p *ViewsPage) *[]PathViews { return &p.Views },
	next: func(p *ViewsPage) (string, bool) { return "", p.HasMore },
	key:  func(seed maphash.Seed, r PathViews) uint64 { return hashString(seed, r.Path) },
}

// GetViews reads one page of view events per path, with the site-wide
// totals (GET /v1/analytics/{projectId}/views). Each call is one request
// of the organization's 100 analytics requests an hour.
func (c *Client) GetViews(ctx context.Context, p ViewsParams) (*ViewsPage, error) {
	q, err := p.encode()
	if err != nil {
		return nil, err
	}
	return viewsPager.get(ctx, c, q, position{offset: p.Offset})
}

// ViewPages walks the views export page by page from p.Offset (GET
// /v1/analytics/{projectId}/views, one request per page of 250 rows unless
// p.Limit says otherwise). It fetches lazily, yields a failure once as
// (nil, *[WalkError]) whose Offset is where to resume, drops rows already
// yielded, and stops a server that misbehaves as [Client.VisitorPages]
// does: at once for an empty page that says more follow, after 10 pages in
// a row with no new row, and at 1,000 requests ([WithMaxWalkRequests]).
func (c *Client) ViewPages(ctx context.Context, p ViewsParams) iter.Seq2[*ViewsPage, error] {
	p.Limit = cmp.Or(p.Limit, maxViewsLimit)
	q, err := p.encode()
	return viewsPager.pages(ctx, c, q, position{offset: p.Offset}, err)
}

// Views walks every row of the views export from p.Offset, fetching pages
// as [Client.ViewPages] does. A failure is yielded once as (zero,
// *[WalkError]): walk again with Offset set to its Offset to resume. As
// with [Client.Visitors], offset pages are positions, not a snapshot: a
// path already yielded is dropped (within 4,096 rows), and a row that moves
// up past the walk while views arrive is missed; end the range in the past
// for an exact export.
func (c *Client) Views(ctx context.Context, p ViewsParams) iter.Seq2[PathViews, error] {
	return rowsOf(c.ViewPages(ctx, p), viewsPager.rows)
}
