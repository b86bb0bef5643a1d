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

// Feedback is the feedback page for q: entries newest first (by
// createdAt, then id, both descending). The cursor is the keyset position
// of the page's last entry, so entries that arrive during a walk never
// shift it: no entry is repeated or skipped.
func (st *Store) Feedback(q *Query) (*FeedbackPage, error) {
	var out *FeedbackPage
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
		out = &FeedbackPage{Feedback: make([]any, len(page))}
		for i, f := range page {
			out.Feedback[i] = feedbackEntry(f)
		}
		var cursor string
		if hasMore {
			last := page[len(page)-1]
			pos := binary.BigEndian.AppendUint64(nil, uint64(last.CreatedAt.UnixNano()))
			cursor = st.signer.seal(q.binding(st.project), append(pos, last.ID...))
		}
		out.keysetEnd = endAt(cursor, hasMore)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FeedbackPage is the answer of the feedback route.
type FeedbackPage struct {
	Feedback []any `json:"feedback"` // each entry in its source's shape
	keysetEnd
}

// The shapes of a feedback entry: the members every source has, and those
// of contextual and code snippet feedback.
type (
	feedbackCommon struct {
		ID        string  `json:"id"`
		Path      string  `json:"path"`
		Comment   *string `json:"comment"`
		CreatedAt string  `json:"createdAt"`
		Source    Source  `json:"source"`
		Status    Status  `json:"status"`
	}
	contextualFeedback struct {
		feedbackCommon
		Helpful bool    `json:"helpful"`
		Contact *string `json:"contact"`
	}
	codeFeedback struct {
		feedbackCommon
		Code     string  `json:"code"`
		Filename *string `json:"filename"`
		Lang     *string `json:"lang"`
	}
)

// feedbackEntry is an entry in its source's shape.
func feedbackEntry(f *Feedback) any {
	common := feedbackCommon{ID: f.ID, Path: f.Path, Comment: nullable(f.Comment),
		CreatedAt: timeText(f.CreatedAt.UnixNano()), Source: f.Source, Status: f.Status}
	switch f.Source {
	case SourceContextual:
		return contextualFeedback{common, f.Helpful, nullable(f.Contact)}
	case SourceCodeSnippet:
		return codeFeedback{common, f.Code, nullable(f.Filename), nullable(f.Lang)}
	}
	return common
}

// PageFeedback is a row of the feedback by page route.
type PageFeedback struct {
	Path       string `json:"path"`
	ThumbsUp   int    `json:"thumbsUp"`
	ThumbsDown int    `json:"thumbsDown"`
	Code       int    `json:"code"`
	Total      int    `json:"total"`
}

// FeedbackByPage is the answer of the feedback by page route.
type FeedbackByPage struct {
	Feedback []*PageFeedback `json:"feedback"`
	HasMore  bool            `json:"hasMore"`
}

// FeedbackByPage is the per-page counts for q, as the vendor's schema
// describes them: thumbsUp and thumbsDown count contextual entries ("Number
// of positive (thumbs up) contextual feedback entries"), by Helpful; code
// counts code_snippet entries; total counts every matching entry of the
// page, thumbs_only votes included. So a page's row is what a /feedback
// walk with the same filters shows, counted. Pages by total descending,
// then path ascending.
func (st *Store) FeedbackByPage(q *Query) *FeedbackByPage {
	var out *FeedbackByPage
	st.read(func(e *events, _ uint64) {
		byPath := map[string]*PageFeedback{}
		rows := []*PageFeedback{}
		for i := range e.feedback.entries {
			f := &e.feedback.entries[i]
			if !q.matches(f) {
				continue
			}
			r := byPath[f.Path]
			if r == nil {
				r = &PageFeedback{Path: f.Path}
				byPath[f.Path] = r
				rows = append(rows, r)
			}
			r.Total++
			switch f.Source {
			case SourceContextual:
				if f.Helpful {
					r.ThumbsUp++
				} else {
					r.ThumbsDown++
				}
			case SourceCodeSnippet:
				r.Code++
			}
		}
		slices.SortFunc(rows, func(a, b *PageFeedback) int {
			if a.Total != b.Total {
				return b.Total - a.Total
			}
			return strings.Compare(a.Path, b.Path)
		})
		out = &FeedbackByPage{Feedback: rows[:min(len(rows), q.Limit)], HasMore: len(rows) > q.Limit}
	})
	return out
}
