package redact

import (
	"io"
	"strings"
	"sync"
)

// Writer passes text on to another writer with every copy of the key
// scrubbed as a [Scrubber] does, even a copy split across writes: it holds
// back a tail that could start one until the next write or Flush. What
// comes out is the scrubbed text, whatever the sizes of the writes. It is
// safe for concurrent use (a progress bar redraws from its own goroutine).
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	forms   []*forms // none: no key, nothing to scrub
	first   [256]bool
	longest int    // the longest needle's length
	window  int    // the longest copy of a key, escaped or not
	pending []byte // held back: it could start a copy of the key
	last    string // the last two bytes passed on (see scrubAll)
}

// NewWriter returns a Writer that scrubs keys from what it passes to w.
// With no key (or only empty ones) it passes everything on as it is.
func NewWriter(w io.Writer, keys ...string) *Writer {
	out := &Writer{w: w, forms: formsOfAll(keys)}
	for _, f := range out.forms {
		for _, n := range f.needles {
			out.first[n[0]] = true
			out.longest = max(out.longest, len(n))
		}
		out.window = max(out.window, out.longest, f.span)
	}
	return out
}

// Write scrubs and passes on p, but for a tail that could start a copy of
// the key. The tail is held back before anything is scrubbed, so the
// scrubber sees a copy whole, never the halves of one split by the writes.
func (w *Writer) Write(p []byte) (int, error) {
	if len(w.forms) == 0 {
		return w.w.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(p), w.write(string(w.pending) + string(p)) // the one copy
}

// WriteString is Write for a string, which it reads without a copy when
// nothing is held back.
func (w *Writer) WriteString(s string) (int, error) {
	if len(w.forms) == 0 {
		return io.WriteString(w.w, s)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(s), w.write(string(w.pending) + s)
}

// write passes on s, what was held back and the new text, but for the
// tail it holds back now. Every scan reads s.
func (w *Writer) write(s string) error {
	cut := w.cutAt(s)
	if err := w.pass(s[:cut]); err != nil {
		return err
	}
	w.pending = append(w.pending[:0], s[cut:]...)
	return nil
}

// cutAt is where buf can be split, the text before passed on now and the
// rest held back, with the two scrubbed apart as the scrubber would scrub
// them together: before every tail that could start a copy of the key, and
// before every copy that crosses that point. A copy that crosses it moves
// it back to the copy's start, where another may cross; it stops where
// none does. Long chains need a key whose start repeats inside it
// ("aaaa..."), which no service key is: a chain longer than two windows
// is passed on in a block, each copy within it scrubbed, so that such a
// key neither holds back a whole text nor lets it through a byte at a time.
func (w *Writer) cutAt(s string) int {
	held := len(s) - w.heldTail(s)
	floor := held - 2*w.window
	for cut := held; ; {
		start := w.crossing(s, cut)
		switch {
		case start == cut:
			return cut
		case start < floor:
			return held
		}
		cut = start
	}
}

// crossing returns the start of a copy of the key that begins before cut
// and ends after it, or cut when none does. Copies of a key overlap where
// a start of it runs into a base64 copy that begins with its next
// character: given the whole text, the scrubber redacts the first and lets
// it swallow the second's first bytes; given the text in two parts, it
// would redact each part's own.
func (w *Writer) crossing(s string, cut int) int {
	for _, f := range w.forms {
		least := min(MinEchoedPrefix, len(f.key))
		// The key as sent, and escaped character by character.
		for i := max(0, cut-f.span); i < cut; i++ {
			if !mayStart(s[i], f.key) {
				continue
			}
			if end, n, _ := encodedAt(s, i, f.key); n >= least && end > cut {
				return i
			}
		}
		// Its other textual forms (starts[0] is the key, read above).
		for _, start := range f.starts[1:] {
			for i := max(0, cut-len(start)); i < cut; i++ {
				if n := commonPrefix(s[i:], start); n >= min(least, len(start)) && i+n > cut {
					return i
				}
			}
		}
		for _, n := range f.needles {
			for i := max(0, cut-len(n)+1); i < cut; i++ {
				if w.first[s[i]] && strings.HasPrefix(s[i:], n) {
					return i
				}
			}
		}
	}
	return cut
}

// commonPrefix is the length of the longest common start of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// heldTail is the length of the longest tail of s that is a proper start
// of a needle (every textual form of the key is one), or from which the
// text may go on to spell the key with its characters escaped.
func (w *Writer) heldTail(s string) int {
	hold := 0
	for _, f := range w.forms {
		hold = max(hold, encodedTail(s[max(0, len(s)-f.span):], f.key))
	}
	return max(hold, w.needleTail(s))
}

// needleTail is the length of the longest tail of s that is a proper
// start of a needle.
func (w *Writer) needleTail(s string) int {
	for i := max(0, len(s)-w.longest+1); i < len(s); i++ {
		if !w.first[s[i]] {
			continue
		}
		tail := s[i:]
		for _, f := range w.forms {
			for _, n := range f.needles {
				if len(tail) < len(n) && strings.HasPrefix(n, tail) {
					return len(tail)
				}
			}
		}
	}
	return 0
}

// pass writes text, scrubbed.
func (w *Writer) pass(text string) error {
	if len(text) == 0 {
		return nil
	}
	s := scrubAll(w.forms, w.last, text, false)
	w.last += s[max(0, len(s)-2):] // only the last two bytes are kept
	w.last = w.last[max(0, len(w.last)-2):]
	_, err := io.WriteString(w.w, s)
	return err
}

// Holding reports whether the Writer holds back a tail: text that the
// next write, or Flush, passes on.
func (w *Writer) Holding() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending) > 0
}

// Flush writes the tail held back, scrubbed: the text ended there.
func (w *Writer) Flush() error {
	if len(w.forms) == 0 {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.pass(string(w.pending))
	w.pending = w.pending[:0]
	return err
}
