package mintlify_test

// The Index API's three calls as rows of the method table (methods_test.go),
// so that every check of the table (the request sent, statuses, retries,
// hostile answers, echoed keys, contexts, redirects, invalid input, fuzzing)
// covers them. The table's clients are admin clients; IndexClientOf (a test
// hook, export_test.go) runs the Index calls over their request path.

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	mintlify "github.com/docsagent/mintlify-go"
)

const (
	goodIndexResult = `{"id":"example:/guides/caching","url":"https://docs.example.com/guides/caching",` +
		`"title":"Caching and revalidation","text":"Example caches the result of every data fetch.","truncated":true,` +
		`"totalCharacters":938,"score":0.9618,"source":"mintlify","siteName":"example","breadcrumbs":["Guides","Data"],` +
		`"publishedDate":"2026-03-02T10:15:00.000Z"}`
	goodIndexContext = `{"requestId":"6d696e74-0000-4000-8000-000000000001","query":"How do I cache pages?",` +
		`"response":"## Caching and revalidation\n\nSource: https://docs.example.com/guides/caching\n\nExample caches.",` +
		`"resultsCount":1,"outputTokens":24}`
	goodIndexSearch   = `{"requestId":"6d696e74-0000-4000-8000-000000000002","results":[` + goodIndexResult + `]}`
	goodIndexContents = `{"requestId":"6d696e74-0000-4000-8000-000000000003","results":[` + goodIndexResult + `],` +
		`"statuses":[{"id":"example:/guides/caching","status":"success"},` +
		`{"id":"https://blog.example.org/gone","status":"error","error":{"tag":"CRAWL_NOT_FOUND","httpStatusCode":404}}]}`
)

// The table's calls, with every optional member set.
var (
	indexContextParams = mintlify.ContextParams{Query: "How do I cache pages?", Product: "Example", Format: "json",
		ExcludeDomains: []string{"blog.example.org"}, TokenBudget: 500}
	indexSearchParams = mintlify.IndexSearchParams{Query: "caching", NumResults: 5, MaxCharacters: 4000,
		IncludeDomains: []string{"docs.example.com"}}
	indexContentsParams = mintlify.ContentsParams{IDs: []string{"example:/guides/caching"},
		URLs: []string{"https://blog.example.org/gone"}, MaxCharacters: 2000, Query: "revalidate"}
)

// The input each call refuses before sending: the documented ranges.
var (
	indexBadContext = map[string]mintlify.ContextParams{
		"empty query":             {},
		"format in capitals":      {Query: "q", Format: "TXT"},
		"format md":               {Query: "q", Format: "md"},
		"token budget -1":         {Query: "q", TokenBudget: -1},
		"token budget 6001":       {Query: "q", TokenBudget: mintlify.IndexMaxTokenBudget + 1},
		"an empty include domain": {Query: "q", IncludeDomains: []string{"a.com", ""}},
		"an empty exclude domain": {Query: "q", ExcludeDomains: []string{""}},
	}
	indexBadSearch = map[string]mintlify.IndexSearchParams{
		"empty query":             {NumResults: 5},
		"no numResults":           {Query: "q"},
		"numResults -1":           {Query: "q", NumResults: -1},
		"numResults 21":           {Query: "q", NumResults: mintlify.IndexMaxNumResults + 1},
		"maxCharacters -1":        {Query: "q", NumResults: 5, MaxCharacters: -1},
		"an empty include domain": {Query: "q", NumResults: 5, IncludeDomains: []string{""}},
		"an empty exclude domain": {Query: "q", NumResults: 5, ExcludeDomains: []string{"a.com", ""}},
	}
	indexBadContents = map[string]mintlify.ContentsParams{
		"nothing":              {},
		"empty lists":          {IDs: []string{}, URLs: []string{}, Query: "q"},
		"21 ids":               {IDs: indexItems(21, "example:/p")},
		"11 ids and 10 urls":   {IDs: indexItems(11, "example:/p"), URLs: indexItems(10, "https://a.example/p")},
		"an empty id":          {IDs: []string{"example:/a", ""}},
		"an empty url":         {URLs: []string{""}},
		"a relative url":       {URLs: []string{"/guides/caching"}},
		"a url without http":   {URLs: []string{"docs.example.com/guides"}},
		"an ftp url":           {URLs: []string{"ftp://docs.example.com/a"}},
		"a url with a space":   {URLs: []string{"https://docs.example.com/a b"}},
		"a url without host":   {URLs: []string{"https:///a"}},
		"maxCharacters -1":     {IDs: []string{"example:/a"}, MaxCharacters: -1},
		"the key as a url":     {URLs: []string{testKey}},
		"the key in a bad url": {URLs: []string{"https://docs.example.com/" + testKey + " "}},
	}
)

func indexItems(n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

// indexCall calls fn with p on an Index client.
func indexCall[P, R any](fn func(*mintlify.IndexClient, context.Context, P) (*R, error), p P) func(context.Context, *mintlify.IndexClient) (any, error) {
	return func(ctx context.Context, x *mintlify.IndexClient) (any, error) { return fn(x, ctx, p) }
}

// indexCalls calls fn with each of bad on the Index client over c's
// request path.
func indexCalls[P, R any](fn func(*mintlify.IndexClient, context.Context, P) (*R, error), bad map[string]P) map[string]call {
	out := map[string]call{}
	for name, p := range bad {
		x := indexCall(fn, p)
		out[name] = func(ctx context.Context, c *mintlify.Client) (any, error) { return x(ctx, mintlify.IndexClientOf(c)) }
	}
	return out
}

// indexResultsOK is what every result of an accepted answer holds.
func indexResultsOK(results []mintlify.IndexResult, most int) string {
	if results == nil || len(results) > most {
		return fmt.Sprintf("%d results (nil: %t), at most %d asked for", len(results), results == nil, most)
	}
	for _, r := range results {
		if r.Breadcrumbs == nil || r.TotalCharacters < 0 {
			return "a result without breadcrumbs or with a negative length"
		}
	}
	return ""
}

var indexMethods = []method{
	{name: "BuildContext", verb: http.MethodPost, route: "/v1/context", status: 200, good: goodIndexContext,
		reqBody:  `{"query":"How do I cache pages?","product":"Example","format":"json","excludeDomains":["blog.example.org"],"tokenBudget":500}`,
		required: []string{"requestId", "query", "response", "resultsCount", "outputTokens"},
		nested:   []string{`resultsCount=-1`, `outputTokens=-1`, `outputTokens=2.5`, `resultsCount=true`},
		index:    indexCall((*mintlify.IndexClient).BuildContext, indexContextParams),
		invalid:  indexCalls((*mintlify.IndexClient).BuildContext, indexBadContext),
		ok: func(v any) string {
			if c := v.(*mintlify.IndexContext); c.ResultsCount < 0 || c.OutputTokens < 0 {
				return "a negative count"
			}
			return ""
		}},
	{name: "Search", verb: http.MethodPost, route: "/v1/search", status: 200, good: goodIndexSearch,
		reqBody:  `{"query":"caching","numResults":5,"text":{"maxCharacters":4000},"includeDomains":["docs.example.com"]}`,
		required: []string{"requestId", "results"},
		nested: []string{`results.0.id=7`, `results.0.id=-`, `results.0.url=null`, `results.0.title=-`, `results.0.text=-`,
			`results.0.score="0.9"`, `results.0.source=-`, `results.0.siteName=null`, `results.0.breadcrumbs="Guides"`,
			`results.0.breadcrumbs.0=7`, `results.0.breadcrumbs=-`, `results.0=null`, `results.0.publishedDate=7`,
			`results.0.truncated="yes"`, `results.0.totalCharacters=-1`, `results.0.totalCharacters=1.5`},
		index:   indexCall((*mintlify.IndexClient).Search, indexSearchParams),
		invalid: indexCalls((*mintlify.IndexClient).Search, indexBadSearch),
		ok: func(v any) string {
			return indexResultsOK(v.(*mintlify.IndexSearchResult).Results, indexSearchParams.NumResults)
		}},
	{name: "Contents", verb: http.MethodPost, route: "/v1/contents", status: 200, good: goodIndexContents,
		reqBody:  `{"ids":["example:/guides/caching"],"urls":["https://blog.example.org/gone"],"maxCharacters":2000,"query":"revalidate"}`,
		required: []string{"requestId", "results", "statuses"},
		nested: []string{`statuses.0.status="pending"`, `statuses.0.status=-`, `statuses.0.id=7`, `statuses.0=null`,
			`statuses.1.error=-`, `statuses.1.error=null`, `statuses.1.error.tag=-`, `statuses.1.error.httpStatusCode="404"`,
			`statuses.0.error={"tag":"X","httpStatusCode":null}`, `results.0.score=-`, `results.0=7`},
		index:   indexCall((*mintlify.IndexClient).Contents, indexContentsParams),
		invalid: indexCalls((*mintlify.IndexClient).Contents, indexBadContents),
		ok: func(v any) string {
			c := v.(*mintlify.IndexContents)
			items := len(indexContentsParams.IDs) + len(indexContentsParams.URLs)
			if c.Statuses == nil || len(c.Statuses) > items {
				return fmt.Sprintf("%d statuses for %d items", len(c.Statuses), items)
			}
			for _, s := range c.Statuses {
				if s.Status != "success" && s.Status != "error" || s.Status == "success" && s.ErrorTag != "" {
					return "an undocumented status: " + strings.ToValidUTF8(s.Status, "?")
				}
			}
			return indexResultsOK(c.Results, items)
		}},
}
