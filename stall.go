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
	// One timer for the request: armed while it waits for the headers and
	// while a read waits for bytes; firing cancels the request, which ends
	// a transport's wait, and closes the body, which ends a read on a
	// transport that ignores the context.
	w.timer = time.AfterFunc(g.idle, w.fire)
	resp, err := next.RoundTrip(req.WithContext(ctx))
	if !w.timer.Stop() {
		// Stalled before the headers: whatever the transport says, that
		// is why it stopped.
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		cancel()
		return nil, &stallError{g.idle}
	}
	if err != nil || resp.Body == nil {
		cancel()
		return resp, err
	}
	w.body = resp.Body
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

// stallWatch is one request's timer, and its body once the headers came.
type stallWatch struct {
	idle   time.Duration
	cancel context.CancelFunc
	timer  *time.Timer
	body   io.ReadCloser // set before the timer is armed again
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
	w.timer.Reset(w.idle)
	n, err := w.body.Read(p)
	if !w.timer.Stop() {
		return n, &stallError{w.idle} // it expired: the body was cut
	}
	return n, err
}

// Close closes the body, stops the timer and releases the request's
// context. It may run more than once, and beside a Read.
func (w *stallWatch) Close() error {
	w.timer.Stop()
	err := w.body.Close()
	w.cancel()
	return err
}
