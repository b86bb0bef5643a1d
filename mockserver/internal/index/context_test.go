package index

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// contextItems reads the json format's response.
func contextItems(t *testing.T, response string) []section {
	t.Helper()
	if response == "" {
		return nil
	}
	var v struct {
		Results []section `json:"results"`
	}
	if err := json.Unmarshal([]byte(response), &v); err != nil {
		t.Fatalf("the json format does not parse: %v\n%s", err, response)
	}
	return v.Results
}

// The budget holds for every budget and format: tokens counted here on
// their own, as ⌈characters / 4⌉.
func TestContextNeverExceedsItsBudget(t *testing.T) {
	st := NewStore()
	budgets := []int{1, 2, 7, 100, 3000, 6000}
	rng := rand.New(rand.NewPCG(20, 26))
	for range 15 {
		budgets = append(budgets, 1+rng.IntN(MaxTokenBudget))
	}
	queries := []string{"caching", "authentication", "rate limits", "deployment", "how do retries work after a 429"}
	for _, format := range []string{FormatTxt, FormatJSON} {
		for _, q := range queries {
			for _, budget := range budgets {
				resp, err := st.Context(ContextRequest{Query: q, Format: format, TokenBudget: ptr(budget)})
				if err != nil {
					t.Fatal(err)
				}
				tokens := int(math.Ceil(float64(utf8.RuneCountInString(resp.Response)) / 4))
				if tokens > budget || resp.OutputTokens != tokens {
					t.Errorf("%s %q budget %d: %d tokens, outputTokens %d", format, q, budget, tokens, resp.OutputTokens)
				}
				count := strings.Count(resp.Response, "\n\nSource: https://")
				if format == FormatJSON {
					count = len(contextItems(t, resp.Response))
				}
				if resp.ResultsCount != count || (count == 0) != (resp.Response == "") {
					t.Errorf("%s %q budget %d: resultsCount %d, %d pages in the response", format, q, budget, resp.ResultsCount, count)
				}
				if budget >= 100 && count == 0 {
					t.Errorf("%s %q budget %d: nothing", format, q, budget)
				}
				if resp.Query != q {
					t.Errorf("query %q echoed as %q", q, resp.Query)
				}
			}
		}
	}
}

// Pages come in search order, the last one maybe cut at a word's end.
func TestContextFollowsTheRanking(t *testing.T) {
	st := NewStore()
	ranked := search(t, st, SearchRequest{Query: "caching", Text: Text{Include: true}})
	resp, _ := st.Context(ContextRequest{Query: "caching", Format: FormatJSON, TokenBudget: ptr(400)})
	items := contextItems(t, resp.Response)
	if len(items) < 2 {
		t.Fatalf("%d pages in 400 tokens", len(items))
	}
	for i, it := range items {
		want := ranked[i]
		if it.URL != want.URL || it.Title != want.Title || it.SiteName != want.SiteName {
			t.Errorf("page %d: %s, want %s", i, it.URL, want.URL)
		}
		if i < len(items)-1 && it.Text != want.Text {
			t.Errorf("page %d is not whole", i)
		}
	}
	last := items[len(items)-1]
	full := ranked[len(items)-1].Text
	if !strings.HasPrefix(full, last.Text) || last.Text == "" {
		t.Errorf("the last page is not a beginning of its text: %q", last.Text)
	}
	if rest := full[len(last.Text):]; rest != "" && !strings.ContainsAny(rest[:1], " \n") {
		t.Errorf("the last page ends mid-word: ...%q|%q", last.Text[max(0, len(last.Text)-20):], rest[:min(10, len(rest))])
	}

	txt, _ := st.Context(ContextRequest{Query: "caching", Format: FormatTxt})
	top := ranked[0]
	if !strings.HasPrefix(txt.Response, "## "+top.Title+"\n\nSource: "+top.URL+"\n\n"+top.Text) {
		t.Errorf("txt does not open with the best page:\n%.300s", txt.Response)
	}
	explicit, _ := st.Context(ContextRequest{Query: "caching", Format: FormatTxt, TokenBudget: ptr(DefaultTokenBudget)})
	if txt.Response != explicit.Response || txt.OutputTokens > DefaultTokenBudget {
		t.Errorf("no budget is not the default budget of %d", DefaultTokenBudget)
	}
}

func TestContextFiltersAndProduct(t *testing.T) {
	st := NewStore()
	sites := func(req ContextRequest) map[string]bool {
		req.Format = FormatJSON
		req.TokenBudget = ptr(MaxTokenBudget)
		resp, err := st.Context(req)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, it := range contextItems(t, resp.Response) {
			out[it.SiteName] = true
		}
		return out
	}
	for _, product := range []string{"Acme", "ACME", " acme "} {
		if got := sites(ContextRequest{Query: "authentication", Product: &product}); len(got) != 1 || !got["acme"] {
			t.Errorf("product %q: sites %v, want acme only", product, got)
		}
	}
	unknown := "Unknown Corp"
	if got, all := sites(ContextRequest{Query: "authentication", Product: &unknown}), sites(ContextRequest{Query: "authentication"}); len(got) != len(all) || len(all) < 2 {
		t.Errorf("an unknown product changed the answer: %v vs %v", got, all)
	}
	if got := sites(ContextRequest{Query: "caching", IncludeDomains: []string{"widget.io"}}); len(got) != 1 || !got["widget"] {
		t.Errorf("includeDomains: %v", got)
	}
	if got := sites(ContextRequest{Query: "caching", ExcludeDomains: []string{"example.com", "example.org"}}); got["example"] || got["blog.example.org"] {
		t.Errorf("excludeDomains: %v", got)
	}

	none, _ := st.Context(ContextRequest{Query: "zebra", Format: FormatJSON})
	if none.Response != "" || none.ResultsCount != 0 || none.OutputTokens != 0 {
		t.Errorf("no match: %+v", none)
	}
}
