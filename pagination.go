package mintlify

import (
	"context"
	"fmt"
	"hash/maphash"
	"iter"
	"math"
	"slices"
)

// Offset pagination, shared by every endpoint that pages with limit and
// offset: ask for the rows from offset, add the rows received, repeat while
// the page says more follow.
//
// What offset pagination can promise: when the data do not change during a
// walk (a date range that lies in the past), a walk yields every row exactly
// once, in the server's order. When they do change, rows move between
// positions while the walk is between two requests: a row that moves down
// past the walk's position shows up again, and a row that moves up past it
// is missed. The row iterators drop the repeats (see recentKeys); nothing
// on the client side can bring back a missed row.

// maxWalkPages caps the requests of one walk, so a server that keeps saying
// more pages follow cannot keep a loop (and the quota) busy forever. At the
// largest page size it is 2.5 million rows, far more than the hourly
// analytics quota allows anyway.
const maxWalkPages = 10_000

// dedupWindow is how many of the most recent row keys a row walk remembers
// at least (it remembers up to twice as many). A repeat is dropped when the
// row moved down fewer places than this between its two appearances.
const dedupWindow = 2048

// maxRepeatPages is how many pages in a row may hold only rows already
// yielded before a row walk gives up.
const maxRepeatPages = 3

// offsetPage is what the pager needs from a page of an offset-paginated
// endpoint.
type offsetPage[R any] interface {
	pageRows() []R
	pageHasMore() bool
}

// walkPages fetches pages from offset start, each at the previous offset
// plus the rows received, until one says no more follow. It fetches a page
// only when the loop asks for it, so breaking out of the loop stops the
// requests. A failure is yielded once, as (zero, err), and ends the walk;
// so does a context that ends between pages, a page that is empty yet says
// more follow (offset would not advance: the walk would never end), and
// reaching maxWalkPages.
func walkPages[P offsetPage[R], R any](ctx context.Context, start int, fetch func(ctx context.Context, offset int) (P, error)) iter.Seq2[P, error] {
	return func(yield func(P, error) bool) {
		var zero P
		offset := start
		for n := 0; ; n++ {
			if n == maxWalkPages {
				yield(zero, fmt.Errorf("mintlify: more pages still follow after %d requests: stopped at offset %d", n, offset))
				return
			}
			if err := ctx.Err(); err != nil {
				yield(zero, fmt.Errorf("mintlify: page at offset %d: %w", offset, err))
				return
			}
			page, err := fetch(ctx, offset)
			if err != nil {
				yield(zero, fmt.Errorf("mintlify: page at offset %d: %w", offset, err))
				return
			}
			rows, more := len(page.pageRows()), page.pageHasMore()
			if more && rows == 0 {
				yield(zero, fmt.Errorf("mintlify: page at offset %d is empty but says more follow", offset))
				return
			}
			if !yield(page, nil) || !more {
				return
			}
			if rows > math.MaxInt-offset {
				yield(zero, fmt.Errorf("mintlify: offset %d plus %d rows overflows", offset, rows))
				return
			}
			offset += rows
		}
	}
}

// walkRows yields the rows of pages in order, dropping a row whose key it
// yielded recently (see dedupWindow): the repeat that offset pagination
// produces when rows move down while the walk runs. A page error is yielded
// once, as (zero, err).
func walkRows[P offsetPage[R], R any](pages iter.Seq2[P, error], key func(R) string) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		seen := newRecentKeys(dedupWindow)
		repeats := 0 // pages in a row with nothing new
		for page, err := range pages {
			if err != nil {
				var zero R
				yield(zero, err)
				return
			}
			rows, fresh := page.pageRows(), 0
			for _, row := range rows {
				if seen.check(key(row)) {
					continue
				}
				fresh++
				if !yield(row, nil) {
					return
				}
			}
			if fresh > 0 || len(rows) == 0 {
				repeats = 0
			} else if repeats++; repeats == maxRepeatPages {
				// Shifting data repeat a page now and then (often, with a
				// tiny Limit); a server or cache that ignores offset repeats
				// every page, and walking on would spend the quota on nothing.
				var zero R
				yield(zero, fmt.Errorf("mintlify: %d pages in a row repeated rows already received: is offset ignored?", repeats))
				return
			}
		}
	}
}

// recentKeys remembers the last size to 2*size keys. Every row of a walk
// goes through check and almost none is a repeat, so "certainly new" must
// be cheap: two Bloom filters (the current generation and the older one,
// each of up to size keys) answer it with one memory word each. (A map
// lookup and insertion per row made a walk about 5% slower.) Only when a
// filter cannot rule a key out is the ring of the last 2*size keys
// searched: the answer is exact, so a false positive never drops a row.
type recentKeys struct {
	seed       maphash.Seed // per walk, so that no set of paths collides on purpose
	size       int
	cur, older bloomFilter
	n          int      // keys in cur
	ring       []string // the last 2*size keys; ring[next] is the oldest
	next       int
}

func newRecentKeys(size int) *recentKeys {
	return &recentKeys{
		seed:  maphash.MakeSeed(),
		size:  size,
		cur:   newBloomFilter(size),
		older: newBloomFilter(size),
		ring:  make([]string, 0, 2*size),
	}
}

// check reports whether k is among the remembered keys, and remembers it.
func (r *recentKeys) check(k string) bool {
	h := maphash.String(r.seed, k)
	if (r.cur.mayHave(h) || r.older.mayHave(h)) && slices.Contains(r.ring, k) {
		return true
	}
	r.cur.add(h)
	if len(r.ring) < cap(r.ring) {
		r.ring = append(r.ring, k)
	} else {
		r.ring[r.next] = k
		r.next = (r.next + 1) % len(r.ring)
	}
	if r.n++; r.n == r.size {
		clear(r.older)
		r.cur, r.older, r.n = r.older, r.cur, 0
	}
	return false
}

// bloomFilter is a blocked Bloom filter: a key sets four bits of one word,
// so a test reads a single word. With at most one key for two words, fewer
// than one test in 10,000 says "maybe" for a key it never saw.
type bloomFilter []uint64

func newBloomFilter(keys int) bloomFilter {
	words := 1
	for words < 2*keys {
		words *= 2
	}
	return make(bloomFilter, words)
}

// bits picks the word from the low bits of h and four bits from the high.
func (f bloomFilter) bits(h uint64) (int, uint64) {
	bits := uint64(1)<<(h>>58) | 1<<(h>>52&63) | 1<<(h>>46&63) | 1<<(h>>40&63)
	return int(h & uint64(len(f)-1)), bits
}

func (f bloomFilter) mayHave(h uint64) bool {
	w, bits := f.bits(h)
	return f[w]&bits == bits
}

func (f bloomFilter) add(h uint64) {
	w, bits := f.bits(h)
	f[w] |= bits
}
