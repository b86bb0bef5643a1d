package index

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Store is the Index of one mock server: the fixed corpus, its ranking
// statistics and the count of requests answered. It is safe for
// concurrent use: everything but the counter is read-only after NewStore.
type Store struct {
	pages  []Page
	hosts  []string       // per page: its URL's host, lower case
	byID   map[string]int // Mintlify pages only: web pages are fetched by URL
	byURL  map[string]int // canonicalURL -> page, every page
	rank   *bm25
	served atomic.Uint64 // answers so far; numbers the request IDs
}

// NewStore returns a store holding the fixed corpus.
func NewStore() *Store {
	st := &Store{pages: corpus(), byID: map[string]int{}, byURL: map[string]int{}}
	for i, p := range st.pages {
		u, _ := url.Parse(p.URL) // the corpus's own URLs; the tests parse them all
		st.hosts = append(st.hosts, strings.ToLower(u.Hostname()))
		if p.Source == SourceMintlify {
			st.byID[p.ID] = i
		}
		st.byURL[canonicalURL(p.URL)] = i
	}
	st.rank = newBM25(st.pages)
	return st
}

// Reset starts the request IDs again from the first; the corpus is fixed.
func (st *Store) Reset() { st.served.Store(0) }

// Pages is a copy of the corpus, in its fixed order.
func (st *Store) Pages() []Page {
	out := make([]Page, len(st.pages))
	for i, p := range st.pages {
		p.Breadcrumbs = slices.Clone(p.Breadcrumbs)
		out[i] = p
	}
	return out
}

// nextID numbers an answered request: the n-th answer of a store (from 1,
// all three routes together) has the ID 6d696e74-0000-4000-8000-<n in 12
// hex digits>. It is shaped like the vendor's UUIDs ("6d696e74" spells
// "mint") and deterministic, so tests and journals can name a request.
// Refused requests take no number.
func (st *Store) nextID() string {
	return fmt.Sprintf("6d696e74-0000-4000-8000-%012x", st.served.Add(1))
}

// Result is one item of a search or contents answer, with the schema's
// member names. Truncated and TotalCharacters are absent when no text was
// asked for; PublishedDate is null when the source gives no date.
type Result struct {
	ID              string   `json:"id"`
	URL             string   `json:"url"`
	Title           string   `json:"title"`
	Text            string   `json:"text"` // "" when not requested, as the schema says
	Truncated       *bool    `json:"truncated,omitempty"`
	TotalCharacters *int     `json:"totalCharacters,omitempty"`
	Score           float64  `json:"score"` // 0 in contents answers
	Source          string   `json:"source"`
	SiteName        string   `json:"siteName"`
	Breadcrumbs     []string `json:"breadcrumbs"` // never null
	PublishedDate   *string  `json:"publishedDate"`
}

// SearchResponse is the answer of POST /v1/search.
type SearchResponse struct {
	RequestID string   `json:"requestId"`
	Results   []Result `json:"results"` // never null
}

// ContentsResponse is the answer of POST /v1/contents.
type ContentsResponse struct {
	RequestID string          `json:"requestId"`
	Results   []Result        `json:"results"`  // the items found, in request order
	Statuses  []ContentStatus `json:"statuses"` // one per requested item, in request order
}

// ContentStatus says what became of one requested ID or URL.
type ContentStatus struct {
	ID     string     `json:"id"` // as requested
	Status string     `json:"status"`
	Error  *ItemError `json:"error,omitempty"` // with StatusError only
}

// ItemError is why an item was not retrieved.
type ItemError struct {
	Tag            string `json:"tag"`
	HTTPStatusCode *int   `json:"httpStatusCode"` // null when no fetch was made
}

// The two statuses, and the error tags this mock uses (the vendor's
// schema names no tags).
const (
	StatusSuccess = "success"
	StatusError   = "error"
	// TagNotFound: an ID the index does not hold (or a web page's ID,
	// which belongs in urls). Nothing was fetched: httpStatusCode is null.
	TagNotFound = "NOT_FOUND"
	// TagCrawlNotFound: a URL outside the corpus; the mock answers as if
	// fetching it had returned 404.
	TagCrawlNotFound = "CRAWL_NOT_FOUND"
)

// Search answers a search request: pages ranked by score, best first.
func (st *Store) Search(req SearchRequest) (*SearchResponse, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	hits := st.search(req.Query, filter{include: req.IncludeDomains, exclude: req.ExcludeDomains})
	hits = hits[:min(len(hits), *req.NumResults)]
	resp := &SearchResponse{RequestID: st.nextID(), Results: make([]Result, 0, len(hits))}
	for _, h := range hits {
		r := st.result(h.page, normalizedDate)
		r.Score = h.score
		if req.Text.Include {
			setText(&r, excerpt(st.pages[h.page].Text, req.Text.MaxCharacters, nil))
		}
		resp.Results = append(resp.Results, r)
	}
	return resp, nil
}

// Contents answers a contents request: ids first, then urls, each list in
// its own order (a decoded body no longer says which of the two members
// came first). Every item gets a status; the found ones a result.
func (st *Store) Contents(req ContentsRequest) (*ContentsResponse, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var terms []string
	if req.Query != nil {
		terms = queryTerms(*req.Query)
	}
	limit := 0
	if req.MaxCharacters != nil {
		limit = *req.MaxCharacters
	}
	resp := &ContentsResponse{RequestID: st.nextID(), Results: []Result{}, Statuses: []ContentStatus{}}
	found := func(requested string, i int, date dateStyle) {
		r := st.result(i, date)
		setText(&r, excerpt(st.pages[i].Text, limit, terms))
		resp.Results = append(resp.Results, r)
		resp.Statuses = append(resp.Statuses, ContentStatus{ID: requested, Status: StatusSuccess})
	}
	failed := func(requested, tag string, code *int) {
		resp.Statuses = append(resp.Statuses, ContentStatus{ID: requested, Status: StatusError,
			Error: &ItemError{Tag: tag, HTTPStatusCode: code}})
	}
	for _, id := range req.IDs {
		if i, ok := st.byID[id]; ok {
			found(id, i, normalizedDate)
		} else {
			failed(id, TagNotFound, nil)
		}
	}
	for _, u := range req.URLs {
		if i, ok := st.byURL[canonicalURL(u)]; ok {
			found(u, i, rawDate)
		} else {
			notFound := 404
			failed(u, TagCrawlNotFound, &notFound)
		}
	}
	return resp, nil
}

// hit is a page that matched a query, with its normalized score.
type hit struct {
	page  int
	score float64
}

// search ranks the pages that pass f and share a term with the query:
// score descending, then corpus order, so equal scores are stable.
func (st *Store) search(query string, f filter) []hit {
	terms := queryTerms(query)
	var hits []hit
	best := 0.0
	for i := range st.pages {
		if !f.admits(st.pages[i], st.hosts[i]) {
			continue
		}
		if s := st.rank.score(i, terms); s > 0 {
			hits = append(hits, hit{i, s})
			best = max(best, s)
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
	for k := range hits {
		hits[k].score = normalize(hits[k].score, best)
	}
	return hits
}

// filter is the domain lists and the product hint of a request.
//
// A domain names a host and its subdomains ("example.com" admits
// docs.example.com but not blog.example.org), compared without case; a
// scheme, path or trailing dot given with it is ignored, so
// "https://docs.acme.dev/x" works as "docs.acme.dev". Exclusion wins
// over inclusion.
type filter struct {
	include, exclude []string
	site             string // with a product: the only SiteName admitted
}

func (f filter) admits(p Page, host string) bool {
	if f.site != "" && p.SiteName != f.site {
		return false
	}
	if f.include != nil && !slices.ContainsFunc(f.include, func(d string) bool { return inDomain(host, d) }) {
		return false
	}
	return !slices.ContainsFunc(f.exclude, func(d string) bool { return inDomain(host, d) })
}

func inDomain(host, domain string) bool {
	d := strings.ToLower(strings.TrimSpace(domain))
	if i := strings.Index(d, "://"); i >= 0 {
		d = d[i+3:]
	}
	if i := strings.IndexAny(d, "/?#"); i >= 0 {
		d = d[:i]
	}
	d = strings.TrimSuffix(d, ".")
	return d != "" && (host == d || strings.HasSuffix(host, "."+d))
}

// canonicalURL is how contents matches a requested URL with a page:
// scheme and host without case, no fragment, no trailing slash.
func canonicalURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	u.Scheme, u.Host, u.Fragment, u.RawFragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), "", ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u.String()
}

// dateStyle is how a result's publishedDate is written: search answers
// and contents by ID normalize it to a full timestamp; contents by URL
// pass the source's own string through, as the vendor documents.
type dateStyle int

const (
	normalizedDate dateStyle = iota
	rawDate
)

// result is page i as a result without text.
func (st *Store) result(i int, date dateStyle) Result {
	p := st.pages[i]
	r := Result{ID: p.ID, URL: p.URL, Title: p.Title, Source: p.Source, SiteName: p.SiteName,
		Breadcrumbs: append([]string{}, p.Breadcrumbs...)}
	if p.Published != "" {
		d := p.Published
		if date == normalizedDate {
			d = normalizeDate(d)
		}
		r.PublishedDate = &d
	}
	return r
}

// normalizeDate writes a source's date (RFC 3339 or date-only) as RFC 3339
// in UTC with milliseconds, the service's timestamp format.
func normalizeDate(s string) string {
	for _, layout := range []string{time.RFC3339, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
		}
	}
	return s // the corpus's dates all parse; the tests check it
}

// setText puts an excerpt into r with its truncation flag and full length.
func setText(r *Result, e excerptText) {
	r.Text, r.Truncated, r.TotalCharacters = e.text, &e.truncated, &e.total
}
