package mintlify

// The proxy's relay: upstream's answer read frame by frame and written to
// the browser as it arrives, with the key kept out of its text.

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/docsagent/mintlify-go/internal/redact"
	"github.com/docsagent/mintlify-go/internal/sse"
)

// relay streams the answer to the browser frame by frame, flushing each
// as it arrives: one frame is held at a time, whatever the answer's size,
// and of a text part at most a tail that could start a copy of the key
// (proxyText).
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
	send := func(frame []byte) bool {
		arm()
		defer disarm()
		if frame != nil {
			if _, err := w.Write(frame); err != nil {
				return false
			}
		}
		return flush()
	}
	w.WriteHeader(http.StatusOK)
	if !send(nil) {
		return
	}
	frames := sse.NewReader(resp.Body, maxStreamFrame)
	text := newProxyText(p.client.c.cred().key)
	var out []byte
	emit := func(frame string) bool {
		out = appendFrame(out[:0], p.client.scrub(frame))
		return send(out)
	}
	for {
		data, err := frames.Next()
		if err != nil {
			if r.Context().Err() == nil {
				// Cut, or a frame too large: the browser's chat client shows
				// an error rather than a partial answer as a whole one.
				send([]byte(proxyBrokenFrame))
			}
			return
		}
		if !text.frames(data, emit) {
			return
		}
		if string(data) == "[DONE]" {
			return
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
// delta of its own when the part ends: its text-end, a delta of another
// part, or the end of the answer.
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

// frames calls emit with each frame to send for the frame data: data
// itself, or a text-delta whose delta is what the Writer lets through;
// after the tail of a part that this frame ends. It reports whether every
// emit did.
func (t *proxyText) frames(data []byte, emit func(string) bool) bool {
	// With no tail held, only a text-delta needs reading, and one always
	// spells "delta", unless in escapes.
	if !t.w.Holding() && !bytes.Contains(data, []byte("delta")) && bytes.IndexByte(data, '\\') < 0 {
		return emit(string(data))
	}
	c := readProxyChunk(data)
	isDelta := c.typ == "text-delta" && c.deltaAt[1] > 0
	switch {
	case isDelta && c.id == t.id:
	case isDelta, c.typ == "text-end" && c.id == t.id, c.typ == "finish", c.typ == "error", c.typ == "abort",
		string(data) == "[DONE]":
		if !t.flush(emit) {
			return false
		}
	}
	if !isDelta {
		return emit(string(data))
	}
	t.id = c.id
	_, _ = t.w.WriteString(c.delta) // writes to a bytes.Buffer: no error
	defer t.out.Reset()
	if string(t.out.Bytes()) == c.delta {
		return emit(string(data)) // the common case: the chunk as it came
	}
	delta, _ := marshalWire(t.out.String())
	return emit(string(data[:c.deltaAt[0]]) + string(delta) + string(data[c.deltaAt[1]:]))
}

// flush emits a delta of the tail held back, if any.
func (t *proxyText) flush(emit func(string) bool) bool {
	_ = t.w.Flush()
	tail, id := t.out.String(), t.id
	t.out.Reset()
	t.id = ""
	if tail == "" {
		return true
	}
	b, _ := marshalWire(struct {
		Type  string `json:"type"`
		ID    string `json:"id"`
		Delta string `json:"delta"`
	}{"text-delta", id, tail})
	return emit(string(b))
}

// proxyChunk is what proxyText reads of a chunk: its type, its id, and
// its delta when a string, with where the delta's JSON value stands.
type proxyChunk struct {
	typ, id, delta string
	deltaAt        [2]int // [0, 0]: no string delta
}

// readProxyChunk reads a chunk as the browser's JSON.parse does: members
// by their exact names, the last of a repeated one. A frame that is not a
// JSON object reads as no chunk.
func readProxyChunk(data []byte) proxyChunk {
	var c proxyChunk
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return proxyChunk{}
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return proxyChunk{}
		}
		var into *string // the members read; the others are only checked
		switch name {
		case "type":
			into = &c.typ
		case "id":
			into = &c.id
		case "delta":
			into = &c.delta
		default:
			if dec.Decode(&skipped{}) != nil {
				return proxyChunk{}
			}
			continue
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return proxyChunk{}
		}
		var s string
		isString := raw[0] == '"' && json.Unmarshal(raw, &s) == nil
		*into = s
		if name == "delta" {
			c.deltaAt = [2]int{}
			if isString {
				end := int(dec.InputOffset())
				c.deltaAt = [2]int{end - len(raw), end}
			}
		}
	}
	return c
}

// proxyBrokenFrame ends an answer that broke off, in the AI SDK's words.
const proxyBrokenFrame = "data: {\"type\":\"error\",\"errorText\":\"the answer broke off\"}\n\n"

// appendFrame writes data as one server-sent event: a "data:" line per
// line of it, then a blank line.
func appendFrame(out []byte, data string) []byte {
	out = append(out, "data: "...)
	for {
		line, rest, more := strings.Cut(data, "\n")
		out = append(out, line...)
		if !more {
			break
		}
		out = append(out, "\ndata: "...)
		data = rest
	}
	return append(out, "\n\n"...)
}
