package mintlify_test

// The Index API's calls through NewIndexClient, over loopback: what the
// method table (index_methods_test.go) cannot say. Input out of range costs
// no request; the bodies carry only what each schema names; optional and
// nullable members decode, absent or null; contents answers partly; a 429
// is waited out within the client's maximum wait and returned at once
// beyond it; the Index's error body is the APIError's message.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// testIndexKey is an Index key, long and distinctive like testKey.
const testIndexKey = "mint_us_live_Q7pX2vLr9TzW4mN8bKc3yJhD"

// indexAnswer is one answer of an indexServer.
type indexAnswer struct {
	status int
	body   string
	header []string // name, value pairs
}

// indexServer is an Index API on 127.0.0.1 that records every request and
// answers the n-th (from 0) with answer(n, path).
type indexServer struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []recorded
}

func startIndexServer(t *testing.T, answer func(n int, path string) indexAnswer) *indexServer {
	t.Helper()
	s := &indexServer{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.got)
		s.got = append(s.got, recorded{Method: r.Method, URL: r.URL, Header: r.Header.Clone(), Body: body, At: time.Now()})
		s.mu.Unlock()
		a := answer(n, strings.TrimPrefix(r.URL.Path, "/api/universal-search"))
		for i := 0; i+1 < len(a.header); i += 2 {
			w.Header().Set(a.header[i], a.header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// client is an Index client of s, its base URL given with the version as
// some users copy it; opts come last.
func (s *indexServer) client(t *testing.T, opts ...mintlify.Option) *mintlify.IndexClient {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	x, err := mintlify.NewIndexClient(append([]mintlify.Option{mintlify.WithAPIKey(testIndexKey),
		mintlify.WithBaseURL(s.srv.URL + "/api/universal-search/v1"), mintlify.WithHTTPClient(&http.Client{Transport: tr}),
		mintlify.WithRetryWait(time.Millisecond, 5*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return x
}

func (s *indexServer) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.got)
}

// indexAlways answers every request with status and body.
func indexAlways(status int, body string, header ...string) func(int, string) indexAnswer {
	return func(int, string) indexAnswer { return indexAnswer{status, body, header} }
}

// indexGood answers each route with a documented answer that fits any
// request.
func indexGood(_ int, path string) indexAnswer {
	switch path {
	case "/v1/context":
		return indexAnswer{status: 200, body: goodIndexContext}
	case "/v1/search":
		return indexAnswer{status: 200, body: goodIndexSearch}
	case "/v1/contents":
		// No item found and no status: fewer than asked for is accepted
		// (a service may merge duplicates), more is not.
		return indexAnswer{status: 200, body: `{"requestId":"r","results":[],"statuses":[]}`}
	}
	return indexAnswer{status: 404, body: `{"error":"Not found"}`}
}

// indexCallOf is one of the three calls with its params, on x.
type indexCallOf func(ctx context.Context, x *mintlify.IndexClient) (any, error)

func contextCall(p mintlify.ContextParams) indexCallOf {
	return func(ctx context.Context, x *mintlify.IndexClient) (any, error) { return x.BuildContext(ctx, p) }
}

func searchCall(p mintlify.IndexSearchParams) indexCallOf {
	return func(ctx context.Context, x *mintlify.IndexClient) (any, error) { return x.Search(ctx, p) }
}

func contentsCall(p mintlify.ContentsParams) indexCallOf {
	return func(ctx context.Context, x *mintlify.IndexClient) (any, error) { return x.Contents(ctx, p) }
}

// TestIndexRefusesOutOfRangeInputBeforeSending: every input outside the
// documented ranges, a nil context and a nil or zero IndexClient are
// ErrInvalidInput with no result, and the server gets no request: a
// request the API refuses would still count against the day's 1,000. An
// error that quotes the input never shows the key pasted into it.
func TestIndexRefusesOutOfRangeInputBeforeSending(t *testing.T) {
	t.Parallel()
	s := startIndexServer(t, indexGood)
	x := s.client(t)
	ctx := context.Background()
	calls := map[string]indexCallOf{}
	for name, p := range indexBadContext {
		calls["context/"+name] = contextCall(p)
	}
	for name, p := range indexBadSearch {
		calls["search/"+name] = searchCall(p)
	}
	for name, p := range indexBadContents {
		calls["contents/"+name] = contentsCall(p)
	}
	calls["contents/the Index key as a url"] = contentsCall(mintlify.ContentsParams{URLs: []string{testIndexKey}})
	calls["context/the Index key as the format"] = contextCall(mintlify.ContextParams{Query: "q", Format: testIndexKey})
	for name, call := range calls {
		got, err := call(ctx, x)
		require.ErrorIs(t, err, mintlify.ErrInvalidInput, name)
		assertNoResult(t, got)
		var apiErr *mintlify.APIError
		assert.False(t, errors.As(err, &apiErr), name)
		assert.NotContains(t, err.Error(), testIndexKey[8:], name)
	}
	var nilClient *mintlify.IndexClient
	var nilCtx context.Context
	for _, m := range indexRows() {
		name, call := m.name, m.index
		for who, c := range map[string]*mintlify.IndexClient{"nil": nilClient, "zero": {}} {
			got, err := call(ctx, c)
			require.ErrorIs(t, err, mintlify.ErrInvalidInput, "%s on a %s IndexClient", name, who)
			assertNoResult(t, got)
		}
		got, err := call(nilCtx, x)
		require.ErrorIs(t, err, mintlify.ErrInvalidInput, "%s with a nil context", name)
		assertNoResult(t, got)
	}
	assert.Empty(t, s.requests(), "no request may be sent")

	// The boundaries themselves are sent.
	for name, call := range map[string]indexCallOf{
		"budget 1":        contextCall(mintlify.ContextParams{Query: " ", TokenBudget: 1}),
		"budget 6000":     contextCall(mintlify.ContextParams{Query: "q", TokenBudget: mintlify.IndexMaxTokenBudget}),
		"1 result":        searchCall(mintlify.IndexSearchParams{Query: "q", NumResults: 1}),
		"20 results":      searchCall(mintlify.IndexSearchParams{Query: "q", NumResults: mintlify.IndexMaxNumResults, MaxCharacters: 1}),
		"10 ids 10 urls":  contentsCall(mintlify.ContentsParams{IDs: indexItems(10, "example:/p"), URLs: indexItems(10, "https://a.example/p")}),
		"20 ids":          contentsCall(mintlify.ContentsParams{IDs: indexItems(mintlify.IndexMaxContentsItems, "example:/p")}),
		"1 url, 1 char":   contentsCall(mintlify.ContentsParams{URLs: []string{"http://a.example"}, MaxCharacters: 1}),
		"an id with keys": contentsCall(mintlify.ContentsParams{IDs: []string{"example:/a b?c#d"}}),
	} {
		_, err := call(ctx, x)
		require.NoError(t, err, name)
	}
	assert.Len(t, s.requests(), 8)
}

// indexSchemas are the members each request schema names, with their
// rules; every schema says additionalProperties: false and none is
// nullable.
var indexSchemas = map[string]struct {
	members  []string
	required []string
}{
	"/v1/context":  {[]string{"query", "product", "format", "includeDomains", "excludeDomains", "tokenBudget"}, []string{"query", "format"}},
	"/v1/search":   {[]string{"query", "numResults", "text", "includeDomains", "excludeDomains"}, []string{"query", "numResults"}},
	"/v1/contents": {[]string{"ids", "urls", "maxCharacters", "query"}, nil},
}

// checkIndexBody checks a request body the server received against its
// route's schema: no member it does not name, no null, the required ones,
// and each member's type and range.
func checkIndexBody(t *testing.T, route string, body []byte) {
	t.Helper()
	schema, ok := indexSchemas[route]
	require.True(t, ok, "route %s", route)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m), "%s", body)
	for k, v := range m {
		assert.Contains(t, schema.members, k, "%s: a member the schema does not name: %s", route, body)
		assert.NotNil(t, v, "%s: %s is null", route, k)
	}
	for _, k := range schema.required {
		assert.Contains(t, m, k, "%s: required %s missing", route, k)
	}
	str := func(k string) {
		if v, ok := m[k]; ok {
			s, isStr := v.(string)
			assert.True(t, isStr && s != "", "%s: %s must be a non-empty string: %v", route, k, v)
		}
	}
	integer := func(k string, lo, hi int64) {
		if v, ok := m[k]; ok {
			n, isNum := v.(json.Number)
			i, err := n.Int64()
			assert.True(t, isNum && err == nil && i >= lo && i <= hi, "%s: %s must be an integer in %d..%d: %v", route, k, lo, hi, v)
		}
	}
	list := func(k string, most int) int {
		v, ok := m[k]
		if !ok {
			return 0
		}
		items, isList := v.([]any)
		require.True(t, isList, "%s: %s must be an array", route, k)
		assert.NotEmpty(t, items, "%s: %s must not be empty", route, k)
		assert.LessOrEqual(t, len(items), most, "%s: %s", route, k)
		for _, item := range items {
			s, isStr := item.(string)
			assert.True(t, isStr && s != "", "%s: %s holds %v", route, k, item)
		}
		return len(items)
	}
	str("query")
	str("product")
	list("includeDomains", 1<<20)
	list("excludeDomains", 1<<20)
	switch route {
	case "/v1/context":
		assert.Contains(t, []any{"txt", "json"}, m["format"])
		integer("tokenBudget", 1, 6000)
	case "/v1/search":
		integer("numResults", 1, 20)
		switch text := m["text"].(type) {
		case nil, bool:
		case map[string]any:
			assert.Len(t, text, 1, "text: only maxCharacters")
			n, isNum := text["maxCharacters"].(json.Number)
			i, err := n.Int64()
			assert.True(t, isNum && err == nil && i >= 1, "text.maxCharacters: %v", text["maxCharacters"])
		default:
			t.Errorf("text is %T", text)
		}
	case "/v1/contents":
		n := list("ids", 20) + list("urls", 20)
		assert.True(t, n >= 1 && n <= 20, "%d ids and urls", n)
		integer("maxCharacters", 1, 1<<62)
	}
}

// TestIndexBodiesCarryOnlySchemaMembers: whatever the params, each call
// sends a JSON body that its route's schema accepts (it refuses unknown
// members): decoded from what the server received, with the values
// given. The search's text is always sent, as false when not asked for.
func TestIndexBodiesCarryOnlySchemaMembers(t *testing.T) {
	t.Parallel()
	s := startIndexServer(t, indexGood)
	x := s.client(t)
	ctx := context.Background()
	type sent struct {
		route string
		call  indexCallOf
		want  string
	}
	cases := map[string]sent{
		"context minimal": {"/v1/context", contextCall(mintlify.ContextParams{Query: "How do I cache?"}),
			`{"query":"How do I cache?","format":"txt"}`},
		"context full": {"/v1/context", contextCall(indexContextParams),
			`{"query":"How do I cache pages?","product":"Example","format":"json","excludeDomains":["blog.example.org"],"tokenBudget":500}`},
		"context empty lists and product": {"/v1/context", contextCall(mintlify.ContextParams{Query: "ü <&>", Format: "txt",
			IncludeDomains: []string{}, ExcludeDomains: []string{}, Product: ""}), `{"query":"ü <&>","format":"txt"}`},
		"search minimal": {"/v1/search", searchCall(mintlify.IndexSearchParams{Query: "caching", NumResults: 1}),
			`{"query":"caching","numResults":1,"text":false}`},
		"search full text": {"/v1/search", searchCall(mintlify.IndexSearchParams{Query: "q", NumResults: 20, Text: true,
			IncludeDomains: []string{"a.com", "b.org"}, ExcludeDomains: []string{"c.net"}}),
			`{"query":"q","numResults":20,"text":true,"includeDomains":["a.com","b.org"],"excludeDomains":["c.net"]}`},
		"search max characters": {"/v1/search", searchCall(indexSearchParams),
			`{"query":"caching","numResults":5,"text":{"maxCharacters":4000},"includeDomains":["docs.example.com"]}`},
		"contents ids": {"/v1/contents", contentsCall(mintlify.ContentsParams{IDs: []string{"example:/guides/caching"}}),
			`{"ids":["example:/guides/caching"]}`},
		"contents urls": {"/v1/contents", contentsCall(mintlify.ContentsParams{IDs: []string{}, URLs: []string{"https://blog.example.org/a?b=c"}}),
			`{"urls":["https://blog.example.org/a?b=c"]}`},
		"contents full": {"/v1/contents", contentsCall(indexContentsParams),
			`{"ids":["example:/guides/caching"],"urls":["https://blog.example.org/gone"],"maxCharacters":2000,"query":"revalidate"}`},
	}
	for name, c := range cases {
		before := len(s.requests())
		_, err := c.call(ctx, x)
		require.NoError(t, err, name)
		reqs := s.requests()[before:]
		require.Len(t, reqs, 1, name)
		r := reqs[0]
		assert.Equal(t, http.MethodPost, r.Method, name)
		assert.Equal(t, "/api/universal-search"+c.route, r.URL.Path, "%s: the base URL's /v1 is not doubled", name)
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"), name)
		assert.Equal(t, "Bearer "+testIndexKey, r.Header.Get("Authorization"), name)
		assert.JSONEq(t, c.want, string(r.Body), name)
		checkIndexBody(t, c.route, r.Body)
	}
}

// TestIndexDecodesNullAndAbsentOptionalMembers: a result's truncated and
// totalCharacters may be absent or null, its publishedDate null, absent
// or date-only; a failed item's httpStatusCode null or absent: each reads
// as its zero value (a zero time for no date), not as an error.
func TestIndexDecodesNullAndAbsentOptionalMembers(t *testing.T) {
	t.Parallel()
	with := func(set map[string]string) string {
		r := goodIndexResult
		for k, v := range set {
			r = withKey(t, r, k, v)
		}
		return r
	}
	results := []string{
		with(map[string]string{"truncated": "", "totalCharacters": "", "publishedDate": "null", "text": `""`}),
		with(map[string]string{"truncated": "null", "totalCharacters": "null", "publishedDate": ""}),
		with(map[string]string{"publishedDate": `"2025-08-19"`, "source": `"web"`, "breadcrumbs": "[]"}),
		goodIndexResult,
	}
	search := `{"requestId":"r","results":[` + strings.Join(results, ",") + `]}`
	contents := `{"requestId":"r","results":[` + strings.Join(results, ",") + `],"statuses":[` +
		`{"id":"a","status":"error","error":{"tag":"NOT_FOUND","httpStatusCode":null}},` +
		`{"id":"b","status":"error","error":{"tag":"NOT_FOUND"}},` +
		`{"id":"c","status":"error","error":{"tag":"CRAWL_FAILED","httpStatusCode":503}},` +
		`{"id":"d","status":"success"}]}`
	s := startIndexServer(t, func(_ int, path string) indexAnswer {
		if path == "/v1/search" {
			return indexAnswer{status: 200, body: search}
		}
		return indexAnswer{status: 200, body: contents}
	})
	x := s.client(t)
	ctx := context.Background()

	found, err := x.Search(ctx, mintlify.IndexSearchParams{Query: "caching", NumResults: 4, Text: true})
	require.NoError(t, err)
	fetched, err := x.Contents(ctx, mintlify.ContentsParams{IDs: []string{"a", "b", "c", "d"}})
	require.NoError(t, err)
	for _, got := range [][]mintlify.IndexResult{found.Results, fetched.Results} {
		require.Len(t, got, 4)
		assert.False(t, got[0].Truncated)
		assert.Zero(t, got[0].TotalCharacters)
		assert.True(t, got[0].PublishedDate.IsZero(), "null is no date")
		assert.Empty(t, got[0].Text)
		assert.False(t, got[1].Truncated)
		assert.Zero(t, got[1].TotalCharacters)
		assert.True(t, got[1].PublishedDate.IsZero(), "absent is no date")
		assert.Equal(t, time.Date(2025, 8, 19, 0, 0, 0, 0, time.UTC), got[2].PublishedDate, "a date-only date is its midnight UTC")
		assert.Equal(t, []string{}, got[2].Breadcrumbs)
		assert.Equal(t, "web", got[2].Source)
		assert.True(t, got[3].Truncated)
		assert.Equal(t, 938, got[3].TotalCharacters)
		assert.Equal(t, time.Date(2026, 3, 2, 10, 15, 0, 0, time.UTC), got[3].PublishedDate.UTC())
		assert.Equal(t, []string{"Guides", "Data"}, got[3].Breadcrumbs)
	}
	assert.Equal(t, []mintlify.ContentStatus{
		{ID: "a", Status: "error", ErrorTag: "NOT_FOUND"},
		{ID: "b", Status: "error", ErrorTag: "NOT_FOUND"},
		{ID: "c", Status: "error", ErrorTag: "CRAWL_FAILED", HTTPStatusCode: 503},
		{ID: "d", Status: "success"},
	}, fetched.Statuses)
}

// TestIndexContentsAnswersPartly: items the API could not fetch are
// statuses, in the API's order, and the call succeeds, even when no item
// was found; only the pages found are results.
func TestIndexContentsAnswersPartly(t *testing.T) {
	t.Parallel()
	const noneFound = `{"requestId":"r_2","results":[],"statuses":[` +
		`{"id":"example:/nope","status":"error","error":{"tag":"NOT_FOUND","httpStatusCode":null}}]}`
	s := startIndexServer(t, func(n int, _ string) indexAnswer {
		if n == 0 {
			return indexAnswer{status: 200, body: goodIndexContents}
		}
		return indexAnswer{status: 200, body: noneFound}
	})
	x := s.client(t)
	got, err := x.Contents(context.Background(), indexContentsParams)
	require.NoError(t, err, "a failed item is no error of the call")
	assert.Equal(t, "6d696e74-0000-4000-8000-000000000003", got.RequestID)
	require.Len(t, got.Results, 1)
	assert.Equal(t, "example:/guides/caching", got.Results[0].ID)
	assert.Zero(t, got.Results[0].Score-0.9618)
	assert.Equal(t, []mintlify.ContentStatus{
		{ID: "example:/guides/caching", Status: "success"},
		{ID: "https://blog.example.org/gone", Status: "error", ErrorTag: "CRAWL_NOT_FOUND", HTTPStatusCode: 404},
	}, got.Statuses)

	got, err = x.Contents(context.Background(), mintlify.ContentsParams{IDs: []string{"example:/nope"}})
	require.NoError(t, err, "every item failed: still statuses, not an error")
	assert.Empty(t, got.Results)
	assert.Equal(t, []mintlify.ContentStatus{{ID: "example:/nope", Status: "error", ErrorTag: "NOT_FOUND"}}, got.Statuses)
	assert.Len(t, s.requests(), 2, "no retry: the answer was a success")
}

// TestIndexRateLimitAtBothSidesOfTheMaximumWait: a 429 whose Retry-After
// is within the client's maximum wait (here equal to it) is waited out
// and the same request sent again, which succeeds; one a second beyond
// it, or the next day's date (the day's limit), is not slept on: the call
// returns at once with ErrRateLimited and APIError.RetryAfter, after one
// request.
func TestIndexRateLimitAtBothSidesOfTheMaximumWait(t *testing.T) {
	t.Parallel()
	const maxWait = time.Second
	for _, m := range indexRows() {
		name, call := m.name, m.index
		t.Run(name+"/within", func(t *testing.T) {
			t.Parallel()
			holdTimingSlot(t)
			s := startIndexServer(t, func(n int, path string) indexAnswer {
				if n == 0 {
					return indexAnswer{429, `{"error":"Rate limit exceeded. Please try again later"}`, []string{"Retry-After", "1"}}
				}
				return indexGood(n, path)
			})
			var attempts int
			x := s.client(t, mintlify.WithRetryWait(time.Millisecond, maxWait),
				mintlify.WithResponseObserver(func(_ context.Context, r *mintlify.Response) { attempts = r.Attempts }))
			got, err := call(context.Background(), x)
			require.NoError(t, err)
			assert.NotNil(t, got)
			reqs := s.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, 2, attempts, "the observer counts the retry: it spent a request of the quota")
			assert.GreaterOrEqual(t, reqs[1].At.Sub(reqs[0].At), time.Second, "the Retry-After was waited out")
			assert.Equal(t, reqs[0].Body, reqs[1].Body, "the same request again")
		})
		for beyond, retryAfter := range map[string]func() string{
			"beyond":       func() string { return "2" },
			"the next day": func() string { return time.Now().Add(20 * time.Hour).UTC().Format(http.TimeFormat) },
		} {
			t.Run(name+"/"+beyond, func(t *testing.T) {
				t.Parallel()
				holdTimingSlot(t)
				s := startIndexServer(t, indexAlways(429, `{"error":"Rate limit exceeded. Please try again later"}`, "Retry-After", retryAfter()))
				x := s.client(t, mintlify.WithRetryWait(time.Millisecond, maxWait), mintlify.WithMaxRetries(5))
				start := time.Now()
				got, err := call(context.Background(), x)
				assert.Less(t, time.Since(start), 900*time.Millisecond, "returned without waiting")
				assertNoResult(t, got)
				require.ErrorIs(t, err, mintlify.ErrRateLimited)
				var apiErr *mintlify.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Greater(t, apiErr.RetryAfter, maxWait)
				assert.Equal(t, "Rate limit exceeded. Please try again later", apiErr.Message)
				assert.Len(t, s.requests(), 1, "one request")
			})
		}
	}
}

// TestIndexErrorBodies: the Index's error body, {"error": "..."}, is the
// APIError's message, and a refusal that a retry cannot change (400, 401,
// 403) is not retried: a retry would spend another request of the day.
func TestIndexErrorBodies(t *testing.T) {
	t.Parallel()
	for status, msg := range map[int]string{
		400: "Invalid request body",
		401: "Unauthorized",
		403: "IP address is not allowed for this API key",
		413: "Payload Too Large",
	} {
		for _, m := range indexRows() {
			name, call := m.name, m.index
			s := startIndexServer(t, indexAlways(status, fmt.Sprintf(`{"error":%q}`, msg), "X-Request-Id", "req_7"))
			got, err := call(context.Background(), s.client(t))
			assertNoResult(t, got)
			var apiErr *mintlify.APIError
			require.ErrorAs(t, err, &apiErr, name)
			assert.Equal(t, status, apiErr.StatusCode, name)
			assert.Equal(t, msg, apiErr.Message, name)
			assert.Equal(t, "req_7", apiErr.RequestID, name)
			assert.ErrorIs(t, err, sentinelOf(status), name)
			assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "%s: a read", name)
			assert.Len(t, s.requests(), 1, "%s %d: not retried", name, status)
		}
	}
}
