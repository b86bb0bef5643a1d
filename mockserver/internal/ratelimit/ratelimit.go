// Package ratelimit keeps the mock's rate-limit windows: per limit kind
// and per bucket (a project, an organization), the times of the requests
// admitted in the sliding window. It knows nothing of HTTP or of which
// route takes which limit; the server's route table says that.
package ratelimit

import (
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

// Limiter keeps, per bucket, the times of the requests it admitted. A
// sliding window (rather than fixed hourly buckets) gives an exact
// Retry-After: the moment the oldest admitted request leaves the window.
type Limiter struct {
	mu      sync.Mutex
	buckets map[Kind]map[string]*window
}

type window struct {
	hits  []int64 // ring of admission times, unix nanoseconds
	head  int
	count int
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
// long until a slot frees.
func (l *Limiter) Take(kind Kind, id string, now time.Time, lim Limit) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	byID := l.buckets[kind]
	if byID == nil {
		byID = map[string]*window{}
		l.buckets[kind] = byID
	}
	w := byID[id]
	if w == nil {
		w = &window{hits: make([]int64, lim.N)}
		byID[id] = w
	}
	t := now.UnixNano()
	for w.count > 0 && w.hits[w.head] <= t-int64(lim.Per) {
		w.head = (w.head + 1) % len(w.hits)
		w.count--
	}
	if w.count < len(w.hits) {
		w.hits[(w.head+w.count)%len(w.hits)] = t
		w.count++
		return 0, true
	}
	return time.Duration(w.hits[w.head] + int64(lim.Per) - t), false
}

// RetryAfterSeconds rounds up: a client that waits the advertised time must
// find a free slot.
func RetryAfterSeconds(d time.Duration) int {
	secs := int((d + time.Second - 1) / time.Second)
	return max(secs, 1)
}
