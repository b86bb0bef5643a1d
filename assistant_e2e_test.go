package mintlify_test

// The assistant API end to end, against the bundled mock over loopback:
// in-process (mockserver.Start) and as the standalone program
// (internal/mockcmd.Run, what `go run ./mockserver/cmd/mockserver` runs).

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// mockAssistant is an assistant client of srv's primary key and domain,
// over loopback, with retry waits of milliseconds; opts come last.
func mockAssistant(t testing.TB, srv *mockserver.Server, opts ...mintlify.Option) *mintlify.AssistantClient {
	t.Helper()
	return assistantAt(t, srv.URL()+"/discovery", srv.AssistantKey(), srv.Domain(), opts...)
}

func assistantAt(t testing.TB, base, key, domain string, opts ...mintlify.Option) *mintlify.AssistantClient {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	a, err := mintlify.NewAssistantClient(append([]mintlify.Option{mintlify.WithAPIKey(key), mintlify.WithDomain(domain),
		mintlify.WithBaseURL(base), mintlify.WithHTTPClient(&http.Client{Transport: tr}),
		mintlify.WithRetryWait(time.Millisecond, 20*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return a
}

// assistantE2E runs the user's path through the assistant API: a
// question, a follow-up in its thread, a search and a page's content.
func assistantE2E(t *testing.T, a *mintlify.AssistantClient, domain string) {
	ctx := testContext(t)

	first, err := a.Ask(ctx, "How do rate limits work?")
	require.NoError(t, err)
	assert.Contains(t, first.Text, "rate")
	assert.Equal(t, "stop", first.FinishReason)
	assert.Regexp(t, `^[0-9A-HJKMNP-TV-Z]{26}$`, first.ThreadID)
	assert.NotEmpty(t, first.ThreadKey, "the first answer of a thread carries its key")
	require.NotEmpty(t, first.Sources)
	paths := map[string]bool{}
	for _, s := range first.Sources {
		paths[s.Path] = true
		assert.True(t, strings.HasPrefix(s.URL, "https://"+domain+"/"), s.URL)
	}
	assert.True(t, paths["/rate-limits"], "the rate limits page is a source: %v", first.Sources)

	// A follow-up in the same thread, read as it arrives.
	s, err := a.Message(ctx, mintlify.MessageParams{
		ThreadID: first.ThreadID, ThreadKey: first.ThreadKey,
		Messages: []mintlify.ChatMessage{
			{Role: "user", Parts: []mintlify.ChatPart{{Text: "How do rate limits work?"}}},
			{Role: "assistant", Parts: []mintlify.ChatPart{{Text: first.Text}}},
			{Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: "And how do deployments work?"}}},
		},
	})
	require.NoError(t, err)
	var deltas strings.Builder
	types := map[string]int{}
	for ev, err := range s.Events() {
		require.NoError(t, err)
		types[ev.Type]++
		if ev.Type == "text-delta" {
			deltas.WriteString(ev.Delta)
		}
	}
	assert.Equal(t, first.ThreadID, s.ThreadID(), "the same thread")
	assert.Empty(t, s.ThreadKey(), "a follow-up's answer sends no key")
	assert.Equal(t, deltas.String(), s.Text())
	assert.Contains(t, strings.ToLower(s.Text()), "deployment")
	assert.Equal(t, 1, types["finish"])
	assert.Positive(t, types["source-url"])

	// Another thread's key does not continue it.
	_, err = a.Message(ctx, mintlify.MessageParams{ThreadID: first.ThreadID, ThreadKey: "0123456789abcdef0123456789abcdef",
		Messages: []mintlify.ChatMessage{{Role: "user", Parts: []mintlify.ChatPart{{Text: "again"}}}}})
	assert.ErrorIs(t, err, mintlify.ErrNotFound)

	results, err := a.SearchDocs(ctx, mintlify.DocSearchParams{Query: "authentication", PageSize: 3})
	require.NoError(t, err)
	require.NotEmpty(t, results)
	assert.LessOrEqual(t, len(results), 3)
	assert.Equal(t, "authentication", results[0].Path)
	assert.NotEmpty(t, results[0].Content)
	assert.NotEmpty(t, results[0].Metadata["title"])

	page, err := a.GetPageContent(ctx, "/"+results[0].Path)
	require.NoError(t, err)
	assert.Equal(t, "authentication", strings.Trim(page.Path, "/"))
	assert.NotEmpty(t, page.Content)

	_, err = a.GetPageContent(ctx, "no/such/page")
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
	var apiErr *mintlify.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.NotEmpty(t, apiErr.Message, "discovery's {\"message\"} body")
}

func TestE2EAssistant(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t)
	a := mockAssistant(t, srv)
	assistantE2E(t, a, srv.Domain())
	assert.EqualValues(t, 2, srv.Credits(), "two answered messages, two credits")
}

func TestE2EAssistantOnTheStandaloneMock(t *testing.T) {
	t.Parallel()
	base := standaloneMock(t, `assistant base URL (\S+)\)`, "-stream-delay", "1ms",
		"-assistant-key", "mint_dsc_standalone_e2e_key", "-domain", "docs.acme.test")[1]
	a := assistantAt(t, base, "mint_dsc_standalone_e2e_key", "docs.acme.test")
	assistantE2E(t, a, "docs.acme.test")
}
