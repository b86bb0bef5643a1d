package assistant

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// mustStatus fails unless err is an *Error with the status.
func mustStatus(t *testing.T, err error, status int, what string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Status != status {
		t.Errorf("%s: got %v, want a %d", what, err, status)
	}
}

// The score is BM25 normalized by the best match, computed here again from
// the formula in the package doc, on words the tokenizer leaves alone (no
// stop words, no plurals), so strings.Fields is the tokenizer.
func TestScoreIsNormalizedBM25(t *testing.T) {
	pages := []Page{
		{Path: "a", Title: "alpha", Content: "alpha beta gamma\n\ndelta alpha"},
		{Path: "b", Title: "beta", Content: "beta beta epsilon zeta"},
		{Path: "c", Title: "gamma", Content: "zeta eta theta iota kappa lambda alpha"},
		{Path: "d", Title: "omega", Content: "eta theta"},
	}
	s := NewStore(DefaultDomain, 1)
	if _, err := s.AddPages("bm25.test", pages); err != nil {
		t.Fatal(err)
	}
	const query = "alpha beta"
	got, err := s.Search("bm25.test", SearchRequest{Query: query})
	if err != nil {
		t.Fatal(err)
	}

	docs := map[string][]string{}
	total := 0
	for _, p := range pages {
		docs[p.Path] = strings.Fields(p.Title + " " + p.Content)
		total += len(docs[p.Path])
	}
	n, avgdl := float64(len(pages)), float64(total)/float64(len(pages))
	raw := map[string]float64{}
	for _, q := range strings.Fields(query) {
		df := 0.0
		for _, d := range docs {
			if slices.Contains(d, q) {
				df++
			}
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for path, d := range docs {
			f := 0.0
			for _, w := range d {
				if w == q {
					f++
				}
			}
			raw[path] += idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(len(d))/avgdl))
		}
	}
	best := 0.0
	for _, v := range raw {
		best = max(best, v)
	}
	want := map[string]float64{}
	for path, v := range raw {
		if v > 0 {
			want[path] = v / best
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %d results, want %d (%v)", len(got), len(want), want)
	}
	for i, r := range got {
		if math.Abs(r.Metadata.Score-want[r.Path]) > 1e-12 {
			t.Errorf("%s: score %v, want %v", r.Path, r.Metadata.Score, want[r.Path])
		}
		if i > 0 && r.Metadata.Score > got[i-1].Metadata.Score {
			t.Errorf("results out of order: %s after %s", r.Path, got[i-1].Path)
		}
	}
	if got[0].Metadata.Score != 1 {
		t.Errorf("the best match scores %v, want 1", got[0].Metadata.Score)
	}
	if r := got[slices.IndexFunc(got, func(r Result) bool { return r.Path == "c" })]; r.Content != "zeta eta theta iota kappa lambda alpha" || r.Metadata.Title != "gamma" {
		t.Errorf("result c: %+v", r)
	}
}

func TestSearchRanksThresholdsAndPages(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	search := func(q string, size *int, threshold *float64) []string {
		t.Helper()
		res, err := s.Search(DefaultDomain, SearchRequest{Query: q, PageSize: size, ScoreThreshold: threshold})
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, r := range res {
			paths = append(paths, r.Path)
		}
		return paths
	}
	if got := search("Rate limits", nil, nil); len(got) == 0 || got[0] != "rate-limits" {
		t.Errorf("rate limits: %v, want rate-limits first", got)
	}
	if got := search("What is the capital of France?", nil, nil); len(got) != 0 {
		t.Errorf("a question the docs do not cover found %v", got)
	}
	all := search("deployment branch preview", nil, nil)
	if len(all) < 3 {
		t.Fatalf("deployment branch preview: %v, want at least 3 pages", all)
	}
	if got := search("deployment branch preview", ptr(2), nil); !slices.Equal(got, all[:2]) {
		t.Errorf("pageSize 2: %v, want %v", got, all[:2])
	}
	if got := search("deployment branch preview", nil, ptr(1.0)); !slices.Equal(got, all[:1]) {
		t.Errorf("threshold 1: %v, want only the best, %v", got, all[:1])
	}
	res, _ := s.Search(DefaultDomain, SearchRequest{Query: "deployment branch preview", ScoreThreshold: ptr(0.5)})
	for _, r := range res {
		if r.Metadata.Score < 0.5 {
			t.Errorf("threshold 0.5 kept %s at %v", r.Path, r.Metadata.Score)
		}
	}
	if len(res) == len(all) {
		t.Error("threshold 0.5 dropped nothing; the test needs a weaker match")
	}
	for name, req := range map[string]SearchRequest{
		"empty query":     {Query: "  "},
		"pageSize 0":      {Query: "x", PageSize: ptr(0)},
		"pageSize 51":     {Query: "x", PageSize: ptr(51)},
		"threshold -0.1":  {Query: "x", ScoreThreshold: ptr(-0.1)},
		"threshold 1.5":   {Query: "x", ScoreThreshold: ptr(1.5)},
		"threshold NaN":   {Query: "x", ScoreThreshold: ptr(math.NaN())},
		"everything else": {PageSize: ptr(99), ScoreThreshold: ptr(2.0)},
	} {
		_, err := s.Search(DefaultDomain, req)
		mustStatus(t, err, 400, name)
	}
	if res, err := s.Search("unknown.example", SearchRequest{Query: "deployment"}); err != nil || res == nil || len(res) != 0 {
		t.Errorf("unknown domain: %v, %v; want an empty, non-nil list", res, err)
	}
}

func TestSearchFiltersAndGroups(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	_, err := s.AddPages("filters.test", []Page{
		{Path: "plain", Title: "Widget", Content: "widget"},
		{Path: "v1", Title: "Widget", Content: "widget", Version: "v1"},
		{Path: "v2-fr", Title: "Widget", Content: "widget", Version: "v2", Language: "fr"},
		{Path: "tagged", Title: "Widget", Content: "widget", Tags: []string{"sdk", "go"}},
		{Path: "staff", Title: "Widget", Content: "widget", Groups: []string{"staff", "admins"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		filter Filter
		want   []string
	}{
		{Filter{}, []string{"plain", "tagged", "v1", "v2-fr"}},
		{Filter{Version: "v1"}, []string{"v1"}},
		{Filter{Version: "v2", Language: "fr"}, []string{"v2-fr"}},
		{Filter{Version: "v1", Language: "fr"}, nil},
		{Filter{Language: "en"}, nil},
		{Filter{Tag: "go"}, []string{"tagged"}},
		{Filter{Groups: []string{"admins"}}, []string{"plain", "staff", "tagged", "v1", "v2-fr"}},
		{Filter{Groups: []string{"other"}}, []string{"plain", "tagged", "v1", "v2-fr"}},
		{Filter{Tag: "go", Groups: []string{"staff"}}, []string{"tagged"}},
	} {
		res, err := s.Search("filters.test", SearchRequest{Query: "widget", Filter: c.filter})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res {
			got = append(got, r.Path)
			if r.Metadata.Score != 1 {
				t.Errorf("%+v: equal pages score %v, want 1 each", c.filter, r.Metadata.Score)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("filter %+v: %v, want %v (ties by path)", c.filter, got, c.want)
		}
	}
	res, _ := s.Search(DefaultDomain, SearchRequest{Query: "incident runbook"})
	if len(res) != 0 {
		t.Errorf("the staff runbook was found without the staff group: %v", res)
	}
	res, _ = s.Search(DefaultDomain, SearchRequest{Query: "incident runbook", Filter: Filter{Groups: []string{"staff"}}})
	if len(res) != 1 || res[0].Path != "internal/runbook" {
		t.Errorf("with the staff group: %v, want the runbook", res)
	}
}

func TestResultContentIsTheBestParagraph(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	for _, c := range []struct{ query, path, starts string }{
		{"429 Retry-After", "rate-limits", "A request over a limit is answered with 429"},
		{"rate limits", "rate-limits", "The API limits how many requests"},
		// A heading alone is joined to its paragraph.
		{"package manager", "quickstart", "## Install\nInstall the command line tool"},
		// Only the title matches: the first paragraph.
		{"quickstart", "quickstart", "Get your documentation site running"},
	} {
		res, err := s.Search(DefaultDomain, SearchRequest{Query: c.query, PageSize: ptr(1)})
		if err != nil || len(res) != 1 {
			t.Fatalf("%q: %v, %v", c.query, res, err)
		}
		if res[0].Path != c.path || !strings.HasPrefix(res[0].Content, c.starts) {
			t.Errorf("%q: %s %q, want %s starting %q", c.query, res[0].Path, res[0].Content, c.path, c.starts)
		}
	}
}

func TestTokens(t *testing.T) {
	got := tokens("How do I rotate API Keys? Entries, status, access: the LIMITS")
	want := []string{"rotate", "api", "key", "entry", "status", "access", "limit"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens = %v, want %v", got, want)
	}
	if n := len(queryTerms(manyWords(200))); n != MaxQueryTerms {
		t.Errorf("a long query keeps %d terms, want %d", n, MaxQueryTerms)
	}
}

func manyWords(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("w")
		b.WriteString(strings.Repeat("z", i%7+1))
		b.WriteByte(byte('a' + i%26))
		b.WriteByte(byte('a' + i/26))
		b.WriteByte(' ')
	}
	return b.String()
}
