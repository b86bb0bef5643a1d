package redact

import (
	"io"
	"sync"
)

// Writer passes text on to another writer scrubbed as a [Scrubber]
// scrubs it, even a copy of the key split across writes: it holds back
// the longest tail that could start a copy until the next write or Flush,
// and passes the rest on scrubbed. What comes out is the scrubbed text,
// whatever the sizes of the writes. It is safe for concurrent use (a
// progress bar redraws from its own goroutine).
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	forms   *forms // nil: no key, nothing to scrub
	pending []byte // held back: it could start a copy of the key
	last    string // the last two bytes passed on (see forms.scrub)
}

// NewWriter returns a Writer that scrubs keys from what it passes to w.
// With no key (or only empty ones) it passes everything on as it is.
func NewWriter(w io.Writer, keys ...string) *Writer {
	return &Writer{w: w, forms: formsOf(keys)}
}

// Write scrubs and passes on p, but for a tail that could start a copy of
// the key.
func (w *Writer) Write(p []byte) (int, error) {
	if w.forms == nil {
		return w.w.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(p), w.write(string(w.pending)+string(p), false) // the one copy
}

// WriteString is Write for a string, which it reads without a copy when
// nothing is held back.
func (w *Writer) WriteString(s string) (int, error) {
	if w.forms == nil {
		return io.WriteString(w.w, s)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(s), w.write(string(w.pending)+s, false)
}

// Flush writes the tail held back, scrubbed: the text ended there.
func (w *Writer) Flush() error {
	if w.forms == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.write(string(w.pending), true)
}

// write passes on s, what was held back and the new text, scrubbed, but
// for the tail it holds back now (none when final).
func (w *Writer) write(s string, final bool) error {
	out, held := w.forms.scrub(w.last, s, final, false)
	w.pending = append(w.pending[:0], s[len(s)-held:]...)
	if out == "" {
		return nil
	}
	w.last += out[max(0, len(out)-2):]
	w.last = w.last[max(0, len(w.last)-2):]
	_, err := io.WriteString(w.w, out)
	return err
}
