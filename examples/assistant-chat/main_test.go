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
	"github.com/docsagent/mintlify-go/mockserver"
)

// onMock unsets MINTLIFY_ASSISTANT_API_KEY for the test and serves the
// example, on the bundled mock, over loopback, until the test ends.
func onMock(t *testing.T) (url string, log string) {
	t.Helper()
	url, log, _ = serveOnMock(t, config{})
	return url, log
}

// serveOnMock is onMock with cfg, returning the mock too. Each of hosts,
// when given, names an origin of the page: http://host:port, on the port
// the example listens on.
func serveOnMock(t *testing.T, cfg config, hosts ...string) (url string, log string, mock *mockserver.Server) {
	t.Helper()
	demo.UnsetEnv(t, mintlify.EnvAssistantAPIKey)
	var buf syncbuf.Buffer
	a, mock, err := connect(&buf)
	require.NoError(t, err)
	t.Cleanup(mock.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, h := range hosts {
		cfg.origins = append(cfg.origins, "http://"+net.JoinHostPort(h, port))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, cfg, a, &buf) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	return "http://" + ln.Addr().String(), buf.String(), mock
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
	var got struct {
		First, Second struct {
			Text    string
			Sources []struct{ URL, Title string }
		}
		Updates  int
		Thread   string
		Messages int
	}
	runScript(t, script, &got, url)
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
	go func() { done <- run(ctx, config{addr: addr}, &log) }()
	require.Eventually(t, func() bool { return strings.Contains(log.String(), "chat at http://"+addr) }, 10*time.Second, 10*time.Millisecond)
	_, port, _ := net.SplitHostPort(addr)
	assert.Contains(t, log.String(), "for pages of http://"+addr+", http://localhost:"+port, "the origins it allows")
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
	cfg, err := parse([]string{"-addr", "127.0.0.1:9999", "-origin", "http://chat.internal:9999", "-origin", "https://docs.example.com",
		"-rate-key-header", "X-Real-IP"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, config{addr: "127.0.0.1:9999", origins: []string{"http://chat.internal:9999", "https://docs.example.com"}, rateKeyHeader: "X-Real-IP"}, cfg)
	_, err = parse([]string{"extra"}, &bytes.Buffer{})
	assert.ErrorContains(t, err, "unexpected arguments")
}

// The page's stream reader, run by node when it is installed, over reads
// cut at awkward places: a \r\n split between two reads, and a frame
// split inside its JSON. A stream that breaks off is an error, and the
// question it did not answer leaves the conversation, as one that a
// failed fetch never sent.
func TestChatScriptReadsCutStreams(t *testing.T) {
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
	var got struct {
		Deltas   []string
		Broke    string
		Unsent   string
		Messages int
	}
	runScript(t, script, &got)
	assert.Equal(t, []string{"a", "b"}, got.Deltas)
	assert.Equal(t, "the answer broke off", got.Broke)
	assert.Equal(t, "offline", got.Unsent)
	assert.Zero(t, got.Messages, "the unanswered questions, cut or never sent, are not kept")
}

// runScript runs a node script with chat.js's path as its first
// argument, then args, and decodes what it prints as JSON into v; without
// node it skips.
func runScript(t *testing.T, script string, v any, args ...string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	abs, err := filepath.Abs("static/chat.js")
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, append([]string{"-e", script, abs}, args...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	require.NoError(t, json.Unmarshal(out, v), string(out))
}

// The page's Markdown: paragraphs, lists, code, links to http(s) URLs and
// the site's paths; markup in the answer stays text, and a link to any
// other scheme is its text alone.
func TestChatScriptParsesMarkdown(t *testing.T) {
	script := `
const { parseMarkdown } = require(process.argv[1]);
const md = [
  "Here is what the documentation says.",
  "",
  "[Rate limits](https://docs.example.com/rate-limits): wait **Retry-After** seconds, see ` + "`429`" + `.",
  "- one [page](/quickstart)",
  "- two <b>bold</b>",
  "1. first",
  "",
  "` + "```" + `",
  "<script>alert(1)</script>",
  "` + "```" + `",
  "[click](javascript:alert(1)) <img src=x onerror=alert(1)> https://docs.example.com/previews.",
].join("\r\n");
console.log(JSON.stringify(parseMarkdown(md)));
`
	var blocks []map[string]any
	runScript(t, script, &blocks)
	want := `[
	{"type":"p","inline":[{"type":"text","text":"Here is what the documentation says."}]},
	{"type":"p","inline":[
		{"type":"link","href":"https://docs.example.com/rate-limits","children":[{"type":"text","text":"Rate limits"}]},
		{"type":"text","text":": wait "},{"type":"strong","children":[{"type":"text","text":"Retry-After"}]},
		{"type":"text","text":" seconds, see "},{"type":"code","text":"429"},{"type":"text","text":"."}]},
	{"type":"ul","items":[
		[{"type":"text","text":"one "},{"type":"link","href":"/quickstart","children":[{"type":"text","text":"page"}]}],
		[{"type":"text","text":"two <b>bold</b>"}]]},
	{"type":"ol","items":[[{"type":"text","text":"first"}]]},
	{"type":"code","text":"<script>alert(1)</script>"},
	{"type":"p","inline":[
		{"type":"span","children":[{"type":"text","text":"click"}]},
		{"type":"text","text":" <img src=x onerror=alert(1)> "},
		{"type":"link","href":"https://docs.example.com/previews","children":[{"type":"text","text":"https://docs.example.com/previews"}]},
		{"type":"text","text":"."}]}
]`
	got, err := json.Marshal(blocks)
	require.NoError(t, err)
	assert.JSONEq(t, want, string(got))
}

// The page reads streams as a browser does: CR, LF or CRLF line ends, a
// BOM, a data field over several lines, comments and other fields; a
// finish chunk at the end of the body is a whole answer even without
// [DONE], and an abort chunk (the server stopped it) an end without an
// error, as the AI SDK reads them. Its error lines say what happened.
func TestChatScriptReadsStreamsAsABrowser(t *testing.T) {
	script := `
const { readChatStream, describe } = require(process.argv[1]);
const reads = (parts) => { let i = 0; return { body: { getReader: () => ({
  read: async () => i < parts.length ? { value: new TextEncoder().encode(parts[i++]), done: false } : { done: true } }) } }; };
const read = async (parts) => { const got = []; try { await readChatStream(reads(parts), (c) => got.push(c.type + ":" + (c.delta ?? ""))); } catch (e) { got.push("error:" + e.message); } return got; };
(async () => {
  const out = {
    cr: await read(['data: {"type":"text-delta","delta":"a"}\r\r', 'data: {"type":"text-delta","delta":"b"}\r', '\rdata: [DONE]\r\r']),
    bom: await read(['\uFEFFdata: {"type":"text-delta","delta":"a"}\n\n', 'data: [DONE]\n\n']),
    fields: await read([': comment\nevent: message\nid: 3\ndata: {"type":"text-delta",\ndata: "delta":"a"}\n\n', 'retry: 10\n\ndata: [DONE]\n\n']),
    noDone: await read(['data: {"type":"text-delta","delta":"a"}\n\ndata: {"type":"finish"}\n\n']),
    cut: await read(['data: {"type":"text-delta","delta":"a"}\n\ndata: {"type":"finish"}']),
    abort: await read(['data: {"type":"text-delta","delta":"a"}\n\ndata: {"type":"abort"}\n\n']),
    busy: describe(Object.assign(new Error("too many messages; try again later"), { status: 429, retryAfter: 30 })),
    down: describe(Object.assign(new Error("the assistant could not be reached"), { status: 502 })),
    offline: describe(new TypeError("Failed to fetch")),
    broke: describe(new Error("the answer broke off")),
  };
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`
	var got map[string]any
	runScript(t, script, &got)
	assert.Equal(t, []any{"text-delta:a", "text-delta:b"}, got["cr"])
	assert.Equal(t, []any{"text-delta:a"}, got["bom"])
	assert.Equal(t, []any{"text-delta:a"}, got["fields"])
	assert.Equal(t, []any{"text-delta:a", "finish:"}, got["noDone"])
	assert.Equal(t, []any{"text-delta:a", "error:the answer broke off"}, got["cut"], "a finish without its blank line was never received")
	assert.Equal(t, []any{"text-delta:a", "abort:"}, got["abort"], "the server stopped the answer: an end, as the AI SDK reads it")
	assert.Equal(t, "Too many questions for now (too many messages; try again later): try again in 30 s.", got["busy"])
	assert.Equal(t, "The server refused the question (502): the assistant could not be reached.", got["down"])
	assert.Equal(t, "The server could not be reached: check your connection and try again.", got["offline"])
	assert.Equal(t, "The answer stopped: the answer broke off.", got["broke"])
}

// The proxy answers pages of the origins the example names, and no
// other: by default the listening address and localhost.
func TestOrigins(t *testing.T) {
	ask := func(url, origin string) int {
		req, err := http.NewRequest(http.MethodPost, url+"/api/chat", strings.NewReader(
			`{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}]}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	url, _ := onMock(t)
	port := url[strings.LastIndex(url, ":")+1:]
	assert.Equal(t, http.StatusOK, ask(url, url))
	assert.Equal(t, http.StatusOK, ask(url, "http://localhost:"+port))
	assert.Equal(t, http.StatusForbidden, ask(url, "http://chat.internal:"+port), "a name not given")

	named, _, _ := serveOnMock(t, config{}, "chat.internal")
	port = named[strings.LastIndex(named, ":")+1:]
	assert.Equal(t, http.StatusOK, ask(named, "http://chat.internal:"+port))
	assert.Equal(t, http.StatusForbidden, ask(named, named), "only the origins named")

	assert.Equal(t, []string{"http://127.0.0.1:8080", "http://localhost:8080"}, config{}.originsAt(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}))
	assert.Equal(t, []string{"http://[::1]:8080", "http://localhost:8080"}, config{}.originsAt(&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}))
	assert.Equal(t, []string{"http://192.0.2.1:8080"}, config{}.originsAt(&net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 8080}))
}

// Behind a reverse proxy every visitor comes from its address: with
// -rate-key-header the limit counts each visitor by the header it sets,
// without it they share one.
func TestRateKeyHeader(t *testing.T) {
	ask := func(url, visitor string) int {
		req, err := http.NewRequest(http.MethodPost, url+"/api/chat", strings.NewReader(
			`{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}]}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Real-IP", visitor)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close() // the status is all this needs; the proxy cancels the rest
		return resp.StatusCode
	}
	for _, header := range []string{"X-Real-IP", ""} {
		url, _, _ := serveOnMock(t, config{rateKeyHeader: header})
		for i := range 20 {
			require.Equal(t, http.StatusOK, ask(url, "192.0.2.1"), "message %d", i+1)
		}
		assert.Equal(t, http.StatusTooManyRequests, ask(url, "192.0.2.1"), "the 21st of a visitor")
		if header != "" {
			assert.Equal(t, http.StatusOK, ask(url, "192.0.2.2"), "another visitor has a limit of its own")
		} else {
			assert.Equal(t, http.StatusTooManyRequests, ask(url, "192.0.2.2"), "without the header, one limit for all")
		}
	}
}
