package mintlify

// The proxy's relay: upstream's answer read event by event as the
// browser's parser reads it, each chunk written anew as the proxy parsed
// it, with the key kept out of its text.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/docsagent/mintlify-go/internal/redact"
	"github.com/docsagent/mintlify-go/internal/sse"
)

// relay streams the answer to the browser event by event, flushing each
// as it arrives. It writes what it read: each event is read as the AI
// SDK's parser reads it (internal/sse: CR, LF and CRLF line ends, a
// leading byte order mark), parsed as JSON.parse would, and written anew
// as one "data:" line of the chunk's JSON (proxyChunk.appendFrame), so
// that the browser reads exactly what the proxy checked. An event that is
// not a chunk (a JSON object with a string type) or [DONE] is never
// relayed: the answer ends there with an error chunk, as it does when it
// breaks off before its end. Its end is [DONE], or the end of the body
// after a finish, abort or error chunk.
//
// One event is held at a time, whatever the answer's size, and of a text
// part at most a tail that could start a copy of the key (proxyText).
func (p *AssistantProxy) relay(w http.ResponseWriter, r *http.Request, resp *http.Response) {
	defer resp.Body.Close()
	h := w.Header()
	for _, name := range proxyRelayedHeaders {
		if v := resp.Header.Get(name); v != "" {
			h.Set(name, p.client.scrub(v))
		}
	}
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", "text/event-stream")
	}
	h.Set("X-Accel-Buffering", "no") // a reverse proxy in front must not hold the answer back
	rc := http.NewResponseController(w)
	flush := func() bool {
		err := rc.Flush()
		return err == nil || errors.Is(err, http.ErrNotSupported) // a writer that cannot flush still gets it all
	}
	// A browser that stops reading would block a write, and hold upstream's
	// answer open, for as long as the connection lives. On a server
	// without a WriteTimeout (which would cut any long answer), each write
	// gets p.frameTimeout to reach it; the deadline is lifted after each
	// (waiting for upstream's next frame is no stall, and under HTTP/2 a
	// deadline that passes resets the stream even between writes).
	arm, disarm := func() {}, func() {}
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if (srv == nil || srv.WriteTimeout <= 0) && p.frameTimeout > 0 && rc.SetWriteDeadline(time.Time{}) == nil {
		arm = func() { _ = rc.SetWriteDeadline(time.Now().Add(p.frameTimeout)) }
		disarm = func() { _ = rc.SetWriteDeadline(time.Time{}) }
	}
	// Frames are flushed before each read of upstream's body, the one
	// place the relay waits: a burst that came in one read goes out in
	// one write, and no frame waits for upstream's next bytes, whatever
	// follows it in the read (the LF of a CRLF, the byte that shows a
	// lone CR ended the event, a keep-alive comment, the start of the
	// next event).
	unflushed := true // the header, at first
	send := func(frame []byte) bool {
		arm()
		defer disarm()
		_, err := w.Write(frame)
		unflushed = true
		return err == nil
	}
	flushed := func() bool {
		if !unflushed {
			return true
		}
		unflushed = false
		arm()
		defer disarm()
		return flush()
	}
	defer flushed() // the last frames, within the frame timeout too
	w.WriteHeader(http.StatusOK)
	if !flushed() {
		return
	}
	events := sse.NewReader(readFunc(func(b []byte) (int, error) {
		if !flushed() {
			return 0, errBrowserGone
		}
		return resp.Body.Read(b)
	}), maxStreamFrame)
	text := newProxyText(p.client.c.cred().key)
	var c proxyChunk
	var out []byte
	emit := func(c *proxyChunk) bool {
		out = c.appendFrame(out[:0])
		frame := string(out)
		if clean := p.client.scrub(frame); clean != frame {
			// A copy of the key outside a text's deltas (an ID, a tool's
			// input): scrubbed. A scrub that would break the JSON ends
			// the answer instead.
			if !json.Valid([]byte(clean[len("data: ") : len(clean)-len("\n\n")])) {
				send([]byte(proxyUncleanFrame))
				return false
			}
			out = append(out[:0], clean...)
		}
		return send(out)
	}
	complete, failed := false, false // a finish or abort chunk relayed; an error chunk relayed
	for {
		data, err := events.Next()
		if err != nil {
			if r.Context().Err() != nil || !text.flush(emit) {
				return
			}
			if !failed && (err != io.EOF || !complete) {
				// Cut, or an event too large: the browser's chat client
				// shows an error rather than a partial answer as a whole
				// one.
				send([]byte(proxyBrokenFrame))
			}
			return
		}
		if string(data) == "[DONE]" {
			_ = text.flush(emit) && send([]byte("data: [DONE]\n\n"))
			return
		}
		if !c.parse(data) {
			_ = text.flush(emit) && send([]byte(proxyNotAChunkFrame))
			return
		}
		if !text.frames(&c, emit) {
			return
		}
		switch c.typ {
		case "finish", "abort":
			complete = true
		case "error":
			failed = true
		}
		if cap(out) > 64<<10 {
			out = nil // a big frame's buffer is not kept
		}
	}
}

// proxyText keeps a key upstream echoes out of the answer's text as the
// browser puts it together: a model writes a few characters a chunk, so
// the key may come split across text-delta chunks, where no one chunk's
// scrubbing sees it. A part's text goes through a redact.Writer, which
// holds back a tail that could start a copy of the key, in any form the
// scrubber knows, until the next delta tells; what it holds is sent as a
// delta of its own when the part ends: its text-end, a new part of its
// ID, a delta of another part, the end of its step (where the AI SDK
// forgets the step's parts, text-end or not), or the end of the answer.
type proxyText struct {
	w   *redact.Writer // writes the part's text, scrubbed, to out
	out bytes.Buffer
	id  string // the part whose text w holds a tail of
}

func newProxyText(key string) *proxyText {
	t := &proxyText{}
	t.w = redact.NewWriter(&t.out, key)
	return t
}

// frames calls emit with each chunk to send for c: c itself, with a text
// delta's text as the Writer lets it through; before it, the tail of a
// part that c ends. It reports whether every emit did.
func (t *proxyText) frames(c *proxyChunk, emit func(*proxyChunk) bool) bool {
	delta, isDelta := "", false
	if c.typ == "text-delta" {
		delta, isDelta = c.str("delta")
	}
	id, _ := c.str("id")
	switch {
	case isDelta && id == t.id:
	case isDelta, (c.typ == "text-end" || c.typ == "text-start") && id == t.id,
		c.typ == "finish-step", c.typ == "finish", c.typ == "error", c.typ == "abort":
		if !t.flush(emit) {
			return false
		}
	}
	if !isDelta {
		return emit(c)
	}
	t.id = id
	_, _ = t.w.WriteString(delta) // writes to a bytes.Buffer: no error
	defer t.out.Reset()
	if string(t.out.Bytes()) != delta {
		clean, _ := json.Marshal(t.out.String()) // a string: no error
		c.set("delta", clean)
	}
	return emit(c)
}

// flush emits a delta of the tail held back, if any.
func (t *proxyText) flush(emit func(*proxyChunk) bool) bool {
	_ = t.w.Flush()
	tail, id := t.out.String(), t.id
	t.out.Reset()
	t.id = ""
	if tail == "" {
		return true
	}
	c := &proxyChunk{typ: "text-delta"}
	for _, m := range [...][2]string{{"type", "text-delta"}, {"id", id}, {"delta", tail}} {
		v, _ := json.Marshal(m[1]) // a string: no error
		c.set(m[0], v)
	}
	return emit(c)
}

// readFunc is an io.Reader that calls itself.
type readFunc func([]byte) (int, error)

func (f readFunc) Read(b []byte) (int, error) { return f(b) }

// errBrowserGone ends the relay's reading of upstream when the browser
// can no longer be written to.
var errBrowserGone = errors.New("the browser does not take the answer")

// The error chunks that end an answer, in the AI SDK's words.
const (
	// proxyBrokenFrame: the answer broke off before its end, or held an
	// event over the bound.
	proxyBrokenFrame = "data: {\"type\":\"error\",\"errorText\":\"the answer broke off\"}\n\n"
	// proxyNotAChunkFrame: upstream sent an event that is not a chunk.
	proxyNotAChunkFrame = "data: {\"type\":\"error\",\"errorText\":\"the answer held an event that is not a chunk\"}\n\n"
	// proxyUncleanFrame: a copy of the key could not be taken out of a
	// chunk without breaking it.
	proxyUncleanFrame = "data: {\"type\":\"error\",\"errorText\":\"the answer held a chunk the proxy could not relay\"}\n\n"
)
