package ratelimit

import (
	"testing"
	"time"
)

// The window slides: a slot frees when the oldest admitted request leaves
// it, and the wait says exactly when; kinds and buckets count apart.
func TestTheWindowSlides(t *testing.T) {
	l := New()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	lim := Limit{N: 2, Per: time.Minute}
	for i, at := range []time.Duration{0, 10 * time.Second} {
		if _, ok := l.Take(1, "a", t0.Add(at), lim); !ok {
			t.Fatalf("request %d refused", i)
		}
	}
	wait, ok := l.Take(1, "a", t0.Add(20*time.Second), lim)
	if ok || wait != 40*time.Second {
		t.Fatalf("third: ok %t, wait %s; want a refusal for 40s", ok, wait)
	}
	if _, ok := l.Take(1, "b", t0, lim); !ok {
		t.Error("another bucket shares the window")
	}
	if _, ok := l.Take(2, "a", t0, lim); !ok {
		t.Error("another kind shares the window")
	}
	if _, ok := l.Take(1, "a", t0.Add(time.Minute), lim); !ok {
		t.Error("the oldest request left the window, its slot did not free")
	}
	l.Reset()
	if _, ok := l.Take(1, "a", t0.Add(time.Minute), lim); !ok {
		t.Error("Reset kept the window")
	}
}

func TestRetryAfterRoundsUp(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, time.Hour: 3600} {
		if got := RetryAfterSeconds(d); got != want {
			t.Errorf("%s: %d, want %d", d, got, want)
		}
	}
}
