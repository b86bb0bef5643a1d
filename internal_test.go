package mintlify

// Tests that must reach inside the package: what no public call can show
// without sleeping for minutes or sampling thousands of times. Each says
// which internal it reaches. Everything else tests the public API, in
// package mintlify_test. The benchmarks of this package share the
// constants below.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	coreAPIKey    = "mint_sk_live_7hQ2pX9vLr4TzW8mN3bKc5yJ"
	coreProjectID = "proj_42"
	coreBaseURL   = "https://api.example.test"
)

// depFull is a status answer with every field present: BenchmarkPollDeployment
// measures it, and the external tests decode it as DeploymentAnswer.
const depFull = `{
	"_id": "st_1", "projectId": "proj_42",
	"createdAt": "2026-03-04T05:06:07Z", "endedAt": "2026-03-04T05:08:09.5+01:00",
	"status": "failure", "summary": "Build failed: 2 broken links",
	"logs": ["cloning", "building", "error: broken link /a"],
	"subdomain": "acme", "screenshot": "https://s/1.png", "screenshotLight": "https://s/l.png", "screenshotDark": "https://s/d.png",
	"author": {"name": "Ada", "avatarUrl": "https://a/ada.png", "githubUserId": 583231},
	"commit": {"sha": "abc123", "ref": "main", "message": "docs: fix links",
		"filesChanged": {"added": ["new.mdx"], "modified": ["a.mdx", "b.mdx"], "removed": ["old.mdx"]}},
	"source": "api"
}`

// DeploymentAnswer is depFull for the tests of package mintlify_test,
// which cannot see this package's unexported test names.
const DeploymentAnswer = depFull

// TestBackoff reaches backoff, the retry layer's wait: its bounds, growth
// and jitter take thousands of samples, and its extreme bounds would mean
// sleeping for ages.
func TestBackoff(t *testing.T) {
	t.Parallel()
	withRetryAfter := func(v string) *http.Response {
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {v}}}
	}
	t.Run("Retry-After seconds is the wait", func(t *testing.T) {
		assert.Equal(t, 2*time.Second, backoff(time.Millisecond, 10*time.Second, 0, withRetryAfter("2")))
		assert.Equal(t, time.Duration(0), backoff(time.Millisecond, 10*time.Second, 3, withRetryAfter("0")))
	})
	t.Run("Retry-After date is the wait", func(t *testing.T) {
		at := time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat)
		got := backoff(time.Millisecond, 10*time.Second, 0, withRetryAfter(at))
		assert.InDelta(t, 4500*time.Millisecond, got, float64(1100*time.Millisecond)) // the date has 1s resolution
	})
	t.Run("Retry-After is capped at the maximum", func(t *testing.T) {
		assert.Equal(t, 10*time.Second, backoff(time.Millisecond, 10*time.Second, 0, withRetryAfter("3600")))
	})
	t.Run("a bad Retry-After falls back to the backoff", func(t *testing.T) {
		got := backoff(100*time.Millisecond, 200*time.Millisecond, 0, withRetryAfter("soon"))
		assert.LessOrEqual(t, got, 200*time.Millisecond)
	})
	t.Run("waits stay within the bounds and grow", func(t *testing.T) {
		const minWait, maxWait = 100 * time.Millisecond, 3 * time.Second
		for attempt := range 8 {
			var lo, hi time.Duration = maxWait, 0
			for range 2000 {
				d := backoff(minWait, maxWait, attempt, nil)
				lo, hi = min(lo, d), max(hi, d)
			}
			// WithRetryWait documents the bounds of every wait.
			assert.GreaterOrEqual(t, lo, minWait, "attempt %d: shortest wait", attempt)
			assert.LessOrEqual(t, hi, maxWait, "attempt %d: longest wait", attempt)
			ceiling := min(maxWait, minWait<<attempt)
			assert.Greater(t, hi, ceiling/2, "attempt %d: waits grow with the attempts", attempt)
		}
	})
	t.Run("the first retry is jittered too", func(t *testing.T) {
		// Clients that fail together (one 503 for everyone) must not all
		// come back at the same instant.
		seen := map[time.Duration]bool{}
		for range 100 {
			seen[backoff(100*time.Millisecond, 3*time.Second, 0, nil)] = true
		}
		assert.Greater(t, len(seen), 1, "every first retry waits the same time")
	})
	t.Run("extreme bounds do not overflow", func(t *testing.T) {
		// WithRetryWait(time.Nanosecond, math.MaxInt64) is accepted by
		// NewClient, so backoff must not panic on it.
		for attempt := range 70 {
			assert.NotPanics(t, func() {
				d := backoff(time.Nanosecond, time.Duration(1<<63-1), attempt, nil)
				assert.GreaterOrEqual(t, d, time.Nanosecond)
			}, "attempt %d", attempt)
		}
	})
}

// recordWaits reaches pollConfig.sleep: it replaces the poller's sleep: the waits are recorded, none is
// slept.
func recordWaits(waits *[]time.Duration) PollOption {
	return func(p *pollConfig) {
		p.sleep = func(ctx context.Context, d time.Duration) bool {
			*waits = append(*waits, d)
			return ctx.Err() == nil
		}
	}
}

// TestPollScheduleTimeToVerdict reaches pollSchedule: over every jitter
// draw (constant draws across [0, 1), and random sequences) and a range of
// intervals, the schedule keeps its promise. With the defaults: the first
// wait about 2s; every wait that starts in the first 10 minutes at most
// 4s, so a wait learns of a terminal state within 5s of the server's
// change even with a slow read; at most one read per 2s on average over
// those 10 minutes; after them the waits grow, and none exceeds 30s.
// With other intervals the caps are the first interval (when longer than
// 4s) and the maximum.
func TestPollScheduleTimeToVerdict(t *testing.T) {
	t.Parallel()
	type draws struct {
		name string
		next func() float64
	}
	var all []draws
	for i := range 1000 {
		u := float64(i) / 1000
		all = append(all, draws{fmt.Sprintf("u=%.3f", u), func() float64 { return u }})
	}
	all = append(all, draws{"u just under 1", func() float64 { return math.Nextafter(1, 0) }})
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, seed))
		all = append(all, draws{fmt.Sprintf("seed %d", seed), r.Float64})
	}

	t.Run("defaults", func(t *testing.T) {
		for _, d := range all {
			s := newPollSchedule(defaultPollInterval, defaultMaxPollInterval)
			var at time.Duration // when the next wait starts: the last read
			reads := 1           // the read at once
			longest := time.Duration(0)
			for at < 2*time.Hour {
				wait := s.next(d.next())
				if at == 0 && (wait < 1600*time.Millisecond || wait > 2400*time.Millisecond) {
					t.Fatalf("%s: first wait %s, want 2s ± 20%%", d.name, wait)
				}
				if at < promptPhase && wait > 4*time.Second {
					t.Fatalf("%s: a wait of %s starting at %s, in the first 10 minutes", d.name, wait, at)
				}
				if wait > 30*time.Second || wait <= 0 {
					t.Fatalf("%s: a wait of %s at %s", d.name, wait, at)
				}
				at += wait
				if at < promptPhase {
					reads++
				}
				if at > 30*time.Minute {
					longest = max(longest, wait)
				}
			}
			if reads > int(promptPhase/(2*time.Second)) {
				t.Fatalf("%s: %d reads in the first 10 minutes, more than one per 2s", d.name, reads)
			}
			if longest < 24*time.Second {
				t.Fatalf("%s: the waits stopped growing at %s after 30 minutes", d.name, longest)
			}
		}
	})

	t.Run("other intervals", func(t *testing.T) {
		durations := []time.Duration{time.Millisecond, 100 * time.Millisecond, time.Second, 2 * time.Second,
			4 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second, time.Minute, maxPollInterval}
		for _, first := range durations {
			for _, most := range durations {
				if most < first {
					continue
				}
				promptMax := min(max(4*time.Second, first), most)
				for i := 0; i < len(all); i += 50 {
					d := all[i]
					s := newPollSchedule(first, most)
					var at time.Duration
					for i := 0; at < promptPhase+10*most && i < 100_000; i++ {
						wait := s.next(d.next())
						if wait <= 0 || wait > most || (at < promptPhase && wait > promptMax) {
							t.Fatalf("%s..%s, %s: a wait of %s at %s", first, most, d.name, wait, at)
						}
						at += wait
					}
				}
			}
		}
	})

	t.Run("Retry-After wins and counts as waited", func(t *testing.T) {
		s := newPollSchedule(defaultPollInterval, defaultMaxPollInterval)
		wait := s.atLeast(s.next(0.5), 20*time.Second)
		assert.Equal(t, 20*time.Second, wait, "longer than the 4s cap: it wins")
		assert.Equal(t, 20*time.Second, s.waited)
		assert.Equal(t, 3*time.Second, s.atLeast(3*time.Second, time.Second), "a shorter Retry-After changes nothing")
	})
}

// TestPollersFollowTheSchedule (through recordWaits) checks that PollJob
// waits as the schedule plans, without sleeping: 250 reads with the
// defaults start at about 2s, grow by half with jitter, stay at most 4s for
// the first 10 minutes of waits, then grow to 30s.
func TestPollersFollowTheSchedule(t *testing.T) {
	t.Parallel()
	const reads = 250
	var n atomic.Int32
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		status := JobActive
		if n.Add(1) == reads {
			status = JobCompleted
		}
		return httpmock.NewStringResponse(200, `{"id":"job_1","status":"`+string(status)+`"}`), nil
	})
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(coreBaseURL), WithHTTPClient(&http.Client{Transport: mt}))
	require.NoError(t, err)

	var waits []time.Duration
	_, err = c.PollJob(context.Background(), "job_1", recordWaits(&waits))
	require.NoError(t, err)
	require.Len(t, waits, reads-1)

	nominal, waited := 2*time.Second, time.Duration(0)
	distinct := map[time.Duration]bool{}
	for i, w := range waits {
		limit := 30 * time.Second
		if waited < 10*time.Minute {
			limit = 4 * time.Second
		}
		lo, hi := min(nominal*8/10, limit), min(nominal*12/10, limit)
		assert.True(t, w >= lo && w <= hi, "wait %d = %s after %s, want %s..%s", i, w, waited, lo, hi)
		distinct[w] = true
		waited += w
		nominal = min(nominal+nominal/2, limit)
	}
	assert.Greater(t, len(distinct), 10, "the waits are jittered, not fixed: %v", waits[:10])
	assert.Greater(t, waits[2], waits[0], "the waits grow: %v", waits[:3])
	assert.Greater(t, waits[len(waits)-1], 20*time.Second, "and go on growing after 10 minutes")
}

// TestRecentKeysWindow and TestRecentKeysSteadyStateDoesNotAllocate reach
// recentKeys, the walks' memory of rows and cursors: a walk's memory must
// stay bounded (only the last keys are kept) and allocate nothing per row,
// which no walk a test can afford shows.
func TestRecentKeysWindow(t *testing.T) {
	r := newRecentKeys(3)
	key := func(i int) uint64 { return hashString(r.seed, fmt.Sprint("/p", i)) }
	for i := range 10 {
		assert.False(t, r.check(key(i)), "first sight of %d", i)
		// The last size keys are remembered...
		for back := range min(i+1, 3) {
			assert.True(t, r.check(key(i-back)), "%d after adding %d", i-back, i)
		}
	}
	// ...and nothing older: the memory is bounded.
	assert.False(t, r.check(key(0)), "0 was forgotten")
	assert.Len(t, r.set, 3)
}

func TestRecentKeysSteadyStateDoesNotAllocate(t *testing.T) {
	r := newRecentKeys(100)
	keys := make([]uint64, 1000)
	for i := range keys {
		keys[i] = hashString(r.seed, fmt.Sprint("/p", i))
	}
	for _, k := range keys[:300] {
		r.check(k)
	}
	i := 300
	allocs := testing.AllocsPerRun(500, func() {
		r.check(keys[i%len(keys)])
		i++
	})
	assert.Zero(t, allocs)
}

// decodeList (json.go) reads an array against a bound that changes with
// the body's size, as a deployment's log does on every poll. It must count
// right at every bound, keep no memory per bound it has seen, and refuse
// a long array without allocating for its elements.
func TestDecodeListCountsAtEveryBound(t *testing.T) {
	const n = 40 // elements in the array
	b := []byte("[" + strings.TrimSuffix(strings.Repeat(`"x",`, n), ",") + "]")
	for most := range 2 * n {
		var got []string
		err := decodeList(b, &got, most, "lines")
		if most >= n {
			require.NoError(t, err, "most %d", most)
			assert.Len(t, got, n, "most %d", most)
		} else {
			assert.ErrorAs(t, err, new(*tooManyError), "most %d: more than allowed", most)
			assert.Nil(t, got)
		}
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for most := 1000; most < 5000; most++ {
		var got []string
		require.NoError(t, decodeList(b, &got, most, "lines"))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	assert.Less(t, grown, int64(256<<10), "4,000 bounds kept %d bytes", grown)

	// 100,000 empty objects against a bound of 10: counted, refused, and
	// nothing allocated for them.
	long := []byte("[" + strings.TrimSuffix(strings.Repeat("{},", 100_000), ",") + "]")
	var rows []struct{ A, B string }
	allocs := testing.AllocsPerRun(5, func() {
		assert.ErrorAs(t, decodeList(long, &rows, 10, "rows"), new(*tooManyError))
	})
	assert.Less(t, allocs, 10.0, "allocations for a refused list of 100,000")
}

func TestJSONTimeForms(t *testing.T) {
	for in, want := range map[string]time.Time{
		`"2025-01-30T10:00:00.5+02:00"`: time.Date(2025, 1, 30, 8, 0, 0, 5e8, time.UTC),
		`"2025-01-30T10:00:00"`:         time.Date(2025, 1, 30, 10, 0, 0, 0, time.UTC),
		`"2025-01-30 10:00:00"`:         time.Date(2025, 1, 30, 10, 0, 0, 0, time.UTC),
		`"2025-01-30"`:                  time.Date(2025, 1, 30, 0, 0, 0, 0, time.UTC),
		`"last tuesday"`:                {},
		`""`:                            {},
	} {
		var f jsonTime
		require.NoError(t, f.UnmarshalJSON([]byte(in)), in)
		assert.True(t, f.present(), in)
		assert.True(t, want.Equal(f.t), "%s: got %s", in, f.t)
	}
	var f jsonTime
	assert.Error(t, f.UnmarshalJSON([]byte(`12`)))
}
