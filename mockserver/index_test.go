package mockserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// idx sends a POST to the Index API (path after /api/universal-search)
// with the server's Index key unless headers say otherwise.
func (h *harness) idx(path, body string, headers ...string) *response {
	h.t.Helper()
	return h.do("POST", "/api/universal-search"+path, body, append([]string{"Authorization", "Bearer " + h.s.IndexKey()}, headers...)...)
}

// indexOK checks a 200 against the route's schema and that the Index sends
// no CORS header.
func indexOK(t *testing.T, r *response, schema, label string) {
	t.Helper()
	require.Equal(t, http.StatusOK, r.Status, "%s: %s", label, r.Body)
	validate(t, schema, r.Body)
	assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"), "the Index sends no CORS headers")
}

// Every answer of the three routes is valid against the project's schema
// written from index-openapi.json, whatever the request asks for.
func TestIndexAnswersMatchTheSchema(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	var ids, urls []string
	for _, body := range []string{
		`{"query":"caching","numResults":20}`,
		`{"query":"authentication","numResults":3,"text":true}`,
		`{"query":"rate limits","numResults":5,"text":{"maxCharacters":40}}`,
		`{"query":"deployment","numResults":1,"text":false,"includeDomains":["acme.dev"]}`,
		`{"query":"caching","numResults":20,"excludeDomains":["docs.example.com","blog.example.org"]}`,
		`{"query":"zzzz nothing here","numResults":4}`,
		`{"query":"日本語 ünïcödé","numResults":2,"text":true}`,
	} {
		r := h.idx("/v1/search", body)
		indexOK(t, r, "index-search", body)
		var res struct {
			Results []struct{ ID, URL, Source string }
		}
		r.decode(t, &res)
		for _, x := range res.Results {
			if x.Source == "mintlify" {
				ids = append(ids, x.ID)
			}
			urls = append(urls, x.URL)
		}
	}
	require.NotEmpty(t, ids)
	for _, body := range []string{
		`{"query":"caching","format":"txt"}`,
		`{"query":"caching","format":"json","tokenBudget":6000}`,
		`{"query":"authentication keys","format":"txt","tokenBudget":1}`,
		`{"query":"deployment","format":"json","product":"Acme","includeDomains":["acme.dev"]}`,
		`{"query":"nothing matches zzzz","format":"txt"}`,
	} {
		indexOK(t, h.idx("/v1/context", body), "index-context", body)
	}
	for _, body := range []string{
		fmt.Sprintf(`{"ids":%s}`, jsonList(ids[:min(len(ids), 20)])),
		fmt.Sprintf(`{"urls":%s,"maxCharacters":50,"query":"cache"}`, jsonList(urls[:min(len(urls), 20)])),
		fmt.Sprintf(`{"ids":["nope:/x",%q],"urls":["https://nowhere.example/x"]}`, ids[0]),
	} {
		indexOK(t, h.idx("/v1/contents", body), "index-contents", body)
	}
}

func jsonList(items []string) string {
	b, _ := json.Marshal(items)
	return string(b)
}

// Each documented refusal: the status and the vendor's {"error"} text,
// nothing else in the body.
func TestIndexRefusals(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	const bad = `{"error":"Invalid request body"}`
	twentyOne := make([]string, 21)
	for i := range twentyOne {
		twentyOne[i] = "acme:/p" + strconv.Itoa(i)
	}
	cases := []struct{ path, body, want string }{
		{"/v1/search", `{"query":"caching","numResults":3,"unknown":1}`, bad},
		{"/v1/search", `{"query":"caching","numResults":3,"Query":"x"}`, bad},
		{"/v1/search", `{"query":"caching"}`, bad},
		{"/v1/search", `{"query":"caching","numResults":0}`, bad},
		{"/v1/search", `{"query":"caching","numResults":21}`, bad},
		{"/v1/search", `{"query":"caching","numResults":2.5}`, bad},
		{"/v1/search", `{"query":"caching","numResults":"3"}`, bad},
		{"/v1/search", `{"query":"","numResults":3}`, bad},
		{"/v1/search", `{"query":"caching","numResults":3,"text":{"maxCharacters":0}}`, bad},
		{"/v1/search", `{"query":"caching","numResults":3,"text":{"max":5}}`, bad},
		{"/v1/search", `{"query":"caching","numResults":3,"text":"yes"}`, bad},
		{"/v1/search", `{"query":"caching","numResults":3,"includeDomains":[]}`, bad},
		{"/v1/search", `{"query":"caching","numResults":null}`, bad},
		{"/v1/search", `{"query":"caching","numResults":3,"numResults":4}`, bad},
		{"/v1/context", `{"query":"caching"}`, bad},
		{"/v1/context", `{"query":"caching","format":"md"}`, bad},
		{"/v1/context", `{"query":"caching","format":"txt","tokenBudget":0}`, bad},
		{"/v1/context", `{"query":"caching","format":"txt","tokenBudget":6001}`, bad},
		{"/v1/context", `{"query":"caching","format":"txt","excludeDomains":[""]}`, bad},
		{"/v1/contents", `{}`, bad},
		{"/v1/contents", `{"ids":[]}`, bad},
		{"/v1/contents", `{"urls":["not a url"]}`, bad},
		{"/v1/contents", `{"ids":["a"],"maxCharacters":0}`, bad},
		{"/v1/contents", `{"ids":` + jsonList(twentyOne) + `}`, `{"error":"A request may reference at most 20 items across urls and ids"}`},
		{"/v1/contents", `{"ids":` + jsonList(twentyOne[:15]) + `,"urls":` + jsonList([]string{"https://a.io/1", "https://a.io/2", "https://a.io/3", "https://a.io/4", "https://a.io/5", "https://a.io/6"}) + `}`, `{"error":"A request may reference at most 20 items across urls and ids"}`},
		{"/v1/contents", `[]`, bad},
		{"/v1/contents", ``, bad},
		{"/v1/contents", `{"ids":["a"]`, bad},
	}
	for _, c := range cases {
		r := h.idx(c.path, c.body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s %s: %s", c.path, c.body, r.Body)
		validate(t, "index-error", r.Body)
		assert.Equal(t, c.want, string(r.Body), c.body)
	}
	huge := h.idx("/v1/search", `{"query":"`+strings.Repeat("x", 2<<20)+`","numResults":1}`)
	assert.Equal(t, http.StatusRequestEntityTooLarge, huge.Status)
	validate(t, "index-error", huge.Body)
	unknown := h.idx("/v1/nowhere", `{}`)
	assert.Equal(t, http.StatusNotFound, unknown.Status)
	validate(t, "index-error", unknown.Body)
	// A refused request is numbered by no requestId: the next answer is the first.
	var ok struct{ RequestID string }
	h.idx("/v1/search", `{"query":"caching","numResults":1}`).decode(t, &ok)
	assert.Equal(t, "6d696e74-0000-4000-8000-000000000001", ok.RequestID)
}

// Keys: another kind of key is 401 {"error":"Unauthorized"}, so is an
// organization without Index access and an expired key; an address outside
// the allowlist is 403; Index keys open no admin or assistant route.
func TestIndexKeys(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock),
		mockserver.WithKey("mint_us_faraway", mockserver.KeySpec{AllowIPs: []string{"10.0.0.0/8"}}),
		mockserver.WithKey("mint_us_expiring", mockserver.KeySpec{ExpiresAt: epoch.Add(time.Minute)}))
	body := `{"query":"caching","numResults":1}`
	clock.Advance(time.Hour)
	for auth, want := range map[string]string{
		"Bearer " + h.s.APIKey():       `{"error":"Unauthorized"}`,
		"Bearer " + h.s.AssistantKey(): `{"error":"Unauthorized"}`,
		"Bearer mint_us_unknown":       `{"error":"Unauthorized"}`,
		"Bearer mint_us_expiring":      `{"error":"Unauthorized"}`,
		"":                             `{"error":"Unauthorized"}`,
		"Basic x":                      `{"error":"Unauthorized"}`,
		"Bearer mint_us_faraway":       `{"error":"IP address is not allowed for this API key"}`,
	} {
		r := h.idx("/v1/search", body, "Authorization", auth)
		require.GreaterOrEqual(t, r.Status, 400, auth)
		validate(t, "index-error", r.Body)
		assert.Equal(t, want, string(r.Body), auth)
		assert.Empty(t, r.Header.Get("Access-Control-Allow-Origin"))
	}
	indexOK(t, h.idx("/v1/search", body), "index-search", "the Index key")
	var k struct{ Key string }
	h.do("POST", "/_mock/keys", `{"type":"index"}`).decode(t, &k)
	require.True(t, strings.HasPrefix(k.Key, "mint_us_"), k.Key)
	indexOK(t, h.idx("/v1/search", body, "Authorization", "Bearer "+k.Key), "index-search", "a new Index key")
	r := h.asst(h.domainPath("/v1/search"), `{"query":"x"}`, "Authorization", "Bearer "+h.s.IndexKey())
	assert.Equal(t, http.StatusUnauthorized, r.Status)

	without := setup(t, mockserver.WithoutIndexAccess())
	r = without.idx("/v1/search", body)
	require.Equal(t, http.StatusUnauthorized, r.Status, "no Index access: %s", r.Body)
	assert.Equal(t, `{"error":"Unauthorized"}`, string(r.Body))
	assert.Equal(t, http.StatusOK, without.asst(without.domainPath("/v1/search"), `{"query":"x"}`).Status, "the assistant is another product")
}

// The limits, on the server's clock: the 11th request within a second is
// 429 with Retry-After, all Index keys of the organization together, and
// the day's 1,001st too; a refused request takes no slot.
func TestIndexLimits(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock))
	other, err := h.s.NewKey(mockserver.KeySpec{Type: mockserver.KeyIndex})
	require.NoError(t, err)
	body := `{"query":"caching","numResults":1}`
	for i := range 10 {
		key := h.s.IndexKey()
		if i%2 == 1 {
			key = other
		}
		require.Equal(t, http.StatusOK, h.idx("/v1/search", body, "Authorization", "Bearer "+key).Status, "request %d", i+1)
	}
	for _, rt := range routes(t, func(rt mockserver.RouteRow) bool { return rt.API == "index" }) {
		r := h.do(rt.Method, rt.Path, `{}`, "Authorization", "Bearer "+h.s.IndexKey())
		require.Equal(t, http.StatusTooManyRequests, r.Status, "%s: %s", rt.Path, r.Body)
		validate(t, "index-error", r.Body)
		assert.Equal(t, `{"error":"Rate limit exceeded. Please try again later"}`, string(r.Body))
		assert.Equal(t, "1", r.Header.Get("Retry-After"))
	}
	clock.Advance(time.Second)
	require.Equal(t, http.StatusOK, h.idx("/v1/search", body).Status, "the next second has room")

	// The rest of the day's 1,000, ten a second (11 used so far).
	for i := 11; i < 1000; i++ {
		if i%10 == 0 {
			clock.Advance(time.Second)
		}
		require.Equal(t, http.StatusOK, h.idx("/v1/search", body).Status, "request %d of the day", i+1)
	}
	clock.Advance(time.Second)
	r := h.idx("/v1/search", body)
	require.Equal(t, http.StatusTooManyRequests, r.Status, "the day's 1,001st: %s", r.Body)
	validate(t, "index-error", r.Body)
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	require.NoError(t, err)
	// The day's first request leaves the window after 24h-100s; the
	// limiter may answer up to a slice (1/63 of the window) later, never
	// sooner (internal/ratelimit).
	assert.GreaterOrEqual(t, retry, 24*3600-100, "not before the day's first request leaves the window")
	assert.LessOrEqual(t, retry, 24*3600-100+24*3600/63+1, "at most a slice of the window late")
	clock.Advance(time.Duration(retry) * time.Second)
	assert.Equal(t, http.StatusOK, h.idx("/v1/search", body).Status)
}

// context never spends more than its budget, tokens counted as ⌈runes/4⌉
// here (not with the mock's own function), and says what it spent.
func TestContextNeverExceedsItsBudget(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	tokens := func(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }
	for _, format := range []string{"txt", "json"} {
		for _, q := range []string{"caching", "authentication rate limits deployment", "keys"} {
			for _, budget := range []int{1, 2, 7, 40, 150, 400, 1000, 3000, 6000} {
				r := h.idx("/v1/context", fmt.Sprintf(`{"query":%q,"format":%q,"tokenBudget":%d}`, q, format, budget))
				indexOK(t, r, "index-context", q)
				var c struct {
					Query, Response            string
					ResultsCount, OutputTokens int
				}
				r.decode(t, &c)
				assert.LessOrEqual(t, tokens(c.Response), budget, "%s %s %d", format, q, budget)
				assert.Equal(t, tokens(c.Response), c.OutputTokens, "%s %s %d", format, q, budget)
				assert.Equal(t, q, c.Query)
				if format == "json" && c.Response != "" {
					assert.True(t, json.Valid([]byte(c.Response)), "a json context is serialized JSON")
				}
				if c.Response == "" {
					assert.Zero(t, c.ResultsCount)
				}
			}
		}
	}
	var def struct{ OutputTokens int }
	h.idx("/v1/context", `{"query":"caching authentication deployment rate limits","format":"txt"}`).decode(t, &def)
	assert.LessOrEqual(t, def.OutputTokens, 3000, "the default budget")
}

// contents answers one status per item in request order (ids, then urls,
// each list in its order), found items as results in the same order.
func TestContentsStatusesInRequestOrder(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	var found struct {
		Results []struct{ ID, URL, Source string }
	}
	h.idx("/v1/search", `{"query":"caching authentication deployment","numResults":20}`).decode(t, &found)
	var mint, web []string
	for _, r := range found.Results {
		if r.Source == "mintlify" {
			mint = append(mint, r.ID)
		} else {
			web = append(web, r.URL)
		}
	}
	require.GreaterOrEqual(t, len(mint), 2)
	require.NotEmpty(t, web)
	ids := []string{mint[1], "nope:/missing", mint[0], mint[1]}
	urls := []string{"https://nowhere.example/page", web[0]}
	r := h.idx("/v1/contents", fmt.Sprintf(`{"urls":%s,"ids":%s}`, jsonList(urls), jsonList(ids)))
	indexOK(t, r, "index-contents", "mixed")
	var c struct {
		Results  []struct{ ID, URL string }
		Statuses []struct {
			ID, Status string
			Error      *struct {
				Tag            string
				HTTPStatusCode *int
			}
		}
	}
	r.decode(t, &c)
	want := append(append([]string{}, ids...), urls...)
	require.Len(t, c.Statuses, len(want))
	var gotIDs, ok []string
	for i, s := range c.Statuses {
		gotIDs = append(gotIDs, s.ID)
		if s.Status == "success" {
			ok = append(ok, want[i])
			assert.Nil(t, s.Error)
		} else {
			require.NotNil(t, s.Error, s.ID)
		}
	}
	assert.Equal(t, want, gotIDs, "statuses in request order")
	assert.Equal(t, []string{mint[1], mint[0], mint[1], web[0]}, ok)
	require.Len(t, c.Results, 4)
	assert.Equal(t, web[0], c.Results[3].URL)
	assert.Nil(t, c.Statuses[1].Error.HTTPStatusCode, "an unknown ID was never fetched")
	require.NotNil(t, c.Statuses[4].Error.HTTPStatusCode)
	assert.Equal(t, 404, *c.Statuses[4].Error.HTTPStatusCode)
}

// FuzzIndexBody: whatever the body, the Index answers its schema or its
// error body, never a 5xx.
func FuzzIndexBody(f *testing.F) {
	for _, b := range []string{`{"query":"caching","numResults":3}`, `{"query":"q","numResults":1,"text":{"maxCharacters":1}}`,
		`{"query":"q","format":"json","tokenBudget":1}`, `{"ids":["acme:/quickstart"],"urls":["https://a.io"]}`, `{"text":null}`, "{", ""} {
		f.Add("/v1/search", b)
		f.Add("/v1/context", b)
		f.Add("/v1/contents", b)
	}
	s := mockserver.New(mockserver.WithoutRateLimits(), mockserver.WithJournalSize(16))
	f.Cleanup(s.Close)
	schema := map[string]string{"/v1/search": "index-search", "/v1/context": "index-context", "/v1/contents": "index-contents"}
	f.Fuzz(func(t *testing.T, path, body string) {
		if schema[path] == "" {
			return
		}
		req, _ := http.NewRequest("POST", "http://mock/api/universal-search"+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.IndexKey())
		resp, err := s.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b []byte
		b, _ = readAllClose(resp)
		switch {
		case resp.StatusCode == http.StatusOK:
			validate(t, schema[path], b)
		case resp.StatusCode >= 500:
			t.Fatalf("%d for %q: %s", resp.StatusCode, body, b)
		default:
			validate(t, "index-error", b)
		}
	})
}

func readAllClose(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
