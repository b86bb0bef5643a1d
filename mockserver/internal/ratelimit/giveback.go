package ratelimit

import "time"

// GiveBack returns the slot a request took at now in the bucket id of kind,
// for a request that a second limit refused after this one admitted it (a
// route with a daily and a per-second limit takes the daily slot first; a
// request the per-second limit then refuses must not spend the day). It
// takes one admission back from the slice that now falls in; that slice's
// latest time stays, which can only make a later wait longer, never too
// short.
func (l *Limiter) GiveBack(kind Kind, id string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.buckets[kind][id]
	if w == nil {
		return
	}
	index := floorDiv(now.UnixNano(), w.width)
	if s := &w.slice[mod(index, kept)]; s.n > 0 && s.index == index {
		s.n--
	}
}
