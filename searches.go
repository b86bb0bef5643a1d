package mintlify

import (
	"cmp"
	"context"
	"errors"
	"hash/maphash"
	"iter"
	"time"
)

// maxSearchesLimit is the largest page the searches route serves.
const maxSearchesLimit = 100

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

func (p SearchesParams) encode() (string, error) {
	return encodeQuery(p.DateFrom, p.DateTo, p.Limit, maxSearchesLimit, "", nil)
}

// SearchTerm is what readers searched for: one row of the export.
type SearchTerm struct {
	Query string `json:"searchQuery"`
	// Hits is how many times the term was searched in the range.
	Hits int `json:"hits"`
	// CTR is the fraction of those searches followed by a click on a result.
	CTR float64 `json:"ctr"`
	// TopClickedPage is the result path clicked most, "" when none was.
	TopClickedPage string `json:"topClickedPage"`
	// LastSearchedAt is zero when the server sent a time it could not read.
	LastSearchedAt time.Time `json:"lastSearchedAt"`
}

// SearchesPage is one page of the searches export, terms by hits
// descending.
type SearchesPage struct {
	Searches []SearchTerm `json:"searches"`
	// TotalSearches counts every search event in the range (the sum of all
	// hits, not the number of terms), the same on every page.
	TotalSearches int `json:"totalSearches"`
	// NextCursor leads to the next page; "" on the last.
	NextCursor string `json:"nextCursor"`
}

type wireSearchesPage struct {
	Rows          searchRows `json:"searches"`
	TotalSearches jsonCount  `json:"totalSearches"`
	NextCursor    jsonString `json:"nextCursor"`
}

type searchRows []SearchTerm

func (r *searchRows) UnmarshalJSON(b []byte) error {
	return decodeRows((*[]SearchTerm)(r), b, decodeSearchTerm)
}

// decodeSearchTerm reads a row of the searches route; every field is
// required, topClickedPage may be null.
func decodeSearchTerm(r *SearchTerm, b []byte) error {
	var query, top jsonString
	var hits jsonCount
	var ctr jsonNumber
	var last jsonTime
	m := members{b: b}
	for m.next() {
		switch string(m.key) {
		case "searchQuery":
			m.err = query.UnmarshalJSON(m.value)
		case "hits":
			m.err = hits.UnmarshalJSON(m.value)
		case "ctr":
			m.err = ctr.UnmarshalJSON(m.value)
		case "topClickedPage":
			m.err = top.UnmarshalJSON(m.value)
		case "lastSearchedAt":
			m.err = last.UnmarshalJSON(m.value)
		}
	}
	if m.err != nil {
		return m.err
	}
	if !query.present() || !hits.set || !ctr.set || !top.set || !last.present() {
		return errors.New(`a search lacks one of "searchQuery", "hits", "ctr", "topClickedPage", "lastSearchedAt"`)
	}
	*r = SearchTerm{Query: query.s, Hits: hits.n, CTR: ctr.x, TopClickedPage: top.s, LastSearchedAt: last.t}
	return nil
}

func (w *wireSearchesPage) check() error {
	var c fieldCheck
	c.need(w.Rows != nil, "searches")
	c.need(w.TotalSearches.set, "totalSearches")
	c.nullable(w.NextCursor, "nextCursor")
	return c.err
}

var searchesPager = &pager[wireSearchesPage, SearchesPage, SearchTerm]{
	path:        analyticsPath + "searches",
	cursorPaged: true,
	page: func(w *wireSearchesPage) *SearchesPage {
		return &SearchesPage{Searches: w.Rows, TotalSearches: w.TotalSearches.n, NextCursor: w.NextCursor.s}
	},
	rows: func(p *SearchesPage) *[]SearchTerm { return &p.Searches },
	// The route has no hasMore: a null (or empty) nextCursor ends it.
	next: func(p *SearchesPage) (string, bool) { return p.NextCursor, p.NextCursor != "" },
	key:  func(seed maphash.Seed, r SearchTerm) uint64 { return hashString(seed, r.Query) },
}

// GetSearches reads one page of search terms, by hits descending (GET
// /v1/analytics/{projectId}/searches), from p.Cursor. Each call is one
// request of the organization's 100 analytics requests an hour.
func (c *Client) GetSearches(ctx context.Context, p SearchesParams) (*SearchesPage, error) {
	q, err := p.encode()
	if err != nil {
		return nil, err
	}
	return searchesPager.get(ctx, c, q, position{cursor: p.Cursor})
}

// SearchPages walks the searches export page by page from p.Cursor (GET
// /v1/analytics/{projectId}/searches, one request per page of 100 terms
// unless p.Limit says otherwise), following NextCursor until it is null.
//
// Cursor pages promise more than offset pages: the server pins a walk to
// the searches that existed when it began, so terms do not move between
// pages and none is repeated or skipped. The walk fetches lazily and yields
// a failure once as (nil, *[WalkError]) whose Cursor resumes it. Guards
// against a misbehaving server: a cursor the walk already followed ends it
// with no further request, as do 10 pages in a row with no new term (after
// the 10th) and 1,000 requests ([WithMaxWalkRequests]); a term already
// yielded is dropped from its page.
func (c *Client) SearchPages(ctx context.Context, p SearchesParams) iter.Seq2[*SearchesPage, error] {
	p.Limit = cmp.Or(p.Limit, maxSearchesLimit)
	q, err := p.encode()
	return searchesPager.pages(ctx, c, q, position{cursor: p.Cursor}, err)
}

// Searches walks every search term from p.Cursor, fetching pages as
// [Client.SearchPages] does. A failure is yielded once as (zero,
// *[WalkError]): walk again with Cursor set to its Cursor to resume.
func (c *Client) Searches(ctx context.Context, p SearchesParams) iter.Seq2[SearchTerm, error] {
	return rowsOf(c.SearchPages(ctx, p), searchesPager.rows)
}
