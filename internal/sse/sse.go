// Package sse reads a text/event-stream as the AI SDK's chat client does
// (a TextDecoderStream, then eventsource-parser) and as browsers do: so
// that the SDK's stream reader and the assistant proxy, which both use
// it, see the events a browser would, no more and no fewer.
//
//   - A line ends at CRLF, LF or a lone CR.
//   - One byte order mark at the very start is dropped.
//   - The values of an event's "data" lines join with LF; a "data" line
//     without a colon adds an empty value; one space after the colon is
//     dropped.
//   - Comments (":..."), "event", "id", "retry" and unknown fields are
//     ignored, as the AI SDK reads data only.
//   - An empty line ends an event; an event without a data line is none.
//   - At the end of the body, an event that no empty line ended is
//     dropped. So is one whose empty line ends in a lone CR that is the
//     body's last byte: the parser waits for the byte after a CR (an LF
//     would make the pair one line end) and there is none. A CR that ends
//     an event is therefore acted on when the next byte arrives.
//
// Memory is bounded: an event's data may hold at most the Reader's bound
// (more is [ErrTooLarge]), and lines that are not data (a comment without
// end, say) are skipped as they arrive, never held.
package sse

import (
	"bytes"
	"errors"
	"io"
)

// ErrTooLarge ends a stream whose event holds more data than the bound.
var ErrTooLarge = errors.New("sse: an event larger than the bound")

// readBuffer is the size of a Reader's read buffer: an event shorter than
// it costs no allocation to find.
const readBuffer = 32 << 10

// bom is the UTF-8 byte order mark.
const bom = "\xef\xbb\xbf"

// line is what a Reader knows of the line it is in.
type line uint8

const (
	lineStart line = iota // no byte of the line yet
	lineHead              // its first bytes, in head: a start of "data:"
	lineSpace             // "data:" read: a space next is dropped
	lineData              // in a data line's value
	lineSkip              // any other line, skipped to its end
)

// Reader reads the data of a stream's events.
type Reader struct {
	r    io.Reader
	max  int
	buf  []byte // read buffer: buf[at:end] is unread
	at   int
	end  int
	data []byte // the event's data, reused
	err  error  // the read error that ends the stream, once buf is spent

	line     line
	head     int  // bytes of "data:" read at the start of the line
	lines    int  // data lines of the event so far
	start    int  // bytes of the byte order mark read so far; -1 once past it
	afterCR  bool // the last line ended in CR: an LF next is part of that end
	dispatch bool // an empty line ended in CR: the event is due once a byte follows
}

// NewReader reads the events of r, whose data may hold at most max bytes
// each.
func NewReader(r io.Reader, max int) *Reader {
	return newReaderSize(r, max, readBuffer)
}

func newReaderSize(r io.Reader, max, size int) *Reader {
	return &Reader{r: r, max: max, buf: make([]byte, size)}
}

// Next returns the data of the next event, valid until the following
// call. At the end of the body it returns io.EOF, or the error that ended
// the read, and [ErrTooLarge] for an event over the bound; each error is
// returned again by later calls.
func (r *Reader) Next() ([]byte, error) {
	if cap(r.data) > 2*len(r.buf) {
		r.data = nil // a big event's buffer is not kept for the small ones after it
	}
	r.data = r.data[:0]
	for {
		if r.at == r.end {
			if r.err != nil {
				return nil, r.err
			}
			n, err := r.r.Read(r.buf)
			r.at, r.end = 0, n
			if err != nil {
				r.err = err
			}
			continue
		}
		if r.dispatch { // a byte follows the CR that ended the event
			r.dispatch = false
			return r.data, nil
		}
		done, err := r.scan()
		if err != nil {
			r.err, r.at, r.end = err, 0, 0
			return nil, err
		}
		if done {
			return r.data, nil
		}
	}
}

// scan reads the unread bytes of buf up to the end of an event, if one
// ends there (done).
func (r *Reader) scan() (done bool, err error) {
	for r.at < r.end {
		b := r.buf[r.at:r.end]
		if r.start >= 0 {
			if !r.byteOrderMark(b[0]) {
				continue
			}
		}
		if r.afterCR {
			r.afterCR = false
			if b[0] == '\n' {
				r.at++
				continue
			}
		}
		// The line's bytes up to its end, if it ends in b.
		n, ends := lineEnd(b)
		if err := r.take(b[:n]); err != nil {
			return false, err
		}
		r.at += n
		if !ends {
			return false, nil
		}
		r.afterCR = b[n] == '\r'
		r.at++
		if r.endLine() {
			if r.afterCR {
				r.dispatch = true // the parser acts on a CR once the byte after it is known
				return false, nil
			}
			return true, nil
		}
	}
	return false, nil
}

// byteOrderMark reads c, a byte at the start of the stream, as part of a
// byte order mark or not. It reports whether c is still to be read as
// the line's.
func (r *Reader) byteOrderMark(c byte) bool {
	if c == bom[r.start] {
		r.at++
		if r.start++; r.start == len(bom) {
			r.start = -1
		}
		return false
	}
	if r.start > 0 {
		r.line = lineSkip // the line began with part of a mark: no "data:"
	}
	r.start = -1
	return true
}

// lineEnd is the length of the line's bytes in b, and whether a CR or LF
// ends it there.
func lineEnd(b []byte) (int, bool) {
	n := indexByte(b, '\n')
	if cr := indexByte(b[:n], '\r'); cr < n {
		return cr, true
	}
	return n, n < len(b)
}

// indexByte is the index of c in b, len(b) if none.
func indexByte(b []byte, c byte) int {
	if i := bytes.IndexByte(b, c); i >= 0 {
		return i
	}
	return len(b)
}

// take reads p, bytes of the current line without its end.
func (r *Reader) take(p []byte) error {
	for len(p) > 0 {
		switch r.line {
		case lineStart, lineHead:
			if p[0] != "data:"[r.head] {
				r.line = lineSkip
				continue
			}
			p = p[1:]
			if r.head++; r.head < len("data:") {
				r.line = lineHead
				continue
			}
			r.line = lineSpace
			if err := r.startData(); err != nil {
				return err
			}
		case lineSpace:
			if p[0] == ' ' {
				p = p[1:]
			}
			r.line = lineData
		case lineData:
			if err := r.add(p); err != nil {
				return err
			}
			return nil
		case lineSkip:
			return nil
		}
	}
	return nil
}

// endLine ends the current line. It reports an event to dispatch: an
// empty line after data lines.
func (r *Reader) endLine() bool {
	kind, head := r.line, r.head
	r.line, r.head = lineStart, 0
	switch {
	case kind == lineStart:
		event := r.lines > 0
		r.lines = 0
		return event
	case kind == lineHead && head == len("data"):
		// "data" alone is a data line with an empty value. A bound too
		// small for its LF is no real case: the error comes with the
		// next data line instead.
		_ = r.startData()
	}
	return false
}

// startData begins a data line: its value joins the event's earlier
// ones with an LF.
func (r *Reader) startData() error {
	r.lines++
	if r.lines > 1 {
		return r.add([]byte{'\n'})
	}
	return nil
}

// add appends p to the event's data, within the bound. The buffer grows
// to powers of two, up to the bound: append grows a large slice by a
// quarter at a time, which would allocate five times a big event's size
// on the way.
func (r *Reader) add(p []byte) error {
	need := len(r.data) + len(p)
	if need > r.max {
		return ErrTooLarge
	}
	if need > cap(r.data) {
		size := 512
		for size < need {
			size *= 2
		}
		grown := make([]byte, len(r.data), min(size, max(need, r.max)))
		copy(grown, r.data)
		r.data = grown
	}
	r.data = append(r.data, p...)
	return nil
}
