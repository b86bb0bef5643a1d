package mintlify

import (
	"context"
	"hash/maphash"
	"iter"
	"time"
)

// SearchesParams selects the search terms of the searches export.
type SearchesParams struct {
	// DateFrom is the first instant counted; zero sends none. DateTo is the
	// exclusive end; zero sends none. Dates are sent as in [VisitorsParams].
	DateFrom, DateTo time.Time
	// Limit is the page size, 1 to 100. With 0, GetSearches sends none (the
	// server answers 50 terms) and the iterators use 100.
	Limit int
	// Cursor is where to start: a page's NextCursor, or a [WalkError]'s
	// Cursor to resume a walk. "" starts from the first page.
	Cursor string
}

func (p SearchesParams) params() params {
	return params{from: p.DateFrom, to: p.DateTo, limit: p.Limit, at: position{cursor: p.Cursor}}
}

// SearchTerm is what readers searched for: one row of the export. It
// marshals as the API sends it: TopClickedPage "" as null, a zero
// LastSearchedAt (one the SDK could not read) as null, and a time read from
// the API as the API wrote it ("2025-01-02T03:04:05.000Z" stays so) while
// LastSearchedAt holds that time.
type SearchTerm struct {
	Query string // searchQuery
	// Hits is how many times the term was searched in the range.
	Hits int
	// CTR is the fraction of those searches followed by a click on a result.
	CTR float64
	// TopClickedPage is the result path clicked most, "" when none was.
	TopClickedPage string
	// LastSearchedAt is zero when the server sent a time it could not read.
	LastSearchedAt time.Time

	lastSearchedAtText string // the API's text of LastSearchedAt, when Go writes it otherwise
}

// MarshalJSON writes the term as the API does.
func (t SearchTerm) MarshalJSON() ([]byte, error) { return marshalWire(t.wire()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (t *SearchTerm) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, t, (*wireSearchTerm).term)
}

// SearchesPage is one page of the searches export, terms by hits
// descending. It marshals as the API sends it, NextCursor "" as null.
type SearchesPage struct {
	Searches []SearchTerm
	// TotalSearches counts every search event in the range (the sum of all
	// hits, not the number of terms), the same on every page.
	TotalSearches int
	// NextCursor leads to the next page; "" on the last.
	NextCursor string
}

// MarshalJSON writes the page as the API does.
func (p SearchesPage) MarshalJSON() ([]byte, error) {
	return marshalWire(wireSearchesPage{Rows: each(p.Searches, (*SearchTerm).wire), TotalSearches: count(p.TotalSearches), NextCursor: nullable(p.NextCursor)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *SearchesPage) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, p, func(w *wireSearchesPage) SearchesPage { return *w.page() })
}

type wireSearchesPage struct {
	Rows          list[wireSearchTerm, upTo100] `json:"searches"`
	TotalSearches jsonCount                     `json:"totalSearches"`
	NextCursor    jsonString                    `json:"nextCursor"`
}

type wireSearchTerm struct {
	Query          jsonString `json:"searchQuery"`
	Hits           jsonCount  `json:"hits"`
	CTR            jsonNumber `json:"ctr"`
	TopClickedPage jsonString `json:"topClickedPage"`
	LastSearchedAt jsonTime   `json:"lastSearchedAt"`
}

// check insists on every field; topClickedPage may be null.
func (w *wireSearchesPage) check() error {
	var c fieldCheck
	c.need(w.Rows != nil, "searches")
	for i := range w.Rows {
		r := &w.Rows[i]
		ok := r.Query.present() && r.Hits.set && r.CTR.set && r.TopClickedPage.set && r.LastSearchedAt.present()
		c.need(ok, "searches[].searchQuery, hits, ctr, topClickedPage, lastSearchedAt")
	}
	c.need(w.TotalSearches.set, "totalSearches")
	c.need(w.NextCursor.set, "nextCursor")
	return c.err
}

func (w *wireSearchesPage) page() *SearchesPage {
	return &SearchesPage{Searches: each(w.Rows, (*wireSearchTerm).term), TotalSearches: w.TotalSearches.n, NextCursor: w.NextCursor.s}
}

func (r *wireSearchTerm) term() SearchTerm {
	return SearchTerm{Query: r.Query.s, Hits: r.Hits.n, CTR: r.CTR.x, TopClickedPage: r.TopClickedPage.s, LastSearchedAt: r.LastSearchedAt.t,
		lastSearchedAtText: r.LastSearchedAt.raw}
}

func (t SearchTerm) wire() wireSearchTerm {
	return wireSearchTerm{Query: str(t.Query), Hits: count(t.Hits), CTR: number(t.CTR),
		TopClickedPage: nullable(t.TopClickedPage), LastSearchedAt: timeText(t.LastSearchedAt, t.lastSearchedAtText)}
}

var searchesRoute = &route[wireSearchesPage, SearchesPage, SearchTerm]{
	path:        "searches",
	maxLimit:    limitOf[upTo100](),
	cursorPaged: true,
	page:        (*wireSearchesPage).page,
	rows:        func(p *SearchesPage) *[]SearchTerm { return &p.Searches },
	// The route has no hasMore: a null (or empty) nextCursor ends it.
	next: func(p *SearchesPage) (string, bool) { return p.NextCursor, p.NextCursor != "" },
	key:  func(seed maphash.Seed, r SearchTerm) uint64 { return hashString(seed, r.Query) },
}

// GetSearches reads one page of search terms, by hits descending (GET
// /v1/analytics/{projectId}/searches), from p.Cursor. Each call is one
// request of the organization's 100 analytics requests an hour.
func (c *Client) GetSearches(ctx context.Context, p SearchesParams) (*SearchesPage, error) {
	return searchesRoute.get(ctx, c, p.params())
}

// SearchPages walks the searches export page by page from p.Cursor (GET
// /v1/analytics/{projectId}/searches, one request per page of 100 terms
// unless p.Limit says otherwise), following NextCursor until it is null.
//
// Cursor pages promise more than offset pages: the server pins a walk to
// the searches that existed when it began, so terms do not move between
// pages and none is repeated or skipped. The walk fetches lazily, yields a
// failure (or a guard against a misbehaving server) once as (nil,
// *[WalkError]) whose Cursor resumes it, and drops a term already yielded.
func (c *Client) SearchPages(ctx context.Context, p SearchesParams) iter.Seq2[*SearchesPage, error] {
	return searchesRoute.pages(ctx, c, p.params())
}

// Searches walks every search term from p.Cursor, fetching pages as
// [Client.SearchPages] does. A failure is yielded once as (zero,
// *[WalkError]): walk again with Cursor set to its Cursor to resume.
func (c *Client) Searches(ctx context.Context, p SearchesParams) iter.Seq2[SearchTerm, error] {
	return searchesRoute.all(ctx, c, p.params())
}
