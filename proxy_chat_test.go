package mintlify_test

// The proxy as a long useChat session meets it: refusals passed on at
// once, long conversations trimmed rather than refused, threads carried
// in headers, and pages of other origins sending their session.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// TestProxyPassesARefusalOnAtOnce: an upstream 429 is the browser's 429,
// with upstream's Retry-After, within a second: the proxy's call waits
// out no Retry-After (the client's own retry would hold the browser for
// it, then answer a stale 429), and the message is sent once.
func TestProxyPassesARefusalOnAtOnce(t *testing.T) {
	t.Parallel()
	// The client's default waits: a Retry-After of a few seconds is one
	// it would wait out.
	a, got := assistantServer(t, answer(http.StatusTooManyRequests, `{"message":"slow down"}`, "Retry-After", "3"),
		mintlify.WithRetryWait(time.Second, 30*time.Second))
	p, err := mintlify.NewAssistantProxy(a)
	require.NoError(t, err)
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	front := &proxied{url: srv.URL, upstream: got, proxy: p}

	start := time.Now()
	resp := front.post(t, chatBody)
	took := time.Since(start)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, readAll(t, resp))
	assert.Equal(t, "3", resp.Header.Get("Retry-After"))
	assert.Less(t, took, 2*time.Second, "the refusal waited in the proxy (upstream asked for 3 s)")
	assert.Equal(t, 1, len(got()), "sent once")
}

// chat is a conversation as useChat sends it: turns of a question and an
// answer that holds a search step (its output, resultBytes of results),
// the answer's text (answerBytes of it) and a cited page; then the
// question asked now.
func chat(turns, resultBytes, answerBytes int) []map[string]any {
	var msgs []map[string]any
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	for i := range turns {
		results := []map[string]any{{"path": "guides/limits", "content": strings.Repeat("r", resultBytes), "metadata": map[string]any{"title": "Limits"}}}
		msgs = append(msgs,
			map[string]any{"id": fmt.Sprintf("u%d", i), "role": "user", "parts": []any{text(fmt.Sprintf("Question %d?", i))}},
			map[string]any{"id": fmt.Sprintf("a%d", i), "role": "assistant", "parts": []any{
				map[string]any{"type": "step-start"},
				map[string]any{"type": "tool-search", "toolCallId": fmt.Sprintf("c%d", i), "state": "output-available",
					"input": map[string]any{"query": "limits"}, "output": results},
				text(fmt.Sprintf("Answer %d: ", i) + strings.Repeat("a", answerBytes)),
				map[string]any{"type": "source-url", "sourceId": "s", "url": "https://docs.example.com/guides/limits"},
			}})
	}
	return append(msgs, map[string]any{"id": "now", "role": "user", "parts": []any{text("And now?")}})
}

// chatRequest is useChat's body for msgs.
func chatRequest(t *testing.T, msgs []map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": "chat-1", "trigger": "submit-message", "messages": msgs})
	require.NoError(t, err)
	return string(b)
}

// forwarded is what upstream received of the one request: the messages'
// IDs and their text's size.
func forwarded(t *testing.T, p *proxied) (ids []string, text int) {
	t.Helper()
	body := upstreamBody(t, p)
	for _, m := range body["messages"].([]any) {
		m := m.(map[string]any)
		ids = append(ids, m["id"].(string))
		for _, part := range m["parts"].([]any) {
			part := part.(map[string]any)
			require.Equal(t, "text", part["type"], "only text parts go upstream")
			text += len(part["text"].(string))
		}
	}
	return ids, text
}

// TestProxyTrimsALongConversation: useChat sends the whole conversation
// with each question. Past 50 messages (turn 26), or 256 KiB of text, the
// proxy forwards the most recent messages that fit, the question always,
// and says how many it left out in X-Conversation-Trimmed; the search
// results of earlier answers are dropped, so they count for nothing. A
// chat is never refused for its length.
func TestProxyTrimsALongConversation(t *testing.T) {
	t.Parallel()
	t.Run("30 turns with search results", func(t *testing.T) {
		t.Parallel()
		p := newProxied(t, streaming(wholeAnswer))
		body := chatRequest(t, chat(30, 8<<10, 200)) // 61 messages, 300 KB
		resp := p.post(t, body, "Origin", p.url)
		require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp))
		assert.Equal(t, "11", resp.Header.Get("X-Conversation-Trimmed"))
		assert.Contains(t, resp.Header.Get("Access-Control-Expose-Headers"), "X-Conversation-Trimmed")
		ids, _ := forwarded(t, p)
		require.Len(t, ids, 50)
		assert.Equal(t, "a5", ids[0], "the most recent 50")
		assert.Equal(t, "now", ids[49], "the question")
	})
	t.Run("13 turns with large search results", func(t *testing.T) {
		t.Parallel()
		p := newProxied(t, streaming(wholeAnswer))
		body := chatRequest(t, chat(13, 20<<10, 300))
		require.Greater(t, len(body), 256<<10)
		resp := p.post(t, body)
		require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp))
		assert.Empty(t, resp.Header.Get("X-Conversation-Trimmed"), "nothing left out: the results are not text")
		ids, _ := forwarded(t, p)
		assert.Len(t, ids, 27)
	})
	t.Run("over 256 KiB of text", func(t *testing.T) {
		t.Parallel()
		p := newProxied(t, streaming(wholeAnswer))
		msgs := chat(20, 10, 20<<10) // 20 answers of 20 KiB: 400 KiB of text
		resp := p.post(t, chatRequest(t, msgs))
		require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp))
		ids, text := forwarded(t, p)
		assert.LessOrEqual(t, text, 256<<10)
		assert.Greater(t, text+20<<10, 256<<10, "one message more would not have fit")
		assert.Equal(t, strconv.Itoa(len(msgs)-len(ids)), resp.Header.Get("X-Conversation-Trimmed"))
		assert.Equal(t, msgs[len(msgs)-len(ids)]["id"], ids[0], "a run of the most recent")
	})
	t.Run("an old part over 32 KiB goes, with what came before it", func(t *testing.T) {
		t.Parallel()
		p := newProxied(t, streaming(wholeAnswer))
		msgs := chat(5, 10, 10)
		msgs[3]["parts"] = []any{map[string]any{"type": "text", "text": strings.Repeat("x", 40<<10)}} // a1
		resp := p.post(t, chatRequest(t, msgs))
		require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp))
		assert.Equal(t, "4", resp.Header.Get("X-Conversation-Trimmed"))
		ids, _ := forwarded(t, p)
		assert.Equal(t, []string{"u2", "a2", "u3", "a3", "u4", "a4", "now"}, ids)
	})
	t.Run("a whole chat within the bounds", func(t *testing.T) {
		t.Parallel()
		p := newProxied(t, streaming(wholeAnswer))
		msgs := chat(25, 100, 100)[1:] // 50 messages, the question last
		resp := p.post(t, chatRequest(t, msgs))
		require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp))
		assert.Empty(t, resp.Header.Get("X-Conversation-Trimmed"))
		ids, _ := forwarded(t, p)
		assert.Len(t, ids, 50)
	})
}

// TestProxyTakesTheThreadFromHeaders: a chat transport's headers carry
// the thread (X-Thread-Id, X-Thread-Key), as the body's threadId and
// threadKey do; the two may not disagree.
func TestProxyTakesTheThreadFromHeaders(t *testing.T) {
	t.Parallel()
	const question = `{"messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"And then?"}]}]`
	for _, tc := range []struct {
		name, body string
		header     []string
		status     int
		thread     string // forwarded: threadId threadKey
	}{
		{"headers", question + `}`, []string{"X-Thread-Id", testThread, "X-Thread-Key", "k1"}, 200, testThread + " k1"},
		{"the body", question + `,"threadId":"` + testThread + `","threadKey":"k1"}`, nil, 200, testThread + " k1"},
		{"both, the same", question + `,"threadId":"` + testThread + `","threadKey":"k1"}`,
			[]string{"X-Thread-Id", testThread, "X-Thread-Key", "k1"}, 200, testThread + " k1"},
		{"both, another key", question + `,"threadId":"` + testThread + `","threadKey":"k1"}`,
			[]string{"X-Thread-Id", testThread, "X-Thread-Key", "k2"}, 400, ""},
		{"an ID without its key", question + `}`, []string{"X-Thread-Id", testThread}, 400, ""},
		{"a key without its ID", question + `}`, []string{"X-Thread-Key", "k1"}, 400, ""},
		{"an ID with a space", question + `}`, []string{"X-Thread-Id", "a b", "X-Thread-Key", "k1"}, 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newProxied(t, streaming(wholeAnswer))
			resp := p.post(t, tc.body, tc.header...)
			require.Equal(t, tc.status, resp.StatusCode, readAll(t, resp))
			if tc.status != 200 {
				assert.Empty(t, p.upstream())
				return
			}
			body := upstreamBody(t, p)
			assert.Equal(t, tc.thread, fmt.Sprint(body["threadId"], " ", body["threadKey"]))
		})
	}
}

// TestE2EProxyLongChat runs a chat as useChat does, through the proxy to
// the mock: each turn sends the whole conversation so far (the answers
// with their search steps) and the thread in headers. Thirty turns stay
// in one thread, each answered.
func TestE2EProxyLongChat(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t)
	proxy, err := mintlify.NewAssistantProxy(mockAssistant(t, srv), mintlify.WithProxyRateLimit(0, 0))
	require.NoError(t, err)
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	p := &proxied{url: front.URL}

	var msgs []map[string]any
	var header []string
	thread := ""
	questions := []string{"How do rate limits work?", "How do I deploy?", "What is a preview?", "How do I authenticate?"}
	for turn := range 30 {
		msgs = append(msgs, map[string]any{"id": fmt.Sprintf("u%d", turn), "role": "user",
			"parts": []any{map[string]any{"type": "text", "text": questions[turn%len(questions)]}}})
		resp := p.post(t, chatRequest(t, msgs), header...)
		answer := readAll(t, resp)
		require.Equal(t, http.StatusOK, resp.StatusCode, "turn %d: %s", turn, answer)
		if turn == 0 {
			thread = resp.Header.Get("X-Thread-Id")
			header = []string{"X-Thread-Id", thread, "X-Thread-Key", resp.Header.Get("X-Thread-Key")}
		}
		require.Equal(t, thread, resp.Header.Get("X-Thread-Id"), "turn %d", turn)
		if turn >= 25 {
			assert.NotEmpty(t, resp.Header.Get("X-Conversation-Trimmed"), "turn %d: over 50 messages", turn)
		}
		// The answer as useChat keeps it: its search step and its text.
		parts := []any{map[string]any{"type": "step-start"}}
		var text strings.Builder
		for _, frame := range framesOf(t, answer) {
			if frame == "[DONE]" {
				continue
			}
			c := chunkOf(t, frame)
			_, hasThread := c["threadId"]
			require.False(t, hasThread, "turn %d: %s", turn, frame)
			switch c["type"] {
			case "tool-output-available":
				parts = append(parts, map[string]any{"type": "tool-search", "toolCallId": c["toolCallId"], "state": "output-available", "output": c["output"]})
			case "text-delta":
				text.WriteString(c["delta"].(string))
			}
		}
		require.NotEmpty(t, text.String(), "turn %d", turn)
		msgs = append(msgs, map[string]any{"id": fmt.Sprintf("a%d", turn), "role": "assistant",
			"parts": append(parts, map[string]any{"type": "text", "text": text.String()})})
	}
	assert.EqualValues(t, 30, srv.Credits())
}

// TestProxyCredentials: with WithProxyCredentials, a page of an allowed
// origin may send its session (cookies, Authorization) for the identity
// to read; the proxy says so in its CORS headers. Without it, as before:
// no credentials allowed. Neither reaches upstream.
func TestProxyCredentials(t *testing.T) {
	t.Parallel()
	const site = "https://docs.example.com"
	var session string
	identity := mintlify.WithProxyIdentity(func(r *http.Request) (mintlify.ProxyIdentity, error) {
		session = r.Header.Get("Authorization")
		return mintlify.ProxyIdentity{FP: "user-1"}, nil
	})
	p := newProxied(t, streaming(wholeAnswer), mintlify.WithAllowedOrigins(site), mintlify.WithProxyCredentials(), identity)
	pre := p.send(t, http.MethodOptions, "", "Origin", site, "Access-Control-Request-Method", "POST",
		"Access-Control-Request-Headers", "authorization,content-type,x-thread-id")
	assert.Equal(t, http.StatusNoContent, pre.StatusCode)
	assert.Equal(t, site, pre.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "true", pre.Header.Get("Access-Control-Allow-Credentials"))
	assert.Equal(t, "Content-Type, X-Thread-Id, X-Thread-Key, Authorization", pre.Header.Get("Access-Control-Allow-Headers"))

	resp := p.post(t, chatBody, "Origin", site, "Authorization", "Bearer session-1", "Cookie", "sid=1")
	require.Equal(t, http.StatusOK, resp.StatusCode, readAll(t, resp))
	assert.Equal(t, site, resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "true", resp.Header.Get("Access-Control-Allow-Credentials"))
	assert.Equal(t, "Bearer session-1", session, "the identity reads the page's session")
	sent := p.upstream()[0].Header
	assert.Equal(t, "Bearer "+assistantKey, sent.Get("Authorization"), "upstream gets the key, not the session")
	assert.Empty(t, sent.Get("Cookie"))

	bad := p.send(t, http.MethodOptions, "", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	assert.Equal(t, http.StatusForbidden, bad.StatusCode)
	assert.Empty(t, bad.Header.Get("Access-Control-Allow-Credentials"), "never for another origin")

	a, _ := assistantServer(t, streaming(wholeAnswer))
	_, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyCredentials())
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "credentials need named origins: the default check compares hosts only")

	plain := newProxied(t, streaming(wholeAnswer), mintlify.WithAllowedOrigins(site))
	pre = plain.send(t, http.MethodOptions, "", "Origin", site, "Access-Control-Request-Method", "POST")
	assert.Empty(t, pre.Header.Get("Access-Control-Allow-Credentials"))
	assert.NotContains(t, pre.Header.Get("Access-Control-Allow-Headers"), "Authorization")
	resp = plain.post(t, chatBody, "Origin", site)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Credentials"))
}

// TestProxyUnicodeOrigins: an origin given in Unicode matches the Origin
// header a browser sends for it, which holds its punycode form.
func TestProxyUnicodeOrigins(t *testing.T) {
	t.Parallel()
	p := newProxied(t, streaming(wholeAnswer), mintlify.WithAllowedOrigins("https://Bücher.example", "http://例え.テスト:8080"))
	for origin, status := range map[string]int{
		"https://xn--bcher-kva.example":          200, // as a browser sends it
		"https://xn--bcher-kva.example:443":      200,
		"http://xn--r8jz45g.xn--zckzah:8080":     200,
		"https://bucher.example":                 403,
		"http://xn--r8jz45g.xn--zckzah":          403,
		"https://xn--bcher-kva.example.evil.com": 403,
	} {
		resp := p.post(t, chatBody, "Origin", origin)
		assert.Equal(t, status, resp.StatusCode, origin)
		if status == 200 {
			assert.Equal(t, origin, resp.Header.Get("Access-Control-Allow-Origin"))
		}
	}
}
