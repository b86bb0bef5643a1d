package mintlify

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// This file holds the Index API's (Universal Search) types, the checks and
// encoding of its three request bodies, and the decoding of its three
// answers. The client that sends them is [IndexClient].

// DefaultIndexBaseURL is where the Index API lives: a key that starts with
// "mint_us_" reaches it, and no other key does. The routes hang below it
// (".../v1/search").
const DefaultIndexBaseURL = "https://leaves.mintlify.com/api/universal-search"

// IndexClient calls the Index API (Universal Search) with an Index key:
// [IndexClient.BuildContext], [IndexClient.Search] and
// [IndexClient.Contents]. It is safe for concurrent use; make one and
// share it. Its calls go through the same request path as [Client]'s: the
// same errors (the API's {"error": "..."} body is [APIError].Message),
// redaction and observers.
//
// The three calls are POST requests that change nothing, so each is
// retried like a GET: on network errors, on 429, 500, 502, 503 and 504,
// and on an answer cut short or not the documented object. The API
// allows 10 requests a second and 1,000 a day per organization, every key
// together ([IndexRequestsPerSecond], [IndexRequestsPerDay]). The SDK
// spends them with care:
//
//   - Input outside the documented ranges is refused before sending, with
//     ErrInvalidInput: it costs nothing, where the API would answer 400
//     and still count the request.
//   - Every HTTP request counts, retries included: a call retried three
//     times spends four. [WithMaxRetries] bounds that, and
//     [WithResponseObserver] reports each call's attempts.
//   - A 429 whose Retry-After is within the client's maximum wait
//     ([WithRetryWait]; 30 seconds by default, enough for the per-second
//     limit) is waited out, then retried. A longer one (the day's limit)
//     is not slept on: the call returns at once with ErrRateLimited and
//     [APIError].RetryAfter, the wait the API asked for.
type IndexClient struct {
	c *Client
}

// NewIndexClient builds an [IndexClient]. The key comes from WithAPIKey or
// $MINTLIFY_INDEX_API_KEY and must be an Index key ("mint_us_..."); the
// address from WithBaseURL or $MINTLIFY_INDEX_BASE_URL, else
// [DefaultIndexBaseURL] ($MINTLIFY_BASE_URL, the admin API's, is not
// read). A base URL that ends in the version, ".../v1", is taken without
// it, as the routes add it. A missing or malformed key fails with
// ErrInvalidInput before anything is sent; the key never appears in the
// error.
func NewIndexClient(opts ...Option) (*IndexClient, error) {
	cfg := defaults(indexAPI)
	cfg.apply(opts)
	c, err := newClient(indexAPI, cfg)
	if err != nil {
		return nil, err
	}
	c.baseURL = strings.TrimSuffix(c.baseURL, "/v1")
	return &IndexClient{c: c}, nil
}

// ready refuses a nil or zero IndexClient and a nil context.
func (x *IndexClient) ready(ctx context.Context) error {
	if x == nil || x.c == nil {
		return invalidf("nil or zero IndexClient: make one with NewIndexClient")
	}
	return x.c.ready(ctx)
}

// Format prints the client's base URL, never its key, for every verb.
func (x *IndexClient) Format(f fmt.State, verb rune) {
	if x == nil || x.c == nil {
		fmt.Fprint(f, "<nil>")
		return
	}
	fmt.Fprintf(f, "mintlify.IndexClient{baseURL: %q}", x.c.baseURL)
}

// BuildContext assembles source-cited context for p.Query within a token
// budget, ready for a model: POST /v1/context. The zero values of p's
// optional fields are the API's defaults (format "txt", 3,000 tokens). An
// empty Response with no error means nothing matched or fitted.
//
// Each attempt is one request of the organization's 10 a second and 1,000
// a day (every key together): a retry counts, input refused before
// sending (ErrInvalidInput) does not. See [IndexClient] for the retries.
func (x *IndexClient) BuildContext(ctx context.Context, p ContextParams) (*IndexContext, error) {
	return indexCall(ctx, x, indexPathContext, p, ContextParams.body, nil, (*wireIndexContext).toPublic)
}

// Search ranks documents for p.Query, best first: POST /v1/search. It
// answers at most p.NumResults results (1..20, required); their Text is
// "" unless p.Text or p.MaxCharacters asks for it. Pass a result to
// [IndexClient.Contents] for its content: a "mintlify" result's ID in
// IDs, a "web" result's URL in URLs. An answer with more results than
// asked for is ErrMalformedResponse.
//
// Each attempt is one request of the organization's 10 a second and 1,000
// a day (every key together): a retry counts, input refused before
// sending (ErrInvalidInput) does not. See [IndexClient] for the retries.
func (x *IndexClient) Search(ctx context.Context, p IndexSearchParams) (*IndexSearchResult, error) {
	return indexCall(ctx, x, indexPathSearch, p, IndexSearchParams.body, (*wireIndexSearch).checkFor, (*wireIndexSearch).toPublic)
}

// Contents fetches pages by ID or URL, at most 20 in all: POST
// /v1/contents. The API answers partly: Results holds the pages found,
// and Statuses one entry per item asked for, with "error" and its tag for
// each it could not fetch. Such a failure is a status, not an error of the
// call, which succeeds (nil error) even when every item failed; check the
// statuses. An answer with more statuses or results than items asked for
// is ErrMalformedResponse.
//
// Each attempt is one request of the organization's 10 a second and 1,000
// a day (every key together), whatever the number of items: a retry
// counts, input refused before sending (ErrInvalidInput) does not. See
// [IndexClient] for the retries.
func (x *IndexClient) Contents(ctx context.Context, p ContentsParams) (*IndexContents, error) {
	return indexCall(ctx, x, indexPathContents, p, ContentsParams.body, (*wireIndexContents).checkFor, (*wireIndexContents).toPublic)
}

// indexCall is every Index call: it checks the client and the context,
// encodes p with body (checking it against its schema: a failure is
// ErrInvalidInput, with nothing sent and the key scrubbed from the input
// the error quotes, a key pasted where a URL belongs, say), and POSTs it
// to path. The POST changes nothing on the server, so it is retried like
// a GET. checkFor, when not nil, holds the checked answer against p (more
// items than asked for is ErrMalformedResponse); public converts it.
func indexCall[P, W, T any](ctx context.Context, x *IndexClient, path string, p P, body func(P) ([]byte, error), checkFor func(*W, P) error, public func(*W) *T) (*T, error) {
	if err := x.ready(ctx); err != nil {
		return nil, err
	}
	b, err := body(p)
	if err != nil {
		return nil, x.c.redact(err)
	}
	r := request{method: http.MethodPost, path: path, body: b, idempotent: true}
	w, err := send[W](ctx, x.c, r)
	if err != nil {
		return nil, err
	}
	if checkFor != nil {
		if err := checkFor(w, p); err != nil {
			return nil, x.c.malformed(r, "%v", err)
		}
	}
	return public(w), nil
}

// The Index routes, relative to the base URL.
const (
	indexPathContext  = "/v1/context"
	indexPathSearch   = "/v1/search"
	indexPathContents = "/v1/contents"
)

// The Index API's documented ranges and limits. The SDK refuses input
// outside the ranges before sending anything (ErrInvalidInput); the limits
// are the API's, per organization and every key together: each HTTP
// request counts, retries included.
const (
	IndexMaxNumResults      = 20   // IndexSearchParams.NumResults: 1..20, required
	IndexMaxTokenBudget     = 6000 // ContextParams.TokenBudget: 1..6000
	IndexDefaultTokenBudget = 3000 // the API's budget when TokenBudget is 0
	IndexMaxContentsItems   = 20   // ContentsParams: IDs and URLs together
	IndexRequestsPerSecond  = 10   // the organization's limit per second
	IndexRequestsPerDay     = 1000 // the organization's limit per day
)

// The SDK's bounds on an answer.
const (
	// An answer never holds more results or statuses than were asked for,
	// and no request asks for more than 20: more is a malformed answer,
	// refused before it is decoded, so a hostile answer costs no memory
	// beyond its body.
	indexMaxAnswerItems = 20
	// A result's breadcrumbs are a documentation hierarchy: a few levels.
	// More than this many is a malformed answer.
	indexMaxBreadcrumbs = 100
)

// ContextParams is a question for [IndexClient.BuildContext]. Only Query
// is needed: the zero value of every other field is its default.
type ContextParams struct {
	// Query is the implementation question to research: at least one
	// character (white space counts, as the API's schema says).
	Query string
	// Product names a product or company as a retrieval hint; "" sends
	// none.
	Product string
	// Format is the form of the answer's Response: "txt" (Markdown
	// sections) or "json" (a serialized JSON object of result items).
	// "" means "txt": the API requires a format, so the SDK always sends
	// one. Anything else is refused, case included ("TXT" is).
	Format string
	// IncludeDomains keeps retrieval to these domains and ExcludeDomains
	// leaves these out. Each item must be non-empty. A nil or empty list
	// is no filter and is not sent: an empty IncludeDomains does not mean
	// "no domain".
	IncludeDomains, ExcludeDomains []string
	// TokenBudget bounds the answer's size in tokens: 1..6000, or 0 for
	// the API's default (3000, not sent).
	TokenBudget int
}

// IndexContext is what [IndexClient.BuildContext] assembled: source-cited
// context ready to hand to a model.
type IndexContext struct {
	// RequestID names the request to Mintlify's support.
	RequestID string `json:"requestId"`
	// Query is the question as the API received it.
	Query string `json:"query"`
	// Response is Markdown sections (format "txt") or a serialized JSON
	// object (format "json"). It is "" when nothing matched or nothing
	// fitted within the token budget: not an error.
	Response string `json:"response"`
	// ResultsCount is how many source snippets Response holds.
	ResultsCount int `json:"resultsCount"`
	// OutputTokens is Response's size in tokens, within the budget.
	OutputTokens int `json:"outputTokens"`
}

// IndexSearchParams is a search for [IndexClient.Search]. Query and
// NumResults are required.
type IndexSearchParams struct {
	// Query is what to search for: at least one character.
	Query string
	// NumResults is the most results wanted: 1..20. The API has no
	// default, so 0 is refused.
	NumResults int
	// Text asks for each result's content in full. Without it (and without
	// MaxCharacters) results come without text: the SDK sends "text":
	// false explicitly, so the answer does not depend on the API's default.
	Text bool
	// MaxCharacters asks for each result's content, at most this many
	// characters of it (Truncated tells when it was cut). Any value above
	// 0 implies Text; 0 means no limit; negative is refused.
	MaxCharacters int
	// IncludeDomains and ExcludeDomains filter results by domain, as in
	// [ContextParams]: non-empty items; a nil or empty list is no filter.
	IncludeDomains, ExcludeDomains []string
}

// IndexResult is one page of a search or contents answer. It marshals as
// the API sends it (json.Marshal of a result is what mintctl prints), with
// PublishedDate as an RFC 3339 string or null.
type IndexResult struct {
	// ID names the page for [IndexClient.Contents]: pass a "mintlify"
	// result's ID in ContentsParams.IDs; a "web" result's ID is its URL,
	// which goes in ContentsParams.URLs.
	ID    string
	URL   string // the canonical source URL
	Title string
	// Text is the page's content when it was asked for (Text or
	// MaxCharacters in a search; always in contents), else "". Its size is
	// bounded only by the client's cap on an answer's body.
	Text string
	// Truncated reports Text cut short by MaxCharacters.
	Truncated bool
	// TotalCharacters is the length of the whole content before any cut;
	// 0 when the API does not say (as when no text was asked for).
	TotalCharacters int
	// Score is the relevance relative to the other results of the search;
	// contents answers score 0 (they rank nothing).
	Score float64
	// Source is where the page was retrieved from: "mintlify" (a
	// Mintlify-hosted documentation site) or "web". A value the API may add
	// later is passed through; treat it like "web" and use URL.
	Source string
	// SiteName is the documentation site's name, or a web page's host.
	SiteName string
	// Breadcrumbs is the page's place in its site's hierarchy, outermost
	// first. An answer with more than 100 for one result is refused as
	// malformed (a hierarchy is a few levels deep), and so is a list of
	// more than 100 read by UnmarshalJSON.
	Breadcrumbs []string
	// PublishedDate is the zero time when the source gives no date (null
	// or absent), or gives one the SDK cannot read. Search normalizes
	// dates to full timestamps; contents by URL passes the source's own
	// string, which may be date-only (midnight UTC here).
	PublishedDate time.Time
}

// IndexSearchResult is what [IndexClient.Search] found, best first.
type IndexSearchResult struct {
	RequestID string        `json:"requestId"` // names the request to Mintlify's support
	Results   []IndexResult `json:"results"`   // at most the NumResults asked for
}

// ContentsParams names the pages [IndexClient.Contents] should fetch: at
// least one ID or URL, at most 20 of both together.
type ContentsParams struct {
	// IDs are IDs of "mintlify" results: each non-empty.
	IDs []string
	// URLs are page URLs, for "web" results or any page: each an absolute
	// http or https URL with a host and no white space. Non-ASCII text is
	// sent as given.
	URLs []string
	// MaxCharacters is the most characters of content per result; 0 means
	// no limit (not sent); negative is refused.
	MaxCharacters int
	// Query picks the most relevant sections of a page longer than
	// MaxCharacters; "" sends none.
	Query string
}

// ContentStatus is what became of one requested ID or URL: Contents
// answers partly, so a page that could not be fetched is a status, never
// an error of the call. It marshals as the API sends it:
// {"id", "status", "error": {"tag", "httpStatusCode"}}, the error member
// with the "error" status (or any error detail) only, httpStatusCode null
// when 0.
type ContentStatus struct {
	// ID is the requested ID or URL, as requested.
	ID string
	// Status is "success" or "error"; an answer with any other is refused
	// as malformed, so checking Status == "error" is enough.
	Status string
	// ErrorTag says why an item failed, in the API's machine-readable
	// words; the API's schema lists none, so compare with care.
	ErrorTag string
	// HTTPStatusCode is the status the source's site answered when
	// fetched, 0 when nothing was fetched or the API does not say.
	HTTPStatusCode int
}

// IndexContents is what [IndexClient.Contents] fetched: Results holds the
// pages found, Statuses one entry per requested item, in the API's order
// (the bundled mock answers in request order, IDs first). An answer
// with more statuses or results than items asked for is refused as
// malformed.
type IndexContents struct {
	RequestID string          `json:"requestId"` // names the request to Mintlify's support
	Results   []IndexResult   `json:"results"`
	Statuses  []ContentStatus `json:"statuses"`
}

// --- Requests -------------------------------------------------------------

// The request bodies, member for member as the API's schemas name them.
// Each schema refuses unknown members, so the bodies are structs (never
// maps) and optional members are left out when zero.

type indexContextBody struct {
	Query          string   `json:"query"`
	Product        string   `json:"product,omitempty"`
	Format         string   `json:"format"`
	IncludeDomains []string `json:"includeDomains,omitempty"`
	ExcludeDomains []string `json:"excludeDomains,omitempty"`
	TokenBudget    int      `json:"tokenBudget,omitempty"`
}

type indexSearchBody struct {
	Query          string    `json:"query"`
	NumResults     int       `json:"numResults"`
	Text           indexText `json:"text"`
	IncludeDomains []string  `json:"includeDomains,omitempty"`
	ExcludeDomains []string  `json:"excludeDomains,omitempty"`
}

type indexContentsBody struct {
	IDs           []string `json:"ids,omitempty"`
	URLs          []string `json:"urls,omitempty"`
	MaxCharacters int      `json:"maxCharacters,omitempty"`
	Query         string   `json:"query,omitempty"`
}

// indexText is the search body's "text": false, true, or
// {"maxCharacters": n} with n ≥ 1.
type indexText struct {
	full          bool
	maxCharacters int // > 0: at most this many characters
}

func (t indexText) MarshalJSON() ([]byte, error) {
	switch {
	case t.maxCharacters > 0:
		return json.Marshal(struct {
			MaxCharacters int `json:"maxCharacters"`
		}{t.maxCharacters})
	case t.full:
		return []byte("true"), nil
	}
	return []byte("false"), nil
}

// body checks p against the context route's schema and encodes it. Every
// failure is an ErrInvalidInput error, with no body.
func (p ContextParams) body() ([]byte, error) {
	if err := indexCheckQuery(p.Query); err != nil {
		return nil, err
	}
	format := p.Format
	switch format {
	case "":
		format = "txt"
	case "txt", "json":
	default:
		return nil, invalidf(`Format %s: want "txt" or "json" ("" is "txt")`, answerText(format))
	}
	if p.TokenBudget < 0 || p.TokenBudget > IndexMaxTokenBudget {
		return nil, invalidf("TokenBudget %d outside 1..%d (0 for the API's default, %d)", p.TokenBudget, IndexMaxTokenBudget, IndexDefaultTokenBudget)
	}
	if err := indexCheckDomains(p.IncludeDomains, p.ExcludeDomains); err != nil {
		return nil, err
	}
	return requestBody(indexContextBody{
		Query:          p.Query,
		Product:        p.Product,
		Format:         format,
		IncludeDomains: p.IncludeDomains,
		ExcludeDomains: p.ExcludeDomains,
		TokenBudget:    p.TokenBudget,
	})
}

// body checks p against the search route's schema and encodes it. Every
// failure is an ErrInvalidInput error, with no body.
func (p IndexSearchParams) body() ([]byte, error) {
	if err := indexCheckQuery(p.Query); err != nil {
		return nil, err
	}
	if p.NumResults < 1 || p.NumResults > IndexMaxNumResults {
		return nil, invalidf("NumResults %d outside 1..%d (the API requires it)", p.NumResults, IndexMaxNumResults)
	}
	if p.MaxCharacters < 0 {
		return nil, invalidf("MaxCharacters %d is negative (0 for no limit)", p.MaxCharacters)
	}
	if err := indexCheckDomains(p.IncludeDomains, p.ExcludeDomains); err != nil {
		return nil, err
	}
	return requestBody(indexSearchBody{
		Query:          p.Query,
		NumResults:     p.NumResults,
		Text:           indexText{full: p.Text, maxCharacters: p.MaxCharacters},
		IncludeDomains: p.IncludeDomains,
		ExcludeDomains: p.ExcludeDomains,
	})
}

// body checks p against the contents route's schema and encodes it. Every
// failure is an ErrInvalidInput error, with no body.
func (p ContentsParams) body() ([]byte, error) {
	switch n := len(p.IDs) + len(p.URLs); {
	case n == 0:
		return nil, invalidf("no IDs or URLs: name at least one page")
	case n > IndexMaxContentsItems:
		return nil, invalidf("%d IDs and URLs: at most %d in one request", n, IndexMaxContentsItems)
	}
	for i, id := range p.IDs {
		if id == "" {
			return nil, invalidf("IDs[%d] is empty", i)
		}
	}
	for i, u := range p.URLs {
		if err := indexCheckURL(u); err != nil {
			return nil, invalidf("URLs[%d] %s: %v", i, answerText(u), err)
		}
	}
	if p.MaxCharacters < 0 {
		return nil, invalidf("MaxCharacters %d is negative (0 for no limit)", p.MaxCharacters)
	}
	return requestBody(indexContentsBody{
		IDs:           p.IDs,
		URLs:          p.URLs,
		MaxCharacters: p.MaxCharacters,
		Query:         p.Query,
	})
}

// indexCheckQuery is the schemas' minLength 1, which counts characters:
// white space is a query.
func indexCheckQuery(q string) error {
	if q == "" {
		return invalidf("empty Query: the API needs at least one character")
	}
	return nil
}

// indexCheckDomains is the schemas' items of minLength 1. A list's
// minItems 1 is kept by not sending an empty list.
func indexCheckDomains(include, exclude []string) error {
	for _, l := range [...]struct {
		name    string
		domains []string
	}{{"IncludeDomains", include}, {"ExcludeDomains", exclude}} {
		for i, d := range l.domains {
			if d == "" {
				return invalidf("%s[%d] is empty", l.name, i)
			}
		}
	}
	return nil
}

// indexCheckURL is the schema's format "uri", narrowed to what the API can
// fetch: an absolute http or https URL with a host. White space is not
// part of a URI (it must be percent-encoded); url.Parse refuses control
// characters itself.
func indexCheckURL(s string) error {
	if s == "" {
		return errors.New("empty")
	}
	if strings.ContainsAny(s, " \t\r\n\f\v") {
		return errors.New("white space in a URL (percent-encode it)")
	}
	u, err := url.Parse(s)
	if err != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("want an absolute http or https URL")
	}
	if u.Host == "" {
		return errors.New("no host")
	}
	return nil
}

// --- Answers --------------------------------------------------------------

// The answers as sent, in the SDK's one decode style (json.go): the field
// types tell a required member that is absent or null from one that is
// present, "" or 0 included, and a member of the wrong JSON type fails the
// decoding; check refuses what the schema refuses and returns plain errors,
// which the request path classifies as ErrMalformedResponse. toPublic
// converts without checking, so that the public types' UnmarshalJSON can
// share it. The arrays are bounded lists: more items than an answer can
// hold (indexMaxAnswerItems, indexMaxBreadcrumbs) are refused before any
// is decoded.

type wireIndexContext struct {
	RequestID    jsonString `json:"requestId"`
	Query        jsonString `json:"query"`
	Response     jsonString `json:"response"`
	ResultsCount jsonCount  `json:"resultsCount"`
	OutputTokens jsonCount  `json:"outputTokens"`
}

func (w *wireIndexContext) check() error {
	var c fieldCheck
	c.need(w.RequestID.present(), "requestId")
	c.need(w.Query.present(), "query")
	c.need(w.Response.present(), "response")
	c.need(w.ResultsCount.set, "resultsCount")
	c.need(w.OutputTokens.set, "outputTokens")
	c.notNegative(w.ResultsCount, "resultsCount")
	c.notNegative(w.OutputTokens, "outputTokens")
	return c.err
}

func (w *wireIndexContext) toPublic() *IndexContext {
	return &IndexContext{RequestID: w.RequestID.s, Query: w.Query.s, Response: w.Response.s,
		ResultsCount: w.ResultsCount.n, OutputTokens: w.OutputTokens.n}
}

type wireIndexSearch struct {
	RequestID jsonString                           `json:"requestId"`
	Results   list[wireIndexResult, indexItemsMax] `json:"results"`
}

func (w *wireIndexSearch) check() error {
	var c fieldCheck
	c.need(w.RequestID.present(), "requestId")
	c.need(w.Results != nil, "results")
	return cmp.Or(c.err, checkItems("results", w.Results))
}

// checkFor refuses an answer with more results than p asked for (after
// check, and after p.body accepted p).
func (w *wireIndexSearch) checkFor(p IndexSearchParams) error {
	if len(w.Results) > p.NumResults {
		return fmt.Errorf("%d results, %d asked for", len(w.Results), p.NumResults)
	}
	return nil
}

func (w *wireIndexSearch) toPublic() *IndexSearchResult {
	return &IndexSearchResult{RequestID: w.RequestID.s, Results: each(w.Results, (*wireIndexResult).toPublic)}
}

type wireIndexContents struct {
	RequestID jsonString                           `json:"requestId"`
	Results   list[wireIndexResult, indexItemsMax] `json:"results"`
	Statuses  list[wireIndexStatus, indexItemsMax] `json:"statuses"`
}

func (w *wireIndexContents) check() error {
	var c fieldCheck
	c.need(w.RequestID.present(), "requestId")
	c.need(w.Results != nil, "results")
	c.need(w.Statuses != nil, "statuses")
	return cmp.Or(c.err, checkItems("results", w.Results), checkItems("statuses", w.Statuses))
}

// checkFor refuses an answer with more statuses or results than p named
// items (after check, and after p.body accepted p). Fewer is accepted: a
// service that merges duplicate items answers fewer.
func (w *wireIndexContents) checkFor(p ContentsParams) error {
	n := len(p.IDs) + len(p.URLs)
	if len(w.Statuses) > n || len(w.Results) > n {
		return fmt.Errorf("%d statuses and %d results for %d items asked for", len(w.Statuses), len(w.Results), n)
	}
	return nil
}

func (w *wireIndexContents) toPublic() *IndexContents {
	return &IndexContents{RequestID: w.RequestID.s, Results: each(w.Results, (*wireIndexResult).toPublic),
		Statuses: each(w.Statuses, (*wireIndexStatus).toPublic)}
}

// wireIndexResult is a result as sent, and as IndexResult marshals:
// truncated and totalCharacters are left out when zero, as the API leaves
// them out when no text was asked for.
type wireIndexResult struct {
	ID              jsonString                   `json:"id"`
	URL             jsonString                   `json:"url"`
	Title           jsonString                   `json:"title"`
	Text            jsonString                   `json:"text"`
	Truncated       jsonBool                     `json:"truncated,omitzero"`
	TotalCharacters jsonCount                    `json:"totalCharacters,omitzero"`
	Score           jsonNumber                   `json:"score"`
	Source          jsonString                   `json:"source"`
	SiteName        jsonString                   `json:"siteName"`
	Breadcrumbs     list[string, indexCrumbsMax] `json:"breadcrumbs"`
	// PublishedDate is required but nullable: absent reads as null, and a
	// date the SDK cannot read as the zero time.
	PublishedDate jsonTime `json:"publishedDate"`
}

func (w *wireIndexResult) check() error {
	var c fieldCheck
	c.need(w.ID.present(), "id")
	c.need(w.URL.present(), "url")
	c.need(w.Title.present(), "title")
	c.need(w.Text.present(), "text")
	c.need(w.Score.set, "score")
	c.need(w.Source.present(), "source")
	c.need(w.SiteName.present(), "siteName")
	c.need(w.Breadcrumbs != nil, "breadcrumbs")
	c.notNegative(w.TotalCharacters, "totalCharacters")
	return c.err
}

func (w *wireIndexResult) toPublic() IndexResult {
	return IndexResult{
		ID: w.ID.s, URL: w.URL.s, Title: w.Title.s, Text: w.Text.s,
		Truncated: w.Truncated.v, TotalCharacters: w.TotalCharacters.n,
		Score: w.Score.x, Source: w.Source.s, SiteName: w.SiteName.s,
		Breadcrumbs: w.Breadcrumbs, PublishedDate: w.PublishedDate.t,
	}
}

func (r IndexResult) wire() wireIndexResult {
	w := wireIndexResult{
		ID: str(r.ID), URL: str(r.URL), Title: str(r.Title), Text: str(r.Text),
		Score: number(r.Score), Source: str(r.Source), SiteName: str(r.SiteName),
		Breadcrumbs: r.Breadcrumbs, PublishedDate: timeOf(r.PublishedDate),
	}
	if r.Truncated {
		w.Truncated = boolean(true)
	}
	if r.TotalCharacters != 0 {
		w.TotalCharacters = count(r.TotalCharacters)
	}
	if w.Breadcrumbs == nil {
		w.Breadcrumbs = []string{}
	}
	return w
}

// wireIndexStatus is a status as sent, and as ContentStatus marshals.
type wireIndexStatus struct {
	ID     jsonString        `json:"id"`
	Status jsonString        `json:"status"`
	Error  *indexStatusError `json:"error,omitempty"`
}

type indexStatusError struct {
	Tag jsonString `json:"tag"`
	// HTTPStatusCode is required but nullable: absent reads as null.
	HTTPStatusCode jsonCount `json:"httpStatusCode"`
}

// check enforces the schema's two shapes: "success" without an error, and
// "error" with one that has a tag.
func (w *wireIndexStatus) check() error {
	var c fieldCheck
	c.need(w.ID.present(), "id")
	c.need(w.Status.present(), "status")
	if c.err != nil {
		return c.err
	}
	switch w.Status.s {
	case "success":
		if w.Error != nil {
			return errors.New(`status "success" with an error`)
		}
	case "error":
		c.need(w.Error != nil, "error")
		c.need(w.Error == nil || w.Error.Tag.present(), "error.tag")
	default:
		return fmt.Errorf("status %s is not one the API documents (success, error)", answerText(w.Status.s))
	}
	return c.err
}

func (w *wireIndexStatus) toPublic() ContentStatus {
	s := ContentStatus{ID: w.ID.s, Status: w.Status.s}
	if e := w.Error; e != nil {
		s.ErrorTag, s.HTTPStatusCode = e.Tag.s, e.HTTPStatusCode.n
	}
	return s
}

func (s ContentStatus) wire() wireIndexStatus {
	w := wireIndexStatus{ID: str(s.ID), Status: str(s.Status)}
	if s.Status == "error" || s.ErrorTag != "" || s.HTTPStatusCode != 0 {
		w.Error = &indexStatusError{Tag: str(s.ErrorTag)}
		if s.HTTPStatusCode != 0 {
			w.Error.HTTPStatusCode = count(s.HTTPStatusCode)
		}
	}
	return w
}

// The bounds of the answers' lists.
type (
	indexItemsMax  struct{}
	indexCrumbsMax struct{}
)

func (indexItemsMax) max() (int, string) {
	return indexMaxAnswerItems, "items (an answer holds no more than were asked for, at most 20)"
}
func (indexCrumbsMax) max() (int, string) { return indexMaxBreadcrumbs, "breadcrumbs" }

// --- JSON of the public types ---------------------------------------------

// MarshalJSON writes r as the API sends it: PublishedDate as RFC 3339 (a
// date-only source date as its midnight UTC) or null when zero, and nil
// Breadcrumbs as [], never null.
func (r IndexResult) MarshalJSON() ([]byte, error) { return marshalWire(r.wire()) }

// UnmarshalJSON reads what MarshalJSON writes (or the API sends), without
// insisting on any member: it reads back saved output, not answers.
func (r *IndexResult) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, r, (*wireIndexResult).toPublic)
}

// MarshalJSON writes s as the API sends it: the error member with the
// "error" status, or whenever s has an error detail, so that nothing is
// lost; httpStatusCode null when 0.
func (s ContentStatus) MarshalJSON() ([]byte, error) { return marshalWire(s.wire()) }

// UnmarshalJSON reads what MarshalJSON writes (or the API sends), without
// insisting on any member.
func (s *ContentStatus) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, s, (*wireIndexStatus).toPublic)
}
