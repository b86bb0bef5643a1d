package mintlify

// The route value each analytics route file fills in, and one pager for
// every list route, whether it pages by offset (visitors, views) or by
// cursor (searches, feedback, assistant).
//
// What a walk promises, whatever the server does:
//   - Pages are fetched lazily: breaking out of the loop stops the requests.
//   - A failure is yielded once, as a *WalkError that says where to resume,
//     and ends the walk; so does a context that ends between pages.
//   - No row is yielded twice: a row whose key the walk yielded among its
//     last dedupWindow rows is dropped from its page (page iterators yield
//     the page without it). Offset pages produce such repeats when data
//     change during the walk; a cursor walk should never see one.
//   - Guards end the walk with an error when the server misbehaves, so that
//     no answer can keep a loop, or the hourly quota, busy: a cursor the walk
//     has already requested (no request follows it), hasMore with no cursor
//     or with an empty offset page (no request follows), maxStalledPages
//     pages in a row with no new row (after the 10th such page), and more
//     than the client's walk request cap (WithMaxWalkRequests, default
//     1,000 pages).
//
// A page is one request of the walk; retries of that request inside the
// client (see WithMaxRetries) are not counted again.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/docsagent/mintlify-go/internal/redact"
)

const (
	// defaultMaxWalkRequests caps the pages of one walk unless
	// WithMaxWalkRequests says otherwise: ten times the hourly quota.
	defaultMaxWalkRequests = 1000

	// maxStalledPages is how many pages in a row may bring no new row
	// before a walk gives up: shifting data repeat a page now and then,
	// a server ignoring offset or cursor repeats every page.
	maxStalledPages = 10

	// dedupWindow is how many of the most recent row keys a walk
	// remembers: a repeat is dropped when the row moved fewer places
	// than this. It bounds the walk's memory, whatever the export's length.
	dedupWindow = 4096

	// cursorWindow is how many of the most recent cursors a walk remembers
	// to notice one coming back.
	cursorWindow = 1024
)

// WithMaxWalkRequests raises (or lowers) how many pages one walk of an
// iterator such as Views or Searches may request before it stops with a
// *WalkError (default 1,000, ten times the hourly analytics quota). n < 1
// restores the default.
func WithMaxWalkRequests(n int) Option {
	return func(c *config) { c.maxWalkRequests = n }
}

// walkCap is the client's walk request cap. It reads a nil or zero Client
// without panicking: send refuses those with an error.
func (c *Client) walkCap() int {
	if c == nil || c.maxWalkRequests < 1 {
		return defaultMaxWalkRequests
	}
	return c.maxWalkRequests
}

// WalkError is the error a page or row iterator yields when a walk stops
// before its end. Err is the cause (an *APIError, a context error, a
// malformed answer, a guard against a misbehaving server: see the package
// documentation); Offset or
// Cursor is where to resume: walk again with the params' Offset or Cursor
// set to it. For offset routes Offset is the offset of the next page to
// fetch; for cursor routes Cursor is the cursor of the page that failed
// ("" for the first page). Every row before that point was yielded.
//
// Invalid params are reported before any request, as a plain
// ErrInvalidInput error, not a WalkError.
//
// A server (or a proxy) may put anything in a cursor, the API key
// included: Error and %#v show the cursor with the key scrubbed, while
// Cursor itself holds it as sent, to resume from.
type WalkError struct {
	Offset int
	Cursor string
	Err    error

	scrub redact.Scrubber // the walking client's; nil on a WalkError built by hand
}

// Error reads "mintlify: walk stopped at offset 500: HTTP 429: ...", with
// the cause's own "mintlify: " prefix taken off.
func (e *WalkError) Error() string {
	var at string
	switch {
	case e.Cursor != "":
		at = fmt.Sprintf("at cursor %q", e.shown(e.Cursor))
	case e.Offset > 0:
		at = fmt.Sprintf("at offset %d", e.Offset)
	default:
		at = "at the first page"
	}
	cause := "unknown error"
	if e.Err != nil {
		cause = strings.TrimPrefix(e.Err.Error(), "mintlify: ")
	}
	return e.shown("mintlify: walk stopped " + at + ": " + cause)
}

// GoString is Error for %#v, which would otherwise print Cursor as sent.
func (e *WalkError) GoString() string { return "&mintlify.WalkError{" + strconv.Quote(e.Error()) + "}" }

func (e *WalkError) shown(s string) string {
	if e.scrub == nil {
		return s
	}
	return e.scrub(s, false)
}

// Unwrap gives the cause to errors.Is and errors.As.
func (e *WalkError) Unwrap() error { return e.Err }

// route is one analytics route: W is its wire answer (checked by send), P
// the page users see, R a row. A route file declares one of these and its
// types; the three methods of a list route (GetX, XPages, X) are get,
// pages and all.
type route[W, P, R any] struct {
	path string // after analyticsPath
	// maxLimit is the largest page: a larger Limit is invalid, and the
	// walks ask for it when Limit is 0.
	maxLimit int
	page     func(*W) *P

	// For list routes only: cursorPaged routes follow next's cursor,
	// offset routes add the rows received to the offset.
	cursorPaged bool
	rows        func(*P) *[]R
	// next says whether more pages follow, and from which cursor ("" on
	// offset routes).
	next func(*P) (cursor string, more bool)
	// key is a row's identity, hashed with the walk's seed (see
	// recentKeys).
	key func(maphash.Seed, R) uint64
}

// get reads one page (GetX): with Limit 0 it sends none, and the server
// answers its default.
func (rt *route[W, P, R]) get(ctx context.Context, c *Client, p params) (*P, error) {
	q, err := p.encode(rt.maxLimit)
	if err != nil {
		return nil, err
	}
	return rt.fetch(ctx, c, q, p.at)
}

// pages walks every page from p.at (XPages), with the largest pages unless
// p.limit says otherwise: the fewest requests of the hourly quota.
func (rt *route[W, P, R]) pages(ctx context.Context, c *Client, p params) iter.Seq2[*P, error] {
	p.limit = cmp.Or(p.limit, rt.maxLimit)
	q, err := p.encode(rt.maxLimit)
	return rt.walk(ctx, c, q, p.at, err)
}

// all walks every row from p.at (X).
func (rt *route[W, P, R]) all(ctx context.Context, c *Client, p params) iter.Seq2[R, error] {
	return rowsOf(rt.pages(ctx, c, p), rt.rows)
}

// fetch sends one page request: the shared parameters q plus the position.
func (rt *route[W, P, R]) fetch(ctx context.Context, c *Client, q string, at position) (*P, error) {
	w, err := send[W](ctx, c, request{method: http.MethodGet, path: analyticsPath + rt.path, query: at.appendTo(q)})
	if err != nil {
		return nil, err
	}
	return rt.page(w), nil
}

// walk walks the route from start with the encoded parameters q. invalid,
// when set, is yielded before any request.
func (rt *route[W, P, R]) walk(ctx context.Context, c *Client, q string, start position, invalid error) iter.Seq2[*P, error] {
	return func(yield func(*P, error) bool) {
		if invalid == nil {
			invalid = c.ready(ctx) // a nil context, a nil or zero Client: before any request, not a WalkError
		}
		if invalid != nil {
			yield(nil, invalid)
			return
		}
		at := start
		// The cursor comes from the server, which may have echoed the key
		// into it: the error's text is scrubbed, its Cursor field is not
		// (it is what resumes the walk).
		var scrub redact.Scrubber
		if c != nil {
			scrub = c.scrub
		}
		fail := func(err error) {
			yield(nil, c.redact(&WalkError{Offset: at.offset, Cursor: at.cursor, Err: err, scrub: scrub}))
		}
		seen := newRecentKeys(dedupWindow)
		var cursors *recentKeys
		if rt.cursorPaged {
			cursors = newRecentKeys(cursorWindow)
			if at.cursor != "" {
				cursors.check(maphash.String(cursors.seed, at.cursor))
			}
		}
		limit, stalled := c.walkCap(), 0
		for n := 0; ; n++ {
			if n == limit {
				fail(fmt.Errorf("more pages still follow after %d requests (WithMaxWalkRequests raises the cap)", n))
				return
			}
			if err := ctx.Err(); err != nil {
				fail(err)
				return
			}
			page, err := rt.fetch(ctx, c, q, at)
			if err != nil {
				fail(err)
				return
			}
			rows := rt.rows(page)
			received := len(*rows)
			fresh := dropSeen(rows, seen, rt.key)
			cursor, more := rt.next(page)
			if !yield(page, nil) || !more {
				return
			}
			switch {
			case rt.cursorPaged && cursor == "":
				fail(errors.New("the page says more follow but gives no cursor"))
				return
			case rt.cursorPaged && cursors.check(maphash.String(cursors.seed, cursor)):
				at.cursor = cursor
				fail(errors.New("the server sent a cursor this walk already followed"))
				return
			case rt.cursorPaged:
				at.cursor = cursor
			case received == 0:
				fail(errors.New("the page is empty but says more follow"))
				return
			case received > math.MaxInt-at.offset:
				fail(fmt.Errorf("offset %d plus %d rows overflows", at.offset, received))
				return
			default:
				at.offset += received
			}
			if fresh > 0 {
				stalled = 0
			} else if stalled++; stalled == maxStalledPages {
				fail(fmt.Errorf("%d pages in a row held no new row: is the %s ignored?", stalled, rt.positionName()))
				return
			}
		}
	}
}

func (rt *route[W, P, R]) positionName() string {
	if rt.cursorPaged {
		return "cursor"
	}
	return "offset"
}

// dropSeen removes from *rows, in place, the rows whose key was seen, and
// remembers the others. It returns how many are left.
func dropSeen[R any](rows *[]R, seen *recentKeys, key func(maphash.Seed, R) uint64) int {
	kept := (*rows)[:0]
	for _, r := range *rows {
		if !seen.check(key(seen.seed, r)) {
			kept = append(kept, r)
		}
	}
	*rows = kept
	return len(kept)
}

// rowsOf yields the rows of pages in order; a page error is yielded once
// and ends the walk.
func rowsOf[P, R any](pages iter.Seq2[*P, error], rows func(*P) *[]R) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		for page, err := range pages {
			if err != nil {
				var zero R
				yield(zero, err)
				return
			}
			for _, r := range *rows(page) {
				if !yield(r, nil) {
					return
				}
			}
		}
	}
}

// recentKeys remembers the last size keys it was asked about, in a map
// indexed by a ring. Keys are 64-bit hashes with a seed of the walk's own,
// so memory stays flat however long the walk and however long the keys a
// server sends; two different keys of one walk collide with a chance of
// about one in ten billion even over a million rows, and no server can
// aim at that.
type recentKeys struct {
	seed maphash.Seed
	set  map[uint64]struct{}
	ring []uint64 // ring[next] is the oldest once full
	next int
}

func newRecentKeys(size int) *recentKeys {
	return &recentKeys{seed: maphash.MakeSeed(), set: make(map[uint64]struct{}, size), ring: make([]uint64, 0, size)}
}

// check reports whether the key hashed to h is among the remembered keys,
// and remembers it.
func (r *recentKeys) check(h uint64) bool {
	// One map operation for the common case, a new key: insert, and see
	// whether the map grew.
	n := len(r.set)
	if r.set[h] = struct{}{}; len(r.set) == n {
		return true
	}
	if len(r.ring) < cap(r.ring) {
		r.ring = append(r.ring, h)
	} else {
		delete(r.set, r.ring[r.next])
		r.ring[r.next] = h
		r.next = (r.next + 1) % len(r.ring)
	}
	return false
}

// hashString is the key of a row identified by one string.
func hashString(seed maphash.Seed, s string) uint64 { return maphash.String(seed, s) }
