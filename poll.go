package mintlify

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// PollOption tunes a poller: [Client.PollJob], [Client.PollDeployment] and
// [Client.PollStaticExport] share one, with the same schedule, observers
// and stop reasons.
//
// A poller reads the resource at once, then waits between reads: first
// about the interval of [WithPollInterval] (default 2s), then half as long
// again each time, each wait jittered by up to 20% so that pollers started
// together drift apart. For the first 10 minutes of waiting no wait is
// longer than 4s (or the first interval, if longer), so a wait learns of
// the end within about 4s of the server's change, at most one read per 2s
// on average; after that the waits keep growing, up to
// [WithMaxPollInterval] (default 30s). A 13s deployment is read five or six
// times. It returns the resource with a nil error once its status is
// terminal, failed ones included: the status says how it ended. A status
// the SDK does not know (one the vendor added, see [JobStatus.Known]) is
// not terminal: the observers see it and the poller reads on. It stops with
// an error when the context ends (wrapping ctx.Err() and the last failure,
// if any), on an answer that waiting cannot fix (ErrNotFound,
// ErrUnauthorized, ...), after five failed reads in a row, or when the
// server asks to wait (Retry-After) longer than the maximum interval. The
// poller owns the waits: a Retry-After within the maximum interval always
// wins over a shorter planned wait, past the 4s of the first minutes too,
// and is never slept on inside a single read.
type PollOption func(*pollConfig)

type pollConfig struct {
	interval, maxInterval time.Duration
	observers             []pollObserver
	sleep                 func(ctx context.Context, d time.Duration) bool // tests replace it
}

// pollObserver is a typed observer behind an untyped face, so that one
// option serves every poller.
type pollObserver struct {
	accepts func(any) bool
	observe func(any)
}

const (
	defaultPollInterval    = 2 * time.Second
	defaultMaxPollInterval = 30 * time.Second
	// promptPollInterval caps the waits of a poll's first promptPhase
	// (counted in waits planned, which a slow read only makes longer), so
	// that a CI job learns of a verdict within 5s of it, a read included,
	// at about one read per 3.6s; later waits grow to the maximum.
	promptPollInterval = 4 * time.Second
	promptPhase        = 10 * time.Minute
	// maxFailedPolls is how many reads in a row may fail (each after its
	// own retries) before a poller gives up, so that a hard failure
	// surfaces in about a minute instead of at the caller's deadline.
	maxFailedPolls = 5
	// maxPollInterval bounds WithMaxPollInterval, which keeps the interval
	// arithmetic far from overflow.
	maxPollInterval = 24 * time.Hour
)

// WithPollInterval sets the first wait between reads (default 2s). Later
// waits grow by half each time, with jitter, up to 4s (or this interval, if
// longer) for the first 10 minutes, then up to [WithMaxPollInterval].
func WithPollInterval(d time.Duration) PollOption {
	return func(p *pollConfig) { p.interval = d }
}

// WithMaxPollInterval caps the wait between reads (default 30s, at most
// 24h), in the first 10 minutes too. A server asking to wait longer
// (Retry-After) ends the poll with ErrRateLimited instead of a silent
// hour-long sleep.
func WithMaxPollInterval(d time.Duration) PollOption {
	return func(p *pollConfig) { p.maxInterval = d }
}

// WithPollObserver calls fn with every state the poller reads, the last one
// included, on the polling goroutine: use it to show progress. T is the
// polled resource ([Job], [Deployment] or [StaticExport]); an observer of
// another type is refused with ErrInvalidInput before any request. Several
// observers are called in the order given.
func WithPollObserver[T any](fn func(*T)) PollOption {
	return func(p *pollConfig) {
		if fn == nil {
			return // observes nothing, rather than panicking at the first read
		}
		p.observers = append(p.observers, pollObserver{
			accepts: func(v any) bool { _, ok := v.(*T); return ok },
			observe: func(v any) { fn(v.(*T)) },
		})
	}
}

// poll is the one poller: it reads the resource id with get until terminal
// says it has stopped, every read with the poll's one buffer (see
// pollBuffer). kind and id name it in errors ("job \"x\"").
func poll[T any](ctx context.Context, c *Client, kind, id string, get func(context.Context, string, *answerBuffer) (*T, error), terminal func(*T) bool, opts []PollOption) (*T, error) {
	if err := c.ready(ctx); err != nil {
		return nil, err
	}
	what := c.scrub(kind+" "+strconv.Quote(id), false) // a caller may have pasted the key as the ID
	cfg := pollConfig{interval: defaultPollInterval, maxInterval: defaultMaxPollInterval, sleep: sleep}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	if cfg.interval <= 0 || cfg.maxInterval < cfg.interval || cfg.maxInterval > maxPollInterval {
		return nil, invalidf("poll intervals %s..%s: want 0 < first <= max <= %s", cfg.interval, cfg.maxInterval, maxPollInterval)
	}
	for _, o := range cfg.observers {
		if !o.accepts((*T)(nil)) {
			return nil, invalidf("a poll observer of another type than *%T", *new(T))
		}
	}

	buf := pollBuffer()
	sched := newPollSchedule(cfg.interval, cfg.maxInterval)
	var lastErr error
	for failures := 0; ; {
		v, err := get(ctx, id, buf)
		wait := sched.next(rand.Float64())
		switch {
		case err == nil:
			failures, lastErr = 0, nil
			for _, o := range cfg.observers {
				o.observe(v)
			}
			if terminal(v) {
				return v, nil
			}
		case ctx.Err() != nil:
			if !errors.Is(err, ctx.Err()) {
				lastErr = err // a real failure that raced the context's end
			}
			return nil, pollStopped(ctx, what, lastErr)
		case !transient(err):
			return nil, wrapOp("polling "+what, err)
		default:
			failures, lastErr = failures+1, err
			if failures >= maxFailedPolls {
				return nil, wrapOp(fmt.Sprintf("polling %s: %d reads in a row failed", what, failures), err)
			}
			if ae := (*APIError)(nil); errors.As(err, &ae) && ae.RetryAfter > 0 {
				if ae.RetryAfter > cfg.maxInterval {
					return nil, wrapOp(fmt.Sprintf("polling %s: the server asks to wait %s, more than the maximum poll interval", what, ae.RetryAfter), err)
				}
				wait = sched.atLeast(wait, ae.RetryAfter)
			}
		}

		if !cfg.sleep(ctx, wait) {
			return nil, pollStopped(ctx, what, lastErr)
		}
	}
}

// pollSchedule plans the waits between a poller's reads (see [PollOption]).
// It is a function of the intervals, the waits so far and the jitter
// drawn, so that a test can check the schedule over every draw without a
// clock.
type pollSchedule struct {
	interval  time.Duration // the next wait, before jitter
	promptMax time.Duration // the longest wait of the first promptPhase
	max       time.Duration // the longest wait after it
	waited    time.Duration // the waits planned so far
}

func newPollSchedule(first, most time.Duration) pollSchedule {
	return pollSchedule{interval: first, promptMax: min(max(promptPollInterval, first), most), max: most}
}

// next plans the wait after a read: the interval jittered by u, a draw in
// [0, 1), within the cap of the phase it starts in. The interval then grows
// by half, up to that cap, so the waits grow on smoothly once the first
// phase is over.
func (s *pollSchedule) next(u float64) time.Duration {
	limit := s.max
	if s.waited < promptPhase {
		limit = s.promptMax
	}
	wait := min(jitter(s.interval, u), limit)
	s.waited += wait
	s.interval = min(s.interval+s.interval/2, limit)
	return wait
}

// atLeast makes a planned wait last d when d is longer (a server's
// Retry-After), and counts the difference as waited.
func (s *pollSchedule) atLeast(wait, d time.Duration) time.Duration {
	if d <= wait {
		return wait
	}
	s.waited += d - wait
	return d
}

// pollStopped says why polling ended with the context: its error, and the
// last failure seen if there was one (errors.Is works on both).
func pollStopped(ctx context.Context, what string, last error) error {
	if last == nil || errors.Is(last, ctx.Err()) {
		return wrapOp("polling "+what, ctx.Err())
	}
	return fmt.Errorf("mintlify: polling %s: %w (last failure: %w)", what, ctx.Err(), unprefixed{last})
}

// transient reports failures that a later read may not see: rate limits,
// server errors, network trouble, a malformed answer (a proxy's page, a
// cut body). Other API answers and bad input are final.
func transient(err error) bool {
	if ae := (*APIError)(nil); errors.As(err, &ae) {
		return ae.StatusCode == http.StatusTooManyRequests || ae.StatusCode >= 500
	}
	return !errors.Is(err, ErrInvalidInput)
}

// jitter spreads d over [0.8d, 1.2d] by u, a draw in [0, 1).
func jitter(d time.Duration, u float64) time.Duration {
	spread := d / 5
	return d - spread + time.Duration(u*float64(2*spread))
}

// sleep waits for d or until ctx ends, reporting whether the full wait passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
