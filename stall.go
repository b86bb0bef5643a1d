package mintlify

// The stall guard: every request of a client, API calls, downloads and
// streamed answers alike, goes through its transport (installed by
// newClient on the client's copy of the http.Client), which ends a request
// that receives no byte for the stall timeout, waiting for the answer's
// headers or for any read of its body.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// defaultStallTimeout is how long a request may receive nothing before it
// fails, unless WithStallTimeout says otherwise.
const defaultStallTimeout = 60 * time.Second

// WithStallTimeout ends a request that receives no byte for d (default
// 60s): while it waits for the answer's headers, or while a read of its
// body waits for the next byte. The request then fails as a network error
// that matches os.ErrDeadlineExceeded (a net.Error whose Timeout is true):
// a GET is retried like any network error, and a call that may have
// created something is ErrOutcomeUnknown. Time the caller spends between
// reads (a slow writer of a download) does not count. A server that keeps
// sending, however slowly (a bundle at 1 byte a second), never stalls:
// bound that with the context. A request whose context ends within d is
// left to the context, which ends it first. d <= 0 turns the guard off,
// leaving only the context and the http.Client's Timeout.
func WithStallTimeout(d time.Duration) Option {
	return func(c *config) { c.stallTimeout = d }
}

// stallError is a request that received no byte for the stall timeout.
type stallError struct{ idle time.Duration }

func (e *stallError) Error() string {
	return fmt.Sprintf("no byte received for %s (the stall timeout, WithStallTimeout)", e.idle)
}

// Timeout and Temporary make it a net.Error, as a read deadline's is.
func (e *stallError) Timeout() bool   { return true }
func (e *stallError) Temporary() bool { return true }
func (e *stallError) Unwrap() error   { return os.ErrDeadlineExceeded }

// stallGuard is the transport of every client: next's, with the stall
// timeout.
type stallGuard struct {
	next http.RoundTripper // nil: http.DefaultTransport
	idle time.Duration
	// timers are stallTimers to reuse: a timer and its function cost three
	// allocations, a fifth of a call to a fast server.
	timers sync.Pool
}

// stallTimer is a timer whose function cuts off the request it watches.
// Only a timer known to be stopped before it fired goes back to the pool
// (Stop reports false both for a timer that fired and for one already
// stopped: armed tells them apart), so a late firing never reaches the
// next request.
type stallTimer struct {
	t     *time.Timer
	w     atomic.Pointer[stallWatch]
	armed bool // Reset and not yet stopped; the watch's mu guards it
}

// timer returns a stopped stallTimer watching w.
func (g *stallGuard) timer(w *stallWatch) *stallTimer {
	st, _ := g.timers.Get().(*stallTimer)
	if st == nil {
		st = &stallTimer{}
		st.t = time.AfterFunc(time.Hour, func() {
			if w := st.w.Load(); w != nil {
				w.fire()
			}
		})
		st.t.Stop()
	}
	st.w.Store(w)
	st.armed = false
	return st
}

// release keeps st for another request if it is stopped before it fired:
// armed, Stop must stop it; not armed, it was stopped already.
func (g *stallGuard) release(st *stallTimer, armed bool) {
	if !armed || st.t.Stop() {
		st.w.Store(nil)
		g.timers.Put(st)
	}
}

func (g *stallGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	next := g.next
	if next == nil {
		next = http.DefaultTransport
	}
	if deadline, ok := req.Context().Deadline(); ok && time.Until(deadline) <= g.idle {
		return next.RoundTrip(req) // the context ends the request before a stall could
	}
	ctx, cancel := context.WithCancel(req.Context())
	w := &stallWatch{g: g, cancel: cancel}
	// One timer for the request: armed while it waits for the headers and
	// while a read waits for bytes; firing cancels the request, which ends
	// a transport's wait, and closes the body, which ends a read on a
	// transport that ignores the context.
	st := g.timer(w)
	st.t.Reset(g.idle)
	resp, err := next.RoundTrip(req.WithContext(ctx))
	if !st.t.Stop() {
		// Stalled before the headers: whatever the transport says, that
		// is why it stopped.
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		cancel()
		return nil, &stallError{g.idle}
	}
	if err != nil || resp.Body == nil {
		g.release(st, false)
		cancel()
		return resp, err
	}
	w.body, w.st = resp.Body, st
	resp.Body = w
	return resp, nil
}

// CloseIdleConnections passes on to next, as http.Client's would: the
// retry layer closes idle connections after a failure.
func (g *stallGuard) CloseIdleConnections() {
	type closeIdler interface{ CloseIdleConnections() }
	next := g.next
	if next == nil {
		next = http.DefaultTransport
	}
	if c, ok := next.(closeIdler); ok {
		c.CloseIdleConnections()
	}
}

// stallWatch is one request's answer body, watched by its timer once the
// headers came. Read and Close may run on two goroutines (a stream closed
// while it is read): mu keeps the timer from going back to the pool while
// a Read still uses it.
type stallWatch struct {
	g      *stallGuard
	cancel context.CancelFunc
	body   io.ReadCloser // set before the timer is armed again

	mu sync.Mutex
	st *stallTimer // nil once closed, or once it fired
}

// fire runs when the timer expires: it cuts the request off.
func (w *stallWatch) fire() {
	w.cancel()
	if w.body != nil {
		w.body.Close()
	}
}

// Read reads the body with the timer armed: a read that gets nothing for
// the stall timeout fails with a stallError.
func (w *stallWatch) Read(p []byte) (int, error) {
	w.mu.Lock()
	st := w.st
	if st != nil {
		st.t.Reset(w.g.idle)
		st.armed = true
	}
	w.mu.Unlock()
	n, err := w.body.Read(p)
	if st == nil {
		return n, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.st == st {
		st.armed = false
		if !st.t.Stop() {
			w.st = nil // it fired: the body was cut, and the timer is this request's alone
			return n, &stallError{w.g.idle}
		}
	}
	return n, err
}

// Close closes the body, stops the timer and releases the request's
// context. It may run more than once, and beside a Read.
func (w *stallWatch) Close() error {
	w.mu.Lock()
	st := w.st
	armed := st != nil && st.armed
	w.st = nil
	w.mu.Unlock()
	if st != nil {
		w.g.release(st, armed)
	}
	err := w.body.Close()
	w.cancel()
	return err
}
