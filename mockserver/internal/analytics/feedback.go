package analytics

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// feedbackData keeps entries in (createdAt, id) order, ascending; the route
// walks it backwards, newest first.
type feedbackData struct {
	entries []Feedback
	ids     map[string]struct{}
	sorted  bool
}

func compareFeedback(a, b *Feedback) int {
	if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

func (d *feedbackData) sort() {
	slices.SortFunc(d.entries, func(a, b Feedback) int { return compareFeedback(&a, &b) })
	d.sorted = true
}

func (d *feedbackData) add(f Feedback) {
	if n := len(d.entries); n > 0 && compareFeedback(&f, &d.entries[n-1]) < 0 {
		d.sorted = false
	}
	d.ids[f.ID] = struct{}{}
	d.entries = append(d.entries, f)
}

// maxFeedbackID bounds IDs, which feedback cursors carry.
const maxFeedbackID = 256

// AddFeedback stores entries, all or none. An empty ID is generated, an
// empty status is pending; times keep only their UTC milliseconds, the
// precision the route answers with.
func (st *Store) AddFeedback(entries []Feedback) error {
	return st.write(func(e *events) error {
		var errs []error
		fresh := map[string]struct{}{}
		prepared := make([]Feedback, len(entries))
		for i, f := range entries {
			if f.ID == "" {
				f.ID = "fb_" + strings.ToLower(newULID(f.CreatedAt, st.rng))
			}
			if f.Status == "" {
				f.Status = StatusPending
			}
			f.CreatedAt = f.CreatedAt.UTC().Truncate(1e6)
			_, dup := e.feedback.ids[f.ID]
			_, dupHere := fresh[f.ID]
			switch {
			case dup || dupHere:
				errs = append(errs, fmt.Errorf("feedback %d: id %q is already stored", i, f.ID))
			case len(f.ID) > maxFeedbackID:
				errs = append(errs, fmt.Errorf("feedback %d: id is longer than %d bytes", i, maxFeedbackID))
			case f.Path == "":
				errs = append(errs, fmt.Errorf("feedback %d: path is empty", i))
			case !f.Source.valid():
				errs = append(errs, fmt.Errorf("feedback %d: source %q is not code_snippet, contextual, agent or thumbs_only", i, f.Source))
			case f.Status.bit() == 0:
				errs = append(errs, fmt.Errorf("feedback %d: status %q is not pending, in_progress, resolved or dismissed", i, f.Status))
			case !timeInRange(f.CreatedAt):
				errs = append(errs, fmt.Errorf("feedback %d: createdAt is missing or out of range", i))
			}
			if len(errs) >= 10 {
				break
			}
			fresh[f.ID] = struct{}{}
			prepared[i] = f
		}
		if len(errs) > 0 {
			return errors.Join(errs...)
		}
		for _, f := range prepared {
			e.feedback.add(f)
		}
		return nil
	})
}

func (q *Query) matches(f *Feedback) bool {
	at := f.CreatedAt.UnixNano()
	return q.inWindow(at) && (q.Source == "" || q.Source == f.Source) && q.Statuses.has(f.Status)
}

// Feedback appends the feedback page for q: entries newest first (by
// createdAt, then id, both descending). The cursor is the keyset position
// of the page's last entry, so entries that arrive during a walk never
// shift it: no entry is repeated or skipped.
func (st *Store) Feedback(dst []byte, q *Query) ([]byte, error) {
	var out []byte
	var err *Error
	st.read(func(e *events, _ uint64) {
		list := e.feedback.entries
		// start: entries[:start] come after the position, newest first.
		start, _ := slices.BinarySearchFunc(list, q.To, func(f Feedback, to int64) int {
			return cmpInt64(f.CreatedAt.UnixNano(), to)
		})
		if q.Cursor != "" {
			pos, cerr := st.signer.open(q.binding(st.project), q.Cursor)
			if cerr != nil {
				err = cerr
				return
			}
			if len(pos) < 8 {
				err = badCursor("it is malformed")
				return
			}
			at, id := int64(binary.BigEndian.Uint64(pos)), string(pos[8:])
			start, _ = slices.BinarySearchFunc(list, at, func(f Feedback, at int64) int {
				if c := cmpInt64(f.CreatedAt.UnixNano(), at); c != 0 {
					return c
				}
				return cmp.Compare(f.ID, id)
			})
		}
		page := make([]*Feedback, 0, min(q.Limit+1, 128))
		for i := start - 1; i >= 0 && len(page) <= q.Limit; i-- {
			f := &list[i]
			if f.CreatedAt.UnixNano() < q.From {
				break
			}
			if q.matches(f) {
				page = append(page, f)
			}
		}
		hasMore := len(page) > q.Limit
		if hasMore {
			page = page[:q.Limit]
		}
		b := append(dst, `{"feedback":[`...)
		for i, f := range page {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFeedback(b, f)
		}
		var cursor string
		if hasMore {
			last := page[len(page)-1]
			pos := binary.BigEndian.AppendUint64(nil, uint64(last.CreatedAt.UnixNano()))
			cursor = st.signer.seal(q.binding(st.project), append(pos, last.ID...))
		}
		out = appendKeysetEnd(b, cursor, hasMore)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// appendFeedback writes an entry in its source's shape.
func appendFeedback(b []byte, f *Feedback) []byte {
	b = append(b, `{"id":`...)
	b = AppendString(b, f.ID)
	b = append(b, `,"path":`...)
	b = AppendString(b, f.Path)
	b = append(b, `,"comment":`...)
	b = appendNullable(b, f.Comment)
	b = append(b, `,"createdAt":`...)
	b = appendTime(b, f.CreatedAt.UnixNano())
	b = append(b, `,"source":`...)
	b = AppendString(b, string(f.Source))
	b = append(b, `,"status":`...)
	b = AppendString(b, string(f.Status))
	switch f.Source {
	case SourceContextual:
		b = append(b, `,"helpful":`...)
		if f.Helpful {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
		b = append(b, `,"contact":`...)
		b = appendNullable(b, f.Contact)
	case SourceCodeSnippet:
		b = append(b, `,"code":`...)
		b = AppendString(b, f.Code)
		b = append(b, `,"filename":`...)
		b = appendNullable(b, f.Filename)
		b = append(b, `,"lang":`...)
		b = appendNullable(b, f.Lang)
	}
	return append(b, '}')
}

type pageFeedback struct {
	path                       string
	thumbsUp, thumbsDown, code int
	total                      int
}

// FeedbackByPage appends the per-page counts for q, as the vendor's schema
// describes them: thumbsUp and thumbsDown count contextual entries ("Number
// of positive (thumbs up) contextual feedback entries"), by Helpful; code
// counts code_snippet entries; total counts every matching entry of the
// page, thumbs_only votes included. So a page's row is what a /feedback
// walk with the same filters shows, counted. Pages by total descending,
// then path ascending.
func (st *Store) FeedbackByPage(dst []byte, q *Query) []byte {
	var out []byte
	st.read(func(e *events, _ uint64) {
		byPath := map[string]*pageFeedback{}
		var rows []*pageFeedback
		for i := range e.feedback.entries {
			f := &e.feedback.entries[i]
			if !q.matches(f) {
				continue
			}
			r := byPath[f.Path]
			if r == nil {
				r = &pageFeedback{path: f.Path}
				byPath[f.Path] = r
				rows = append(rows, r)
			}
			r.total++
			switch f.Source {
			case SourceContextual:
				if f.Helpful {
					r.thumbsUp++
				} else {
					r.thumbsDown++
				}
			case SourceCodeSnippet:
				r.code++
			}
		}
		slices.SortFunc(rows, func(a, b *pageFeedback) int {
			if a.total != b.total {
				return b.total - a.total
			}
			return strings.Compare(a.path, b.path)
		})
		hasMore := len(rows) > q.Limit
		rows = rows[:min(len(rows), q.Limit)]
		b := append(dst, `{"feedback":[`...)
		for i, r := range rows {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"path":`...)
			b = AppendString(b, r.path)
			b = append(b, `,"thumbsUp":`...)
			b = AppendInt(b, r.thumbsUp)
			b = append(b, `,"thumbsDown":`...)
			b = AppendInt(b, r.thumbsDown)
			b = append(b, `,"code":`...)
			b = AppendInt(b, r.code)
			b = append(b, `,"total":`...)
			b = AppendInt(b, r.total)
			b = append(b, '}')
		}
		if hasMore {
			out = append(b, `],"hasMore":true}`...)
		} else {
			out = append(b, `],"hasMore":false}`...)
		}
	})
	return out
}
