package mintlify

// AssistantProxy: the assistant's message route served to a browser
// without the key. A browser's request is checked in a fixed order
// (method, origin, media type, size, body, identity, limit), rebuilt from
// an allowlist, sent upstream through the AssistantClient's own request
// path, and its answer streamed back frame by frame.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docsagent/mintlify-go/internal/punycode"
)

// What a browser may send through the proxy, and what the proxy sends on.
const (
	maxProxyBody          = 1 << 20   // a request body; more is 413
	maxProxyMessages      = 50        // messages forwarded: the most recent (the API takes 50)
	maxProxyText          = 256 << 10 // bytes of text forwarded, the most recent messages'
	maxProxyPartText      = 32 << 10  // the text of one part; more is 413
	maxProxyContext       = 10        // context items forwarded; the rest are dropped
	maxProxyPageSize      = 10        // retrievalPageSize is clamped to 1..10
	maxProxyID            = 256       // bytes of a message ID, thread ID or thread key
	defaultProxyRateN     = 20        // requests a client may send...
	defaultProxyRatePer   = time.Minute
	maxProxyLimiterKeys   = 100_000 // clients the in-process limiter tracks at once
	proxyPreflightMaxAge  = "600"
	proxyExposedHeaders   = "X-Thread-Id, X-Thread-Key, X-Conversation-Trimmed"
	proxyAllowedMethods   = "POST"
	proxyAllowedHeaders   = "Content-Type, X-Thread-Id, X-Thread-Key"
	proxyCredentialHeader = "Authorization" // allowed too with WithProxyCredentials
	proxyAllowHeaderValue = "POST, OPTIONS"

	// When the server sets no ReadTimeout (a streaming backend often sets
	// none, as the chat example), a body that stalls would hold the
	// handler for ever: the proxy gives it proxyBodyTimeout in all.
	proxyBodyTimeout = 30 * time.Second
	// When the server sets no WriteTimeout (a stream must outlive any
	// fixed one), a browser that stops reading would hold the handler and
	// the upstream answer for ever: each frame must reach it within
	// proxyFrameTimeout.
	proxyFrameTimeout = time.Minute
)

// proxyRelayedHeaders are the answer's headers a browser gets: the stream's
// media type and caching, the AI SDK's protocol headers and the thread's
// ID and key. Nothing else of upstream's (no Set-Cookie) reaches it.
var proxyRelayedHeaders = []string{
	"Content-Type",
	"Cache-Control",
	"X-Vercel-Ai-Ui-Message-Stream",
	"X-Vercel-Ai-Data-Stream",
	"X-Thread-Id",
	"X-Thread-Key",
}

// AssistantProxy is an http.Handler that lets a browser chat with the
// site's assistant while the key stays on the server: mount it at a route
// of your backend (such as /api/chat) and point the browser's chat client
// (the AI SDK's useChat, or a fetch that reads the stream) at it. Make one
// with [NewAssistantProxy].
//
// What it enforces, in this order (each refusal sends nothing upstream and
// answers JSON {"message"} in the proxy's own words):
//
//   - Method: POST, and the CORS preflight OPTIONS; anything else is 405.
//   - Origin: a request with an Origin header outside the allowed origins
//     ([WithAllowedOrigins]; by default the one whose host is the
//     request's Host) is 403. A request without Origin (same-origin GETs,
//     server-side callers) passes.
//   - Media type: application/json, else 415.
//   - Size: at most 1 MiB of body, else 413.
//   - Body: at least one message, roles user and assistant only (a
//     browser sets no system prompt), the last the user's with some text
//     (at most 32 KiB in a part and 256 KiB in all, else 413), a thread's
//     ID and key together; else 400.
//   - Identity ([WithProxyIdentity]): its error is 401.
//   - Limit ([WithProxyRateLimit], [WithProxyLimiter]): 20 requests a
//     minute per client by default, then 429 with Retry-After. Only
//     requests that passed every check above count.
//
// The upstream body is rebuilt from an allowlist: the messages' text parts
// (other parts, which a chat client sends back from earlier answers, such
// as their search results, are dropped), threadId and threadKey (from the
// body, or the X-Thread-Id and X-Thread-Key request headers, which a chat
// transport's headers set), retrievalPageSize clamped to 1..10, at most 10
// context items, currentPath cut to 200 characters, and the filter's
// version and language. A chat client sends the whole conversation with
// each question: when more than 50 messages or 256 KiB of text remain,
// the proxy forwards the most recent messages that fit (the question
// always) and answers the number it left out in the
// X-Conversation-Trimmed header; a long chat is never refused for its
// length. fp and the filter's groups come from the identity only: a
// browser naming its own groups would unlock the pages they protect.
// Upstream gets the client's key, Content-Type, Accept and User-Agent,
// never the browser's cookies, Authorization or forwarded-for headers.
//
// The answer is streamed back as it arrives, event by event, read as the
// browser's chat client reads an event stream and each chunk written anew
// as the proxy parsed it, with the members every AI SDK release from
// 5.0.216 on accepts (the vendor's threadId on the finish chunk fails
// 5.0.x's strict schemas; the browser has the thread from the
// X-Thread-Id header). An event that is not a chunk ends the answer with
// an AI SDK error chunk, as does an answer that breaks off before its
// end. The proxy holds one event at a time, and of a text part's last
// delta at most a tail shorter than the key, until the next shows it is
// not the key's start. The answer keeps its Content-Type, Cache-Control,
// the AI SDK protocol headers and X-Thread-Id / X-Thread-Key, never
// Set-Cookie. Upstream's failures reveal nothing of its text: a 401, 403
// or 5xx is 502, a 400 is 400, a 404 (an unknown thread, or a wrong key)
// is 404, a 429 is 429 with its Retry-After at once (the proxy waits
// nothing out: the browser does), a network failure is 502. A browser
// that goes away cancels the upstream request.
//
// Slow clients are bounded even on a server without ReadTimeout or
// WriteTimeout (a streaming backend often sets neither, as a fixed
// WriteTimeout would cut long answers): a body must arrive within 30
// seconds (else 408), and each frame of the answer must reach the browser
// within a minute, or the proxy lets go of it and of the upstream answer.
// A server's own ReadTimeout or WriteTimeout, when set, is left to act.
//
// Upstream calls go through the AssistantClient's request path: its key,
// its rule that a message is never sent twice (it spends credits), its
// redaction (no copy of the key reaches the browser, even one upstream
// echoes, split across a text part's deltas or not) and its observers.
// The proxy holds no state of its own beyond the in-process limiter,
// which [WithProxyLimiter] replaces with a shared one.
type AssistantProxy struct {
	client   *AssistantClient
	origins  map[string]bool // allowed origins, normalized; nil: the request's own host
	identity func(*http.Request) (ProxyIdentity, error)
	limiter  ProxyLimiter // nil: no limit
	// credentials lets allowed cross-origin pages send cookies and
	// Authorization (WithProxyCredentials).
	credentials bool

	bodyTimeout, frameTimeout time.Duration // proxyBodyTimeout, proxyFrameTimeout; tests shorten them
}

// ProxyIdentity is who a browser's request speaks for, as your backend
// knows it (from its session, say): never from what the browser sends.
type ProxyIdentity struct {
	// FP names the user in the site's analytics; "" is "anonymous".
	FP string
	// Groups are the documentation groups the user may see (see
	// [DocSearchParams]); none: public pages only.
	Groups []string
	// RateKey is whom the rate limit counts: a user ID, say. "" counts by
	// the connection's remote address (an IPv6 address by its /64), never
	// by a forwarded-for header, which a client writes itself.
	RateKey string
}

// ProxyOption configures an [AssistantProxy].
type ProxyOption func(*proxyConfig)

type proxyConfig struct {
	origins     []string
	originsSet  bool
	identity    func(*http.Request) (ProxyIdentity, error)
	rateN       int
	ratePer     time.Duration
	limiter     ProxyLimiter
	limiterSet  bool
	credentials bool
	optionError error
}

// WithAllowedOrigins sets the web origins whose pages may call the proxy
// ("https://docs.example.com", "http://localhost:5173"): scheme, host and
// port, nothing else. A request whose Origin header names another is 403.
// The list replaces the default, the origin whose host is the request's
// Host: name your own site too if its pages call the proxy. "*" is
// refused: any web page could then spend your credits through your
// visitors' browsers. A host name given in Unicode
// ("https://bücher.example") is compared in its punycode form, the one
// browsers send ("https://xn--bcher-kva.example").
//
// Name them whenever the network is the proxy's only gate (an intranet,
// a VPN, no [WithProxyIdentity]): the default trusts the Host a request
// names, and a page on the internet can name its own by DNS rebinding
// (its name pointed at your proxy's address), reach the proxy through a
// visitor's browser, and pass the default check.
func WithAllowedOrigins(origins ...string) ProxyOption {
	return func(c *proxyConfig) { c.origins, c.originsSet = append(c.origins, origins...), true }
}

// WithProxyCredentials lets pages of the allowed origins (see
// [WithAllowedOrigins]) send their session with each message: their
// cookies, and an Authorization header of their own, for
// [WithProxyIdentity] to read. The proxy answers such a page's preflight
// and requests with Access-Control-Allow-Credentials: true, and allows
// Authorization in the preflight. Without it, a browser sends another
// origin's request without cookies and refuses to send it with
// Authorization. The page's cookies and Authorization never go upstream.
// It needs [WithAllowedOrigins]: the default check compares host names
// only, and would let a plain-HTTP page of the same host send the session
// of its HTTPS site.
func WithProxyCredentials() ProxyOption {
	return func(c *proxyConfig) { c.credentials = true }
}

// WithProxyIdentity sets how the proxy learns who a request speaks for:
// your backend's session, typically. f runs after the request passed the
// other checks and before the limit; its error answers 401 and nothing is
// sent upstream. Without it, every request is anonymous (fp "anonymous",
// no groups) and counted by its remote address.
func WithProxyIdentity(f func(*http.Request) (ProxyIdentity, error)) ProxyOption {
	return func(c *proxyConfig) { c.identity = f }
}

// WithProxyRateLimit sets the in-process limit: a steady rate of n
// requests per client every per (default 20 a minute, one every 3 s), with
// a burst of up to n, so that one window of per may see up to 2n-1 (a
// burst, then the steady rate). Beyond it the proxy answers 429 with
// Retry-After. n 0 turns the
// proxy's own limit off (a gateway in front limits, say). A backend of
// several replicas needs one limit for all: see [WithProxyLimiter].
func WithProxyRateLimit(n int, per time.Duration) ProxyOption {
	return func(c *proxyConfig) {
		if n < 0 || n > 0 && per <= 0 {
			c.optionError = invalidf("proxy rate limit %d per %s: want n ≥ 0 and a positive window", n, per)
		}
		c.rateN, c.ratePer = n, per
	}
}

// ProxyLimiter decides whether a client may send one more message through
// an [AssistantProxy]: allowed, or how long it should wait. key names the
// client ([ProxyIdentity].RateKey, else its remote address). An error
// answers 503 and nothing is sent upstream: a limit that cannot be checked
// is not waived, as each message spends credits. It is called from many
// goroutines at once.
//
// The in-process default counts per replica. Behind a load balancer, back
// it with a store every replica shares: the module
// github.com/docsagent/mintlify-go/redislimit does it with Redis (its
// redislimit.New(rdb, 20, time.Minute) is the default, shared by every
// replica); the example shows the shape for any store with INCR and
// EXPIRE.
type ProxyLimiter interface {
	Allow(ctx context.Context, key string) (allowed bool, retryAfter time.Duration, err error)
}

// WithProxyLimiter replaces the in-process limit with l (a shared store's,
// see [ProxyLimiter]); it wins over [WithProxyRateLimit]. A nil l turns
// the limit off.
func WithProxyLimiter(l ProxyLimiter) ProxyOption {
	return func(c *proxyConfig) { c.limiter, c.limiterSet = l, true }
}

// NewAssistantProxy makes an [AssistantProxy] that sends messages through
// c. A nil or zero c, an origin that is not scheme://host[:port], a rate
// limit out of range, and credentials without named origins are
// ErrInvalidInput.
func NewAssistantProxy(c *AssistantClient, opts ...ProxyOption) (*AssistantProxy, error) {
	if c == nil || c.c == nil {
		return nil, invalidf("nil or zero AssistantClient: make one with NewAssistantClient")
	}
	cfg := proxyConfig{rateN: defaultProxyRateN, ratePer: defaultProxyRatePer}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	if cfg.optionError != nil {
		return nil, cfg.optionError
	}
	if cfg.credentials && !cfg.originsSet {
		return nil, invalidf("WithProxyCredentials needs WithAllowedOrigins: name the sites whose pages may send their session")
	}
	p := &AssistantProxy{client: c, identity: cfg.identity, limiter: cfg.limiter, credentials: cfg.credentials,
		bodyTimeout: proxyBodyTimeout, frameTimeout: proxyFrameTimeout}
	if cfg.originsSet {
		p.origins = make(map[string]bool, len(cfg.origins))
		for _, o := range cfg.origins {
			n, ok := normalOrigin(o)
			if !ok || o == "*" {
				return nil, invalidf("allowed origin %s: want scheme://host[:port], such as https://docs.example.com", answerText(o))
			}
			p.origins[n] = true
		}
	}
	if !cfg.limiterSet && cfg.rateN > 0 {
		p.limiter = newMemoryLimiter(cfg.rateN, cfg.ratePer)
	}
	return p, nil
}

// ServeHTTP answers one browser request: see [AssistantProxy].
func (p *AssistantProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p == nil || p.client == nil {
		proxyFail(w, http.StatusInternalServerError, "the assistant proxy is not configured: make it with NewAssistantProxy")
		return
	}
	liftDeadline := p.bodyDeadline(w, r)
	origin := r.Header.Get("Origin")
	switch r.Method {
	case http.MethodPost:
	case http.MethodOptions:
		p.preflight(w, r, origin)
		return
	default:
		w.Header().Set("Allow", proxyAllowHeaderValue)
		proxyFail(w, http.StatusMethodNotAllowed, "only POST is allowed")
		return
	}
	if origin != "" {
		if !p.allowed(origin, r.Host) {
			proxyFail(w, http.StatusForbidden, "this origin may not use the assistant")
			return
		}
		// Set now, so that the page can read a refusal below too.
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Expose-Headers", proxyExposedHeaders)
		if p.credentials {
			h.Set("Access-Control-Allow-Credentials", "true")
		}
		h.Add("Vary", "Origin")
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		proxyFail(w, http.StatusUnsupportedMediaType, "send the conversation as application/json")
		return
	}
	if r.ContentLength > maxProxyBody {
		proxyFail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than %d MiB", maxProxyBody>>20))
		return
	}
	// Read into one buffer of the announced size (and the room a last
	// read wants): growing one by doubling would allocate three times a
	// large body.
	in := bytes.NewBuffer(make([]byte, 0, max(r.ContentLength, 0)+bytes.MinRead))
	_, err := in.ReadFrom(http.MaxBytesReader(w, r.Body, maxProxyBody))
	raw := in.Bytes()
	if err != nil {
		// Closed, the rest is not drained before the answer: the
		// connection closes after it.
		_ = r.Body.Close()
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			proxyFail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than %d MiB", maxProxyBody>>20))
		case errors.Is(err, os.ErrDeadlineExceeded):
			proxyFail(w, http.StatusRequestTimeout, "the request body did not arrive in time")
		default:
			proxyFail(w, http.StatusBadRequest, "the request body could not be read")
		}
		return
	}
	liftDeadline()
	body, leftOut, status, msg := rebuildMessage(raw, r.Header)
	if status != 0 {
		proxyFail(w, status, msg)
		return
	}
	id := ProxyIdentity{}
	if p.identity != nil {
		if id, err = p.identity(r); err != nil {
			proxyFail(w, http.StatusUnauthorized, "unauthorized")
			return
		}
	}
	if p.limiter != nil {
		key := "client:" + id.RateKey
		if id.RateKey == "" {
			key = "addr:" + remoteKey(r.RemoteAddr)
		}
		ok, wait, err := p.limiter.Allow(r.Context(), key)
		switch {
		case err != nil:
			proxyFail(w, http.StatusServiceUnavailable, "the rate limit cannot be checked now; try again later")
			return
		case !ok:
			w.Header().Set("Retry-After", retryAfterSeconds(wait))
			proxyFail(w, http.StatusTooManyRequests, "too many messages; try again later")
			return
		}
	}
	body.FP = id.FP
	if body.FP == "" {
		body.FP = defaultAskFP
	}
	if groups := nonEmpty(id.Groups); len(groups) > 0 {
		if body.Filter == nil {
			body.Filter = &docFilter{}
		}
		body.Filter.Groups = groups
	}
	upstream, err := requestBody(body)
	if err != nil {
		proxyFail(w, http.StatusInternalServerError, "the request could not be encoded")
		return
	}
	if leftOut > 0 {
		w.Header().Set("X-Conversation-Trimmed", strconv.Itoa(leftOut))
	}
	resp, err := p.client.openMessage(r.Context(), upstream, true)
	if err != nil {
		p.upstreamFailed(w, r, err)
		return
	}
	p.relay(w, r, resp)
}

// bodyDeadline gives the request's body p.bodyTimeout to arrive, on a
// server without a ReadTimeout of its own: a body that stalls (slowloris)
// would otherwise hold the handler, or after a refusal the server's
// draining of the rest, for ever. The returned func lifts the deadline
// once the body is in, so that it cannot end the answer.
func (p *AssistantProxy) bodyDeadline(w http.ResponseWriter, r *http.Request) (lift func()) {
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if srv != nil && srv.ReadTimeout > 0 || p.bodyTimeout <= 0 {
		return func() {} // the server's own bound holds
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(p.bodyTimeout)) != nil {
		return func() {} // a writer without deadlines (a test recorder, a wrapper)
	}
	return func() { _ = rc.SetReadDeadline(time.Time{}) }
}

// preflight answers a browser's CORS preflight: 204 with the allowed
// method and header for an allowed origin, 403 for another.
func (p *AssistantProxy) preflight(w http.ResponseWriter, r *http.Request, origin string) {
	h := w.Header()
	if origin == "" { // no browser preflight: say what the route takes
		h.Set("Allow", proxyAllowHeaderValue)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if !p.allowed(origin, r.Host) {
		proxyFail(w, http.StatusForbidden, "this origin may not use the assistant")
		return
	}
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Methods", proxyAllowedMethods)
	h.Set("Access-Control-Allow-Headers", proxyAllowedHeaders)
	if p.credentials {
		h.Set("Access-Control-Allow-Headers", proxyAllowedHeaders+", "+proxyCredentialHeader)
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	h.Set("Access-Control-Max-Age", proxyPreflightMaxAge)
	h.Add("Vary", "Origin")
	w.WriteHeader(http.StatusNoContent)
}

// allowed reports whether a page of origin may call the proxy, reached at
// host (the request's Host).
func (p *AssistantProxy) allowed(origin, host string) bool {
	n, ok := normalOrigin(origin)
	if !ok {
		return false // "null" (a sandboxed page, a file), or no origin at all
	}
	if p.origins != nil {
		return p.origins[n]
	}
	scheme, originHost, _ := strings.Cut(n, "://")
	return originHost != "" && originHost == normalHost(scheme, host)
}

// normalOrigin is an origin as browsers compare them: scheme and host in
// lower case, without the scheme's default port, a host name given in
// Unicode in its punycode form ("xn--", as browsers send it). ok is false
// for anything that is not an http(s) scheme://host[:port].
func normalOrigin(origin string) (string, bool) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	host, name := u.Host, strings.ToLower(u.Hostname())
	ascii, err := punycode.ToASCII(name)
	if err != nil {
		return "", false
	}
	if ascii != name {
		host = ascii
		if port := u.Port(); port != "" {
			host += ":" + port
		}
	}
	scheme := strings.ToLower(u.Scheme)
	return scheme + "://" + normalHost(scheme, host), true
}

// normalHost lower-cases host and drops scheme's default port.
func normalHost(scheme, host string) string {
	host = strings.ToLower(host)
	switch {
	case scheme == "https" && strings.HasSuffix(host, ":443"):
		return strings.TrimSuffix(host, ":443")
	case scheme == "http" && strings.HasSuffix(host, ":80"):
		return strings.TrimSuffix(host, ":80")
	}
	return host
}

// upstreamFailed answers a failed upstream call in the proxy's own words:
// nothing of upstream's text, which may describe the key or the
// deployment, reaches the browser.
func (p *AssistantProxy) upstreamFailed(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the browser went away: nobody to answer
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		proxyFail(w, http.StatusBadGateway, "the assistant could not be reached")
		return
	}
	switch s := apiErr.StatusCode; {
	case s == http.StatusNotFound:
		proxyFail(w, http.StatusNotFound, "no such thread, or not its key")
	case s == http.StatusTooManyRequests:
		if apiErr.RetryAfter > 0 {
			w.Header().Set("Retry-After", retryAfterSeconds(apiErr.RetryAfter))
		}
		proxyFail(w, http.StatusTooManyRequests, "the assistant is busy; try again later")
	case s == http.StatusUnauthorized, s == http.StatusForbidden, s < 400, s >= 500:
		proxyFail(w, http.StatusBadGateway, "the assistant is unavailable")
	default:
		proxyFail(w, http.StatusBadRequest, "the assistant refused the request")
	}
}

// proxyFail answers a refusal as the assistant API does, {"message"}, in
// the proxy's words.
func proxyFail(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	b, _ := json.Marshal(struct {
		Message string `json:"message"`
	}{msg})
	_, _ = w.Write(append(b, '\n'))
}

// retryAfterSeconds is a wait in whole seconds, rounded up, at least 1.
func retryAfterSeconds(d time.Duration) string {
	return strconv.FormatInt(max(1, int64(math.Ceil(d.Seconds()))), 10)
}

// remoteKey names a client by its connection's address: an IPv4 address,
// or an IPv6 address's /64 (one subscriber holds a whole /64, so counting
// single addresses would let it take 2^64 turns).
func remoteKey(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return host
	case ip.To4() != nil:
		return ip.To4().String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// memoryLimiter is the in-process limit: n requests per window per key, as
// the generic cell rate algorithm counts them (a steady rate of one every
// per/n, with bursts of up to n). It keeps one time per client, and
// forgets a client once its count is back to zero: at most
// maxProxyLimiterKeys clients at once, beyond which new clients wait
// (rather than the map growing without bound).
type memoryLimiter struct {
	interval, tolerance time.Duration
	now                 func() time.Time

	mu        sync.Mutex
	tat       map[string]time.Time // when each client's count is back to zero
	lastSweep time.Time
}

func newMemoryLimiter(n int, per time.Duration) *memoryLimiter {
	interval := per / time.Duration(n)
	return &memoryLimiter{interval: interval, tolerance: per - interval, now: time.Now, tat: make(map[string]time.Time)}
}

func (l *memoryLimiter) Allow(_ context.Context, key string) (bool, time.Duration, error) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) >= l.interval+l.tolerance || len(l.tat) >= maxProxyLimiterKeys && now.Sub(l.lastSweep) >= time.Second {
		l.lastSweep = now
		for k, t := range l.tat {
			if !t.After(now) {
				delete(l.tat, k)
			}
		}
	}
	tat, known := l.tat[key]
	if !known && len(l.tat) >= maxProxyLimiterKeys {
		return false, time.Second, nil
	}
	if tat.Before(now) {
		tat = now
	}
	if ahead := tat.Sub(now); ahead > l.tolerance {
		return false, ahead - l.tolerance, nil
	}
	l.tat[key] = tat.Add(l.interval)
	return true, 0, nil
}
