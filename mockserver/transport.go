package mockserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"syscall"
	"time"
)

// Client returns an http.Client that reaches this server in memory: no
// socket, no port, the handler runs on the caller's goroutine. It is the
// fastest way to test a client against the mock. Faults keep their meaning:
// close and reset become errors from RoundTrip (io.EOF, ECONNRESET), a
// truncated body fails with io.ErrUnexpectedEOF, a slow body trickles.
// Requests go to this server whatever host their URL names.
func (s *Server) Client() *http.Client {
	return &http.Client{Transport: memTransport{s}}
}

type memTransport struct{ s *Server }

// errServerClosed is returned for in-memory requests after Close.
var errServerClosed = errors.New("mockserver: server closed")

var (
	errBodyDone        = errors.New("mockserver: the handler is done with the request body")
	errBodyReadTimeout = errors.New("mockserver: request body read timeout")
)

// bodyUntil gives the handler the caller's body through a pipe that breaks
// when the request's context ends, the server closes, or the read timeout
// (Timeouts.Read) passes, as a socket's would. Without it a body that
// stalls held the handler, and Close waiting for it, for ever. The copying
// goroutine ends once the caller's body returns: RoundTrip closes it.
func (s *Server) bodyUntil(ctx context.Context, src io.Reader) (io.ReadCloser, func()) {
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		_, err := io.Copy(pw, src)
		pw.CloseWithError(err) // nil: the handler sees io.EOF
	}()
	go func() {
		timer := time.NewTimer(orDefault(s.cfg.timeouts.Read, DefaultTimeouts.Read))
		defer timer.Stop()
		select {
		case <-ctx.Done():
			pr.CloseWithError(ctx.Err())
		case <-s.ctx.Done():
			pr.CloseWithError(errServerClosed)
		case <-timer.C:
			pr.CloseWithError(errBodyReadTimeout)
		case <-done:
		}
	}()
	return pr, func() {
		close(done)
		pr.CloseWithError(errBodyDone) // a copy blocked on writing ends
	}
}

func (t memTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer req.Body.Close() // RoundTrip owns the body, even on error
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	if t.s.ctx.Err() != nil {
		return nil, errServerClosed
	}
	// The handler sees its own copy, as over a socket: ServeMux writes path
	// values into the request, which the caller still owns.
	r := req.Clone(req.Context())
	if r.Body == nil {
		r.Body = http.NoBody
	}
	if r.Body != http.NoBody {
		body, stop := t.s.bodyUntil(req.Context(), req.Body)
		defer stop()
		r.Body = body
	}
	r.RequestURI = req.URL.RequestURI()
	r.RemoteAddr = "127.0.0.1:0"
	if r.Host == "" {
		r.Host = req.URL.Host
	}
	w := &memWriter{header: http.Header{}}
	t.s.serveHTTP(w, r, false)
	if err := req.Context().Err(); err != nil {
		return nil, err // the caller left before the answer, as over a socket
	}

	switch {
	case w.dropped && req.Context().Err() != nil:
		return nil, req.Context().Err()
	case w.dropped && t.s.ctx.Err() != nil:
		return nil, errServerClosed
	case w.dropped && w.reset:
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	case w.dropped:
		return nil, fmt.Errorf("mockserver: connection closed before any response: %w", io.EOF)
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	body, cut := w.body, w.cut
	if req.Method == http.MethodHead {
		body, cut = nil, false // no body: nothing to cut
	}
	var reader io.Reader = &memBody{data: body, cut: cut}
	if w.slow > 0 {
		reader = newTrickle(body, w.slow, req.Context(), t.s.ctx)
	}
	contentLength := int64(len(body))
	if n, err := strconv.ParseInt(w.header.Get("Content-Length"), 10, 64); err == nil {
		contentLength = n
	}
	return &http.Response{
		Status:        strconv.Itoa(w.status) + " " + http.StatusText(w.status),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.header,
		Body:          io.NopCloser(reader),
		ContentLength: contentLength,
		Request:       req,
	}, nil
}

// memWriter collects a response in memory, plus the fault (if any) that
// should change how the client receives it.
type memWriter struct {
	header  http.Header
	status  int
	body    []byte
	dropped bool // no response at all
	reset   bool // ... and the connection was reset rather than closed
	cut     bool // the connection closed after body (cutShort)
	slow    time.Duration
}

func (m *memWriter) Header() http.Header { return m.header }

func (m *memWriter) WriteHeader(status int) {
	if m.status == 0 {
		m.status = status
	}
}

func (m *memWriter) Write(p []byte) (int, error) {
	if m.cut {
		return 0, http.ErrHijacked // as on a connection cutShort took over
	}
	if m.status == 0 {
		m.status = http.StatusOK
	}
	m.body = append(m.body, p...)
	return len(p), nil
}

func (m *memWriter) Flush() {}

func (m *memWriter) drop(reset bool) { m.dropped, m.reset = true, reset }

// memBody serves the collected body, followed when it was cut by
// io.ErrUnexpectedEOF, which is what net/http reports for a body cut short
// of its Content-Length.
type memBody struct {
	data []byte
	cut  bool
}

func (b *memBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		if b.cut {
			return 0, io.ErrUnexpectedEOF
		}
		return 0, io.EOF
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

// trickle spreads a body over time: it is sent in 16 pieces with a pause
// before each but the first, and stops with the context's error if the
// request or the server ends first.
type trickle struct {
	data        []byte
	piece       int
	step        time.Duration
	started     bool
	req, server context.Context
}

func newTrickle(data []byte, d time.Duration, req, server context.Context) *trickle {
	const pieces = 16
	return &trickle{data: data, piece: max(1, (len(data)+pieces-1)/pieces), step: d / pieces, req: req, server: server}
}

func (t *trickle) Read(p []byte) (int, error) {
	if len(t.data) == 0 {
		return 0, io.EOF
	}
	if t.started && !sleep(t.req, t.server, t.step) {
		if err := t.req.Err(); err != nil {
			return 0, err
		}
		return 0, errServerClosed
	}
	t.started = true
	n := copy(p[:min(len(p), t.piece)], t.data)
	t.data = t.data[n:]
	return n, nil
}
