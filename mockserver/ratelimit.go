package mockserver

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// rateLimiter keeps, per bucket, the times of the requests it admitted. A
// sliding window (rather than fixed hourly buckets) gives an exact
// Retry-After: the moment the oldest admitted request leaves the window.
type rateLimiter struct {
	mu      sync.Mutex
	buckets [5]map[string]*window // indexed by limitKind
}

type window struct {
	hits  []int64 // ring of admission times, unix nanoseconds
	head  int
	count int
}

func newRateLimiter() *rateLimiter {
	l := &rateLimiter{}
	l.reset()
	return l
}

func (l *rateLimiter) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.buckets {
		l.buckets[i] = map[string]*window{}
	}
}

// take admits one request at now, or says how long until a slot frees.
func (l *rateLimiter) take(kind limitKind, id string, now time.Time, lim limit) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.buckets[kind][id]
	if w == nil {
		w = &window{hits: make([]int64, lim.n)}
		l.buckets[kind][id] = w
	}
	t := now.UnixNano()
	for w.count > 0 && w.hits[w.head] <= t-int64(lim.per) {
		w.head = (w.head + 1) % len(w.hits)
		w.count--
	}
	if w.count < len(w.hits) {
		w.hits[(w.head+w.count)%len(w.hits)] = t
		w.count++
		return 0, true
	}
	return time.Duration(w.hits[w.head] + int64(lim.per) - t), false
}

// admit applies the endpoint's limit. Job creations and follow-ups share a
// per-project budget; analytics requests share one per organization, every
// analytics route together. A request uses its slot once admitted, whatever
// its answer turns out to be.
func (s *Server) admit(kind limitKind, c *call) (reply, bool) {
	var lim limit
	var id, what string
	switch kind {
	case jobLimit:
		lim, id, what = s.cfg.jobLimit, c.project.id, "job creations and follow-ups per project"
	case analyticsLimit:
		lim, id, what = s.cfg.analyticsLimit, s.organizationOf(c.key), "analytics requests per organization"
	case deployLimit:
		lim, id, what = s.cfg.ci.deployLim(), c.org.id, "deployment and automation triggers per organization"
	case previewLimit:
		lim, id, what = s.cfg.ci.previewLim(), c.org.id, "preview deployments per organization"
	default:
		return reply{}, true
	}
	if lim.n <= 0 || lim.per <= 0 {
		return reply{}, true
	}
	wait, ok := s.limiter.take(kind, id, c.now, lim)
	if ok {
		return reply{}, true
	}
	secs := retryAfterSeconds(wait)
	rep := errorReply(http.StatusTooManyRequests, "Rate limit exceeded",
		fmt.Sprintf("at most %d %s every %s; retry in %d seconds", lim.n, what, lim.per, secs))
	rep.retryAfter = strconv.Itoa(secs)
	return rep, false
}

// organizationOf names the organization a key belongs to: the unit of the
// analytics quota (see orgs.go for how keys form organizations).
func (s *Server) organizationOf(key string) string { return s.orgOf(key) }

// retryAfterSeconds rounds up: a client that waits the advertised time must
// find a free slot.
func retryAfterSeconds(d time.Duration) int {
	secs := int((d + time.Second - 1) / time.Second)
	return max(secs, 1)
}
