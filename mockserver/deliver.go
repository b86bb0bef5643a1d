package mockserver

import (
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// defaultSlowBody is how long FaultSlowBody takes when no Delay is given.
const defaultSlowBody = time.Second

// deliver sends rep to the client, or misbehaves as f says. Each fault has
// two implementations: on a real connection (hijacked when the fault needs
// to break it) and in memory (memWriter turns it into what a client would
// observe: an error from RoundTrip, a body that fails or trickles).
func (s *Server) deliver(w http.ResponseWriter, r *http.Request, rep reply, f Fault) {
	switch f.Kind {
	case FaultReset:
		closeConn(w, r, true)
	case FaultTruncate:
		writeTruncated(w, rep)
	case FaultHTML:
		writeReply(w, htmlReply(rep))
	case FaultSlowBody:
		s.writeSlow(w, r, rep, f.Delay)
	default:
		writeReply(w, rep)
	}
}

// injectedMessages are the service's wording for the statuses tests inject
// most; others fall back to net/http's status text.
var injectedMessages = map[int]string{
	http.StatusTooManyRequests:     "Rate limit exceeded",
	http.StatusInternalServerError: "Internal server error",
	http.StatusBadGateway:          "Bad gateway",
	http.StatusServiceUnavailable:  "Service unavailable",
	http.StatusGatewayTimeout:      "Gateway timeout",
}

func injectedStatus(f Fault) reply {
	message := injectedMessages[f.Status]
	if message == "" {
		message = http.StatusText(f.Status)
	}
	if message == "" {
		message = "Error " + strconv.Itoa(f.Status) // a code net/http has no name for
	}
	rep := errorReply(f.Status, message, "injected by the mock server (fault "+string(f.Kind)+")")
	switch {
	case f.RetryAfterZero:
		rep.retryAfter = "0" // retry at once: lets a client test honour a 429 without waiting
	case f.RetryAfter > 0 || f.Status == http.StatusTooManyRequests:
		rep.retryAfter = strconv.Itoa(retryAfterSeconds(f.RetryAfter))
	}
	return rep
}

// htmlReply keeps the status but swaps the body for the kind of page a
// proxy or load balancer serves, which a client must not try to decode.
func htmlReply(rep reply) reply {
	code := strconv.Itoa(rep.status) + " " + http.StatusText(rep.status)
	body := "<!DOCTYPE html>\n<html><head><title>" + code + "</title></head>\n<body><center><h1>" +
		code + "</h1></center><hr><center>mockserver (injected html fault)</center></body></html>\n"
	return reply{status: rep.status, body: []byte(body), retryAfter: rep.retryAfter, html: true}
}

// closeConn drops the connection without a response: a FIN after an
// unread request, an RST (SO_LINGER 0) after a processed one.
func closeConn(w http.ResponseWriter, r *http.Request, reset bool) {
	if m, ok := w.(*memWriter); ok {
		m.drop(reset)
		return
	}
	if !reset {
		// Unread request bytes would make the kernel send RST instead of
		// the clean close this fault promises.
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, maxBodyBytes+1))
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // not hijackable (HTTP/2): abort the stream
	}
	if tcp, ok := conn.(*net.TCPConn); ok && reset {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

func writeTruncated(w http.ResponseWriter, rep reply) {
	half := len(rep.body) / 2
	if m, ok := w.(*memWriter); ok {
		m.truncateAt = half
		writeReply(w, rep)
		return
	}
	setHeaders(w, rep)
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body[:half])
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	conn, _, err := rc.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// writeSlow sends the body in up to 16 pieces spread over d. If the client
// leaves or the server closes meanwhile, the rest is never sent and
// net/http closes the connection (fewer bytes than Content-Length).
func (s *Server) writeSlow(w http.ResponseWriter, r *http.Request, rep reply, d time.Duration) {
	if d <= 0 {
		d = defaultSlowBody
	}
	if m, ok := w.(*memWriter); ok {
		m.slow = d
		writeReply(w, rep)
		return
	}
	setHeaders(w, rep)
	w.WriteHeader(rep.status)
	pieces := min(len(rep.body), 16)
	rc := http.NewResponseController(w)
	for i := range pieces {
		if i > 0 && !sleep(r.Context(), s.ctx, d/time.Duration(pieces)) {
			return
		}
		_, _ = w.Write(rep.body[i*len(rep.body)/pieces : (i+1)*len(rep.body)/pieces])
		_ = rc.Flush()
	}
}
