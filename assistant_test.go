package mintlify_test

// The assistant client against hand-made servers on 127.0.0.1: what each
// call sends, what it refuses before sending, how its answers are read,
// and the rule that a message, which spends credits, is never sent twice.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

const (
	assistantKey    = "mint_dsc_live_Qm7vT2xK9pLw4Rz8Nb3c"
	assistantDomain = "docs.example.com"
	// prompt bounds what must happen "promptly".
	prompt = time.Second
)

// sse is a v5 stream of the chunks, finish and [DONE].
func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	return b.String()
}

var wholeAnswer = sse(`{"type":"start","messageId":"m1"}`, `{"type":"text-start","id":"t"}`,
	`{"type":"text-delta","id":"t","delta":"Use "}`, `{"type":"text-delta","id":"t","delta":"a key."}`,
	`{"type":"text-end","id":"t"}`,
	`{"type":"source-url","sourceId":"s1","url":"https://docs.example.com/authentication","title":"Authentication"}`,
	`{"type":"finish","finishReason":"stop"}`, `[DONE]`)

// sent is one request an assistant server received.
type sent struct {
	Path   string
	Header http.Header
	Body   []byte
}

// assistantServer serves handler on 127.0.0.1 and returns a client of it
// (retry waits of milliseconds) and what it received.
func assistantServer(t *testing.T, handler http.HandlerFunc, opts ...mintlify.Option) (*mintlify.AssistantClient, func() []sent) {
	t.Helper()
	var mu sync.Mutex
	var got []sent
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, sent{Path: r.URL.EscapedPath(), Header: r.Header.Clone(), Body: body})
		mu.Unlock()
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	a := assistantAt(t, srv.URL, assistantKey, assistantDomain, opts...)
	return a, func() []sent {
		mu.Lock()
		defer mu.Unlock()
		return append([]sent(nil), got...)
	}
}

func streaming(body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		_, _ = io.WriteString(w, body)
	}
}

func answer(status int, body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func question(text string) mintlify.MessageParams {
	return mintlify.MessageParams{Messages: []mintlify.ChatMessage{{Role: "user", Parts: []mintlify.ChatPart{{Text: text}}}}}
}

func TestMessageSendsTheDocumentedBody(t *testing.T) {
	t.Parallel()
	a, got := assistantServer(t, streaming(wholeAnswer, "X-Thread-Id", testThread, "X-Thread-Key", "k1"))
	s, err := a.Message(context.Background(), mintlify.MessageParams{
		Messages: []mintlify.ChatMessage{
			{ID: "u1", Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: "How do I <log in> & out?"}}},
			{Role: "assistant", Parts: []mintlify.ChatPart{{Text: "With a key."}}},
			{Role: "user", Parts: []mintlify.ChatPart{{Text: "Which key?"}, {Text: " An admin one?"}}},
		},
		ThreadID: testThread, ThreadKey: "k1", RetrievalPageSize: 7, CurrentPath: "/quickstart",
		Version: "v2", Language: "fr", Groups: []string{"staff"},
	})
	require.NoError(t, err)
	defer s.Close()
	for _, err := range s.Events() {
		require.NoError(t, err)
	}
	assert.Equal(t, "Use a key.", s.Text())
	assert.Equal(t, testThread, s.ThreadID())
	assert.Equal(t, "k1", s.ThreadKey())
	assert.Equal(t, "stop", s.FinishReason())
	assert.Equal(t, []mintlify.Source{{URL: "https://docs.example.com/authentication", Title: "Authentication", Path: "/authentication"}}, s.Sources())

	reqs := got()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/v2/assistant/docs.example.com/message", reqs[0].Path)
	assert.Equal(t, "Bearer "+assistantKey, reqs[0].Header.Get("Authorization"))
	assert.Equal(t, "application/json", reqs[0].Header.Get("Content-Type"))
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	msgs := body["messages"].([]any)
	require.Len(t, msgs, 3)
	assert.Equal(t, "u1", msgs[0].(map[string]any)["id"])
	for _, m := range msgs[1:] {
		assert.Regexp(t, `^msg_[0-9a-f]{32}$`, m.(map[string]any)["id"], "an ID the SDK made")
	}
	assert.NotEqual(t, msgs[1].(map[string]any)["id"], msgs[2].(map[string]any)["id"])
	msgs[1].(map[string]any)["id"], msgs[2].(map[string]any)["id"] = "made", "made"
	b, _ := json.Marshal(body)
	assert.JSONEq(t, `{"fp":"anonymous","messages":[
		{"id":"u1","role":"user","parts":[{"type":"text","text":"How do I <log in> & out?"}]},
		{"id":"made","role":"assistant","parts":[{"type":"text","text":"With a key."}]},
		{"id":"made","role":"user","parts":[{"type":"text","text":"Which key?"},{"type":"text","text":" An admin one?"}]}],
		"threadId":"`+testThread+`","threadKey":"k1","retrievalPageSize":7,"currentPath":"/quickstart",
		"filter":{"version":"v2","language":"fr","groups":["staff"]}}`, string(b))
}

func TestMessageRefusesInvalidInput(t *testing.T) {
	t.Parallel()
	a, got := assistantServer(t, streaming(wholeAnswer))
	user := func(text string) mintlify.ChatMessage {
		return mintlify.ChatMessage{Role: "user", Parts: []mintlify.ChatPart{{Text: text}}}
	}
	withQ := func(f func(p *mintlify.MessageParams)) mintlify.MessageParams {
		p := question("How?")
		f(&p)
		return p
	}
	nan := math.NaN()
	for name, p := range map[string]mintlify.MessageParams{
		"no messages":           {},
		"an unknown role":       {Messages: []mintlify.ChatMessage{{Role: "tool", Parts: []mintlify.ChatPart{{Text: "x"}}}, user("How?")}},
		"a role in capitals":    {Messages: []mintlify.ChatMessage{{Role: "User", Parts: []mintlify.ChatPart{{Text: "How?"}}}}},
		"no parts":              {Messages: []mintlify.ChatMessage{{Role: "user"}}},
		"a part not text":       {Messages: []mintlify.ChatMessage{{Role: "user", Parts: []mintlify.ChatPart{{Type: "file", Text: "x"}}}}},
		"the last not the user": {Messages: []mintlify.ChatMessage{user("How?"), {Role: "assistant", Parts: []mintlify.ChatPart{{Text: "So."}}}}},
		"a blank question":      {Messages: []mintlify.ChatMessage{user(" \n\t")}},
		"a thread without key":  withQ(func(p *mintlify.MessageParams) { p.ThreadID = testThread }),
		"a key without thread":  withQ(func(p *mintlify.MessageParams) { p.ThreadKey = "k" }),
		"page size 51":          withQ(func(p *mintlify.MessageParams) { p.RetrievalPageSize = 51 }),
		"page size -1":          withQ(func(p *mintlify.MessageParams) { p.RetrievalPageSize = -1 }),
		"a path of 201":         withQ(func(p *mintlify.MessageParams) { p.CurrentPath = "/" + strings.Repeat("é", 200) }),
		"an empty group":        withQ(func(p *mintlify.MessageParams) { p.Groups = []string{"staff", ""} }),
	} {
		s, err := a.Message(context.Background(), p)
		assert.ErrorIs(t, err, mintlify.ErrInvalidInput, name)
		assert.Nil(t, s, name)
	}
	for name, p := range map[string]mintlify.DocSearchParams{
		"no query":       {},
		"page size 51":   {Query: "q", PageSize: 51},
		"page size -1":   {Query: "q", PageSize: -1},
		"threshold 1.5":  {Query: "q", ScoreThreshold: ptr(1.5)},
		"threshold -0.1": {Query: "q", ScoreThreshold: ptr(-0.1)},
		"threshold NaN":  {Query: "q", ScoreThreshold: &nan},
		"an empty group": {Query: "q", Groups: []string{""}},
		"threshold +Inf": {Query: "q", ScoreThreshold: ptr(math.Inf(1))},
	} {
		r, err := a.SearchDocs(context.Background(), p)
		assert.ErrorIs(t, err, mintlify.ErrInvalidInput, name)
		assert.Nil(t, r, name)
	}
	_, err := a.GetPageContent(context.Background(), "")
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	_, err = a.GetPageContent(context.Background(), "quickstart", "")
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	_, err = a.Ask(context.Background(), "  ")
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	var nilCtx context.Context
	_, err = a.Ask(nilCtx, "How?")
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	var nilClient *mintlify.AssistantClient
	_, err = nilClient.Ask(context.Background(), "How?")
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	_, err = (&mintlify.AssistantClient{}).SearchDocs(context.Background(), mintlify.DocSearchParams{Query: "q"})
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	assert.Empty(t, got(), "nothing was sent")

	// The edges of the ranges are fine.
	_, err = a.SearchDocs(context.Background(), mintlify.DocSearchParams{Query: "q", PageSize: 50, ScoreThreshold: ptr(1.0)})
	assert.ErrorIs(t, err, mintlify.ErrMalformedResponse, "sent, and the stream is no search answer")
	s, err := a.Message(context.Background(), withQ(func(p *mintlify.MessageParams) {
		p.RetrievalPageSize, p.CurrentPath = 50, "/"+strings.Repeat("é", 199)
	}))
	require.NoError(t, err)
	s.Close()
}

// A message spends credits: where the server may have acted, it is sent
// once and the outcome is unknown; where it cannot have (a 429, a 503),
// the error says so.
func TestMessageIsNeverSentTwice(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		handler http.HandlerFunc
		unknown bool
		is      error
	}{
		{"500", answer(500, `{"message":"boom"}`), true, mintlify.ErrServer},
		{"502", answer(502, `<html>bad gateway</html>`), true, mintlify.ErrServer},
		{"504", answer(504, ``), true, mintlify.ErrServer},
		{"cut after sending", func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		}, true, nil},
		{"an undocumented 2xx", answer(201, wholeAnswer), true, mintlify.ErrMalformedResponse},
		{"503", answer(503, `{"message":"down"}`), false, mintlify.ErrServer},
		{"400", answer(400, `{"message":"bad"}`), false, mintlify.ErrBadRequest},
		{"404", answer(404, `{"message":"Thread not found"}`), false, mintlify.ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, got := assistantServer(t, tt.handler, mintlify.WithMaxRetries(3))
			s, err := a.Message(context.Background(), question("How?"))
			require.Error(t, err)
			assert.Nil(t, s)
			assert.Equal(t, tt.unknown, errors.Is(err, mintlify.ErrOutcomeUnknown), "outcome unknown: %v", err)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			assert.Len(t, got(), 1, "one POST: %v", err)

			_, err = a.Ask(context.Background(), "How?")
			assert.Equal(t, tt.unknown, errors.Is(err, mintlify.ErrOutcomeUnknown), "Ask: %v", err)
			assert.Len(t, got(), 2, "Ask sent one POST more")
		})
	}
}

func TestMessageRetriesA429(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	a, got := assistantServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= 2 {
			answer(429, `{"message":"slow down"}`, "Retry-After", "0")(w, r)
			return
		}
		streaming(wholeAnswer)(w, r)
	})
	ans, err := a.Ask(context.Background(), "How?")
	require.NoError(t, err)
	assert.Equal(t, "Use a key.", ans.Text)
	reqs := got()
	require.Len(t, reqs, 3, "two 429s, then the answer")
	for _, r := range reqs {
		assert.JSONEq(t, string(reqs[0].Body), string(r.Body), "the whole body each time")
	}

	// A wait longer than the client's longest is not slept on.
	a, got = assistantServer(t, answer(429, `{"message":"slow down"}`, "Retry-After", "3600"))
	start := time.Now()
	_, err = a.Ask(context.Background(), "How?")
	assert.ErrorIs(t, err, mintlify.ErrRateLimited)
	var apiErr *mintlify.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, time.Hour, apiErr.RetryAfter)
	assert.Equal(t, "slow down", apiErr.Message, "discovery's {\"message\"} body")
	assert.Less(t, time.Since(start), prompt)
	assert.Len(t, got(), 1)
}

func TestMessageToARefusedConnectionIsNoUnknownOutcome(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	a := assistantAt(t, "http://"+addr, assistantKey, assistantDomain, mintlify.WithMaxRetries(1))
	_, err = a.Ask(context.Background(), "How?")
	require.Error(t, err)
	assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "no byte left: the server cannot have acted")
}

// The context ends a message promptly: while it waits for the answer's
// headers, and while it reads the answer.
func TestMessageCancellationEndsItPromptly(t *testing.T) {
	t.Parallel()
	left := make(chan struct{}, 2)
	var n atomic.Int32
	a, _ := assistantServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 2 { // the first request waits before its headers, the second after a frame
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, sse(`{"type":"text-delta","id":"t","delta":"Part"}`))
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
		left <- struct{}{}
	})

	// Before the headers.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := a.Ask(ctx, "no headers")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(start), 50*time.Millisecond+prompt)

	// While reading.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	s, err := a.Message(ctx, question("headers"))
	require.NoError(t, err)
	var stopped time.Time
	var end error
	for ev, err := range s.Events() {
		if err != nil {
			end = err
			break
		}
		if ev.Type == "text-delta" {
			stopped = time.Now()
			cancel()
		}
	}
	assert.ErrorIs(t, end, context.Canceled)
	assert.NotErrorIs(t, end, mintlify.ErrStream)
	assert.Less(t, time.Since(stopped), prompt)
	assert.Equal(t, "Part", s.Text(), "what arrived is kept")
	for range 2 {
		select {
		case <-left:
		case <-time.After(prompt):
			t.Fatal("the server did not see the request end")
		}
	}
}

func TestAskReturnsNoAnswerWhenItBreaksOff(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"an error chunk":    sse(`{"type":"text-delta","id":"t","delta":"Half"}`, `{"type":"error","errorText":"model overloaded"}`, `[DONE]`),
		"cut before finish": sse(`{"type":"text-delta","id":"t","delta":"Half"}`),
		"not JSON":          sse(`{"type":`),
	} {
		a, got := assistantServer(t, streaming(body))
		ans, err := a.Ask(context.Background(), "How?")
		assert.Nil(t, ans, name)
		assert.ErrorIs(t, err, mintlify.ErrStream, name)
		assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "%s: the message was received", name)
		assert.Len(t, got(), 1, "%s: not sent again", name)
	}
}

func TestAssistantErrorsHoldNoKey(t *testing.T) {
	t.Parallel()
	echo := fmt.Sprintf(`{"message":"key %s is not allowed here"}`, assistantKey)
	for _, call := range []func(a *mintlify.AssistantClient) error{
		func(a *mintlify.AssistantClient) error { _, err := a.Ask(context.Background(), "How?"); return err },
		func(a *mintlify.AssistantClient) error {
			_, err := a.SearchDocs(context.Background(), mintlify.DocSearchParams{Query: "q"})
			return err
		},
		func(a *mintlify.AssistantClient) error {
			_, err := a.GetPageContent(context.Background(), "x")
			return err
		},
	} {
		a, _ := assistantServer(t, answer(403, echo), mintlify.WithMaxRetries(0))
		err := call(a)
		require.ErrorIs(t, err, mintlify.ErrForbidden)
		assert.NotContains(t, err.Error(), assistantKey)
		assert.Contains(t, err.Error(), "[redacted]")
	}
	a, _ := assistantServer(t, streaming(sse(`{"type":"error","errorText":"bad key `+assistantKey+`"}`)))
	_, err := a.Ask(context.Background(), "How?")
	require.ErrorIs(t, err, mintlify.ErrStream)
	assert.NotContains(t, err.Error(), assistantKey)
	assert.NotContains(t, fmt.Sprintf("%v %+v %#v", a, a, a), assistantKey)
}

func TestMessageIsObserved(t *testing.T) {
	t.Parallel()
	var seen []*mintlify.Response
	var mu sync.Mutex
	a, _ := assistantServer(t, streaming(wholeAnswer, "X-Request-Id", "req_7"), mintlify.WithResponseObserver(func(_ context.Context, r *mintlify.Response) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r)
	}))
	_, err := a.Ask(context.Background(), "How?")
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, seen, 1)
	assert.Equal(t, http.MethodPost, seen[0].Method)
	assert.Equal(t, "/v2/assistant/docs.example.com/message", seen[0].Path)
	assert.Equal(t, 200, seen[0].StatusCode)
	assert.Equal(t, "req_7", seen[0].RequestID)
	assert.Equal(t, 1, seen[0].Attempts)
}

func TestSearchDocs(t *testing.T) {
	t.Parallel()
	const good = `[{"path":"authentication","content":"Send the key.","metadata":{"title":"Authentication","score":1}},{"path":"quickstart","content":"Install."}]`
	a, got := assistantServer(t, answer(200, good))
	res, err := a.SearchDocs(context.Background(), mintlify.DocSearchParams{Query: "key", PageSize: 5, ScoreThreshold: ptr(0.0),
		Version: "v2", Language: "en", Tag: "api", Groups: []string{"staff"}})
	require.NoError(t, err)
	assert.Equal(t, []mintlify.DocSearchResult{
		{Path: "authentication", Content: "Send the key.", Metadata: map[string]any{"title": "Authentication", "score": 1.0}},
		{Path: "quickstart", Content: "Install."},
	}, res)
	reqs := got()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/v1/search/docs.example.com", reqs[0].Path)
	assert.JSONEq(t, `{"query":"key","pageSize":5,"scoreThreshold":0,"filter":{"version":"v2","language":"en","tag":"api","groups":["staff"]}}`, string(reqs[0].Body))
	out, err := json.Marshal(res)
	require.NoError(t, err)
	assert.JSONEq(t, good, string(out), "marshals as the API sends it")

	// Retried like a GET.
	var n atomic.Int32
	a, got = assistantServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			answer(502, "")(w, r)
			return
		}
		answer(200, `[]`)(w, r)
	})
	res, err = a.SearchDocs(context.Background(), mintlify.DocSearchParams{Query: "nothing"})
	require.NoError(t, err)
	assert.NotNil(t, res)
	assert.Empty(t, res)
	assert.Len(t, got(), 2)
	assert.JSONEq(t, `{"query":"nothing"}`, string(got()[0].Body), "defaults are not sent")
}

func TestSearchDocsRefusesMalformedAnswers(t *testing.T) {
	t.Parallel()
	many := "[" + strings.TrimSuffix(strings.Repeat(`{"path":"p"},`, 51), ",") + "]"
	for name, body := range map[string]string{
		"an object":              `{"results":[]}`,
		"null":                   `null`,
		"a null result":          `[null]`,
		"a result not an object": `[7]`,
		"no path":                `[{"content":"x"}]`,
		"a path of a number":     `[{"path":7}]`,
		"metadata a string":      `[{"path":"p","metadata":"x"}]`,
		"51 results":             many,
		"huge metadata":          `[{"path":"p","metadata":{"x":"` + strings.Repeat("a", 65<<10) + `"}}]`,
		"not JSON":               `<html>`,
		"trailing junk":          `[] []`,
	} {
		a, _ := assistantServer(t, answer(200, body), mintlify.WithMaxRetries(0))
		res, err := a.SearchDocs(context.Background(), mintlify.DocSearchParams{Query: "q"})
		assert.ErrorIs(t, err, mintlify.ErrMalformedResponse, name)
		assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, name)
		assert.Nil(t, res, name)
	}
	// 50 results are fine.
	fifty := "[" + strings.TrimSuffix(strings.Repeat(`{"path":"p"},`, 50), ",") + "]"
	a, _ := assistantServer(t, answer(200, fifty))
	res, err := a.SearchDocs(context.Background(), mintlify.DocSearchParams{Query: "q"})
	require.NoError(t, err)
	assert.Len(t, res, 50)
}

func TestGetPageContent(t *testing.T) {
	t.Parallel()
	a, got := assistantServer(t, answer(200, `{"path":"guides/auth","content":"# Auth\nSend the key."}`))
	page, err := a.GetPageContent(context.Background(), "/guides/auth", "staff", "admins")
	require.NoError(t, err)
	assert.Equal(t, &mintlify.PageContent{Path: "guides/auth", Content: "# Auth\nSend the key."}, page)
	assert.Equal(t, "/v1/page/docs.example.com", got()[0].Path)
	assert.JSONEq(t, `{"path":"/guides/auth","groups":["staff","admins"]}`, string(got()[0].Body))

	a, _ = assistantServer(t, answer(404, `{"message":"Page not found"}`))
	_, err = a.GetPageContent(context.Background(), "nowhere")
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
	var apiErr *mintlify.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "Page not found", apiErr.Message)

	for name, body := range map[string]string{
		"no content":   `{"path":"x"}`,
		"null content": `{"path":"x","content":null}`,
		"another page": `{"path":"someone_else","content":"x"}`,
		"an array":     `[]`,
	} {
		a, _ := assistantServer(t, answer(200, body), mintlify.WithMaxRetries(0))
		page, err := a.GetPageContent(context.Background(), "x")
		assert.ErrorIs(t, err, mintlify.ErrMalformedResponse, name)
		assert.Nil(t, page, name)
	}
	a, _ = assistantServer(t, answer(200, `{"content":"no path said"}`))
	page, err = a.GetPageContent(context.Background(), "x")
	require.NoError(t, err)
	assert.Equal(t, "x", page.Path, "the page asked for")
}
