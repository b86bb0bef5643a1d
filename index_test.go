package mintlify

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/internal/memtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The members each request schema names (every one says
// additionalProperties: false), and those of the search's text object.
var indexSchemaMembers = map[string][]string{
	indexPathContext:  {"query", "product", "format", "includeDomains", "excludeDomains", "tokenBudget"},
	indexPathSearch:   {"query", "numResults", "text", "includeDomains", "excludeDomains"},
	indexPathContents: {"ids", "urls", "maxCharacters", "query"},
	"text":            {"maxCharacters"},
}

// indexBodyOf is a route's encoder, for the tables below.
type indexBodyOf struct {
	route string
	body  func() ([]byte, error)
}

func indexContext(p ContextParams) indexBodyOf {
	return indexBodyOf{indexPathContext, p.body}
}

func indexSearch(p IndexSearchParams) indexBodyOf {
	return indexBodyOf{indexPathSearch, p.body}
}

func indexContents(p ContentsParams) indexBodyOf {
	return indexBodyOf{indexPathContents, p.body}
}

func indexStrings(n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

func TestIndexInvalidParams(t *testing.T) {
	long := strings.Repeat("x", 200)
	for name, c := range map[string]indexBodyOf{
		"context empty query":        indexContext(ContextParams{}),
		"context format TXT":         indexContext(ContextParams{Query: "q", Format: "TXT"}),
		"context format md":          indexContext(ContextParams{Query: "q", Format: "md"}),
		"context format long":        indexContext(ContextParams{Query: "q", Format: long}),
		"context budget -1":          indexContext(ContextParams{Query: "q", TokenBudget: -1}),
		"context budget 6001":        indexContext(ContextParams{Query: "q", TokenBudget: 6001}),
		"context empty include item": indexContext(ContextParams{Query: "q", IncludeDomains: []string{""}}),
		"context empty exclude item": indexContext(ContextParams{Query: "q", ExcludeDomains: []string{"a.com", ""}}),
		"search empty query":         indexSearch(IndexSearchParams{NumResults: 5}),
		"search numResults 0":        indexSearch(IndexSearchParams{Query: "q"}),
		"search numResults -1":       indexSearch(IndexSearchParams{Query: "q", NumResults: -1}),
		"search numResults 21":       indexSearch(IndexSearchParams{Query: "q", NumResults: 21}),
		"search maxCharacters -1":    indexSearch(IndexSearchParams{Query: "q", NumResults: 1, MaxCharacters: -1}),
		"search empty include item":  indexSearch(IndexSearchParams{Query: "q", NumResults: 1, IncludeDomains: []string{""}}),
		"search empty exclude item":  indexSearch(IndexSearchParams{Query: "q", NumResults: 1, ExcludeDomains: []string{""}}),
		"contents nothing":           indexContents(ContentsParams{}),
		"contents empty lists":       indexContents(ContentsParams{IDs: []string{}, URLs: []string{}, Query: "q"}),
		"contents 21 ids":            indexContents(ContentsParams{IDs: indexStrings(21, "s:/p")}),
		"contents 21 urls":           indexContents(ContentsParams{URLs: indexStrings(21, "https://a.com/")}),
		"contents 11 ids 10 urls":    indexContents(ContentsParams{IDs: indexStrings(11, "s:/p"), URLs: indexStrings(10, "https://a.com/")}),
		"contents empty id":          indexContents(ContentsParams{IDs: []string{"s:/a", ""}}),
		"contents empty url":         indexContents(ContentsParams{URLs: []string{""}}),
		"contents relative url":      indexContents(ContentsParams{URLs: []string{"/docs/a"}}),
		"contents bare host":         indexContents(ContentsParams{URLs: []string{"example.com/a"}}),
		"contents ftp url":           indexContents(ContentsParams{URLs: []string{"ftp://example.com/a"}}),
		"contents mailto url":        indexContents(ContentsParams{URLs: []string{"mailto:a@example.com"}}),
		"contents url without host":  indexContents(ContentsParams{URLs: []string{"https:///a"}}),
		"contents url with space":    indexContents(ContentsParams{URLs: []string{"https://example.com/a b"}}),
		"contents url with newline":  indexContents(ContentsParams{URLs: []string{"https://example.com/a\n"}}),
		"contents url with control":  indexContents(ContentsParams{URLs: []string{"https://example.com/\x7f"}}),
		"contents bad url":           indexContents(ContentsParams{URLs: []string{"https://[::1/a"}}),
		"contents long bad url":      indexContents(ContentsParams{URLs: []string{"ftp://" + long}}),
		"contents maxCharacters -1":  indexContents(ContentsParams{IDs: []string{"s:/a"}, MaxCharacters: -1}),
	} {
		t.Run(name, func(t *testing.T) {
			body, err := c.body()
			require.ErrorIs(t, err, ErrInvalidInput)
			assert.Nil(t, body)
			assert.NotContains(t, err.Error(), long, "an error quotes a long value whole")
		})
	}
}

// TestIndexRequestBodies pins each encoded body and checks that it names
// no member its schema does not: the API refuses unknown members.
func TestIndexRequestBodies(t *testing.T) {
	for name, c := range map[string]struct {
		of   indexBodyOf
		want string
	}{
		"context minimal, format defaults to txt": {
			indexContext(ContextParams{Query: "How do I cache?"}),
			`{"query":"How do I cache?","format":"txt"}`},
		"context white space is a query": {
			indexContext(ContextParams{Query: " ", Format: "json"}),
			`{"query":" ","format":"json"}`},
		"context full": {
			indexContext(ContextParams{Query: "q", Product: "Next.js", Format: "json", IncludeDomains: []string{"nextjs.org"},
				ExcludeDomains: []string{"a.com", "b.com"}, TokenBudget: 6000}),
			`{"query":"q","product":"Next.js","format":"json","includeDomains":["nextjs.org"],"excludeDomains":["a.com","b.com"],"tokenBudget":6000}`},
		"context budget 1, empty lists not sent": {
			indexContext(ContextParams{Query: "q", Format: "txt", TokenBudget: 1, IncludeDomains: []string{}, ExcludeDomains: []string{}}),
			`{"query":"q","format":"txt","tokenBudget":1}`},
		"search minimal, text false sent": {
			indexSearch(IndexSearchParams{Query: "caching", NumResults: 1}),
			`{"query":"caching","numResults":1,"text":false}`},
		"search full text": {
			indexSearch(IndexSearchParams{Query: "q", NumResults: 20, Text: true}),
			`{"query":"q","numResults":20,"text":true}`},
		"search maxCharacters implies text": {
			indexSearch(IndexSearchParams{Query: "q", NumResults: 5, MaxCharacters: 4000, IncludeDomains: []string{"nextjs.org"}}),
			`{"query":"q","numResults":5,"text":{"maxCharacters":4000},"includeDomains":["nextjs.org"]}`},
		"search maxCharacters with text": {
			indexSearch(IndexSearchParams{Query: "q", NumResults: 5, Text: true, MaxCharacters: 1, ExcludeDomains: []string{"x.org"}}),
			`{"query":"q","numResults":5,"text":{"maxCharacters":1},"excludeDomains":["x.org"]}`},
		"search empty lists not sent": {
			indexSearch(IndexSearchParams{Query: "q", NumResults: 5, IncludeDomains: []string{}, ExcludeDomains: []string{}}),
			`{"query":"q","numResults":5,"text":false}`},
		"contents ids": {
			indexContents(ContentsParams{IDs: []string{"nextjs:/docs/a"}}),
			`{"ids":["nextjs:/docs/a"]}`},
		"contents urls, empty ids not sent": {
			indexContents(ContentsParams{IDs: []string{}, URLs: []string{"HTTPS://Example.com/a?b=c#d", "http://[::1]:8080/ü"}}),
			`{"urls":["HTTPS://Example.com/a?b=c#d","http://[::1]:8080/ü"]}`},
		"contents full, 20 items": {
			indexContents(ContentsParams{IDs: indexStrings(10, "s:/p"), URLs: indexStrings(10, "https://a.com/"), MaxCharacters: 12000, Query: "revalidate"}),
			`{"ids":` + indexJSON(t, indexStrings(10, "s:/p")) + `,"urls":` + indexJSON(t, indexStrings(10, "https://a.com/")) +
				`,"maxCharacters":12000,"query":"revalidate"}`},
		"contents 20 ids, duplicates kept": {
			indexContents(ContentsParams{IDs: slices.Repeat([]string{"s:/a"}, 20)}),
			`{"ids":` + indexJSON(t, slices.Repeat([]string{"s:/a"}, 20)) + `}`},
	} {
		t.Run(name, func(t *testing.T) {
			body, err := c.of.body()
			require.NoError(t, err)
			assert.JSONEq(t, c.want, string(body))

			var members map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(body, &members))
			for k, v := range members {
				assert.Contains(t, indexSchemaMembers[c.of.route], k, "a member the schema does not name")
				assert.NotEqual(t, "null", string(v), "member %s is null", k)
			}
			if text, ok := members["text"]; ok && text[0] == '{' {
				var inner map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(text, &inner))
				for k := range inner {
					assert.Contains(t, indexSchemaMembers["text"], k)
				}
			}
		})
	}
}

func indexJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// indexDecode decodes and checks an answer as the request path does.
func indexDecode[W any, PW interface {
	*W
	check() error
}](b []byte) (*W, error) {
	w := new(W)
	if err := json.Unmarshal(b, w); err != nil {
		return nil, err
	}
	if err := PW(w).check(); err != nil {
		return nil, err
	}
	return w, nil
}

// indexVendorResult is a result as the schema allows it, every member
// present; tests change it with indexWith.
const indexVendorResult = `{"id":"nextjs:/docs/app/caching","url":"https://nextjs.org/docs/app/caching",` +
	`"title":"Caching","text":"Caching stores results.","truncated":true,"totalCharacters":92,"score":0.91,` +
	`"source":"mintlify","siteName":"nextjs","breadcrumbs":["App Router","Getting started"],` +
	`"publishedDate":"2025-03-04T05:06:07.123Z"}`

// indexWith returns the JSON object obj with members set (a nil value
// removes the member).
func indexWith(t testing.TB, obj string, set map[string]any) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(obj), &m))
	for k, v := range set {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	return indexJSON(t, m)
}

var indexJSONNull = json.RawMessage("null")

func TestIndexDecodeContext(t *testing.T) {
	for name, c := range map[string]struct {
		body string
		want IndexContext
	}{
		"vendor shaped": {
			`{"requestId":"7f2ab8d1","query":"How should I cache?","response":"### Caching\n\nSource: https://nextjs.org","resultsCount":3,"outputTokens":1842}`,
			IndexContext{RequestID: "7f2ab8d1", Query: "How should I cache?", Response: "### Caching\n\nSource: https://nextjs.org", ResultsCount: 3, OutputTokens: 1842}},
		"nothing fitted": {
			`{"requestId":"","query":"q","response":"","resultsCount":0,"outputTokens":0,"unknown":{"x":[1]}}`,
			IndexContext{Query: "q"}},
	} {
		t.Run(name, func(t *testing.T) {
			w, err := indexDecode[wireIndexContext]([]byte(c.body))
			require.NoError(t, err)
			assert.Equal(t, &c.want, w.toPublic())
		})
	}
}

func TestIndexDecodeSearch(t *testing.T) {
	published := time.Date(2025, 3, 4, 5, 6, 7, 123e6, time.UTC)
	full := IndexResult{ID: "nextjs:/docs/app/caching", URL: "https://nextjs.org/docs/app/caching", Title: "Caching",
		Text: "Caching stores results.", Truncated: true, TotalCharacters: 92, Score: 0.91, Source: "mintlify",
		SiteName: "nextjs", Breadcrumbs: []string{"App Router", "Getting started"}, PublishedDate: published}
	with := func(f func(*IndexResult)) IndexResult {
		r := full
		f(&r)
		return r
	}
	for name, c := range map[string]struct {
		result string
		want   IndexResult
	}{
		"every member present": {indexVendorResult, full},
		"optional members absent, date null": {
			indexWith(t, indexVendorResult, map[string]any{"truncated": nil, "totalCharacters": nil, "publishedDate": indexJSONNull, "text": ""}),
			with(func(r *IndexResult) {
				r.Truncated, r.TotalCharacters, r.PublishedDate, r.Text = false, 0, time.Time{}, ""
			})},
		"optional members null, date absent": {
			indexWith(t, indexVendorResult, map[string]any{"truncated": indexJSONNull, "totalCharacters": indexJSONNull, "publishedDate": nil}),
			with(func(r *IndexResult) { r.Truncated, r.TotalCharacters, r.PublishedDate = false, 0, time.Time{} })},
		"date-only date": {
			indexWith(t, indexVendorResult, map[string]any{"publishedDate": "2024-02-29"}),
			with(func(r *IndexResult) { r.PublishedDate = time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC) })},
		"date with an offset": {
			indexWith(t, indexVendorResult, map[string]any{"publishedDate": "2024-02-29T10:00:00+02:00"}),
			with(func(r *IndexResult) { r.PublishedDate = time.Date(2024, 2, 29, 8, 0, 0, 0, time.UTC) })},
		"date with a compact offset": {
			indexWith(t, indexVendorResult, map[string]any{"publishedDate": "2024-02-29T10:00:00-0130"}),
			with(func(r *IndexResult) { r.PublishedDate = time.Date(2024, 2, 29, 11, 30, 0, 0, time.UTC) })},
		"date without a zone is UTC": {
			indexWith(t, indexVendorResult, map[string]any{"publishedDate": "2024-02-29T10:00:00.5"}),
			with(func(r *IndexResult) { r.PublishedDate = time.Date(2024, 2, 29, 10, 0, 0, 5e8, time.UTC) })},
		"unreadable date is zero": {
			indexWith(t, indexVendorResult, map[string]any{"publishedDate": "March 3rd, 2024"}),
			with(func(r *IndexResult) { r.PublishedDate = time.Time{} })},
		"empty date is zero": {
			indexWith(t, indexVendorResult, map[string]any{"publishedDate": ""}),
			with(func(r *IndexResult) { r.PublishedDate = time.Time{} })},
		"web result, no breadcrumbs, another source passes": {
			indexWith(t, indexVendorResult, map[string]any{"id": "https://blog.example.com/x", "source": "github", "breadcrumbs": []string{}, "score": 0}),
			with(func(r *IndexResult) {
				r.ID, r.Source, r.Breadcrumbs, r.Score = "https://blog.example.com/x", "github", []string{}, 0
			})},
		"100 breadcrumbs": {
			indexWith(t, indexVendorResult, map[string]any{"breadcrumbs": indexStrings(100, "b")}),
			with(func(r *IndexResult) { r.Breadcrumbs = indexStrings(100, "b") })},
		"unknown members ignored": {
			indexWith(t, indexVendorResult, map[string]any{"highlights": []int{1, 2}, "extra": map[string]any{"a": nil}}),
			full},
	} {
		t.Run(name, func(t *testing.T) {
			body := `{"requestId":"3d8ed0aa","results":[` + c.result + `]}`
			w, err := indexDecode[wireIndexSearch]([]byte(body))
			require.NoError(t, err)
			got := w.toPublic()
			require.Len(t, got.Results, 1)
			assert.Equal(t, "3d8ed0aa", got.RequestID)
			assert.True(t, c.want.PublishedDate.Equal(got.Results[0].PublishedDate), "published %v", got.Results[0].PublishedDate)
			c.want.PublishedDate, got.Results[0].PublishedDate = time.Time{}, time.Time{}
			assert.Equal(t, c.want, got.Results[0])
		})
	}

	t.Run("no results", func(t *testing.T) {
		w, err := indexDecode[wireIndexSearch]([]byte(`{"requestId":"r","results":[]}`))
		require.NoError(t, err)
		assert.Equal(t, &IndexSearchResult{RequestID: "r", Results: []IndexResult{}}, w.toPublic())
	})
	t.Run("20 results", func(t *testing.T) {
		body := `{"requestId":"r","results":[` + strings.Repeat(indexVendorResult+",", 19) + indexVendorResult + `]}`
		w, err := indexDecode[wireIndexSearch]([]byte(body))
		require.NoError(t, err)
		assert.Len(t, w.toPublic().Results, 20)
		require.NoError(t, w.checkFor(IndexSearchParams{NumResults: 20}))
		assert.Error(t, w.checkFor(IndexSearchParams{NumResults: 19}), "more results than asked for")
	})
}

func TestIndexDecodeContentsMixedStatuses(t *testing.T) {
	body := `{"requestId":"6bf694e4","results":[` +
		indexWith(t, indexVendorResult, map[string]any{"score": 0, "truncated": false}) + `,` +
		indexWith(t, indexVendorResult, map[string]any{"id": "https://blog.example.com/p", "url": "https://blog.example.com/p",
			"source": "web", "score": 0, "breadcrumbs": []string{}, "publishedDate": "2023-11-05", "truncated": nil, "totalCharacters": nil}) +
		`],"statuses":[` +
		`{"id":"nextjs:/docs/app/caching","status":"success"},` +
		`{"id":"nextjs:/docs/missing","status":"error","error":{"tag":"NOT_FOUND","httpStatusCode":null}},` +
		`{"id":"https://blog.example.com/p","status":"success","error":null},` +
		`{"id":"https://gone.example.com/","status":"error","error":{"tag":"CRAWL_NOT_FOUND","httpStatusCode":404}},` +
		`{"id":"https://slow.example.com/","status":"error","error":{"tag":"TIMEOUT"}}` +
		`]}`
	w, err := indexDecode[wireIndexContents]([]byte(body))
	require.NoError(t, err)
	got := w.toPublic()
	assert.Equal(t, "6bf694e4", got.RequestID)
	assert.Equal(t, []ContentStatus{
		{ID: "nextjs:/docs/app/caching", Status: "success"},
		{ID: "nextjs:/docs/missing", Status: "error", ErrorTag: "NOT_FOUND"},
		{ID: "https://blog.example.com/p", Status: "success"},
		{ID: "https://gone.example.com/", Status: "error", ErrorTag: "CRAWL_NOT_FOUND", HTTPStatusCode: 404},
		{ID: "https://slow.example.com/", Status: "error", ErrorTag: "TIMEOUT"},
	}, got.Statuses)
	require.Len(t, got.Results, 2)
	assert.Equal(t, "web", got.Results[1].Source)
	assert.Equal(t, time.Date(2023, 11, 5, 0, 0, 0, 0, time.UTC), got.Results[1].PublishedDate)
	assert.Zero(t, got.Results[1].TotalCharacters)

	p := ContentsParams{IDs: []string{"nextjs:/docs/app/caching", "nextjs:/docs/missing"},
		URLs: []string{"https://blog.example.com/p", "https://gone.example.com/", "https://slow.example.com/"}}
	require.NoError(t, w.checkFor(p))
	p.URLs = p.URLs[:2]
	assert.Error(t, w.checkFor(p), "more statuses than items asked for")

	t.Run("nothing found", func(t *testing.T) {
		w, err := indexDecode[wireIndexContents]([]byte(`{"requestId":"r","results":[],"statuses":[{"id":"x","status":"error","error":{"tag":"NOT_FOUND","httpStatusCode":null}}]}`))
		require.NoError(t, err)
		assert.Equal(t, &IndexContents{RequestID: "r", Results: []IndexResult{},
			Statuses: []ContentStatus{{ID: "x", Status: "error", ErrorTag: "NOT_FOUND"}}}, w.toPublic())
	})
}

func TestIndexDecodeMalformed(t *testing.T) {
	const okContext = `{"requestId":"r","query":"q","response":"","resultsCount":0,"outputTokens":0}`
	const okStatus = `{"id":"x","status":"success"}`
	search := func(results string) string { return `{"requestId":"r","results":[` + results + `]}` }
	result := func(set map[string]any) string { return search(indexWith(t, indexVendorResult, set)) }
	contents := func(statuses string) string {
		return `{"requestId":"r","results":[],"statuses":[` + statuses + `]}`
	}
	decoders := map[string]func([]byte) error{
		"context":  func(b []byte) error { _, err := indexDecode[wireIndexContext](b); return err },
		"search":   func(b []byte) error { _, err := indexDecode[wireIndexSearch](b); return err },
		"contents": func(b []byte) error { _, err := indexDecode[wireIndexContents](b); return err },
	}
	for _, c := range []struct{ route, name, body string }{
		{"context", "not JSON", `{"requestId":`},
		{"context", "an array", `[]`},
		{"context", "null", `null`},
		{"context", "empty object", `{}`},
		{"context", "requestId missing", indexWith(t, okContext, map[string]any{"requestId": nil})},
		{"context", "requestId number", indexWith(t, okContext, map[string]any{"requestId": 7})},
		{"context", "query null", indexWith(t, okContext, map[string]any{"query": indexJSONNull})},
		{"context", "response missing", indexWith(t, okContext, map[string]any{"response": nil})},
		{"context", "response null", indexWith(t, okContext, map[string]any{"response": indexJSONNull})},
		{"context", "response object", indexWith(t, okContext, map[string]any{"response": map[string]any{}})},
		{"context", "resultsCount string", indexWith(t, okContext, map[string]any{"resultsCount": "3"})},
		{"context", "resultsCount fraction", indexWith(t, okContext, map[string]any{"resultsCount": 2.5})},
		{"context", "resultsCount negative", indexWith(t, okContext, map[string]any{"resultsCount": -1})},
		{"context", "outputTokens missing", indexWith(t, okContext, map[string]any{"outputTokens": nil})},
		{"context", "outputTokens negative", indexWith(t, okContext, map[string]any{"outputTokens": -1})},
		{"search", "empty object", `{}`},
		{"search", "requestId missing", `{"results":[]}`},
		{"search", "results missing", `{"requestId":"r"}`},
		{"search", "results null", `{"requestId":"r","results":null}`},
		{"search", "results object", `{"requestId":"r","results":{}}`},
		{"search", "results string", `{"requestId":"r","results":"[]"}`},
		{"search", "a result number", search(`1`)},
		{"search", "a result null", search(`null`)},
		{"search", "a result empty", search(`{}`)},
		{"search", "21 results", search(strings.Repeat(indexVendorResult+",", 20) + indexVendorResult)},
		{"search", "21 empty results", search(strings.Repeat(`{},`, 20) + `{}`)},
		{"search", "id missing", result(map[string]any{"id": nil})},
		{"search", "url null", result(map[string]any{"url": indexJSONNull})},
		{"search", "title missing", result(map[string]any{"title": nil})},
		{"search", "text missing", result(map[string]any{"text": nil})},
		{"search", "text number", result(map[string]any{"text": 1})},
		{"search", "score missing", result(map[string]any{"score": nil})},
		{"search", "score string", result(map[string]any{"score": "0.5"})},
		{"search", "source null", result(map[string]any{"source": indexJSONNull})},
		{"search", "siteName missing", result(map[string]any{"siteName": nil})},
		{"search", "breadcrumbs missing", result(map[string]any{"breadcrumbs": nil})},
		{"search", "breadcrumbs null", result(map[string]any{"breadcrumbs": indexJSONNull})},
		{"search", "breadcrumbs string", result(map[string]any{"breadcrumbs": "a > b"})},
		{"search", "breadcrumbs of numbers", result(map[string]any{"breadcrumbs": []int{1}})},
		{"search", "101 breadcrumbs", result(map[string]any{"breadcrumbs": indexStrings(101, "b")})},
		{"search", "truncated string", result(map[string]any{"truncated": "no"})},
		{"search", "totalCharacters fraction", result(map[string]any{"totalCharacters": 1.5})},
		{"search", "totalCharacters negative", result(map[string]any{"totalCharacters": -1})},
		{"search", "publishedDate number", result(map[string]any{"publishedDate": 20240101})},
		{"contents", "empty object", `{}`},
		{"contents", "statuses missing", `{"requestId":"r","results":[]}`},
		{"contents", "statuses null", `{"requestId":"r","results":[],"statuses":null}`},
		{"contents", "results missing", `{"requestId":"r","statuses":[]}`},
		{"contents", "a bad result", `{"requestId":"r","results":[{}],"statuses":[]}`},
		{"contents", "21 statuses", contents(strings.Repeat(okStatus+",", 20) + okStatus)},
		{"contents", "a status null", contents(`null`)},
		{"contents", "status id missing", contents(`{"status":"success"}`)},
		{"contents", "status id number", contents(`{"id":1,"status":"success"}`)},
		{"contents", "status missing", contents(`{"id":"x"}`)},
		{"contents", "status undocumented", contents(`{"id":"x","status":"pending"}`)},
		{"contents", "status upper case", contents(`{"id":"x","status":"ERROR","error":{"tag":"T","httpStatusCode":null}}`)},
		{"contents", "error without its object", contents(`{"id":"x","status":"error"}`)},
		{"contents", "error with null object", contents(`{"id":"x","status":"error","error":null}`)},
		{"contents", "error without a tag", contents(`{"id":"x","status":"error","error":{"httpStatusCode":404}}`)},
		{"contents", "error tag number", contents(`{"id":"x","status":"error","error":{"tag":4,"httpStatusCode":404}}`)},
		{"contents", "httpStatusCode string", contents(`{"id":"x","status":"error","error":{"tag":"T","httpStatusCode":"404"}}`)},
		{"contents", "error object a string", contents(`{"id":"x","status":"error","error":"NOT_FOUND"}`)},
		{"contents", "success with an error", contents(`{"id":"x","status":"success","error":{"tag":"T","httpStatusCode":null}}`)},
	} {
		t.Run(c.route+" "+c.name, func(t *testing.T) {
			assert.Error(t, decoders[c.route]([]byte(c.body)))
		})
	}
}

// TestIndexHostileAnswerMemory: an answer of millions of {} results is
// refused after counting 21 of them, without decoding any.
func TestIndexHostileAnswerMemory(t *testing.T) {
	const size = 16 << 20
	body := make([]byte, 0, size+64)
	body = append(body, `{"requestId":"r","results":[`...)
	for len(body) < size {
		body = append(body, `{},`...)
	}
	body = append(body, `{}]}`...)

	var err error
	alloc := memtest.Allocated(func() { _, err = indexDecode[wireIndexSearch](body) })
	require.ErrorContains(t, err, "more than 20")
	t.Logf("a 16 MiB answer of {} results: %d bytes allocated", alloc)
	assert.Less(t, alloc, uint64(4<<20), "bytes allocated decoding a 16 MiB answer")
}

// TestIndexResultJSON: the public types marshal as the API sends them,
// and read back what they wrote.
func TestIndexResultJSON(t *testing.T) {
	body := `{"requestId":"r","results":[` + indexVendorResult + `,` +
		indexWith(t, indexVendorResult, map[string]any{"truncated": false, "totalCharacters": nil, "publishedDate": indexJSONNull,
			"breadcrumbs": []string{}, "text": "", "score": 0}) + `,` +
		indexWith(t, indexVendorResult, map[string]any{"publishedDate": "2024-02-29", "source": "web"}) + `,` +
		indexWith(t, indexVendorResult, map[string]any{"publishedDate": "2024-02-29T10:00:00.25+05:30"}) +
		`],"statuses":[{"id":"a","status":"success"},{"id":"b","status":"error","error":{"tag":"NOT_FOUND","httpStatusCode":null}},` +
		`{"id":"c","status":"error","error":{"tag":"CRAWL_FAILED","httpStatusCode":503}}]}`
	w, err := indexDecode[wireIndexContents]([]byte(body))
	require.NoError(t, err)
	contents := w.toPublic()

	out, err := json.Marshal(contents)
	require.NoError(t, err)
	want := `{"requestId":"r","results":[` + indexVendorResult + `,` +
		indexWith(t, indexVendorResult, map[string]any{"truncated": nil, "totalCharacters": nil, "publishedDate": indexJSONNull,
			"breadcrumbs": []string{}, "text": "", "score": 0}) + `,` +
		indexWith(t, indexVendorResult, map[string]any{"publishedDate": "2024-02-29T00:00:00Z", "source": "web"}) + `,` +
		indexWith(t, indexVendorResult, map[string]any{"publishedDate": "2024-02-29T10:00:00.25+05:30"}) +
		`],"statuses":[{"id":"a","status":"success"},{"id":"b","status":"error","error":{"tag":"NOT_FOUND","httpStatusCode":null}},` +
		`{"id":"c","status":"error","error":{"tag":"CRAWL_FAILED","httpStatusCode":503}}]}`
	assert.JSONEq(t, want, string(out))

	// What mintctl prints is an answer the SDK accepts, and reads back the same.
	again, err := indexDecode[wireIndexContents](out)
	require.NoError(t, err)
	indexAssertSameContents(t, contents, again.toPublic())
	var back IndexContents
	require.NoError(t, json.Unmarshal(out, &back))
	indexAssertSameContents(t, contents, &back)

	ctx := &IndexContext{RequestID: "r", Query: "q", Response: "## A\n", ResultsCount: 1, OutputTokens: 2}
	out, err = json.Marshal(ctx)
	require.NoError(t, err)
	assert.JSONEq(t, `{"requestId":"r","query":"q","response":"## A\n","resultsCount":1,"outputTokens":2}`, string(out))
	var ctxBack IndexContext
	require.NoError(t, json.Unmarshal(out, &ctxBack))
	assert.Equal(t, *ctx, ctxBack)

	t.Run("statuses", func(t *testing.T) {
		for _, c := range []struct {
			s    ContentStatus
			want string
		}{
			{ContentStatus{ID: "a", Status: "success"}, `{"id":"a","status":"success"}`},
			{ContentStatus{ID: "a", Status: "error"}, `{"id":"a","status":"error","error":{"tag":"","httpStatusCode":null}}`},
			{ContentStatus{ID: "a", Status: "error", ErrorTag: "T", HTTPStatusCode: 404}, `{"id":"a","status":"error","error":{"tag":"T","httpStatusCode":404}}`},
			{ContentStatus{ID: "a", Status: "success", ErrorTag: "T"}, `{"id":"a","status":"success","error":{"tag":"T","httpStatusCode":null}}`},
			{ContentStatus{}, `{"id":"","status":""}`},
		} {
			out, err := json.Marshal(c.s)
			require.NoError(t, err)
			assert.JSONEq(t, c.want, string(out))
			var back ContentStatus
			require.NoError(t, json.Unmarshal(out, &back))
			assert.Equal(t, c.s, back)
		}
	})
	t.Run("a zero result", func(t *testing.T) {
		out, err := json.Marshal(IndexResult{})
		require.NoError(t, err)
		assert.JSONEq(t, `{"id":"","url":"","title":"","text":"","score":0,"source":"","siteName":"","breadcrumbs":[],"publishedDate":null}`, string(out))
		var back IndexResult
		require.NoError(t, json.Unmarshal(out, &back))
		assert.Equal(t, IndexResult{Breadcrumbs: []string{}}, back, "nil breadcrumbs print as [] and read back empty")
	})
}

// indexAssertSameContents compares two contents answers, times by instant.
func indexAssertSameContents(t *testing.T, want, got *IndexContents) {
	t.Helper()
	require.Len(t, got.Results, len(want.Results))
	w, g := *want, *got
	w.Results, g.Results = slices.Clone(w.Results), slices.Clone(g.Results)
	for i := range w.Results {
		assert.True(t, w.Results[i].PublishedDate.Equal(g.Results[i].PublishedDate), "result %d: %v, %v", i, w.Results[i].PublishedDate, g.Results[i].PublishedDate)
		w.Results[i].PublishedDate, g.Results[i].PublishedDate = time.Time{}, time.Time{}
	}
	assert.Equal(t, w, g)
}

// FuzzIndexAnswer decodes any bytes as each of the three answers: no
// panic; an accepted answer holds what the checks promise, and marshals
// to an answer that decodes to the same value.
func FuzzIndexAnswer(f *testing.F) {
	f.Add([]byte(`{"requestId":"r","query":"q","response":"","resultsCount":0,"outputTokens":0}`))
	f.Add([]byte(`{"requestId":"r","results":[` + indexVendorResult + `]}`))
	f.Add([]byte(`{"requestId":"r","results":[{"id":"a","url":"u","title":"t","text":"","score":0,"source":"web","siteName":"s","breadcrumbs":[],"publishedDate":"2024-01-02"}],` +
		`"statuses":[{"id":"a","status":"success"},{"id":"b","status":"error","error":{"tag":"T","httpStatusCode":null}}]}`))
	f.Add([]byte(`{"requestId":"r","results":[{},{},"\"],",[[]]],"statuses":null}`))
	f.Add([]byte(`[1,[2,{"a":"]"}],"\\"]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if ctx, err := indexDecode[wireIndexContext](b); err == nil {
			p := ctx.toPublic()
			assert.GreaterOrEqual(t, p.ResultsCount, 0)
			assert.GreaterOrEqual(t, p.OutputTokens, 0)
			again, err := indexDecode[wireIndexContext]([]byte(indexJSON(t, p)))
			require.NoError(t, err)
			assert.Equal(t, p, again.toPublic())
		}
		if s, err := indexDecode[wireIndexSearch](b); err == nil {
			p := s.toPublic()
			require.NotNil(t, p.Results)
			assert.LessOrEqual(t, len(p.Results), indexMaxAnswerItems)
			for _, r := range p.Results {
				assert.NotNil(t, r.Breadcrumbs)
				assert.LessOrEqual(t, len(r.Breadcrumbs), indexMaxBreadcrumbs)
			}
			again, err := indexDecode[wireIndexSearch]([]byte(indexJSON(t, p)))
			require.NoError(t, err)
			indexAssertSameContents(t, &IndexContents{RequestID: p.RequestID, Results: p.Results},
				&IndexContents{RequestID: again.toPublic().RequestID, Results: again.toPublic().Results})
		}
		if c, err := indexDecode[wireIndexContents](b); err == nil {
			p := c.toPublic()
			require.NotNil(t, p.Statuses)
			assert.LessOrEqual(t, len(p.Statuses), indexMaxAnswerItems)
			for _, s := range p.Statuses {
				assert.Contains(t, []string{"success", "error"}, s.Status)
				if s.Status == "success" {
					assert.Empty(t, s.ErrorTag)
					assert.Zero(t, s.HTTPStatusCode)
				}
			}
			out := indexJSON(t, p)
			again, err := indexDecode[wireIndexContents]([]byte(out))
			require.NoError(t, err, "%s", out)
			indexAssertSameContents(t, p, again.toPublic())
		}
	})
}
