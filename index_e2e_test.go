package mintlify_test

// The Index calls end to end against the standalone mock program (the run
// loop of mockserver/cmd/mockserver and `mintctl mock`, internal/mockcmd),
// started with its own flags on 127.0.0.1: the mock's closed request
// schemas accept every body the SDK sends, the answers decode to what the
// corpus holds, and the program's limits and access flags reach the SDK as
// the documented errors.

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/mockcmd"
	"github.com/docsagent/mintlify-go/internal/syncbuf"
)

// standaloneMock runs the mock program with args (on 127.0.0.1, quiet)
// until the test ends, and returns the submatches of banner in what it
// prints on start.
func standaloneMock(t *testing.T, banner string, args ...string) []string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncbuf.Buffer
	done := make(chan error, 1)
	go func() {
		done <- mockcmd.Run(ctx, append([]string{"-addr", "127.0.0.1:0", "-quiet"}, args...), &stdout, &stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("the mock program did not stop")
		}
	})
	re := regexp.MustCompile(banner)
	var m []string
	require.Eventually(t, func() bool {
		m = re.FindStringSubmatch(stdout.String())
		return m != nil
	}, 10*time.Second, 5*time.Millisecond, "banner: %s %s", stdout.String(), stderr.String())
	return m
}

// indexStandalone runs the mock program with args and returns the Index
// key and base URL its banner prints.
func indexStandalone(t *testing.T, args ...string) (key, base string) {
	t.Helper()
	m := standaloneMock(t, `index key:\s+(\S+) \(Index base URL (\S+)\)`, args...)
	return m[1], m[2]
}

// standaloneIndexClient is an Index client of the program's key and base
// URL, with its own transport; opts come last.
func standaloneIndexClient(t *testing.T, key, base string, opts ...mintlify.Option) *mintlify.IndexClient {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	x, err := mintlify.NewIndexClient(append([]mintlify.Option{mintlify.WithAPIKey(key), mintlify.WithBaseURL(base),
		mintlify.WithHTTPClient(&http.Client{Transport: tr, Timeout: 5 * time.Second}), mintlify.WithRetryWait(time.Millisecond, 20*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return x
}

func TestIndexE2EStandaloneMock(t *testing.T) {
	t.Parallel()
	const fixedKey = "mint_us_e2e_standalone_0123456789"
	key, base := indexStandalone(t, "-index-key", fixedKey)
	require.Equal(t, fixedKey, key)
	// A base URL copied with the version works too. The calls below are
	// more than the 10 a second the mock allows: the client waits out the
	// 429s' Retry-After (1s) within its maximum wait.
	x := standaloneIndexClient(t, key, base+"/v1", mintlify.WithRetryWait(time.Millisecond, 2*time.Second))
	ctx := testContext(t)

	// Search ranks the corpus; without text, results carry none.
	found, err := x.Search(ctx, mintlify.IndexSearchParams{Query: "caching", NumResults: 3})
	require.NoError(t, err)
	require.Len(t, found.Results, 3)
	var ids []string
	for _, r := range found.Results {
		ids = append(ids, r.ID)
		assert.Empty(t, r.Text)
		assert.False(t, r.Truncated)
	}
	assert.Equal(t, []string{"https://blog.example.org/http-caching-headers", "example:/guides/caching", "widget:/deploy/edge"}, ids)
	assert.Equal(t, 1.0, found.Results[0].Score, "the best result scores 1")
	assert.Equal(t, "web", found.Results[0].Source)
	assert.Equal(t, "mintlify", found.Results[1].Source)
	assert.Equal(t, []string{"Guides", "Data"}, found.Results[1].Breadcrumbs)
	assert.NotEmpty(t, found.RequestID)

	// Text cut to a number of characters, and domain filters.
	cut, err := x.Search(ctx, mintlify.IndexSearchParams{Query: "rate limits", NumResults: 20, MaxCharacters: 60,
		IncludeDomains: []string{"widget.io"}, ExcludeDomains: []string{"blog.example.org"}})
	require.NoError(t, err)
	require.NotEmpty(t, cut.Results)
	for _, r := range cut.Results {
		assert.Contains(t, r.URL, "https://developers.widget.io/")
		assert.LessOrEqual(t, utf8.RuneCountInString(r.Text), 60)
		assert.Equal(t, r.TotalCharacters > 60, r.Truncated, r.ID)
	}

	// Contents: statuses in request order, ids first; the pages found are
	// results; a page that is not there is a status, not an error.
	got, err := x.Contents(ctx, mintlify.ContentsParams{
		IDs:  []string{"example:/guides/caching", "example:/no-such-page"},
		URLs: []string{"https://blog.example.org/http-caching-headers", "https://blog.example.org/gone"}, MaxCharacters: 80})
	require.NoError(t, err)
	assert.Equal(t, []mintlify.ContentStatus{
		{ID: "example:/guides/caching", Status: "success"},
		{ID: "example:/no-such-page", Status: "error", ErrorTag: "NOT_FOUND"},
		{ID: "https://blog.example.org/http-caching-headers", Status: "success"},
		{ID: "https://blog.example.org/gone", Status: "error", ErrorTag: "CRAWL_NOT_FOUND", HTTPStatusCode: 404},
	}, got.Statuses)
	require.Len(t, got.Results, 2)
	assert.Equal(t, "example:/guides/caching", got.Results[0].ID)
	assert.True(t, got.Results[0].Truncated)
	assert.Zero(t, got.Results[0].Score, "contents ranks nothing")
	assert.Equal(t, time.Date(2025, 8, 19, 0, 0, 0, 0, time.UTC), got.Results[1].PublishedDate, "a web page's date-only date, by URL")

	// Context within its budget, in both formats.
	md, err := x.BuildContext(ctx, mintlify.ContextParams{Query: "How do I cache responses?", TokenBudget: 200})
	require.NoError(t, err)
	assert.Equal(t, "How do I cache responses?", md.Query)
	assert.Positive(t, md.ResultsCount)
	assert.LessOrEqual(t, md.OutputTokens, 200)
	assert.True(t, strings.HasPrefix(md.Response, "## "), md.Response)
	assert.Contains(t, md.Response, "Source: https://")
	js, err := x.BuildContext(ctx, mintlify.ContextParams{Query: "deployment", Format: "json", Product: "Widget"})
	require.NoError(t, err)
	var parsed struct {
		Results []struct{ Title, URL string }
	}
	require.NoError(t, json.Unmarshal([]byte(js.Response), &parsed), js.Response)
	require.NotEmpty(t, parsed.Results)
	for _, r := range parsed.Results {
		assert.Contains(t, r.URL, "developers.widget.io", "the product names the site")
	}
	assert.LessOrEqual(t, js.OutputTokens, mintlify.IndexDefaultTokenBudget)
	none, err := x.BuildContext(ctx, mintlify.ContextParams{Query: "zymurgy"})
	require.NoError(t, err)
	assert.Empty(t, none.Response, "nothing matched: an empty response, no error")

	// Every body the SDK can send is one the mock's closed schemas accept.
	for name, call := range map[string]indexCallOf{
		"context full":      contextCall(mintlify.ContextParams{Query: "q", Product: "Acme", Format: "txt", IncludeDomains: []string{"acme.dev"}, ExcludeDomains: []string{"x.org"}, TokenBudget: mintlify.IndexMaxTokenBudget}),
		"context budget 1":  contextCall(mintlify.ContextParams{Query: " ", TokenBudget: 1}),
		"search text true":  searchCall(mintlify.IndexSearchParams{Query: "auth", NumResults: mintlify.IndexMaxNumResults, Text: true}),
		"search both lists": searchCall(mintlify.IndexSearchParams{Query: "auth", NumResults: 1, IncludeDomains: []string{"a.com"}, ExcludeDomains: []string{"b.com"}}),
		"contents 20 items": contentsCall(mintlify.ContentsParams{IDs: indexItems(10, "acme:/p"), URLs: indexItems(10, "https://a.example/p"), Query: "q", MaxCharacters: 1}),
	} {
		_, err := call(ctx, x)
		assert.NoError(t, err, name)
	}
}

// TestIndexE2EStandaloneMockLimits: the program's limits and access flags
// as the SDK meets them. A per-second refusal (Retry-After 1s) within the
// client's maximum wait is waited out; the day's limit is returned at once
// with the wait; an organization without Index access is 401.
func TestIndexE2EStandaloneMockLimits(t *testing.T) {
	t.Parallel()
	search := mintlify.IndexSearchParams{Query: "authentication", NumResults: 1}
	// limited starts the program with one limit flag, and a client that
	// waits up to 2s on a 429 and records each call's attempts.
	limited := func(t *testing.T, flag, limit string) (*mintlify.IndexClient, *[]int) {
		key, base := indexStandalone(t, flag, limit)
		attempts := new([]int)
		x := standaloneIndexClient(t, key, base, mintlify.WithRetryWait(time.Millisecond, 2*time.Second),
			mintlify.WithResponseObserver(func(_ context.Context, r *mintlify.Response) { *attempts = append(*attempts, r.Attempts) }))
		return x, attempts
	}

	t.Run("per second", func(t *testing.T) {
		t.Parallel()
		ctx := testContext(t)
		x, attempts := limited(t, "-index-limit", "1/1s")
		for range 2 {
			_, err := x.Search(ctx, search)
			require.NoError(t, err)
		}
		assert.Equal(t, 1, (*attempts)[0])
		assert.GreaterOrEqual(t, (*attempts)[1], 2, "the second waited out a 429 and was sent again")
	})
	t.Run("per day", func(t *testing.T) {
		t.Parallel()
		ctx := testContext(t)
		x, attempts := limited(t, "-index-daily-limit", "2/24h")
		_, err := x.Search(ctx, search)
		require.NoError(t, err)
		_, err = x.Contents(ctx, mintlify.ContentsParams{IDs: []string{"acme:/authentication"}})
		require.NoError(t, err)
		start := time.Now()
		got, err := x.BuildContext(ctx, mintlify.ContextParams{Query: "authentication"})
		assert.Less(t, time.Since(start), 1500*time.Millisecond, "not slept on (the maximum wait is 2s)")
		assert.Nil(t, got)
		require.ErrorIs(t, err, mintlify.ErrRateLimited, "the three routes share the day")
		var apiErr *mintlify.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Greater(t, apiErr.RetryAfter, time.Hour)
		assert.Equal(t, "Rate limit exceeded. Please try again later", apiErr.Message)
		assert.Equal(t, []int{1, 1, 1}, *attempts)
	})
	t.Run("no access", func(t *testing.T) {
		t.Parallel()
		ctx := testContext(t)
		key, base := indexStandalone(t, "-index-access=false")
		_, err := standaloneIndexClient(t, key, base).Search(ctx, search)
		require.ErrorIs(t, err, mintlify.ErrUnauthorized)
		var apiErr *mintlify.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "Unauthorized", apiErr.Message)
	})
}
