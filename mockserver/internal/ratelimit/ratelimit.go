// Package ratelimit keeps the mock's rate-limit windows: per limit kind
// and per bucket (a project, an organization), what was admitted in the
// sliding window. It knows nothing of HTTP or of which route takes which
// limit; the server's route table says that.
package ratelimit

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// Limit is N requests per window Per.
type Limit struct {
	N   int // <= 0 disables the limit
	Per time.Duration
}

// Kind names a limit: each kind counts its own windows.
type Kind uint8

// Limiter keeps, per bucket, a sliding window of the requests it admitted.
//
// A window is cut into slices of Per/63 (rounded up), and 64 of them are
// kept: for each, how many requests it admitted and when the latest of
// them came. A slice leaves the window when its latest request does, so
// the limiter never admits more than N in any window of Per, and the wait
// it answers is never too short: a client that waits it finds a slot. It
// is exact when each slice's requests came at one instant (as under a fake
// clock) and at most Per/63 too long otherwise. Memory is the same, about
// 1.5 KiB a bucket, for any N: an earlier ring of N admission times died
// of out-of-memory for -analytics-limit 100000000000/1h.
type Limiter struct {
	mu      sync.Mutex
	buckets map[Kind]map[string]*window
}

// kept is how many slices a window keeps: one more than it is cut into,
// so that the slot a new slice takes held requests that left the window.
const kept = 64

type window struct {
	per, width int64 // the window and its slices' length, nanoseconds
	slice      [kept]slice
}

type slice struct {
	index int64 // which slice of time: t / width
	n     int64 // requests admitted in it
	last  int64 // the latest of them, unix nanoseconds
}

// New returns a limiter with no request admitted yet.
func New() *Limiter { return &Limiter{buckets: map[Kind]map[string]*window{}} }

// Reset forgets every admitted request.
func (l *Limiter) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buckets = map[Kind]map[string]*window{}
}

// Take admits one request at now into the bucket id of kind, or says how
// long until a slot frees. An admitted request allocates nothing (the
// first of a bucket makes its window).
func (l *Limiter) Take(kind Kind, id string, now time.Time, lim Limit) (time.Duration, bool) {
	per := int64(lim.Per)
	if lim.N <= 0 || per <= 0 {
		return 0, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	byID := l.buckets[kind]
	if byID == nil {
		byID = map[string]*window{}
		l.buckets[kind] = byID
	}
	w := byID[id]
	if w == nil || w.per != per {
		w = &window{per: per, width: (per-1)/(kept-1) + 1} // rounded up, without overflow
		byID[id] = w
	}
	t := now.UnixNano()
	var inWindow int64
	for i := range w.slice {
		s := &w.slice[i]
		if s.n > 0 && s.last <= t-per { // written so that no sum overflows
			*s = slice{}
		}
		inWindow += s.n
	}
	if inWindow < int64(lim.N) {
		index := floorDiv(t, w.width)
		s := &w.slice[mod(index, kept)]
		if s.n == 0 {
			s.index = index
		}
		// A slice still holding requests of another index can only be one
		// from a clock set back: counting both in it keeps the window
		// from admitting too many.
		s.n++
		s.last = max(s.last, t)
		return 0, true
	}
	return w.wait(t, inWindow-int64(lim.N)+1), false
}

// wait is how long from t until leave requests have left the window:
// slices leave in the order of their latest requests.
func (w *window) wait(t, leave int64) time.Duration {
	var order [kept]slice
	k := 0
	for _, s := range w.slice {
		if s.n > 0 {
			order[k] = s
			k++
		}
	}
	slices.SortFunc(order[:k], func(a, b slice) int { return cmp.Compare(a.last, b.last) })
	for _, s := range order[:k] {
		if leave -= s.n; leave <= 0 {
			return time.Duration(w.per - (t - s.last))
		}
	}
	return time.Duration(w.per) // not reached: the slices hold more than leave
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func mod(a, b int64) int64 { return (a%b + b) % b }

// RetryAfterSeconds rounds up: a client that waits the advertised time must
// find a free slot.
func RetryAfterSeconds(d time.Duration) int {
	secs := d / time.Second // d + time.Second - 1 would overflow for the longest windows
	if d%time.Second != 0 {
		secs++
	}
	return max(int(secs), 1)
}
