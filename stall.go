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
	w := &stallWatch{idle: g.idle, cancel: cancel}
	// One timer for the request: while it waits for the headers, firing
	// cuts the request off; after, it looks at how long the read in
	// progress has waited (reads only stamp the time, which costs far less
	// than arming a timer for each), and sleeps again until that read
	// would have waited the stall timeout. Cutting off cancels the
	// request, which ends a transport's wait, and closes the body, which
	// ends a read on a transport that ignores the context.
	w.mu.Lock()
	w.timer = time.AfterFunc(g.idle, w.check)
	w.mu.Unlock()
	resp, err := next.RoundTrip(req.WithContext(ctx))
	w.mu.Lock()
	stalled := w.stalled
	if !stalled && err == nil && resp.Body != nil {
		w.body = resp.Body
		w.mu.Unlock()
		resp.Body = w
		return resp, nil
	}
	w.closed = true
	w.mu.Unlock()
	w.timer.Stop()
	cancel()
	if stalled {
		// Stalled before the headers: whatever the transport says, that
		// is why it stopped.
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		return nil, &stallError{g.idle}
	}
	return resp, err
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

// stallWatch is one request's answer, watched by its timer. Read and
// Close may run on two goroutines (a stream closed while it is read), and
// the timer's check on a third: mu orders the check against the end of
// the headers' wait and against Close.
type stallWatch struct {
	idle   time.Duration
	cancel context.CancelFunc
	// waiting is when the read in progress began to wait (nanoseconds
	// since stallEpoch, plus one), 0 while no read waits.
	waiting atomic.Int64

	mu      sync.Mutex
	timer   *time.Timer
	body    io.ReadCloser // nil while the headers are awaited
	closed  bool          // the timer is stopped for good
	stalled bool          // cut off: the request and the body are ended
}

// stallEpoch makes the time a read began an integer that an atomic holds.
var stallEpoch = time.Now()

func stallClock() int64 { return int64(time.Since(stallEpoch)) + 1 }

// check runs when the timer expires: it cuts off a request still waiting
// for its headers, or a body whose read has waited the stall timeout, and
// otherwise sleeps until the read in progress (or the next) could.
func (w *stallWatch) check() {
	w.mu.Lock()
	if w.closed || w.stalled {
		w.mu.Unlock()
		return
	}
	wait := w.idle
	if w.body != nil {
		if since := w.waiting.Load(); since != 0 {
			wait -= time.Duration(stallClock() - since)
		}
		if wait > 0 {
			w.timer.Reset(wait)
			w.mu.Unlock()
			return
		}
	}
	w.stalled = true
	body := w.body
	w.mu.Unlock()
	w.cancel()
	if body != nil {
		body.Close()
	}
}

// Read stamps the time it begins to wait: a read that gets nothing for
// the stall timeout fails with a stallError.
func (w *stallWatch) Read(p []byte) (int, error) {
	w.waiting.Store(stallClock())
	n, err := w.body.Read(p)
	w.waiting.Store(0)
	if err != nil {
		w.mu.Lock()
		stalled := w.stalled
		w.mu.Unlock()
		if stalled {
			return n, &stallError{w.idle}
		}
	}
	return n, err
}

// Close closes the body, stops the timer and releases the request's
// context. It may run more than once, and beside a Read.
func (w *stallWatch) Close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.timer.Stop()
	err := w.body.Close()
	w.cancel()
	return err
}
