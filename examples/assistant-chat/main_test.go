package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
	"github.com/docsagent/mintlify-go/internal/syncbuf"
)

// onMock unsets MINTLIFY_ASSISTANT_API_KEY for the test and serves the
// example's handler, on the bundled mock, over loopback.
func onMock(t *testing.T) (url string, log string) {
	t.Helper()
	demo.UnsetEnv(t, mintlify.EnvAssistantAPIKey)
	var buf bytes.Buffer
	a, stop, err := connect(&buf)
	require.NoError(t, err)
	t.Cleanup(stop)
	h, err := handler(a)
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL, buf.String()
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/api/chat", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", url) // the page's own origin, as a browser sends it
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// frames reads the answer's frames as they arrive, with when each came.
func frames(t *testing.T, resp *http.Response) (data []string, at []time.Time) {
	t.Helper()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			data = append(data, d)
			at = append(at, time.Now())
		}
	}
	require.NoError(t, sc.Err())
	return data, at
}

func TestChatThroughTheProxy(t *testing.T) {
	url, log := onMock(t)
	assert.Contains(t, log, "answering from the bundled mock server")

	page, err := http.Get(url + "/")
	require.NoError(t, err)
	html, _ := io.ReadAll(page.Body)
	page.Body.Close()
	assert.Equal(t, http.StatusOK, page.StatusCode)
	assert.Contains(t, string(html), `<script src="chat.js">`)
	assert.Contains(t, page.Header.Get("Content-Security-Policy"), "default-src 'self'")

	start := time.Now()
	resp := post(t, url, `{"id":"chat","trigger":"submit-message","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}]}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	thread, key := resp.Header.Get("X-Thread-Id"), resp.Header.Get("X-Thread-Key")
	require.NotEmpty(t, thread)
	require.NotEmpty(t, key)
	data, at := frames(t, resp)
	require.NotEmpty(t, data)
	assert.Equal(t, "[DONE]", data[len(data)-1])
	var text strings.Builder
	for _, d := range data[:len(data)-1] {
		var chunk struct{ Type, Delta string }
		require.NoError(t, json.Unmarshal([]byte(d), &chunk), d)
		if chunk.Type == "text-delta" {
			text.WriteString(chunk.Delta)
		}
	}
	assert.Contains(t, text.String(), "Rate limits")
	// The mock paces its frames 30ms apart: the first reached the page
	// long before the last, so the proxy streamed rather than buffered.
	assert.Greater(t, at[len(at)-1].Sub(at[0]), 300*time.Millisecond, "frames arrived over time")
	assert.Less(t, at[0].Sub(start), time.Second)

	// A follow-up in the thread.
	resp = post(t, url, `{"threadId":"`+thread+`","threadKey":"`+key+`","messages":[`+
		`{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]},`+
		`{"id":"m2","role":"assistant","parts":[{"type":"text","text":"`+"So."+`"}]},`+
		`{"id":"m3","role":"user","parts":[{"type":"text","text":"And preview deployments?"}]}]}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, thread, resp.Header.Get("X-Thread-Id"))
	data, _ = frames(t, resp)
	assert.Contains(t, strings.Join(data, "\n"), "Preview deployments")

	// Another site's page may not post here.
	req, _ := http.NewRequest(http.MethodPost, url+"/api/chat", strings.NewReader(`{"messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	bad, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	bad.Body.Close()
	assert.Equal(t, http.StatusForbidden, bad.StatusCode)
}

// The page's own script, run by node when it is installed: it asks a
// question and a follow-up through the proxy, reading the stream as the
// browser does.
func TestChatScriptUnderNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	url, _ := onMock(t)
	script := `
const { ask } = require(process.argv[1]);
(async () => {
  const state = { messages: [], threadId: "", threadKey: "" };
  let updates = 0;
  const first = await ask(process.argv[2] + "/api/chat", state, "What are the rate limits?", () => updates++);
  const second = await ask(process.argv[2] + "/api/chat", state, "And preview deployments?", () => updates++);
  console.log(JSON.stringify({ first, second, updates, thread: state.threadId, messages: state.messages.length }));
})().catch((e) => { console.error(e); process.exit(1); });
`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	abs, err := filepath.Abs("static/chat.js")
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, node, "-e", script, abs, url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var got struct {
		First, Second struct {
			Text    string
			Sources []struct{ URL, Title string }
		}
		Updates  int
		Thread   string
		Messages int
	}
	require.NoError(t, json.Unmarshal(out, &got), string(out))
	assert.Contains(t, got.First.Text, "Rate limits")
	assert.Equal(t, "https://docs.example.com/rate-limits", got.First.Sources[0].URL)
	assert.Contains(t, got.Second.Text, "Preview deployments")
	assert.Greater(t, got.Updates, 10, "the text grew delta by delta")
	assert.NotEmpty(t, got.Thread)
	assert.Equal(t, 4, got.Messages)
}

func TestServesUntilCancelled(t *testing.T) {
	demo.UnsetEnv(t, mintlify.EnvAssistantAPIKey)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var log syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, addr, &log) }()
	require.Eventually(t, func() bool { return strings.Contains(log.String(), "chat at http://"+addr) }, 10*time.Second, 10*time.Millisecond)
	resp, err := http.Get("http://" + addr + "/chat.js")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
}

func TestAnEmptyKeyIsAnError(t *testing.T) {
	t.Setenv(mintlify.EnvAssistantAPIKey, " ")
	_, _, err := connect(io.Discard)
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	assert.ErrorContains(t, err, "set but empty")
}

func TestArguments(t *testing.T) {
	var help bytes.Buffer
	_, err := parse([]string{"--help"}, &help)
	assert.ErrorIs(t, err, flag.ErrHelp)
	assert.Contains(t, help.String(), "usage: assistant-chat")
	addr, err := parse([]string{"-addr", "127.0.0.1:9999"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:9999", addr)
	_, err = parse([]string{"extra"}, &bytes.Buffer{})
	assert.ErrorContains(t, err, "unexpected arguments")
}

// The page's stream reader, run by node when it is installed, over reads
// cut at awkward places: a \r\n split between two reads, and a frame
// split inside its JSON. A stream that breaks off is an error, and the
// question it did not answer leaves the conversation, as one that a
// failed fetch never sent.
func TestChatScriptReadsCutStreams(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	script := `
const { readChatStream, ask } = require(process.argv[1]);
const reads = (parts) => { let i = 0; return { ok: true, headers: { get: () => null }, body: { getReader: () => ({
  read: async () => i < parts.length ? { value: new TextEncoder().encode(parts[i++]), done: false } : { done: true } }) } }; };
(async () => {
  const deltas = [];
  await readChatStream(reads(['data: {"type":"text-delta","delta":"a"}\r\n\r', '\n', 'data: {"type":"text-del', 'ta","delta":"b"}\r\n\r\n', 'data: [DONE]\r\n\r\n']),
    (c) => deltas.push(c.delta));
  const state = { messages: [], threadId: "", threadKey: "" };
  global.fetch = async () => reads(['data: {"type":"text-delta","delta":"c"}\n\n']);
  let broke = "";
  await ask("/api/chat", state, "Why?", () => {}).catch((e) => { broke = e.message; });
  global.fetch = async () => { throw new Error("offline"); };
  let unsent = "";
  await ask("/api/chat", state, "How?", () => {}).catch((e) => { unsent = e.message; });
  console.log(JSON.stringify({ deltas, broke, unsent, messages: state.messages.length }));
})().catch((e) => { console.error(e); process.exit(1); });
`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	abs, err := filepath.Abs("static/chat.js")
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, "-e", script, abs)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var got struct {
		Deltas   []string
		Broke    string
		Unsent   string
		Messages int
	}
	require.NoError(t, json.Unmarshal(out, &got), string(out))
	assert.Equal(t, []string{"a", "b"}, got.Deltas)
	assert.Equal(t, "the answer broke off", got.Broke)
	assert.Equal(t, "offline", got.Unsent)
	assert.Zero(t, got.Messages, "the unanswered questions, cut or never sent, are not kept")
}
