package mintlify

// AssistantProxy: the assistant's message route served to a browser
// without the key. A browser's request is checked in a fixed order
// (method, origin, media type, size, body, identity, limit), rebuilt from
// an allowlist, sent upstream through the AssistantClient's own request
// path, and its answer streamed back frame by frame.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

	"github.com/docsagent/mintlify-go/internal/redact"
)

// What a browser may send through the proxy, and what the proxy sends on.
const (
	maxProxyBody          = 256 << 10 // a request body; more is 413
	maxProxyMessages      = 50        // messages of a conversation
	maxProxyPartText      = 32 << 10  // the text of one part; more is 413
	maxProxyContext       = 10        // context items forwarded; the rest are dropped
	maxProxyPageSize      = 10        // retrievalPageSize is clamped to 1..10
	maxProxyID            = 256       // bytes of a message ID, thread ID or thread key
	defaultProxyRateN     = 20        // requests a client may send...
	defaultProxyRatePer   = time.Minute
	maxProxyLimiterKeys   = 100_000 // clients the in-process limiter tracks at once
	proxyPreflightMaxAge  = "600"
	proxyExposedHeaders   = "X-Thread-Id, X-Thread-Key"
	proxyAllowedMethods   = "POST"
	proxyAllowedHeaders   = "Content-Type"
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
//   - Size: at most 256 KiB of body, else 413.
//   - Body: 1 to 50 messages, roles user and assistant only (a browser
//     sets no system prompt), the last the user's with some text, at most
//     32 KiB of text in a part (413), a thread's ID and key together; else
//     400.
//   - Identity ([WithProxyIdentity]): its error is 401.
//   - Limit ([WithProxyRateLimit], [WithProxyLimiter]): 20 requests a
//     minute per client by default, then 429 with Retry-After. Only
//     requests that passed every check above count.
//
// The upstream body is rebuilt from an allowlist: the messages' text parts
// (other parts, which a chat client sends back from earlier answers, are
// dropped), threadId and threadKey, retrievalPageSize clamped to 1..10,
// at most 10 context items, currentPath cut to 200 characters, and the
// filter's version and language. fp and the filter's groups come from the
// identity only: a browser naming its own groups would unlock the pages
// they protect. Upstream gets the client's key, Content-Type, Accept and
// User-Agent, never the browser's cookies, Authorization or forwarded-for
// headers.
//
// The answer is streamed back as it arrives, one frame at a time (the
// proxy never holds more than one, and of a text part's last delta at
// most a tail shorter than the key, until the next shows it is not the
// key's start), with its Content-Type, Cache-Control,
// the AI SDK protocol headers and X-Thread-Id / X-Thread-Key, never
// Set-Cookie. Upstream's failures reveal nothing of its text: a 401, 403
// or 5xx is 502, a 400 is 400, a 404 (an unknown thread, or a wrong key)
// is 404, a 429 is 429 with its Retry-After, a network failure is 502. An
// answer that breaks off after it began ends with an AI SDK error chunk.
// A browser that goes away cancels the upstream request.
//
// Slow clients are bounded even on a server without ReadTimeout or
// WriteTimeout (a streaming backend often sets neither, as a fixed
// WriteTimeout would cut long answers): a body must arrive within 30
// seconds (else 408), and each frame of the answer must reach the browser
// within a minute, or the proxy lets go of it and of the upstream answer.
// A server's own ReadTimeout or WriteTimeout, when set, is left to act.
//
// Upstream calls go through the AssistantClient's request path: its key,
// its retries (a message is never sent twice: it spends credits), its
// redaction (no copy of the key reaches the browser, even one upstream
// echoes, split across text-delta chunks or not) and its observers. The
// proxy holds no state of its own beyond the in-process limiter, which
// [WithProxyLimiter] replaces with a shared one.
type AssistantProxy struct {
	client   *AssistantClient
	origins  map[string]bool // allowed origins, normalized; nil: the request's own host
	identity func(*http.Request) (ProxyIdentity, error)
	limiter  ProxyLimiter // nil: no limit

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
	optionError error
}

// WithAllowedOrigins sets the web origins whose pages may call the proxy
// ("https://docs.example.com", "http://localhost:5173"): scheme, host and
// port, nothing else. A request whose Origin header names another is 403.
// The list replaces the default, the origin whose host is the request's
// Host: name your own site too if its pages call the proxy. "*" is
// refused: any web page could then spend your credits through your
// visitors' browsers.
//
// Name them whenever the network is the proxy's only gate (an intranet,
// a VPN, no [WithProxyIdentity]): the default trusts the Host a request
// names, and a page on the internet can name its own by DNS rebinding
// (its name pointed at your proxy's address), reach the proxy through a
// visitor's browser, and pass the default check.
func WithAllowedOrigins(origins ...string) ProxyOption {
	return func(c *proxyConfig) { c.origins, c.originsSet = append(c.origins, origins...), true }
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
// c. A nil or zero c, an origin that is not scheme://host[:port], and a
// rate limit out of range are ErrInvalidInput.
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
	p := &AssistantProxy{client: c, identity: cfg.identity, limiter: cfg.limiter,
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
		h.Add("Vary", "Origin")
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		proxyFail(w, http.StatusUnsupportedMediaType, "send the conversation as application/json")
		return
	}
	if r.ContentLength > maxProxyBody {
		proxyFail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than %d KiB", maxProxyBody>>10))
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxProxyBody))
	if err != nil {
		// Closed, the rest is not drained before the answer: the
		// connection closes after it.
		_ = r.Body.Close()
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			proxyFail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than %d KiB", maxProxyBody>>10))
		case errors.Is(err, os.ErrDeadlineExceeded):
			proxyFail(w, http.StatusRequestTimeout, "the request body did not arrive in time")
		default:
			proxyFail(w, http.StatusBadRequest, "the request body could not be read")
		}
		return
	}
	liftDeadline()
	body, status, msg := rebuildMessage(raw)
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
	resp, err := p.client.openMessage(r.Context(), upstream)
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
// lower case, without the scheme's default port. ok is false for anything
// that is not an http(s) scheme://host[:port].
func normalOrigin(origin string) (string, bool) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	return scheme + "://" + normalHost(scheme, u.Host), true
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

// proxyRequest is what the proxy reads of a browser's body: the members
// of the allowlist. Everything else (fp, filter.groups, unknown members)
// is never read, so it cannot reach upstream.
//
// Its arrays decode item by item within their bounds: a decoded item
// costs its Go value whatever its bytes, so 256 KiB of {} (87,000 empty
// messages, parts or context items) once cost 15 to 28 MB of allocation
// per request, before any limit counted it.
type proxyRequest struct {
	Messages          list[proxyMessage, proxyMessagesMax] `json:"messages"`
	ThreadID          string                               `json:"threadId"`
	ThreadKey         string                               `json:"threadKey"`
	RetrievalPageSize *float64                             `json:"retrievalPageSize"`
	Context           proxyContext                         `json:"context"`
	CurrentPath       string                               `json:"currentPath"`
	Filter            struct {
		Version  string `json:"version"`
		Language string `json:"language"`
	} `json:"filter"`
}

type proxyMessage struct {
	ID    string     `json:"id"`
	Role  string     `json:"role"`
	Parts proxyParts `json:"parts"`
}

type proxyPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// proxyMessagesMax bounds a conversation (a bounded list, json.go): the
// message after maxProxyMessages is refused before it is decoded.
type proxyMessagesMax struct{}

func (proxyMessagesMax) max() (int, string) { return maxProxyMessages, "messages" }

// proxyParts keeps a message's text parts only: the others (tool calls,
// sources, reasoning of earlier answers) are decoded one at a time and
// dropped.
type proxyParts []proxyPart

func (p *proxyParts) UnmarshalJSON(data []byte) error {
	*p = nil
	var part proxyPart // one for all: each a fresh one cost an allocation per dropped part
	return eachItem(data, func(dec *json.Decoder, _ int) error {
		part = proxyPart{}
		if err := dec.Decode(&part); err != nil {
			return err
		}
		if part.Type == "text" {
			*p = append(*p, part)
		}
		return nil
	})
}

// proxyContext keeps the first maxProxyContext items; the rest must be
// objects, and are not kept.
type proxyContext []contextWire

func (c *proxyContext) UnmarshalJSON(data []byte) error {
	*c = nil
	return eachItem(data, func(dec *json.Decoder, i int) error {
		if i >= maxProxyContext {
			var skip struct{}
			return dec.Decode(&skip)
		}
		*c = append(*c, contextWire{})
		return dec.Decode(&(*c)[i])
	})
}

// eachItem calls item with a decoder at each element of the JSON array
// data in turn (null holds none).
func eachItem(data []byte, item func(dec *json.Decoder, i int) error) error {
	if string(data) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return errors.New("not an array")
	}
	for i := 0; dec.More(); i++ {
		if err := item(dec, i); err != nil {
			return err
		}
	}
	return nil
}

// rebuildMessage reads a browser's body and builds the upstream one from
// the allowlist, without fp and groups (the identity's). A refusal is a
// status and a message in the proxy's words.
func rebuildMessage(raw []byte) (*messageBody, int, string) {
	var req proxyRequest
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&req); err != nil {
		if tooMany := (*tooManyError)(nil); errors.As(err, &tooMany) {
			return nil, http.StatusBadRequest, fmt.Sprintf("the conversation holds more than %d messages", maxProxyMessages)
		}
		return nil, http.StatusBadRequest, "the request is not the JSON of a chat request"
	}
	if _, err := dec.Token(); err != io.EOF { // More would pass a stray } or ]
		return nil, http.StatusBadRequest, "the request holds more than one JSON value"
	}
	if len(req.Messages) == 0 {
		return nil, http.StatusBadRequest, "the request holds no message"
	}
	body := &messageBody{Messages: make([]messageWire, len(req.Messages))}
	for i, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return nil, http.StatusBadRequest, fmt.Sprintf("message %d: the role must be user or assistant", i)
		}
		out := messageWire{ID: m.ID, Role: m.Role, Parts: []partWire{}}
		if !plainToken(m.ID) {
			out.ID = newMessageID()
		}
		for _, part := range m.Parts { // text parts only: see proxyParts
			if len(part.Text) > maxProxyPartText {
				return nil, http.StatusRequestEntityTooLarge, fmt.Sprintf("message %d: a text part is larger than %d KiB", i, maxProxyPartText>>10)
			}
			out.Parts = append(out.Parts, partWire{Type: "text", Text: part.Text})
		}
		body.Messages[i] = out
	}
	last := body.Messages[len(body.Messages)-1]
	if last.Role != "user" || strings.TrimSpace(wireText(last)) == "" {
		return nil, http.StatusBadRequest, "the last message must be the user's, with some text"
	}
	switch {
	case (req.ThreadID == "") != (req.ThreadKey == ""):
		return nil, http.StatusBadRequest, "threadId and threadKey go together"
	case req.ThreadID != "" && (!plainToken(req.ThreadID) || !plainToken(req.ThreadKey)):
		return nil, http.StatusBadRequest, "threadId or threadKey is not a thread's"
	}
	body.ThreadID, body.ThreadKey = req.ThreadID, req.ThreadKey
	if size := req.RetrievalPageSize; size != nil {
		body.RetrievalPageSize = int(math.Min(math.Max(*size, 1), maxProxyPageSize))
	}
	for i, c := range req.Context { // at most maxProxyContext: see proxyContext
		if c.Type != "code" && c.Type != "textSelection" {
			return nil, http.StatusBadRequest, fmt.Sprintf("context %d: the type must be code or textSelection", i)
		}
		body.Context = append(body.Context, c)
	}
	body.CurrentPath = cutRunes(req.CurrentPath, maxCurrentPathRunes)
	body.Filter = filterOf(docFilter{Version: req.Filter.Version, Language: req.Filter.Language})
	return body, 0, ""
}

func wireText(m messageWire) string {
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// plainToken reports an ID fit to forward: 1 to 256 bytes of printable
// ASCII without spaces.
func plainToken(s string) bool {
	if s == "" || len(s) > maxProxyID {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// cutRunes keeps the first n characters of s.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
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

// relay streams the answer to the browser frame by frame, flushing each
// as it arrives: one frame is held at a time, whatever the answer's size,
// and of a text part at most a tail that could start a copy of the key
// (proxyText).
func (p *AssistantProxy) relay(w http.ResponseWriter, r *http.Request, resp *http.Response) {
	defer resp.Body.Close()
	h := w.Header()
	for _, name := range proxyRelayedHeaders {
		if v := resp.Header.Get(name); v != "" {
			h.Set(name, p.client.scrub(v))
		}
	}
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", "text/event-stream")
	}
	h.Set("X-Accel-Buffering", "no") // a reverse proxy in front must not hold the answer back
	rc := http.NewResponseController(w)
	flush := func() bool {
		err := rc.Flush()
		return err == nil || errors.Is(err, http.ErrNotSupported) // a writer that cannot flush still gets it all
	}
	// A browser that stops reading would block a write, and hold upstream's
	// answer open, for as long as the connection lives. On a server
	// without a WriteTimeout (which would cut any long answer), each write
	// gets p.frameTimeout to reach it; the deadline is lifted after each
	// (waiting for upstream's next frame is no stall, and under HTTP/2 a
	// deadline that passes resets the stream even between writes).
	arm, disarm := func() {}, func() {}
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if (srv == nil || srv.WriteTimeout <= 0) && p.frameTimeout > 0 && rc.SetWriteDeadline(time.Time{}) == nil {
		arm = func() { _ = rc.SetWriteDeadline(time.Now().Add(p.frameTimeout)) }
		disarm = func() { _ = rc.SetWriteDeadline(time.Time{}) }
	}
	send := func(frame []byte) bool {
		arm()
		defer disarm()
		if frame != nil {
			if _, err := w.Write(frame); err != nil {
				return false
			}
		}
		return flush()
	}
	w.WriteHeader(http.StatusOK)
	if !send(nil) {
		return
	}
	frames := streamFrames{r: bufio.NewReaderSize(resp.Body, streamReadBuffer), max: maxStreamFrame}
	text := newProxyText(p.client.c.cred().key)
	var out []byte
	emit := func(frame string) bool {
		out = appendFrame(out[:0], p.client.scrub(frame))
		return send(out)
	}
	for {
		data, err := frames.next()
		if err != nil {
			if r.Context().Err() == nil {
				// Cut, or a frame too large: the browser's chat client shows
				// an error rather than a partial answer as a whole one.
				send([]byte(proxyBrokenFrame))
			}
			return
		}
		if !text.frames(data, emit) {
			return
		}
		if string(data) == "[DONE]" {
			return
		}
		if cap(out) > 2*streamReadBuffer {
			out = nil // a big frame's buffer is not kept
		}
	}
}

// proxyText keeps a key upstream echoes out of the answer's text as the
// browser puts it together: a model writes a few characters a chunk, so
// the key may come split across text-delta chunks, where no one chunk's
// scrubbing sees it. A part's text goes through a redact.Writer, which
// holds back a tail that could start a copy of the key, in any form the
// scrubber knows, until the next delta tells; what it holds is sent as a
// delta of its own when the part ends: its text-end, a delta of another
// part, or the end of the answer.
type proxyText struct {
	w   *redact.Writer // writes the part's text, scrubbed, to out
	out bytes.Buffer
	id  string // the part whose text w holds a tail of
}

func newProxyText(key string) *proxyText {
	t := &proxyText{}
	t.w = redact.NewWriter(&t.out, key)
	return t
}

// frames calls emit with each frame to send for the frame data: data
// itself, or a text-delta whose delta is what the Writer lets through;
// after the tail of a part that this frame ends. It reports whether every
// emit did.
func (t *proxyText) frames(data []byte, emit func(string) bool) bool {
	// With no tail held, only a text-delta needs reading, and one always
	// spells "delta", unless in escapes.
	if !t.w.Holding() && !bytes.Contains(data, []byte("delta")) && bytes.IndexByte(data, '\\') < 0 {
		return emit(string(data))
	}
	c := readProxyChunk(data)
	isDelta := c.typ == "text-delta" && c.deltaAt[1] > 0
	switch {
	case isDelta && c.id == t.id:
	case isDelta, c.typ == "text-end" && c.id == t.id, c.typ == "finish", c.typ == "error", c.typ == "abort",
		string(data) == "[DONE]":
		if !t.flush(emit) {
			return false
		}
	}
	if !isDelta {
		return emit(string(data))
	}
	t.id = c.id
	_, _ = t.w.WriteString(c.delta) // writes to a bytes.Buffer: no error
	defer t.out.Reset()
	if string(t.out.Bytes()) == c.delta {
		return emit(string(data)) // the common case: the chunk as it came
	}
	delta, _ := marshalWire(t.out.String())
	return emit(string(data[:c.deltaAt[0]]) + string(delta) + string(data[c.deltaAt[1]:]))
}

// flush emits a delta of the tail held back, if any.
func (t *proxyText) flush(emit func(string) bool) bool {
	_ = t.w.Flush()
	tail, id := t.out.String(), t.id
	t.out.Reset()
	t.id = ""
	if tail == "" {
		return true
	}
	b, _ := marshalWire(struct {
		Type  string `json:"type"`
		ID    string `json:"id"`
		Delta string `json:"delta"`
	}{"text-delta", id, tail})
	return emit(string(b))
}

// proxyChunk is what proxyText reads of a chunk: its type, its id, and
// its delta when a string, with where the delta's JSON value stands.
type proxyChunk struct {
	typ, id, delta string
	deltaAt        [2]int // [0, 0]: no string delta
}

// readProxyChunk reads a chunk as the browser's JSON.parse does: members
// by their exact names, the last of a repeated one. A frame that is not a
// JSON object reads as no chunk.
func readProxyChunk(data []byte) proxyChunk {
	var c proxyChunk
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return proxyChunk{}
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return proxyChunk{}
		}
		var into *string // the members read; the others are only checked
		switch name {
		case "type":
			into = &c.typ
		case "id":
			into = &c.id
		case "delta":
			into = &c.delta
		default:
			if dec.Decode(&skipped{}) != nil {
				return proxyChunk{}
			}
			continue
		}
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return proxyChunk{}
		}
		var s string
		isString := raw[0] == '"' && json.Unmarshal(raw, &s) == nil
		*into = s
		if name == "delta" {
			c.deltaAt = [2]int{}
			if isString {
				end := int(dec.InputOffset())
				c.deltaAt = [2]int{end - len(raw), end}
			}
		}
	}
	return c
}

// proxyBrokenFrame ends an answer that broke off, in the AI SDK's words.
const proxyBrokenFrame = "data: {\"type\":\"error\",\"errorText\":\"the answer broke off\"}\n\n"

// appendFrame writes data as one server-sent event: a "data:" line per
// line of it, then a blank line.
func appendFrame(out []byte, data string) []byte {
	out = append(out, "data: "...)
	for {
		line, rest, more := strings.Cut(data, "\n")
		out = append(out, line...)
		if !more {
			break
		}
		out = append(out, "\ndata: "...)
		data = rest
	}
	return append(out, "\n\n"...)
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
