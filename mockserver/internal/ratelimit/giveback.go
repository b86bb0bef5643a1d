package ratelimit

import "time"

// GiveBack returns the slot a request took at now in the bucket id of kind,
// for a request that a second limit refused after this one admitted it (a
// route with a daily and a per-second limit takes the daily slot first; a
// request the per-second limit then refuses must not spend the day). It
// removes one admission made at exactly now, if the window holds one.
func (l *Limiter) GiveBack(kind Kind, id string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.buckets[kind][id]
	if w == nil {
		return
	}
	t := now.UnixNano()
	n := len(w.hits)
	for k := w.count - 1; k >= 0; k-- { // newest first: ours is the newest but for a race
		if w.hits[(w.head+k)%n] != t {
			continue
		}
		for j := k; j < w.count-1; j++ { // close the gap, keeping the order
			w.hits[(w.head+j)%n] = w.hits[(w.head+j+1)%n]
		}
		w.count--
		return
	}
}
