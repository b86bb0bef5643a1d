package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// maxCaptured bounds what doctor keeps of one answer's body: an
// analytics page of 20 rows, a search, or a streamed answer's frames are
// far smaller.
const maxCaptured = 1 << 20

// wire is the transport under doctor's clients: the SDK sends through it
// (its key, retries and redirect rules stay the SDK's), and it keeps the
// final answer's status, headers and first bytes, which typed results do
// not show. Told so, it sends the next message without its thread key:
// the SDK refuses to, but doctor must see the service refuse it.
type wire struct {
	next http.RoundTripper

	mu            sync.Mutex
	last          *captured
	dropThreadKey bool
}

// captured is one answer as it arrived.
type captured struct {
	status int
	header http.Header
	mu     sync.Mutex
	body   bytes.Buffer
	cut    bool // the body was longer than maxCaptured
}

func (c *captured) bytes() ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.body.Bytes()), c.cut
}

func (w *wire) RoundTrip(req *http.Request) (*http.Response, error) {
	w.mu.Lock()
	drop := w.dropThreadKey && req.Method == http.MethodPost
	w.mu.Unlock()
	if drop && req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		var body map[string]json.RawMessage
		if json.Unmarshal(b, &body) == nil {
			delete(body, "threadKey")
			b, _ = json.Marshal(body)
		}
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(b))
		req.ContentLength = int64(len(b))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	resp, err := w.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	c := &captured{status: resp.StatusCode, header: resp.Header.Clone()}
	resp.Body = &capturingBody{ReadCloser: resp.Body, c: c}
	w.mu.Lock()
	w.last = c
	w.mu.Unlock()
	return resp, nil
}

// begin forgets the last answer, before a call whose answer doctor reads.
func (w *wire) begin() {
	w.mu.Lock()
	w.last = nil
	w.mu.Unlock()
}

// answer is the last answer since begin, or nil when none arrived.
func (w *wire) answer() *captured {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

func (w *wire) setDropThreadKey(on bool) {
	w.mu.Lock()
	w.dropThreadKey = on
	w.mu.Unlock()
}

type capturingBody struct {
	io.ReadCloser
	c *captured
}

func (b *capturingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.c.mu.Lock()
		if room := maxCaptured - b.c.body.Len(); room > 0 {
			b.c.body.Write(p[:min(n, room)])
			b.c.cut = b.c.cut || n > room
		} else {
			b.c.cut = true
		}
		b.c.mu.Unlock()
	}
	return n, err
}
