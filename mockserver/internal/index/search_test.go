package index

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func ptr[T any](v T) *T { return &v }

func search(t *testing.T, st *Store, req SearchRequest) []Result {
	t.Helper()
	if req.NumResults == nil {
		req.NumResults = ptr(MaxNumResults)
	}
	resp, err := st.Search(req)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	return resp.Results
}

func ids(results []Result) []string {
	var out []string
	for _, r := range results {
		out = append(out, r.ID)
	}
	return out
}

func TestCorpusIsWellFormed(t *testing.T) {
	pages := NewStore().Pages()
	seen := map[string]bool{}
	sites := map[string]bool{}
	web := 0
	for _, p := range pages {
		if seen[p.ID] || seen[p.URL] && p.URL != p.ID {
			t.Errorf("%s: ID or URL given twice", p.ID)
		}
		seen[p.ID], seen[p.URL] = true, true
		u, err := url.Parse(p.URL)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			t.Errorf("%s: bad URL %q", p.ID, p.URL)
			continue
		}
		switch p.Source {
		case SourceMintlify:
			sites[p.SiteName] = true
			if p.ID != p.SiteName+":"+u.Path || !strings.Contains(u.Host, p.SiteName) {
				t.Errorf("%s: want the ID site:/path of %s", p.ID, p.URL)
			}
		case SourceWeb:
			web++
			if p.ID != p.URL || p.SiteName != u.Host {
				t.Errorf("%s: a web page's ID is its URL and its site name its host", p.ID)
			}
		default:
			t.Errorf("%s: source %q", p.ID, p.Source)
		}
		if p.Title == "" || strings.Count(p.Text, "\n\n") < 2 || p.Breadcrumbs == nil {
			t.Errorf("%s: wants a title, a few paragraphs and breadcrumbs (maybe empty)", p.ID)
		}
		if p.Published != "" && normalizeDate(p.Published) == p.Published {
			t.Errorf("%s: date %q does not parse", p.ID, p.Published)
		}
	}
	if len(sites) != 3 || len(pages)-web < 12 || web < 3 {
		t.Errorf("%d Mintlify pages over %d sites and %d web pages", len(pages)-web, len(sites), web)
	}
}

// Each of the topics users try first finds a page about it, ranked first.
func TestSearchFindsEachTopic(t *testing.T) {
	st := NewStore()
	for query, inTitle := range map[string]string{
		"caching": "cach", "authentication": "authentication", "rate limits": "rate limit", "deployment": "deploy",
		"revalidateTag": "caching", "PKCE": "oauth", "token bucket": "token bucket",
	} {
		results := search(t, st, SearchRequest{Query: query})
		if len(results) == 0 {
			t.Errorf("%q: nothing found", query)
			continue
		}
		if title := strings.ToLower(results[0].Title); !strings.Contains(title, inTitle) {
			t.Errorf("%q: first result %q", query, results[0].Title)
		}
		if results[0].Score != 1 {
			t.Errorf("%q: best score %v, want 1", query, results[0].Score)
		}
		for i, r := range results {
			if r.Score <= 0 || r.Score > 1 || i > 0 && r.Score > results[i-1].Score {
				t.Errorf("%q: scores %v out of (0, 1] or order", query, r.Score)
			}
		}
	}
}

func TestSearchIsDeterministicAndMayFindNothing(t *testing.T) {
	st := NewStore()
	a := search(t, st, SearchRequest{Query: "retry after a 429"})
	b := search(t, NewStore(), SearchRequest{Query: "retry after a 429"})
	if !slices.Equal(ids(a), ids(b)) {
		t.Errorf("two stores ranked differently: %v and %v", ids(a), ids(b))
	}
	for _, q := range []string{"zebra", "the and of", "!!!"} {
		resp, err := st.Search(SearchRequest{Query: q, NumResults: ptr(5)})
		if err != nil || resp.Results == nil || len(resp.Results) != 0 {
			t.Errorf("%q: %v, %v; want an empty list", q, resp, err)
		}
	}
}

func TestSearchDomainFiltersAndNumResults(t *testing.T) {
	st := NewStore()
	hosts := func(results []Result) []string {
		var out []string
		for _, r := range results {
			u, _ := url.Parse(r.URL)
			if !slices.Contains(out, u.Host) {
				out = append(out, u.Host)
			}
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		name, query      string
		include, exclude []string
		want             []string // hosts of the results
	}{
		{"subdomains of a domain", "caching", []string{"example.com"}, nil, []string{"docs.example.com"}},
		{"another domain", "caching", []string{"example.org"}, nil, []string{"blog.example.org", "www.example.org"}},
		{"an exact host", "authentication", []string{"docs.acme.dev"}, nil, []string{"docs.acme.dev"}},
		{"case, scheme and path ignored", "authentication", []string{"HTTPS://Docs.Acme.Dev/any/path"}, nil, []string{"docs.acme.dev"}},
		{"exclusion", "authentication", nil, []string{"developers.widget.io"}, []string{"docs.acme.dev"}},
		{"exclusion wins", "rate limits", []string{"acme.dev", "widget.io"}, []string{"docs.acme.dev"}, []string{"developers.widget.io"}},
		{"a suffix is not a subdomain", "caching", []string{"ample.com"}, nil, nil},
		{"nowhere", "caching", []string{"nowhere.test"}, nil, nil},
	}
	for _, c := range cases {
		got := hosts(search(t, st, SearchRequest{Query: c.query, IncludeDomains: c.include, ExcludeDomains: c.exclude}))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: hosts %v, want %v", c.name, got, c.want)
		}
	}
	all := search(t, st, SearchRequest{Query: "caching"})
	for _, n := range []int{1, 2, len(all), MaxNumResults} {
		got := search(t, st, SearchRequest{Query: "caching", NumResults: ptr(n)})
		if len(got) != min(n, len(all)) || !slices.Equal(ids(got), ids(all[:len(got)])) {
			t.Errorf("numResults %d: %v", n, ids(got))
		}
	}
}

// acme:/quickstart has multi-byte characters: lengths are in runes.
func TestSearchTextModes(t *testing.T) {
	st := NewStore()
	page := st.pages[st.byID["acme:/quickstart"]]
	total := utf8.RuneCountInString(page.Text)
	if total == len(page.Text) {
		t.Fatal("the test page must hold multi-byte characters")
	}
	find := func(text Text) Result {
		for _, r := range search(t, st, SearchRequest{Query: "test charge currency", Text: text, IncludeDomains: []string{"docs.acme.dev"}}) {
			if r.ID == page.ID {
				return r
			}
		}
		t.Fatalf("text %+v: %s not found", text, page.ID)
		return Result{}
	}
	cutAt := strings.Index(page.Text, "€") + len("€")
	cases := []struct {
		text      Text
		want      string
		truncated *bool
	}{
		{Text{}, "", nil},
		{Text{Include: true}, page.Text, ptr(false)},
		{Text{Include: true, MaxCharacters: utf8.RuneCountInString(page.Text[:cutAt])}, page.Text[:cutAt], ptr(true)},
		{Text{Include: true, MaxCharacters: 1}, page.Text[:1], ptr(true)},
		{Text{Include: true, MaxCharacters: total}, page.Text, ptr(false)},
		{Text{Include: true, MaxCharacters: 1 << 30}, page.Text, ptr(false)},
	}
	for _, c := range cases {
		r := find(c.text)
		if r.Text != c.want {
			t.Errorf("text %+v: %q, want %q", c.text, r.Text, c.want)
		}
		if c.truncated == nil {
			if r.Truncated != nil || r.TotalCharacters != nil {
				t.Errorf("text %+v: truncated and totalCharacters given", c.text)
			}
			continue
		}
		if r.Truncated == nil || *r.Truncated != *c.truncated || r.TotalCharacters == nil || *r.TotalCharacters != total {
			t.Errorf("text %+v: truncated %v, total %v; want %v, %d", c.text, r.Truncated, r.TotalCharacters, *c.truncated, total)
		}
	}
}

// Answers carry exactly the schema's members: required ones always,
// optional ones only when they apply, null where the schema allows it.
func TestAnswersHaveTheSchemaMembers(t *testing.T) {
	st := NewStore()
	keys := func(v any) []string {
		b, _ := json.Marshal(v)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	required := []string{"breadcrumbs", "id", "publishedDate", "score", "siteName", "source", "text", "title", "url"}
	withText := append(slices.Clone(required), "totalCharacters", "truncated")
	slices.Sort(withText)

	plain := search(t, st, SearchRequest{Query: "webhooks"})
	full := search(t, st, SearchRequest{Query: "webhooks", Text: Text{Include: true}})
	if got := keys(plain[0]); !slices.Equal(got, required) {
		t.Errorf("text false: %v", got)
	}
	if got := keys(full[0]); !slices.Equal(got, withText) {
		t.Errorf("text true: %v", got)
	}
	resp, _ := st.Search(SearchRequest{Query: "webhooks", NumResults: ptr(1)})
	if got := keys(resp); !slices.Equal(got, []string{"requestId", "results"}) {
		t.Errorf("search answer: %v", got)
	}
	ctx, _ := st.Context(ContextRequest{Query: "webhooks", Format: FormatTxt})
	if got := keys(ctx); !slices.Equal(got, []string{"outputTokens", "query", "requestId", "response", "resultsCount"}) {
		t.Errorf("context answer: %v", got)
	}
	b, _ := json.Marshal(search(t, st, SearchRequest{Query: "blue-green"})[0])
	if !strings.Contains(string(b), `"publishedDate":null`) || !strings.Contains(string(b), `"breadcrumbs":[]`) {
		t.Errorf("undated web page: %s", b)
	}
}

func TestPublishedDates(t *testing.T) {
	st := NewStore()
	const token = "https://notes.example.net/posts/token-bucket"
	const quick = "acme:/quickstart"
	date := func(r Result) string {
		if r.PublishedDate == nil {
			return "null"
		}
		return *r.PublishedDate
	}
	for _, r := range search(t, st, SearchRequest{Query: "token bucket quickstart"}) {
		if _, err := time.Parse("2006-01-02T15:04:05.000Z", date(r)); err != nil && date(r) != "null" {
			t.Errorf("search %s: %s is not a normalized timestamp", r.ID, date(r))
		}
	}
	resp, err := st.Contents(ContentsRequest{IDs: []string{quick}, URLs: []string{token, "https://docs.acme.dev/quickstart"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2026-01-12T09:00:00.000Z", "2025-03-04T07:20:00+01:00", "2026-01-12T09:00:00Z"}
	for i, r := range resp.Results {
		if date(r) != want[i] {
			t.Errorf("contents %s: %s, want %s (by ID normalized, by URL as the source wrote it)", r.ID, date(r), want[i])
		}
	}
}

func TestContentsStatusesInRequestOrder(t *testing.T) {
	st := NewStore()
	resp, err := st.Contents(ContentsRequest{
		IDs: []string{"widget:/auth/oauth", "acme:/missing", "https://blog.example.org/http-caching-headers", "widget:/auth/oauth"},
		URLs: []string{"https://nowhere.test/page", "HTTPS://Docs.Acme.Dev/api-reference/rate-limits/#retry",
			"https://blog.example.org/http-caching-headers"},
	})
	if err != nil {
		t.Fatal(err)
	}
	type status struct {
		id, status, tag string
		code            *int
	}
	want := []status{
		{"widget:/auth/oauth", StatusSuccess, "", nil},
		{"acme:/missing", StatusError, TagNotFound, nil},
		{"https://blog.example.org/http-caching-headers", StatusError, TagNotFound, nil}, // a web ID belongs in urls
		{"widget:/auth/oauth", StatusSuccess, "", nil},
		{"https://nowhere.test/page", StatusError, TagCrawlNotFound, ptr(404)},
		{"HTTPS://Docs.Acme.Dev/api-reference/rate-limits/#retry", StatusSuccess, "", nil},
		{"https://blog.example.org/http-caching-headers", StatusSuccess, "", nil},
	}
	if len(resp.Statuses) != len(want) {
		t.Fatalf("%d statuses, want %d", len(resp.Statuses), len(want))
	}
	for i, w := range want {
		s := resp.Statuses[i]
		got := status{s.ID, s.Status, "", nil}
		if s.Error != nil {
			got.tag, got.code = s.Error.Tag, s.Error.HTTPStatusCode
		}
		if got.id != w.id || got.status != w.status || got.tag != w.tag || (got.code == nil) != (w.code == nil) ||
			got.code != nil && *got.code != *w.code {
			t.Errorf("status %d: %+v, want %+v", i, got, w)
		}
	}
	wantResults := []string{"widget:/auth/oauth", "widget:/auth/oauth", "acme:/api-reference/rate-limits",
		"https://blog.example.org/http-caching-headers"}
	if got := ids(resp.Results); !slices.Equal(got, wantResults) {
		t.Errorf("results %v, want %v", got, wantResults)
	}
	for _, r := range resp.Results {
		if r.Score != 0 || r.Text != st.pages[st.byURL[canonicalURL(r.URL)]].Text || *r.Truncated {
			t.Errorf("%s: score %v, truncated %v; want 0 and the whole text", r.ID, r.Score, *r.Truncated)
		}
	}
	b, _ := json.Marshal(resp.Statuses)
	for _, part := range []string{`{"id":"widget:/auth/oauth","status":"success"}`,
		`"error":{"tag":"NOT_FOUND","httpStatusCode":null}`, `"error":{"tag":"CRAWL_NOT_FOUND","httpStatusCode":404}`} {
		if !strings.Contains(string(b), part) {
			t.Errorf("statuses %s lack %s", b, part)
		}
	}

	none, _ := st.Contents(ContentsRequest{IDs: []string{"nope"}})
	if b, _ := json.Marshal(none); !strings.Contains(string(b), `"results":[]`) {
		t.Errorf("nothing found: %s", b)
	}
}

func TestContentsMaxCharactersAndQuery(t *testing.T) {
	st := NewStore()
	const id = "example:/guides/caching"
	page := st.pages[st.byID[id]]
	total := utf8.RuneCountInString(page.Text)
	get := func(limit int, query string) Result {
		req := ContentsRequest{IDs: []string{id}, MaxCharacters: ptr(limit)}
		if query != "" {
			req.Query = &query
		}
		resp, err := st.Contents(req)
		if err != nil {
			t.Fatal(err)
		}
		r := resp.Results[0]
		if utf8.RuneCountInString(r.Text) > limit || *r.TotalCharacters != total ||
			*r.Truncated != (utf8.RuneCountInString(r.Text) < total) {
			t.Errorf("max %d, query %q: %d characters, truncated %v, total %d",
				limit, query, utf8.RuneCountInString(r.Text), *r.Truncated, *r.TotalCharacters)
		}
		return r
	}
	if r := get(100, ""); r.Text != page.Text[:100] {
		t.Errorf("no query: %q, want the first 100 characters", r.Text)
	}
	if r := get(300, "zebra"); r.Text != page.Text[:300] {
		t.Errorf("a query matching nothing: %q, want the first 300 characters", r.Text)
	}
	// The paragraph about revalidateTag is the third: the query selects it.
	if r := get(300, "revalidateTag webhook"); !strings.HasPrefix(r.Text, "For content that must change at once") {
		t.Errorf("query: %q, want the revalidateTag paragraph", r.Text)
	}
	// Room for several paragraphs: whole ones, in page order.
	paragraphs := strings.Split(page.Text, "\n\n")
	last := -1
	parts := strings.Split(get(700, "revalidate cached data").Text, "\n\n")
	for _, part := range parts {
		at := slices.Index(paragraphs, part)
		if at <= last {
			t.Errorf("several paragraphs: %q is not a whole paragraph after the previous one", part)
		}
		last = at
	}
	if len(parts) < 2 {
		t.Errorf("several paragraphs: only %d", len(parts))
	}
	if r := get(total, "zebra"); *r.Truncated || r.Text != page.Text {
		t.Errorf("max = total: truncated %v", *r.Truncated)
	}
}

func TestRequestIDsCountAnswers(t *testing.T) {
	st := NewStore()
	first, _ := st.Search(SearchRequest{Query: "caching", NumResults: ptr(1)})
	if _, err := st.Search(SearchRequest{Query: "caching"}); err == nil {
		t.Fatal("a request without numResults was answered")
	}
	second, _ := st.Contents(ContentsRequest{IDs: []string{"acme:/quickstart"}})
	third, _ := st.Context(ContextRequest{Query: "caching", Format: FormatJSON})
	got := []string{first.RequestID, second.RequestID, third.RequestID}
	want := []string{"6d696e74-0000-4000-8000-000000000001", "6d696e74-0000-4000-8000-000000000002",
		"6d696e74-0000-4000-8000-000000000003"}
	if !slices.Equal(got, want) {
		t.Errorf("IDs %v, want %v (refused requests take none)", got, want)
	}
	st.Reset()
	if again, _ := st.Search(SearchRequest{Query: "caching", NumResults: ptr(1)}); again.RequestID != want[0] {
		t.Errorf("after Reset: %s", again.RequestID)
	}
}

func TestConcurrentAnswersHaveDistinctIDs(t *testing.T) {
	st := NewStore()
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				var id string
				switch g % 3 {
				case 0:
					r, _ := st.Search(SearchRequest{Query: "rate limits", NumResults: ptr(3), Text: Text{Include: true}})
					id = r.RequestID
				case 1:
					r, _ := st.Contents(ContentsRequest{IDs: []string{"acme:/quickstart", "x"}})
					id = r.RequestID
				default:
					r, _ := st.Context(ContextRequest{Query: "deployment", Format: FormatTxt, TokenBudget: ptr(50)})
					id = r.RequestID
				}
				mu.Lock()
				seen[id] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 160 {
		t.Errorf("%d distinct request IDs for 160 answers", len(seen))
	}
}
