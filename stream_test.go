package mintlify

// Tests of the assistant's answer stream against hand-built streams: a
// strings.Reader for what a server sends at once, an io.Pipe or an
// httptest server (127.0.0.1) for what it sends over time. Names carry
// "stream" so that they clash with no other test file.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/docsagent/mintlify-go/internal/memtest"
	"github.com/docsagent/mintlify-go/internal/nodetest"
	"github.com/docsagent/mintlify-go/internal/redact"
)

const (
	streamDomain = "docs.example.com"
	// streamKey stands for an API key a hostile server echoes.
	streamKey = "mint_dsc_live_Zq8RwT3yPb6KmV2n"
	// streamPrompt bounds anything that must happen "promptly".
	streamPrompt = time.Second
)

// streamFrame is one server-sent event carrying v as JSON (a string is sent
// as it is: "[DONE]", or a broken frame).
func streamFrame(v any) string {
	if s, ok := v.(string); ok {
		return "data: " + s + "\n\n"
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return "data: " + string(b) + "\n\n"
}

func streamSSE(vs ...any) string {
	var b strings.Builder
	for _, v := range vs {
		b.WriteString(streamFrame(v))
	}
	return b.String()
}

type streamObj = map[string]any

func streamDelta(text string) streamObj {
	return streamObj{"type": "text-delta", "id": "text-1", "delta": text}
}

func streamFinish(threadID string) streamObj {
	return streamObj{"type": "finish", "finishReason": "stop", "threadId": threadID}
}

// streamAnswer is a whole answer shaped like the mock's: a search step,
// the text, the cited pages, finish and [DONE].
func streamAnswer() string { return streamSSE(streamAnswerFrames()...) }

// streamAnswerFrames are streamAnswer's frames; the last two are finish and
// [DONE].
func streamAnswerFrames() []any {
	return []any{
		streamObj{"type": "start", "messageId": "msg-1"},
		streamObj{"type": "start-step"},
		streamObj{"type": "tool-input-start", "toolCallId": "call-1", "toolName": "search"},
		streamObj{"type": "tool-input-delta", "toolCallId": "call-1", "inputTextDelta": `{"query":"rate limits"}`},
		streamObj{"type": "tool-input-available", "toolCallId": "call-1", "toolName": "search", "input": streamObj{"query": "rate limits"}},
		streamObj{"type": "tool-output-available", "toolCallId": "call-1", "output": []streamObj{
			{"path": "rate-limits", "content": "Each key may send...", "metadata": streamObj{"title": "Rate limits", "score": 1}},
			{"path": "quickstart", "content": "Install the CLI...", "metadata": streamObj{"title": "Quickstart", "score": 0.4}},
		}},
		streamObj{"type": "finish-step"},
		streamObj{"type": "start-step"},
		streamObj{"type": "text-start", "id": "text-1"},
		streamDelta("Each key may "),
		streamDelta("send 10,000 messages "),
		streamDelta("an hour."),
		streamObj{"type": "text-end", "id": "text-1"},
		streamObj{"type": "source-url", "sourceId": "source-1", "url": "https://docs.example.com/rate-limits", "title": "Rate limits and quotas"},
		streamObj{"type": "finish-step"},
		streamFinish("01J9ZQ4B6C2W8XKTN5R7M3PVHD"),
		"[DONE]",
	}
}

// newTestStream reads body as an answer with the given headers
// (name, value pairs).
func newTestStream(body string, header ...string) *MessageStream {
	return newMessageStream(context.Background(), io.NopCloser(strings.NewReader(body)), streamHeader(header...), streamDomain, redact.New())
}

func streamHeader(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// streamResult is what one Events loop saw.
type streamResult struct {
	events     []StreamEvent
	err        error
	afterError int // yields after the first error: must stay 0
}

func (r streamResult) types() []string {
	var out []string
	for _, ev := range r.events {
		out = append(out, ev.Type)
	}
	return out
}

func streamCollect(s *MessageStream) streamResult {
	var r streamResult
	for ev, err := range s.Events() {
		switch {
		case r.err != nil:
			r.afterError++
		case err != nil:
			r.err = err
		default:
			r.events = append(r.events, ev)
		}
	}
	return r
}

func TestStreamReadsAWholeAnswer(t *testing.T) {
	t.Parallel()
	s := newTestStream(streamAnswer(), "X-Thread-Key", "tk_secret")
	r := streamCollect(s)
	if r.err != nil {
		t.Fatalf("Events: %v", r.err)
	}
	want := []string{"start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available",
		"tool-output-available", "finish-step", "start-step", "text-start", "text-delta", "text-delta", "text-delta",
		"text-end", "source-url", "finish-step", "finish"}
	if got := r.types(); !reflect.DeepEqual(got, want) {
		t.Fatalf("event types\n got %q\nwant %q", got, want)
	}
	if got, want := r.events[9].Delta, "Each key may "; got != want {
		t.Errorf("Delta of the first text-delta = %q, want %q", got, want)
	}
	if got := r.events[3].Delta; got != "" {
		t.Errorf("Delta of a tool-input-delta = %q, want none (its JSON stays in Raw)", got)
	}
	if got, want := s.Text(), "Each key may send 10,000 messages an hour."; got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
	wantSources := []Source{
		{URL: "https://docs.example.com/rate-limits", Title: "Rate limits and quotas", Path: "/rate-limits"},
		{URL: "https://docs.example.com/quickstart", Title: "Quickstart", Path: "/quickstart"},
	}
	if got := s.Sources(); !reflect.DeepEqual(got, wantSources) {
		t.Errorf("Sources()\n got %+v\nwant %+v", got, wantSources)
	}
	if got := s.ThreadID(); got != "01J9ZQ4B6C2W8XKTN5R7M3PVHD" {
		t.Errorf("ThreadID() = %q, want the finish chunk's (no header)", got)
	}
	if got := s.ThreadKey(); got != "tk_secret" {
		t.Errorf("ThreadKey() = %q, want the header's", got)
	}
	if got := s.FinishReason(); got != "stop" {
		t.Errorf("FinishReason() = %q, want stop", got)
	}
}

// TestStreamEndsAsTheAISDKDoes: the AI SDK's chat client takes an abort
// chunk, and the end of the body after finish, as an answer's end, not as
// a failure; so does the SDK.
func TestStreamEndsAsTheAISDKDoes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body, text, reason string
		last                     string // the last event's type
	}{
		{"finish, then the end of the body", streamSSE(streamDelta("Hi."), streamFinish("t")), "Hi.", "stop", "finish"},
		{"finish without its empty line, then the end", streamSSE(streamDelta("Hi.")) + `data: {"type":"finish","finishReason":"stop"}` + "\n\n" + "data: [DONE]", "Hi.", "stop", "finish"},
		{"an abort chunk, then the end of the body", streamSSE(streamDelta("Hal"), streamObj{"type": "abort"}), "Hal", "abort", "abort"},
		{"an abort chunk, then [DONE]", streamSSE(streamDelta("Hal"), streamObj{"type": "abort"}, "[DONE]"), "Hal", "abort", "abort"},
		{"an abort chunk, then finish", streamSSE(streamDelta("Hal"), streamObj{"type": "abort"}, streamFinish("t"), "[DONE]"), "Hal", "abort", "finish"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestStream(tc.body)
			r := streamCollect(s)
			if r.err != nil {
				t.Fatalf("after %q: %v", r.types(), r.err)
			}
			if got := r.types(); got[len(got)-1] != tc.last {
				t.Errorf("events %q, want the last to be %s", got, tc.last)
			}
			if s.Text() != tc.text || s.FinishReason() != tc.reason {
				t.Errorf("Text() %q, FinishReason() %q; want %q, %q", s.Text(), s.FinishReason(), tc.text, tc.reason)
			}
			a, err := newTestStream(tc.body).answer()
			if err != nil || a.Text != tc.text || a.FinishReason != tc.reason {
				t.Errorf("answer() = %+v, %v", a, err)
			}
		})
	}
}

// TestStreamReadsLineEndsAsBrowsersDo: CR, LF and CRLF each end a line,
// and a leading byte order mark is dropped, as the AI SDK's parser reads
// them (internal/sse holds the vectors of the parser itself).
func TestStreamReadsLineEndsAsBrowsersDo(t *testing.T) {
	t.Parallel()
	const text = "Each key may send 10,000 messages an hour."
	for name, body := range map[string]string{
		"LF":                        streamAnswer(),
		"CRLF":                      strings.ReplaceAll(streamAnswer(), "\n", "\r\n"),
		"lone CR":                   strings.ReplaceAll(streamAnswer(), "\n", "\r"),
		"a byte order mark and LF":  "\ufeff" + streamAnswer(),
		"a byte order mark and CR":  "\ufeff" + strings.ReplaceAll(streamAnswer(), "\n", "\r"),
		"CR, LF and CRLF in a mix":  strings.NewReplacer("\n\n", "\r\n\r").Replace(streamAnswer()),
		"a byte at a time, lone CR": strings.ReplaceAll(streamAnswer(), "\n", "\r"),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var in io.Reader = strings.NewReader(body)
			if strings.HasPrefix(name, "a byte at a time") {
				in = iotest.OneByteReader(in)
			}
			s := newMessageStream(context.Background(), io.NopCloser(in), nil, streamDomain, redact.New())
			r := streamCollect(s)
			if r.err != nil {
				t.Fatalf("after %q: %v", r.types(), r.err)
			}
			if got := r.types(); len(got) != 16 || got[0] != "start" || got[15] != "finish" {
				t.Errorf("events %q, want the answer's 16 from start to finish", got)
			}
			if s.Text() != text {
				t.Errorf("Text() = %q", s.Text())
			}
		})
	}
}

// TestStreamKeepsTextPartsApart: the text of separate parts is joined by
// a blank line, in the order the parts started, never glued together.
func TestStreamKeepsTextPartsApart(t *testing.T) {
	t.Parallel()
	start := func(id string) streamObj { return streamObj{"type": "text-start", "id": id} }
	delta := func(id, d string) streamObj { return streamObj{"type": "text-delta", "id": id, "delta": d} }
	end := func(id string) streamObj { return streamObj{"type": "text-end", "id": id} }
	for _, tc := range []struct {
		name   string
		frames []any
		want   string
	}{
		{"two parts in a row", []any{start("a"), delta("a", "First "), delta("a", "part."), end("a"),
			start("b"), delta("b", "Second part."), end("b")}, "First part.\n\nSecond part."},
		{"interleaved, in the order they started", []any{start("a"), start("b"), delta("b", "B1 "), delta("a", "A1 "),
			delta("b", "B2"), delta("a", "A2"), end("a"), end("b")}, "A1 A2\n\nB1 B2"},
		{"one ID used again after its end", []any{start("t"), delta("t", "One."), end("t"), start("t"), delta("t", "Two."), end("t")},
			"One.\n\nTwo."},
		{"a delta without its start", []any{delta("x", "Alone.")}, "Alone."},
		{"an empty part adds no blank line", []any{start("a"), end("a"), start("b"), delta("b", "Only."), end("b")}, "Only."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := newTestStream(streamSSE(append(tc.frames, streamFinish("t"), "[DONE]")...)).answer()
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != tc.want {
				t.Errorf("Text = %q, want %q", a.Text, tc.want)
			}
		})
	}
}

// TestStreamEventsArriveAsSent: the first chunk reaches the caller while
// the server still holds back the rest, through a real HTTP connection.
func TestStreamEventsArriveAsSent(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var released atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("X-Thread-Id", "thread-from-header")
		w.Header().Set("X-Thread-Key", "key-1")
		io.WriteString(w, streamSSE(streamObj{"type": "start"}, streamDelta("Hello ")))
		w.(http.Flusher).Flush()
		select { // the rest of the answer waits for the client's first event
		case <-release:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, streamSSE(streamDelta("world."), streamFinish("thread-from-finish"), "[DONE]"))
	}))
	t.Cleanup(srv.Close)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, nil)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	s := newMessageStream(ctx, resp.Body, resp.Header, streamDomain, redact.New())
	var types []string
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatalf("Events: %v", err)
		}
		types = append(types, ev.Type)
		if ev.Type == "text-delta" && !released.Load() {
			if got := s.Text(); got != "Hello " {
				t.Errorf("Text() while the server waits = %q, want %q", got, "Hello ")
			}
			released.Store(true)
			close(release)
		}
	}
	if !released.Load() {
		t.Fatal("no text-delta arrived before the server's pause")
	}
	if got, want := strings.Join(types, " "), "start text-delta text-delta finish"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	if got := s.Text(); got != "Hello world." {
		t.Errorf("Text() = %q", got)
	}
	if got := s.ThreadID(); got != "thread-from-header" {
		t.Errorf("ThreadID() = %q, want the header's, which wins over the finish chunk's", got)
	}
	if got := s.ThreadKey(); got != "key-1" {
		t.Errorf("ThreadKey() = %q", got)
	}
}

func TestStreamSources(t *testing.T) {
	t.Parallel()
	search := func(id string, results ...streamObj) []any {
		return []any{
			streamObj{"type": "tool-input-available", "toolCallId": id, "toolName": "search", "input": streamObj{"query": "q"}},
			streamObj{"type": "tool-output-available", "toolCallId": id, "output": results},
		}
	}
	result := func(path any, title string) streamObj {
		return streamObj{"path": path, "content": "...", "metadata": streamObj{"title": title}}
	}
	var frames []any
	frames = append(frames, search("call-1",
		result("quickstart", "Quickstart"),
		result("guides/auth/", "Authentication"),
		result("/quickstart/", "Quickstart again"), // the same page
		result("https://other.example.com/ext/page/", "External"),
		result("", "No path"),
		result(42, "A path of another type"),
		streamObj{"path": "untitled"},
	)...)
	frames = append(frames,
		// Cited: its URL and title replace the search result's.
		streamObj{"type": "source-url", "sourceId": "s1", "url": "https://docs.example.com/quickstart/#install", "title": "Quick start"},
		// Cited without a title; a later search result names it.
		streamObj{"type": "source-url", "sourceId": "s2", "url": "https://docs.example.com/rate-limits?lang=en"},
		// Cited twice: the first citation stays.
		streamObj{"type": "source-url", "sourceId": "s3", "url": "https://docs.example.com/quickstart", "title": "Second title"},
		streamObj{"type": "source-url", "sourceId": "s4", "url": "mailto:docs@example.com", "title": "Not a page"},
		streamObj{"type": "source-url", "sourceId": "s5", "url": "/relative/page", "title": "Relative"},
		// Another tool's output is not a source, nor is an output whose
		// call was never announced.
		streamObj{"type": "tool-input-start", "toolCallId": "call-2", "toolName": "fetch"},
		streamObj{"type": "tool-output-available", "toolCallId": "call-2", "output": []streamObj{result("fetched", "Fetched")}},
		streamObj{"type": "tool-output-available", "toolCallId": "call-9", "output": []streamObj{result("orphan", "Orphan")}},
		// A search output of another shape is ignored.
		streamObj{"type": "tool-input-start", "toolCallId": "call-3", "toolName": "search"},
		streamObj{"type": "tool-output-available", "toolCallId": "call-3", "output": streamObj{"results": []streamObj{result("wrapped", "W")}}},
	)
	frames = append(frames, search("call-4", result("rate-limits", "Rate limits"), result("quickstart", "Quickstart"))...)
	frames = append(frames, streamFinish(""), "[DONE]")

	s := newTestStream(streamSSE(frames...))
	if r := streamCollect(s); r.err != nil {
		t.Fatalf("Events: %v", r.err)
	}
	want := []Source{
		{URL: "https://docs.example.com/quickstart/#install", Title: "Quick start", Path: "/quickstart"},
		{URL: "https://docs.example.com/guides/auth", Title: "Authentication", Path: "/guides/auth"},
		{URL: "https://other.example.com/ext/page/", Title: "External", Path: "/ext/page"},
		{URL: "https://docs.example.com/untitled", Title: "", Path: "/untitled"},
		{URL: "https://docs.example.com/rate-limits?lang=en", Title: "Rate limits", Path: "/rate-limits"},
		{URL: "https://docs.example.com/relative/page", Title: "Relative", Path: "/relative/page"},
	}
	got := s.Sources()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Sources()\n got %+v\nwant %+v", got, want)
	}
	got[0].Title = "changed by the caller"
	if s.Sources()[0].Title != "Quick start" {
		t.Error("Sources() shares its slice with the stream")
	}
}

func TestStreamSourceURLOfABareSiteIdentifier(t *testing.T) {
	t.Parallel()
	body := streamSSE(
		streamObj{"type": "tool-input-start", "toolCallId": "c", "toolName": "search"},
		streamObj{"type": "tool-output-available", "toolCallId": "c", "output": []streamObj{{"path": "quickstart"}}},
		streamFinish("t"), "[DONE]")
	s := newMessageStream(context.Background(), io.NopCloser(strings.NewReader(body)), nil, "acme", redact.New())
	if r := streamCollect(s); r.err != nil {
		t.Fatal(r.err)
	}
	want := []Source{{URL: "https://acme.mintlify.site/quickstart", Path: "/quickstart"}}
	if got := s.Sources(); !reflect.DeepEqual(got, want) {
		t.Errorf("Sources() = %+v, want %+v", got, want)
	}
}

func TestStreamThreadID(t *testing.T) {
	t.Parallel()
	body := streamSSE(streamDelta("Hi"), streamFinish("from-finish"), "[DONE]")
	for _, tc := range []struct {
		name   string
		header []string
		want   string
	}{
		{"header first", []string{"X-Thread-Id", "from-header"}, "from-header"},
		{"else the finish chunk", nil, "from-finish"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestStream(body, tc.header...)
			var before string
			for ev, err := range s.Events() {
				if err != nil {
					t.Fatal(err)
				}
				if ev.Type == "text-delta" {
					before = s.ThreadID()
				}
			}
			if got := s.ThreadID(); got != tc.want {
				t.Errorf("ThreadID() = %q, want %q", got, tc.want)
			}
			if tc.header == nil && before != "" {
				t.Errorf("ThreadID() before finish = %q, want none yet", before)
			}
		})
	}
}

func TestStreamUnknownChunksPassThrough(t *testing.T) {
	t.Parallel()
	unknown := []string{
		`{"type":"data-weather","id":"w1","data":{"city":"Oslo","temp":-3}}`,
		`{"type":"message-metadata","messageMetadata":{"model":"m"}}`,
		`{"type":"reasoning-delta","id":"r1","delta":"thinking..."}`,
		`{"type":"some-future-chunk","delta":"not text","url":42,"toolCallId":{"odd":true}}`,
	}
	frames := []any{streamDelta("A")}
	for _, u := range unknown {
		frames = append(frames, u)
	}
	frames = append(frames, streamDelta("B"), streamFinish("t"), `{"type":"after-finish"}`, "[DONE]")
	s := newTestStream(streamSSE(frames...))
	r := streamCollect(s)
	if r.err != nil {
		t.Fatalf("Events: %v", r.err)
	}
	if got, want := r.types(), []string{"text-delta", "data-weather", "message-metadata", "reasoning-delta",
		"some-future-chunk", "text-delta", "finish", "after-finish"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("types %q, want %q", got, want)
	}
	for i, u := range unknown {
		if got := string(r.events[i+1].Raw); got != u {
			t.Errorf("Raw of %s = %s, want the chunk as sent", r.events[i+1].Type, got)
		}
	}
	if got := r.events[3].Delta; got != "thinking..." {
		t.Errorf("reasoning-delta's Delta = %q", got)
	}
	if got := s.Text(); got != "AB" {
		t.Errorf("Text() = %q, want only the text-deltas", got)
	}
}

// TestStreamRawIsTheCallersCopy: a later frame reuses the reader's buffer,
// never an event's Raw.
func TestStreamRawIsTheCallersCopy(t *testing.T) {
	t.Parallel()
	r := streamCollect(newTestStream(streamSSE(streamDelta("first"), streamDelta("second"), streamFinish("t"), "[DONE]")))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := string(r.events[0].Raw); got != `{"delta":"first","id":"text-1","type":"text-delta"}` {
		t.Errorf("first Raw after the stream ended: %s", got)
	}
}

func TestStreamEndsWithAnError(t *testing.T) {
	t.Parallel()
	readFailure := errors.New("connection reset by peer")
	for _, tc := range []struct {
		name      string
		body      io.Reader
		maxFrame  int
		malformed bool
		events    int    // yielded before the error
		text      string // kept
		inError   string
	}{
		{name: "cut before finish", body: strings.NewReader(streamSSE(streamDelta("Hel"))),
			events: 1, text: "Hel", inError: "cut before its finish chunk"},
		{name: "cut inside a frame", body: strings.NewReader(streamSSE(streamDelta("Hel")) + `data: {"type":"text-de`),
			events: 1, text: "Hel", inError: "cut before"},
		{name: "cut after finish by a failed read", body: io.MultiReader(strings.NewReader(streamSSE(streamDelta("Hi"), streamFinish("t"))), iotest.ErrReader(readFailure)),
			events: 2, text: "Hi", inError: "after its finish chunk"},
		{name: "a read error", body: io.MultiReader(strings.NewReader(streamSSE(streamDelta("Hi"))), iotest.ErrReader(readFailure)),
			events: 1, text: "Hi", inError: "connection reset"},
		{name: "[DONE] without finish", body: strings.NewReader(streamSSE(streamDelta("Hi"), "[DONE]")),
			events: 1, text: "Hi", inError: "without a finish chunk"},
		{name: "an error chunk", body: strings.NewReader(streamSSE(streamDelta("Hi"),
			streamObj{"type": "error", "errorText": "model overloaded"}, streamFinish("t"), "[DONE]")),
			events: 1, text: "Hi", inError: `the server reported an error (frame 2): "model overloaded"`},
		{name: "an error chunk after finish", body: strings.NewReader(streamSSE(streamFinish("t"),
			streamObj{"type": "error"}, "[DONE]")),
			events: 1, inError: "the server reported an error (frame 2)"},
		{name: "a frame that is not JSON", body: strings.NewReader(streamSSE(streamDelta("Hi"), "Hello there", "[DONE]")),
			malformed: true, events: 1, text: "Hi", inError: "frame 2 is not JSON"},
		{name: "JSON after JSON", body: strings.NewReader(streamSSE(`{"type":"start"} {"type":"start"}`)),
			malformed: true, inError: "frame 1 is not JSON"},
		{name: "no type", body: strings.NewReader(streamSSE(`{"delta":"x"}`)), malformed: true, inError: "no string"},
		{name: "a type of another kind", body: strings.NewReader(streamSSE(`{"delta":"x","type":7}`)), malformed: true},
		{name: "an empty type", body: strings.NewReader(streamSSE(`{"type":""}`)), malformed: true},
		{name: "an array", body: strings.NewReader(streamSSE(`[{"type":"start"}]`)), malformed: true},
		{name: "null", body: strings.NewReader(streamSSE(`null`)), malformed: true},
		{name: "a frame over the bound", maxFrame: 1 << 10,
			body:      strings.NewReader(streamSSE(streamDelta("Hi"), streamDelta(strings.Repeat("x", 2<<10)), streamFinish("t"), "[DONE]")),
			malformed: true, events: 1, text: "Hi", inError: "frame 2 is larger than 1024 bytes"},
		{name: "a comment without end is read through, not held", maxFrame: 1 << 10,
			body:   strings.NewReader(streamSSE(streamDelta("Hi")) + ":" + strings.Repeat(" keep-alive", 1<<10)),
			events: 1, text: "Hi", inError: "cut before its finish chunk"},
		{name: "an endless run of lines in one frame", maxFrame: 1 << 10,
			body:      strings.NewReader(strings.Repeat("data: x\n", 1<<10)),
			malformed: true, inError: "frame 1 is larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newMessageStream(context.Background(), io.NopCloser(tc.body), nil, streamDomain, redact.New())
			if tc.maxFrame > 0 {
				s.maxFrame = tc.maxFrame
			}
			r := streamCollect(s)
			if r.err == nil {
				t.Fatalf("no error after %q", r.types())
			}
			t.Logf("%v", r.err)
			if r.afterError != 0 {
				t.Errorf("%d yields after the error", r.afterError)
			}
			if len(r.events) != tc.events {
				t.Errorf("%d events before the error (%q), want %d", len(r.events), r.types(), tc.events)
			}
			if !errors.Is(r.err, ErrStream) {
				t.Error("not ErrStream")
			}
			if errors.Is(r.err, ErrMalformedResponse) != tc.malformed {
				t.Errorf("ErrMalformedResponse = %v, want %v", !tc.malformed, tc.malformed)
			}
			if errors.Is(r.err, ErrOutcomeUnknown) {
				t.Error("ErrOutcomeUnknown: the message was received")
			}
			if !strings.HasPrefix(r.err.Error(), "mintlify: answer stream: ") || !strings.Contains(r.err.Error(), tc.inError) {
				t.Errorf("error %q, want it to say %q", r.err, tc.inError)
			}
			if got := s.Text(); got != tc.text {
				t.Errorf("Text() after the error = %q, want %q", got, tc.text)
			}
			if _, err := s.answer(); err == nil {
				t.Error("answer() after Events: no error")
			}
		})
	}
	t.Run("a read error is its cause", func(t *testing.T) {
		t.Parallel()
		body := io.MultiReader(strings.NewReader(streamSSE(streamDelta("Hi"))), iotest.ErrReader(readFailure))
		r := streamCollect(newMessageStream(context.Background(), io.NopCloser(body), nil, streamDomain, redact.New()))
		if !errors.Is(r.err, readFailure) {
			t.Errorf("%v does not wrap the read error", r.err)
		}
	})
}

// TestStreamErrorTextIsSafe: the server's errorText reaches the error as
// one quoted, bounded line, without the key a hostile server echoes.
func TestStreamErrorTextIsSafe(t *testing.T) {
	t.Parallel()
	text := "upstream said: Bearer " + streamKey + "\n\x1b[31mred\x00 " + strings.Repeat("long ", 1000) + streamKey
	body := streamSSE(streamObj{"type": "error", "errorText": text})
	scrub := func(s string, _ bool) string { return strings.ReplaceAll(s, streamKey, "[redacted]") }
	s := newMessageStream(context.Background(), io.NopCloser(strings.NewReader(body)), nil, streamDomain, scrub)
	r := streamCollect(s)
	if r.err == nil {
		t.Fatal("no error")
	}
	msg := r.err.Error()
	if strings.Contains(msg, streamKey) || strings.Contains(msg, streamKey[:12]) {
		t.Errorf("the key reached the error: %s", msg)
	}
	if !strings.Contains(msg, `"upstream said: Bearer [redacted] [31mred long long`) {
		t.Errorf("error %q does not quote the server's text as one line", msg)
	}
	if strings.ContainsAny(msg, "\n\x1b\x00") || len(msg) > 700 {
		t.Errorf("error not one bounded line (%d bytes): %q", len(msg), msg)
	}
}

// TestStreamErrorTextIsCutWherever: the quoted text is bounded wherever
// the limit falls: on a word, or on the space before one.
func TestStreamErrorTextIsCutWherever(t *testing.T) {
	t.Parallel()
	for pad := range 4 {
		text := strings.Repeat("x", pad) + strings.Repeat(" abc", 400)
		s := newMessageStream(context.Background(), io.NopCloser(strings.NewReader(streamSSE(streamObj{"type": "error", "errorText": text}))), nil, streamDomain, redact.New())
		r := streamCollect(s)
		if r.err == nil {
			t.Fatalf("pad %d: no error", pad)
		}
		if msg := r.err.Error(); len(msg) > 600 || !strings.HasSuffix(msg, `..."`) {
			t.Errorf("pad %d: not cut, or the cut not marked (%d bytes): %q", pad, len(msg), msg)
		}
	}
	// A text that fits but for white space after it is whole: no "...".
	text := strings.Repeat("x", maxStreamErrorRunes) + "\n \t"
	r := streamCollect(newMessageStream(context.Background(), io.NopCloser(strings.NewReader(streamSSE(streamObj{"type": "error", "errorText": text}))), nil, streamDomain, redact.New()))
	if r.err == nil || strings.Contains(r.err.Error(), "...") {
		t.Errorf("a whole text marked as cut: %v", r.err)
	}
}

// TestStreamKeepsABoundedAnswer: text and sources beyond what an answer
// holds end the stream instead of filling memory.
func TestStreamKeepsABoundedAnswer(t *testing.T) {
	t.Parallel()
	t.Run("text", func(t *testing.T) {
		t.Parallel()
		s := newTestStream(streamSSE(streamDelta(strings.Repeat("a", 600)), streamDelta(strings.Repeat("b", 600)), streamFinish("t"), "[DONE]"))
		s.maxKept = 1000
		r := streamCollect(s)
		if !errors.Is(r.err, ErrMalformedResponse) || len(r.events) != 1 {
			t.Fatalf("after %d events: %v", len(r.events), r.err)
		}
		if got := s.Text(); got != strings.Repeat("a", 600) {
			t.Errorf("Text() has %d bytes, want the first delta's 600", len(got))
		}
	})
	t.Run("sources", func(t *testing.T) {
		t.Parallel()
		var frames []any
		for i := range 100 {
			frames = append(frames, streamObj{"type": "source-url", "sourceId": "s", "url": fmt.Sprintf("https://x.test/p%d", i)})
		}
		s := newTestStream(streamSSE(frames...))
		s.maxKept = 10 * (streamEntryCost + 20)
		r := streamCollect(s)
		if !errors.Is(r.err, ErrMalformedResponse) {
			t.Fatalf("after %d events: %v", len(r.events), r.err)
		}
		if n := len(s.Sources()); n < 5 || n > 11 {
			t.Errorf("%d sources kept, want about 10", n)
		}
	})
}

// streamBigFrame reads as the start of one text-delta frame whose delta is
// n bytes, without allocating: a server that sends a frame without end.
type streamBigFrame struct {
	head string
	n    int
}

func (b *streamBigFrame) Read(p []byte) (int, error) {
	if b.head != "" {
		n := copy(p, b.head)
		b.head = b.head[n:]
		return n, nil
	}
	if b.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), b.n)
	for i := range p[:n] {
		p[i] = 'x'
	}
	b.n -= n
	return n, nil
}

// TestStreamFrameOver4MiBEndsInBoundedMemory: a 5 MiB frame ends Events
// with an error having held at most the 4 MiB bound (and the growth of its
// buffer, doubled up to it): everything allocated while reading it, and so
// its peak heap, stays under 10 MiB (8 MiB measured).
func TestStreamFrameOver4MiBEndsInBoundedMemory(t *testing.T) {
	var r streamResult
	var s *MessageStream
	alloc := memtest.Allocated(func() {
		body := io.MultiReader(strings.NewReader(streamSSE(streamDelta("Hi"))),
			&streamBigFrame{head: `data: {"type":"text-delta","id":"t","delta":"`, n: 5 << 20})
		s = newMessageStream(context.Background(), io.NopCloser(body), nil, streamDomain, redact.New())
		r = streamCollect(s)
	})
	t.Logf("a 5 MiB frame: %.1f MiB allocated in all; %v", float64(alloc)/(1<<20), r.err)
	if !errors.Is(r.err, ErrMalformedResponse) || !strings.Contains(r.err.Error(), "larger than 4194304 bytes") {
		t.Errorf("error %v, want the frame bound", r.err)
	}
	if s.Text() != "Hi" {
		t.Errorf("Text() = %q", s.Text())
	}
	if alloc > 10<<20 {
		t.Errorf("%d bytes allocated for a 5 MiB frame: more than the 4 MiB bound needs", alloc)
	}
}

// TestStreamFrameJustUnder4MiBIsRead: the bound leaves room for the
// largest frame, and reading one costs a small multiple of it: the frame's
// buffer (8 MiB allocated on the way to 4), its decoded delta, the event's
// Raw and the text (20 MiB measured).
func TestStreamFrameJustUnder4MiBIsRead(t *testing.T) {
	delta := 4<<20 - 100
	var r streamResult
	var s *MessageStream
	alloc := memtest.Allocated(func() {
		body := io.MultiReader(&streamBigFrame{head: `data: {"type":"text-delta","id":"t","delta":"`, n: delta},
			strings.NewReader("\"}\n\n"+streamSSE(streamFinish("t"), "[DONE]")))
		s = newMessageStream(context.Background(), io.NopCloser(body), nil, streamDomain, redact.New())
		r = streamCollect(s)
	})
	t.Logf("a 4 MiB frame: %.1f MiB allocated in all", float64(alloc)/(1<<20))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := len(s.Text()); got != delta {
		t.Errorf("Text() has %d bytes, want %d", got, delta)
	}
	if alloc > 24<<20 {
		t.Errorf("%.1f MiB allocated to read a 4 MiB frame", float64(alloc)/(1<<20))
	}
}

func TestStreamSSEEdgeCases(t *testing.T) {
	t.Parallel()
	d := `{"type":"text-delta","id":"t","delta":"x"}`
	fin := `{"type":"finish"}`
	long := `{"type":"text-delta","id":"t","delta":"` + strings.Repeat("y", 100<<10) + `"}`
	for _, tc := range []struct {
		name, body string
		text       string
	}{
		{"CRLF", "data: " + d + "\r\n\r\ndata: " + fin + "\r\n\r\ndata: [DONE]\r\n\r\n", "x"},
		{"LF and CRLF mixed", "data: " + d + "\r\n\ndata: " + fin + "\n\r\ndata: [DONE]\n\n", "x"},
		{"comments", ": hello\n\n: keep-alive\ndata: " + d + "\n: between\n\n:\n\ndata: " + fin + "\n\ndata: [DONE]\n\n", "x"},
		{"no space after the colon", "data:" + d + "\n\ndata:" + fin + "\n\ndata:[DONE]\n\n", "x"},
		{"two spaces: one is the value's", "data:  " + d + "\n\ndata: " + fin + "\n\ndata: [DONE]\n\n", "x"},
		{"multi-line data", "data: {\"type\":\"text-delta\",\ndata: \"delta\":\"x\"}\n\ndata: " + fin + "\n\ndata: [DONE]\n\n", "x"},
		{"other fields", "event: message\nid: 7\nretry: 1000\nunknown\ndata: " + d + "\n\nid: 8\n\ndata: " + fin + "\n\ndata: [DONE]\n\n", "x"},
		{"blank lines between frames", "\n\n\ndata: " + d + "\n\n\n\ndata: " + fin + "\n\n\ndata: [DONE]\n\n", "x"},
		{"a lone data field", "data\ndata: " + d + "\n\ndata: " + fin + "\n\ndata: [DONE]\n\n", "x"},
		{"[DONE] without its blank line", "data: " + d + "\n\ndata: " + fin + "\n\ndata: [DONE]\n", "x"},
		{"[DONE] without its line end", "data: " + d + "\n\ndata: " + fin + "\n\ndata: [DONE]", "x"},
		{"a line longer than the read buffer, CRLF", "data: " + long + "\r\n\r\ndata: " + fin + "\r\n\r\ndata: [DONE]\r\n\r\n", strings.Repeat("y", 100<<10)},
		{"a comment longer than the read buffer", ":" + strings.Repeat("z", 100<<10) + "\n" + "data: " + d + "\n\ndata: " + fin + "\n\ndata: [DONE]\n\n", "x"},
		{"nothing after [DONE] is read", "data: " + d + "\n\ndata: " + fin + "\n\ndata: [DONE]\n\ndata: not json\n\n", "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, name := range []string{"whole", "byte by byte"} {
				var body io.Reader = strings.NewReader(tc.body)
				if name == "byte by byte" {
					body = iotest.OneByteReader(body)
				}
				s := newMessageStream(context.Background(), io.NopCloser(body), nil, streamDomain, redact.New())
				r := streamCollect(s)
				if r.err != nil {
					t.Fatalf("%s: %v", name, r.err)
				}
				if got := s.Text(); got != tc.text {
					t.Errorf("%s: Text() = %.40q, want %.40q", name, got, tc.text)
				}
			}
		})
	}
	t.Run("multi-line data joins with LF", func(t *testing.T) {
		t.Parallel()
		r := streamCollect(newTestStream("data: {\"type\":\"x\",\r\ndata:\r\ndata: \"a\":1}\r\n\r\ndata: " + fin + "\n\ndata: [DONE]\n\n"))
		if r.err != nil {
			t.Fatal(r.err)
		}
		if got, want := string(r.events[0].Raw), "{\"type\":\"x\",\n\n\"a\":1}"; got != want {
			t.Errorf("Raw = %q, want %q", got, want)
		}
	})
}

// streamPipe is an answer written over time: the test writes frames and
// the stream's reads block in between.
func streamPipe(t *testing.T, ctx context.Context) (*MessageStream, *io.PipeWriter) {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	return newMessageStream(ctx, pr, nil, streamDomain, redact.New()), pw
}

// streamWrite writes frames in the background: a pipe's write waits for
// the read.
func streamWrite(w io.Writer, frames string) {
	go func() { _, _ = io.WriteString(w, frames) }()
}

// streamStopped runs Events until its first event, calls stop, and returns
// the error that ended Events and how long after stop it came.
func streamStopped(t *testing.T, s *MessageStream, stop func()) (streamResult, time.Duration) {
	t.Helper()
	var r streamResult
	var stopped time.Time
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev, err := range s.Events() {
			if err != nil {
				r.err = err
				continue
			}
			r.events = append(r.events, ev)
			if len(r.events) == 1 {
				stopped = time.Now()
				go stop() // from another goroutine, while Events waits in Read
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Events did not end")
	}
	return r, time.Since(stopped)
}

func TestStreamCancellationEndsABlockedRead(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, pw := streamPipe(t, ctx)
	streamWrite(pw, streamSSE(streamDelta("Partial")))
	r, took := streamStopped(t, s, cancel)
	t.Logf("ended %v after the cancel: %v", took, r.err)
	if took > streamPrompt {
		t.Errorf("Events ended %v after the cancel", took)
	}
	if !errors.Is(r.err, context.Canceled) || errors.Is(r.err, ErrStream) || errors.Is(r.err, ErrOutcomeUnknown) {
		t.Errorf("error %v: want the context's only", r.err)
	}
	if s.Text() != "Partial" {
		t.Errorf("Text() = %q after the cancel, want what arrived", s.Text())
	}
}

func TestStreamCloseEndsABlockedRead(t *testing.T) {
	t.Parallel()
	s, pw := streamPipe(t, context.Background())
	streamWrite(pw, streamSSE(streamDelta("Partial")))
	r, took := streamStopped(t, s, func() { s.Close() })
	t.Logf("ended %v after Close: %v", took, r.err)
	if took > streamPrompt {
		t.Errorf("Events ended %v after Close", took)
	}
	if !errors.Is(r.err, net.ErrClosed) || errors.Is(r.err, ErrStream) {
		t.Errorf("error %v: want net.ErrClosed only", r.err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if s.Text() != "Partial" {
		t.Errorf("Text() = %q after Close", s.Text())
	}
}

// TestStreamCloseEndsAnHTTPAnswer: closing the stream ends a read blocked
// on a real connection whose server has stopped writing.
func TestStreamCloseEndsAnHTTPAnswer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, streamSSE(streamDelta("Partial")))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the client went away
	}))
	t.Cleanup(srv.Close)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	s := newMessageStream(context.Background(), resp.Body, resp.Header, streamDomain, redact.New())
	r, took := streamStopped(t, s, func() { s.Close() })
	t.Logf("ended %v after Close: %v", took, r.err)
	if took > streamPrompt || !errors.Is(r.err, net.ErrClosed) {
		t.Errorf("ended %v after Close with %v", took, r.err)
	}
}

func TestStreamContextEndedBeforeReading(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := newMessageStream(ctx, io.NopCloser(strings.NewReader(streamAnswer())), nil, streamDomain, redact.New())
	r := streamCollect(s)
	if !errors.Is(r.err, context.Canceled) || len(r.events) != 0 {
		t.Errorf("%d events, then %v: want the context's error at once", len(r.events), r.err)
	}
}

// streamCloseCounter is a body that counts its Close calls.
type streamCloseCounter struct {
	io.Reader
	closes atomic.Int32
}

func (c *streamCloseCounter) Close() error { c.closes.Add(1); return nil }

func TestStreamEventsOnce(t *testing.T) {
	t.Parallel()
	body := &streamCloseCounter{Reader: strings.NewReader(streamAnswer())}
	s := newMessageStream(context.Background(), body, nil, streamDomain, redact.New())
	events := s.Events()
	for range events {
		break // stopping early closes the body
	}
	if n := body.closes.Load(); n != 1 {
		t.Errorf("body closed %d times after the loop stopped, want 1", n)
	}
	for _, seq := range []iter.Seq2[StreamEvent, error]{events, s.Events()} {
		var yields int
		var err error
		for _, e := range seq {
			yields++
			err = e
		}
		if yields != 1 || err == nil || errors.Is(err, ErrStream) {
			t.Errorf("reading again: %d yields, last error %v; want one error", yields, err)
		}
	}
	if err := s.Close(); err != nil || body.closes.Load() != 1 {
		t.Errorf("Close after Events: %v, %d closes", err, body.closes.Load())
	}
}

func TestStreamNil(t *testing.T) {
	t.Parallel()
	for _, s := range []*MessageStream{nil, {}} {
		r := streamCollect(s)
		if r.err == nil || len(r.events) != 0 || r.afterError != 0 {
			t.Errorf("%#v: Events gave %d events, %v", s, len(r.events), r.err)
		}
		if s.Text() != "" || s.Sources() != nil || s.ThreadID() != "" || s.ThreadKey() != "" || s.FinishReason() != "" {
			t.Errorf("%#v: accessors not empty", s)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if a, err := s.answer(); a != nil || err == nil {
			t.Errorf("answer() = %v, %v", a, err)
		}
	}
}

func TestStreamAnswer(t *testing.T) {
	t.Parallel()
	a, err := newTestStream(streamAnswer(), "X-Thread-Id", "th-1", "X-Thread-Key", "tk-1").answer()
	if err != nil {
		t.Fatal(err)
	}
	want := &Answer{
		Text: "Each key may send 10,000 messages an hour.",
		Sources: []Source{
			{URL: "https://docs.example.com/rate-limits", Title: "Rate limits and quotas", Path: "/rate-limits"},
			{URL: "https://docs.example.com/quickstart", Title: "Quickstart", Path: "/quickstart"},
		},
		ThreadID: "th-1", ThreadKey: "tk-1", FinishReason: "stop",
	}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("answer()\n got %+v\nwant %+v", a, want)
	}

	s := newTestStream(streamSSE(streamDelta("Half an ans")))
	a, err = s.answer()
	if a != nil || !errors.Is(err, ErrStream) {
		t.Errorf("a cut answer: %+v, %v; want no answer and ErrStream", a, err)
	}
	if s.Text() != "Half an ans" {
		t.Errorf("the stream's Text() = %q, want what arrived", s.Text())
	}
}

// TestStreamAccessorsWhileReading is for the race detector: the accessors
// run on another goroutine while Events reads.
func TestStreamAccessorsWhileReading(t *testing.T) {
	t.Parallel()
	s, pw := streamPipe(t, context.Background())
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				_, _, _, _, _ = s.Text(), s.Sources(), s.ThreadID(), s.ThreadKey(), s.FinishReason()
				runtime.Gosched()
			}
		}
	}()
	go func() {
		frames := streamAnswerFrames()
		turn := streamSSE(frames[:len(frames)-2]...) // without finish and [DONE]
		for range 50 {
			if _, err := io.WriteString(pw, turn); err != nil {
				return
			}
		}
		io.WriteString(pw, streamSSE(streamFinish("t"), "[DONE]"))
	}()
	r := streamCollect(s)
	close(stop)
	wg.Wait()
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := strings.Count(s.Text(), "an hour."); got != 50 {
		t.Errorf("Text() holds %d answers, want 50", got)
	}
	if got := len(s.Sources()); got != 2 {
		t.Errorf("%d sources, want 2 (deduplicated)", got)
	}
}

func TestStreamSourcePath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		link, path string
		abs        bool
	}{
		{"quickstart", "/quickstart", false},
		{"/quickstart/", "/quickstart", false},
		{"//guides//auth//", "/guides//auth", false},
		{"guides/caf%C3%A9", "/guides/café", false},
		{"guides/x#part", "/guides/x", false},
		{"https://docs.example.com/guides/x/?a=1#b", "/guides/x", true},
		{"https://docs.example.com", "/", true},
		{"http://docs.example.com/a%2Fb", "/a/b", true},
		{"https:///nohost", "", false},
		{"mailto:a@example.com", "", false},
		{"", "", false},
	} {
		path, abs := streamSourcePath(tc.link)
		if path != tc.path || abs != tc.abs {
			t.Errorf("streamSourcePath(%q) = %q, %v; want %q, %v", tc.link, path, abs, tc.path, tc.abs)
		}
	}
}

// FuzzStreamFrames: whatever a server sends, Events never panics, yields
// nothing after an error, reads the same events however the bytes are cut
// into reads, and the accessors agree with the events.
func FuzzStreamFrames(f *testing.F) {
	f.Add([]byte(streamAnswer()), false)
	f.Add([]byte(streamAnswer()), true)
	f.Add([]byte("data: {\"type\":\"text-delta\",\r\ndata: \"delta\":\"x\"}\r\n\r\n: c\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]"), false)
	f.Add([]byte(streamSSE(streamDelta("a"), streamObj{"type": "error", "errorText": "boom"})), false)
	f.Add([]byte(streamSSE(streamObj{"type": "source-url", "url": "https://d.test/a/"}, streamObj{"type": "source-url", "url": "/a"}, streamFinish("t"), "[DONE]")), false)
	f.Add([]byte(streamSSE("not json", `{"type":5}`)), false)
	f.Add([]byte("data: "+strings.Repeat("x", 300)), true)
	f.Add([]byte("\ufeffdata: {\"type\":\"text-start\",\"id\":\"a\"}\r\rdata: {\"type\":\"text-delta\",\"id\":\"b\",\"delta\":\"x\"}\r\n\r\ndata: {\"type\":\"abort\"}\n\n"), false)
	f.Fuzz(func(t *testing.T, body []byte, smallFrames bool) {
		if len(body) > 64<<10 {
			return
		}
		read := func(r io.Reader) (*MessageStream, streamResult) {
			s := newMessageStream(context.Background(), io.NopCloser(r), nil, streamDomain, redact.New())
			if smallFrames {
				s.maxFrame = 256
			}
			return s, streamCollect(s)
		}
		s, r := read(bytes.NewReader(body))
		_, rb := read(iotest.OneByteReader(bytes.NewReader(body)))
		if r.afterError != 0 {
			t.Fatalf("%d yields after %v", r.afterError, r.err)
		}
		if !reflect.DeepEqual(r.events, rb.events) || fmt.Sprint(r.err) != fmt.Sprint(rb.err) {
			t.Fatalf("read whole: %q, %v\nbyte by byte: %q, %v", r.types(), r.err, rb.types(), rb.err)
		}
		if r.err != nil && !errors.Is(r.err, ErrStream) {
			t.Fatalf("error %v is not ErrStream", r.err)
		}

		// The text by the rule: each part's deltas, the parts in the
		// order they started, non-empty ones joined by a blank line.
		var parts []*strings.Builder
		open := map[string]*strings.Builder{}
		var finish streamChunk
		finished, aborted := false, false
		for _, ev := range r.events {
			c := exactChunk(ev.Raw)
			if c.Type != ev.Type || c.Delta != ev.Delta {
				t.Fatalf("event %+v does not match its Raw", ev)
			}
			switch ev.Type {
			case "text-start":
				open[c.ID] = &strings.Builder{}
				parts = append(parts, open[c.ID])
			case "text-delta":
				if open[c.ID] == nil {
					open[c.ID] = &strings.Builder{}
					parts = append(parts, open[c.ID])
				}
				open[c.ID].WriteString(c.Delta)
			case "text-end":
				delete(open, c.ID)
			case "finish":
				finish, finished = c, true
			case "abort":
				finished, aborted = true, true
			}
		}
		var texts []string
		for _, p := range parts {
			if p.Len() > 0 {
				texts = append(texts, p.String())
			}
		}
		if r.err == nil && !finished {
			t.Fatal("ended without error and without a finish or abort chunk")
		}
		if got, want := s.Text(), strings.Join(texts, "\n\n"); got != want {
			t.Fatalf("Text() = %q, want the parts' text %q", got, want)
		}
		if aborted {
			finish.FinishReason = "abort"
		}
		if got := s.FinishReason(); got != finish.FinishReason {
			t.Fatalf("FinishReason() = %q, want %q", got, finish.FinishReason)
		}
		if got := s.ThreadID(); finished && finish.ThreadID != "" && got != finish.ThreadID {
			t.Fatalf("ThreadID() = %q, want %q", got, finish.ThreadID)
		}
		seen := map[string]bool{}
		for _, src := range s.Sources() {
			if seen[src.Path] || !strings.HasPrefix(src.Path, "/") || src.Path != "/" && strings.HasSuffix(src.Path, "/") || src.URL == "" {
				t.Fatalf("source %+v: repeated, or an unnormalized path, or no URL", src)
			}
			seen[src.Path] = true
		}
	})
}

// BenchmarkStream reads an answer like the mock's (a search step with five
// results, 200 text deltas, five cited pages): the SDK's cost per chunk,
// against the network's milliseconds.
func BenchmarkStream(b *testing.B) {
	results := make([]streamObj, 5)
	frames := []any{
		streamObj{"type": "start", "messageId": "msg-1"},
		streamObj{"type": "tool-input-available", "toolCallId": "c1", "toolName": "search", "input": streamObj{"query": "rate limits"}},
	}
	for i := range results {
		results[i] = streamObj{"path": fmt.Sprintf("guides/page-%d", i), "content": strings.Repeat("A paragraph of the page. ", 20),
			"metadata": streamObj{"title": fmt.Sprintf("Page %d", i), "score": 0.5}}
	}
	frames = append(frames, streamObj{"type": "tool-output-available", "toolCallId": "c1", "output": results})
	for range 200 {
		frames = append(frames, streamDelta("three words each "))
	}
	for i := range 5 {
		frames = append(frames, streamObj{"type": "source-url", "sourceId": "s", "url": fmt.Sprintf("https://docs.example.com/guides/page-%d", i), "title": "Page"})
	}
	frames = append(frames, streamFinish("01J9ZQ4B6C2W8XKTN5R7M3PVHD"), "[DONE]")
	body := []byte(streamSSE(frames...))
	chunks := len(frames) - 1
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		s := newMessageStream(context.Background(), io.NopCloser(bytes.NewReader(body)), nil, streamDomain, redact.New())
		for _, err := range s.Events() {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
}

// exactChunk reads raw's members as JSON.parse does: exact names, the last
// value of each; a member of another type is absent.
func exactChunk(raw []byte) streamChunk {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	str := func(name string) string {
		var s string
		_ = json.Unmarshal(m[name], &s)
		return s
	}
	return streamChunk{Type: str("type"), ID: str("id"), Delta: str("delta"), URL: str("url"), Title: str("title"),
		ToolCallID: str("toolCallId"), ToolName: str("toolName"), Output: m["output"], FinishReason: str("finishReason"),
		ThreadID: str("threadId"), ErrorText: str("errorText")}
}

// caseFoldedFrames are chunks with members whose names differ from the
// protocol's only in case (or by a Unicode letter Go folds to an ASCII
// one: U+017F, long s), and repeated members. JSON.parse, and so every
// browser's chat client, reads the exact names, the last value of each.
var caseFoldedFrames = []string{
	`{"type":"text-start","id":"t"}`,
	`{"type":"text-delta","id":"t","delta":"shown","DELTA":" to Go only"}`,
	`{"type":"text-delta","Id":"other","id":"t","delta":" to all","Delta":" and to Go"}`,
	`{"type":"text-delta","id":"t","delta":" twice","delta":" once"}`,
	`{"type":"text-end","id":"t"}`,
	`{"type":"source-url","sourceId":"s","url":"https://d.test/a","URL":"https://d.test/b","Title":"B","title":"A"}`,
	`{"type":"finish","finishReason":"stop","finiſhReaſon":"length","threadid":"t9","TYPE":"error","errorText":"no"}`,
}

// TestStreamReadsMembersByTheirExactNames: the Go reader reads what the
// browser reads, not the members encoding/json matches without regard to
// case.
func TestStreamReadsMembersByTheirExactNames(t *testing.T) {
	t.Parallel()
	var body strings.Builder
	for _, f := range caseFoldedFrames {
		body.WriteString("data: " + f + "\n\n")
	}
	body.WriteString("data: [DONE]\n\n")
	s := newMessageStream(nil, io.NopCloser(strings.NewReader(body.String())), http.Header{}, "d.test", func(s string, _ bool) string { return s })
	var types, deltas []string
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatalf("the answer ended with %v, where a browser reads a finish", err)
		}
		types, deltas = append(types, ev.Type), append(deltas, ev.Delta)
	}
	want := []string{"text-start", "text-delta", "text-delta", "text-delta", "text-end", "source-url", "finish"}
	if strings.Join(types, ",") != strings.Join(want, ",") {
		t.Errorf("types %q, want %q", types, want)
	}
	if got := strings.Join(deltas, ""); got != "shown to all once" {
		t.Errorf("deltas %q, want the exact members' %q", got, "shown to all once")
	}
	if got := s.Text(); got != "shown to all once" {
		t.Errorf("Text %q, want %q", got, "shown to all once")
	}
	if got := s.FinishReason(); got != "stop" {
		t.Errorf("FinishReason %q, want stop", got)
	}
	if got := s.ThreadID(); got != "" {
		t.Errorf("ThreadID %q from a member named threadid, which no browser reads", got)
	}
	if got := s.Sources(); len(got) != 1 || got[0].URL != "https://d.test/a" || got[0].Title != "A" {
		t.Errorf("Sources %+v, want the one of url and title", got)
	}
}

// TestStreamMembersAsJSONParseReadsThem checks the expectations above
// against node's own JSON.parse, when node is installed.
func TestStreamMembersAsJSONParseReadsThem(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		nodetest.Missing(t, "node is not installed: install Node.js 20 or newer")
	}
	frames, _ := json.Marshal(caseFoldedFrames)
	script := `const fs = JSON.parse(process.argv[1]).map((f) => JSON.parse(f));
const text = fs.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('');
const src = fs.find((c) => c.type === 'source-url');
const fin = fs.find((c) => c.type === 'finish');
console.log(JSON.stringify([fs.map((c) => c.type).join(','), text, src.url, src.title, fin.finishReason, fin.threadId ?? '']));`
	out, err := exec.Command(node, "-e", script, string(frames)).Output()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := []string{"text-start,text-delta,text-delta,text-delta,text-end,source-url,finish", "shown to all once", "https://d.test/a", "A", "stop", ""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("JSON.parse reads %q, the Go test expects %q", got, want)
	}
}
