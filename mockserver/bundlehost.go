package mockserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/journal"
	"github.com/docsagent/mintlify-go/mockserver/internal/staticexport"
)

// storageHost is the second listener: it stands in for the object store
// that serves export bundles behind presigned links. It starts on first
// use (most tests never download a bundle) unless WithStorageListener hands
// it a listener.
type storageHost struct {
	once sync.Once
	url  string
	err  error
	srv  *http.Server
	done chan struct{}

	// On every interface (0.0.0.0, ::) a link names the host the client
	// addressed the API by: the listener's own address would name the
	// client's machine.
	anyAddr bool
	port    string
}

// StorageURL is the base URL of the storage host that serves bundles,
// starting it if it is not running yet.
func (s *Server) StorageURL() (string, error) {
	h := &s.exports.host
	h.once.Do(func() {
		if !s.enter() {
			h.err = errors.New("mockserver: closed")
			return
		}
		defer s.inflight.Done()
		ln := s.cfg.storageListener
		if ln == nil {
			// Where the API listens, so that links are reachable from
			// wherever the API is.
			if ln, h.err = net.Listen("tcp", net.JoinHostPort(s.listenHost, "0")); h.err != nil {
				return
			}
		}
		h.url = "http://" + ln.Addr().String()
		if host, port, err := net.SplitHostPort(ln.Addr().String()); err == nil {
			if ip, err := netip.ParseAddr(host); err == nil && ip.IsUnspecified() {
				h.anyAddr, h.port = true, port
			}
		}
		h.srv = &http.Server{
			Handler:     http.HandlerFunc(s.serveStorage),
			BaseContext: func(net.Listener) context.Context { return s.ctx },
			// The same bounds as the API listener: a client that stalls
			// or idles must not hold a connection (and a goroutine) for
			// ever here either.
			ReadHeaderTimeout: orDefault(s.cfg.timeouts.ReadHeader, DefaultTimeouts.ReadHeader),
			ReadTimeout:       orDefault(s.cfg.timeouts.Read, DefaultTimeouts.Read),
			WriteTimeout:      orDefault(s.cfg.timeouts.Write, DefaultTimeouts.Write),
			IdleTimeout:       orDefault(s.cfg.timeouts.Idle, DefaultTimeouts.Idle),
		}
		h.done = make(chan struct{})
		go func() {
			defer close(h.done)
			_ = h.srv.Serve(ln)
		}()
	})
	return h.url, h.err
}

// linkBase is the storage host's base URL in a link minted for r: its
// address, or on every interface the host r was addressed to (an IP
// address or a DNS name; localhost for anything else) with the storage
// host's port.
func (h *storageHost) linkBase(r *http.Request) string {
	if !h.anyAddr {
		return h.url
	}
	host := r.Host
	if name, _, err := net.SplitHostPort(host); err == nil {
		host = name
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	if _, err := netip.ParseAddr(host); err != nil && !isDNSName(host) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, h.port)
}

// isDNSName reports whether s may stand as the host of a link: letters,
// digits, hyphens, underscores and dots, at most 253 bytes.
func isDNSName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

// closeStorage stops the storage host, if it ever started, and closes a
// listener handed over but never used.
func (s *Server) closeStorage() {
	h := &s.exports.host
	started := false
	h.once.Do(func() { h.err = errors.New("mockserver: closed") }) // never start after Close
	if h.srv != nil {
		started = true
		_ = h.srv.Close()
		<-h.done
	}
	if !started && s.cfg.storageListener != nil {
		_ = s.cfg.storageListener.Close()
	}
}

// RouteBundleDownload names the storage host's downloads in the journal and
// in fault rules. It is not an API route: only rules that name it apply to
// it (a "*" rule stays on the API).
const RouteBundleDownload = "bundle-download" // GET /bundles/{jobId}/bundle.tar.gz on the storage host

// statusRecorder remembers the status a handler sent, for the journal.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// storageEntry journals a download like an API request, so a test can
// count downloads and resumes and see that no key reached the storage host
// (Auth is redacted as everywhere). The link's signature is left out of the
// recorded query: the journal is meant to be printed.
func (s *Server) storageEntry(r *http.Request) journal.Entry {
	q := r.URL.Query()
	if q.Has("signature") {
		q.Set("signature", "***")
	}
	return journal.Entry{
		Time:      s.Now(),
		Method:    r.Method,
		Path:      r.URL.Path,
		Query:     q.Encode(),
		Route:     RouteBundleDownload,
		RequestID: "req_" + strconv.FormatUint(s.requestSeq.Add(1), 10),
		Auth:      journal.Authorization(r.Header["Authorization"]),
	}
}

// serveStorage answers a bundle download. Like a presigned object-store
// link, the URL is the credential: a request that also carries an
// Authorization header is refused (400), a link altered or expired on the
// server's clock is refused (403), and Range requests get 206. Fault rules
// that name RouteBundleDownload apply after those checks.
func (s *Server) serveStorage(hw http.ResponseWriter, r *http.Request) {
	// Close waits for downloads as for API requests: none may still be
	// writing (or journaling) once it returns.
	if !s.enter() {
		hw.Header()[VersionHeader] = versionValue
		writeReply(hw, errorReply(http.StatusServiceUnavailable, "Service unavailable", "the mock server is closed"))
		return
	}
	defer s.inflight.Done()
	started := time.Now()
	e := s.storageEntry(r)
	hw.Header()[VersionHeader] = versionValue
	hw.Header()[RequestIDHeader] = []string{e.RequestID}
	rec := &statusRecorder{ResponseWriter: hw}
	defer func() {
		e.Status = rec.status
		if e.Processed {
			e.EndpointStatus = rec.status
		}
		s.record(&e, started)
	}()
	var w http.ResponseWriter = rec
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeReply(w, errorReply(http.StatusMethodNotAllowed, "Method not allowed"))
		return
	}
	if _, ok := r.Header["Authorization"]; ok {
		writeReply(w, errorReply(http.StatusBadRequest, "Invalid request",
			"a presigned link carries its own signature: send no Authorization header with it"))
		return
	}
	link, err := s.exports.signer.Verify(r.URL.Path, r.URL.Query(), s.Now())
	if err != nil {
		writeReply(w, errorReply(http.StatusForbidden, "Access denied", err.Error()))
		return
	}
	f, _ := s.faults.pick(RouteBundleDownload)
	e.Fault = string(f.Kind)
	switch f.Kind {
	case FaultStatus:
		writeReply(w, injectedStatus(f))
		return
	case FaultClose:
		closeConn(hw, r, false)
		return
	case FaultLatency:
		if !sleep(r.Context(), s.ctx, f.Delay) {
			closeConn(hw, r, false)
			return
		}
	case FaultTruncate, FaultReset:
		// Half of this response's bytes, then the connection ends: the
		// dropped download a client resumes with Range.
		w = &cutWriter{ResponseWriter: rec}
		defer func() {
			_ = http.NewResponseController(hw).Flush()
			closeConn(hw, r, f.Kind == FaultReset)
		}()
	}
	e.Processed = true
	j := s.exports.jobs.Lookup(link.JobID)
	if j == nil || j.At(s.Now()).Status != staticexport.Completed {
		writeReply(w, errorReply(http.StatusNotFound, "No such object"))
		return
	}
	bundle := staticexport.Pad(s.exports.jobs.Bundle(j), link.Size)
	if bundle.Size() != link.Size {
		writeReply(w, errorReply(http.StatusNotFound, "No such object"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/gzip")
	h.Set("ETag", `"`+link.JobID+"-"+itoa64(link.Size)+`"`)
	if !normalizeRange(r) {
		h.Set("Content-Range", "bytes */"+itoa64(bundle.Size()))
		writeReply(w, errorReply(http.StatusRequestedRangeNotSatisfiable, "Range not satisfiable", "bytes=-0 asks for no bytes"))
		return
	}
	// ServeContent handles Range, If-Range and HEAD, and copies the section
	// through a small buffer: a padded gigabyte is never in memory. Its
	// own refusals (416) are plain text; jsonErrors makes them the error
	// body every other answer has.
	http.ServeContent(&jsonErrors{ResponseWriter: w}, r, "bundle.tar.gz", j.At(s.Now()).UpdatedAt, io.NewSectionReader(bundle, 0, bundle.Size()))
}

// normalizeRange removes "-0" from a bytes Range header: it asks
// for the last zero bytes, which net/http serves as a 206 with the
// impossible Content-Range "bytes N-(N-1)/N". It reports false when
// nothing else was asked for, which is a 416.
//
// It also reads the range unit without regard to case, as RFC 9110 does
// ("Bytes=0-9" is a range), and drops a Range in a unit it does not know
// ("items=0-1"), which a server must ignore; net/http refused both with 416.
func normalizeRange(r *http.Request) bool {
	v := r.Header.Get("Range")
	if v == "" {
		return true
	}
	if len(v) < len("bytes=") || !strings.EqualFold(v[:len("bytes=")], "bytes=") {
		r.Header.Del("Range")
		return true
	}
	spec := v[len("bytes="):]
	r.Header.Set("Range", "bytes="+spec)
	if !strings.Contains(spec, "-0") {
		return true
	}
	var kept []string
	for _, part := range strings.Split(spec, ",") {
		if t := strings.TrimSpace(part); t != "" && strings.TrimLeft(t, "-0") == "" && strings.HasPrefix(t, "-") {
			continue // "-0", "-00", ...
		}
		kept = append(kept, part)
	}
	if len(kept) == 0 {
		return false
	}
	r.Header.Set("Range", "bytes="+strings.Join(kept, ","))
	return true
}

// jsonErrors turns an error status written by http.ServeContent (416 for
// a range past the end or malformed, 412 for a failed precondition) into
// the JSON error body, keeping its headers (Content-Range).
type jsonErrors struct {
	http.ResponseWriter
	replaced bool
}

func (w *jsonErrors) WriteHeader(code int) {
	if code < 400 {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.replaced = true
	h := w.Header()
	h.Del("X-Content-Type-Options")
	detail := "the Range header asks for no byte of the object, or is malformed"
	if code != http.StatusRequestedRangeNotSatisfiable {
		detail = http.StatusText(code)
	}
	msg := http.StatusText(code)
	if code == http.StatusRequestedRangeNotSatisfiable {
		msg = "Range not satisfiable"
	}
	writeReply(w.ResponseWriter, errorReply(code, msg, detail))
}

func (w *jsonErrors) Write(b []byte) (int, error) {
	if w.replaced {
		return len(b), nil // ServeContent's plain-text message: dropped
	}
	return w.ResponseWriter.Write(b)
}

// storageFaultKind reports whether the storage host can apply a fault kind.
func storageFaultKind(k FaultKind) bool {
	return k == FaultStatus || k == FaultClose || k == FaultReset || k == FaultTruncate || k == FaultLatency
}

// cutWriter passes on the first half of the body its Content-Length
// announces, then refuses to write, which ends http.ServeContent's copy.
type cutWriter struct {
	http.ResponseWriter
	left int64
	set  bool
}

var errCut = errors.New("mockserver: download cut by a fault")

func (w *cutWriter) WriteHeader(code int) {
	if n, err := strconv.ParseInt(w.Header().Get("Content-Length"), 10, 64); err == nil {
		w.left, w.set = n/2, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *cutWriter) Write(b []byte) (int, error) {
	if !w.set {
		return w.ResponseWriter.Write(b) // an error body: whole
	}
	if int64(len(b)) > w.left {
		n, _ := w.ResponseWriter.Write(b[:w.left])
		w.left -= int64(n)
		return n, errCut
	}
	n, err := w.ResponseWriter.Write(b)
	w.left -= int64(n)
	return n, err
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
