package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// redacted is what every copy of the key becomes in mintctl's output.
const redacted = "[redacted]"

// minRedactedKey is the shortest key mintctl looks for in its output: a
// shorter one is no admin key (the client refuses it before sending), and
// hunting for a few common letters would garble every message.
const minRedactedKey = 8

// keyNeedles returns the forms of the key a server could echo back: as
// sent, percent-encoded and JSON-escaped.
func keyNeedles(key string) [][]byte {
	key = strings.TrimSpace(key)
	if len(key) < minRedactedKey {
		return nil
	}
	forms := []string{key, url.QueryEscape(key), url.PathEscape(key)}
	if j, err := json.Marshal(key); err == nil {
		forms = append(forms, strings.Trim(string(j), `"`))
	}
	var needles [][]byte
	for _, f := range forms {
		if !slices.ContainsFunc(needles, func(n []byte) bool { return string(n) == f }) {
			needles = append(needles, []byte(f))
		}
	}
	return needles
}

// scrub replaces every needle in s.
func scrub(s string, needles [][]byte) string {
	for _, n := range needles {
		s = strings.ReplaceAll(s, string(n), redacted)
	}
	return s
}

// redactWriter passes text on with every copy of the key replaced, even
// one split across writes: it holds back a tail that could start a copy
// until the next write or Flush. Everything mintctl prints goes through
// one, so that a server (or proxy) echoing the key back in a job's pull
// request link, a deployment's logs or an analytics row cannot put it in
// a CI log, a step output or an export.
type redactWriter struct {
	mu      sync.Mutex // a progress bar redraws from its own goroutine
	w       io.Writer
	needles [][]byte
	pending []byte
}

func newRedactWriter(w io.Writer, needles [][]byte) *redactWriter {
	return &redactWriter{w: w, needles: needles}
}

func (r *redactWriter) Write(p []byte) (int, error) {
	if len(r.needles) == 0 {
		return r.w.Write(p)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	buf := p
	if len(r.pending) > 0 {
		buf = append(r.pending, p...)
		r.pending = nil
	}
	for _, n := range r.needles {
		if bytes.Contains(buf, n) {
			buf = bytes.ReplaceAll(buf, n, []byte(redacted))
		}
	}
	hold := r.heldTail(buf)
	if _, err := r.w.Write(buf[:len(buf)-hold]); err != nil {
		return 0, err
	}
	if hold > 0 {
		r.pending = append([]byte(nil), buf[len(buf)-hold:]...)
	}
	return len(p), nil
}

// heldTail is the length of the longest tail of buf that is the start of
// a needle.
func (r *redactWriter) heldTail(buf []byte) int {
	longest := 0
	for _, n := range r.needles {
		for k := min(len(n)-1, len(buf)); k > longest; k-- {
			if bytes.HasSuffix(buf, n[:k]) {
				longest = k
				break
			}
		}
	}
	return longest
}

// Flush writes the tail held back: the text ended without the key.
func (r *redactWriter) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return nil
	}
	_, err := r.w.Write(r.pending)
	r.pending = nil
	return err
}
