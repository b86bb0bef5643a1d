package ratelimit

import (
	"math/rand/v2"
	"runtime"
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

// The longest window Go's durations hold (-index-daily-limit
// 1/2562047h47m16.854775807s) advertised Retry-After: 1, a second instead
// of 292 years: rounding up overflowed.
func TestRetryAfterRoundsUp(t *testing.T) {
	const longest = time.Duration(1<<63 - 1)
	for d, want := range map[time.Duration]int{0: 1, time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, time.Hour: 3600,
		longest: int(longest/time.Second) + 1} {
		if got := RetryAfterSeconds(d); got != want {
			t.Errorf("%s: %d, want %d", d, got, want)
		}
	}
	l := New()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	lim := Limit{N: 1, Per: longest}
	if _, ok := l.Take(1, "a", now, lim); !ok {
		t.Fatal("the first request refused")
	}
	if wait, ok := l.Take(1, "a", now.Add(time.Hour), lim); ok || wait != longest-time.Hour {
		t.Errorf("the second: ok %t, wait %s; want a refusal for %s", ok, wait, longest-time.Hour)
	}
}

// A limit's size costs nothing (`-analytics-limit 100000000000/1h` must
// start and serve): a bucket's memory is the same for any n, and an
// admitted request allocates nothing.
func TestMemoryDoesNotGrowWithTheLimit(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{10, 10_000_000} {
		l := New()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, ok := l.Take(1, "org", t0, Limit{N: n, Per: time.Hour}); !ok {
			t.Fatalf("n=%d: the first request was refused", n)
		}
		runtime.ReadMemStats(&after)
		grew := after.TotalAlloc - before.TotalAlloc
		t.Logf("n=%d: the first request of a bucket allocated %d bytes", n, grew)
		if grew > 16<<10 {
			t.Errorf("n=%d: a bucket took %d bytes, want at most 16 KiB whatever n", n, grew)
		}
	}
	l := New()
	huge := Limit{N: 100_000_000_000, Per: time.Hour}
	at := t0
	l.Take(1, "org", at, huge)
	if allocs := testing.AllocsPerRun(1000, func() {
		at = at.Add(time.Millisecond)
		if _, ok := l.Take(1, "org", at, huge); !ok {
			t.Fatal("refused under a limit of 10^11")
		}
	}); allocs != 0 {
		t.Errorf("an admitted request allocates %.1f times, want 0", allocs)
	}
}

// Whatever the pattern of requests, the limiter admits at most N in any
// window of Per (what the service promises), and a client that waits the
// Retry-After it was given is admitted. The wait may be later than the
// exact one (that of a log of every request) by at most Per/63, and is
// exact when the requests of each 1/63 of the window came at one instant.
func TestTheWindowNeverAdmitsMoreThanN(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, lim := range []Limit{{N: 1, Per: time.Second}, {N: 5, Per: time.Minute}, {N: 100, Per: time.Hour}, {N: 7, Per: 10 * time.Second}} {
		l := New()
		var admitted []time.Time // the exact log
		refused := 0
		at := t0
		for range 5000 {
			at = at.Add(time.Duration(rng.Int64N(int64(lim.Per) / int64(lim.N) * 2)))
			for len(admitted) > 0 && at.Sub(admitted[0]) >= lim.Per {
				admitted = admitted[1:] // out of the window
			}
			inWindow := len(admitted)
			wait, ok := l.Take(1, "b", at, lim)
			if ok {
				if inWindow >= lim.N {
					t.Fatalf("%+v: admitted at %s with %d requests already in the window", lim, at.Sub(t0), inWindow)
				}
				admitted = append(admitted, at)
				continue
			}
			refused++
			if wait <= 0 {
				t.Fatalf("%+v: refused at %s with a wait of %s", lim, at.Sub(t0), wait)
			}
			// The exact wait: until the oldest request that keeps the window
			// full leaves it.
			exact := time.Duration(0)
			if inWindow >= lim.N {
				exact = admitted[inWindow-lim.N].Add(lim.Per).Sub(at)
			}
			if wait < exact || wait > exact+lim.Per/63+1 {
				t.Fatalf("%+v: at %s the wait is %s, the exact one %s (at most %s more allowed)", lim, at.Sub(t0), wait, exact, lim.Per/63)
			}
			if _, ok := l.Take(1, "b", at.Add(wait), lim); !ok {
				t.Fatalf("%+v: refused again after waiting the %s it was told", lim, wait)
			}
			at = at.Add(wait)
			admitted = append(admitted, at)
		}
		if refused < 100 {
			t.Errorf("%+v: %d refusals; the walk should press on the limit", lim, refused)
		}
	}
}

// BenchmarkTakeAdmitted is the cost of an admitted request under a limit
// of 10^11 an hour: no allocation, whatever the limit.
func BenchmarkTakeAdmitted(b *testing.B) {
	l := New()
	lim := Limit{N: 100_000_000_000, Per: time.Hour}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		at = at.Add(time.Millisecond)
		if _, ok := l.Take(1, "org", at, lim); !ok {
			b.Fatal("refused")
		}
	}
}
