package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/jobs"
	"github.com/docsagent/mintlify-go/mockserver/internal/ratelimit"
)

// FaultKind names a way the network or the service can misbehave.
type FaultKind string

// The fault kinds. "Processed" says whether the endpoint runs (a job is
// created, a follow-up accepted) before the fault strikes, which is what a
// client's retry policy must get right.
const (
	// FaultStatus answers Status (429, 500, 502, 503, 504...) in the error
	// format, with Retry-After for 429 or when RetryAfter or RetryAfterZero
	// is set. Not processed, unless AfterProcessing.
	FaultStatus FaultKind = "status"
	// FaultLatency waits Delay, then serves the request normally.
	FaultLatency FaultKind = "latency"
	// FaultClose closes the connection without any response. Not processed.
	FaultClose FaultKind = "close"
	// FaultReset processes the request, then resets the connection instead
	// of answering: the job exists but the client saw no answer.
	FaultReset FaultKind = "reset"
	// FaultTruncate processes the request and sends the headers and half
	// the body (Content-Length announces all of it), then closes.
	FaultTruncate FaultKind = "truncate"
	// FaultHTML processes the request and answers its real status with an
	// HTML body, as a proxy's error page would.
	FaultHTML FaultKind = "html"
	// FaultSlowBody processes the request and trickles the body over Delay.
	FaultSlowBody FaultKind = "slow"
	// FaultStreamError processes a message and streams the first half of
	// its answer, then an error chunk (v5: {"type": "error"} and [DONE];
	// v1: a 3: part) where the rest would be. Only the message routes
	// stream; on other routes it changes nothing.
	FaultStreamError FaultKind = "stream-error"
	// FaultStatusValue processes the request and answers as usual, with the
	// answer's top-level "status" member set to Value: a job, deployment or
	// export reports a status the vendor may add ("queued" for a job,
	// "building" for a deployment) or one that is no status. With Times it
	// lasts a few reads, after which the real status shows again. An answer
	// that is not a 2xx JSON object with a status passes unchanged.
	FaultStatusValue FaultKind = "status-value"
)

var faultKinds = []FaultKind{FaultStatus, FaultLatency, FaultClose, FaultReset, FaultTruncate, FaultHTML, FaultSlowBody, FaultStreamError, FaultStatusValue}

// Fault is one misbehaviour applied to one request.
type Fault struct {
	Kind            FaultKind     // what goes wrong
	Status          int           // FaultStatus: the status to answer
	RetryAfter      time.Duration // FaultStatus: Retry-After, whole seconds rounded up (429 sends 1s if unset)
	RetryAfterZero  bool          // FaultStatus: send "Retry-After: 0" (RetryAfter must be 0): a 429 a client may retry at once
	Delay           time.Duration // FaultLatency: added wait; FaultSlowBody: time to send the body (1s if unset)
	AfterProcessing bool          // FaultStatus: run the endpoint first, then answer Status anyway
	Value           string        // FaultStatusValue: the status the answer reports, any text of at most maxStatusValue bytes
}

// maxStatusValue bounds FaultStatusValue's Value: enough for a status of
// 64 bytes and one just past it, or a hostile one.
const maxStatusValue = 1024

// FaultRule applies a Fault to requests on a route: the next Times requests
// (scripted), or each request with Probability (drawn from the server's
// fault seed), or both (at most Times requests, each with Probability).
// With neither, every request is hit until the rule is cleared. Rules are
// tried in the order they were added; the first that fires wins.
type FaultRule struct {
	Route       string  // a Route* name; "" or "*" for every API route
	Fault               // what to do
	Times       int     // 0: no limit
	Probability float64 // 0: every matching request
}

// faultSet holds the active rules. The rule count is also kept in an atomic
// so that requests skip the lock entirely when no fault is configured.
type faultSet struct {
	mu      sync.Mutex
	rules   []*liveRule
	rng     *rand.Rand
	initial []FaultRule
	seed    uint64
	count   atomic.Int32
}

type liveRule struct {
	FaultRule
	fired int
}

func newFaultSet(initial []FaultRule, seed uint64) (*faultSet, error) {
	for _, r := range initial {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("mockserver: WithFaults %q: %w", r, err)
		}
	}
	fs := &faultSet{initial: slices.Clone(initial), seed: seed}
	fs.reset()
	return fs, nil
}

func (fs *faultSet) reset() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.rng = rand.New(rand.NewPCG(fs.seed, fs.seed^0x9e3779b97f4a7c15))
	fs.rules = nil
	for _, r := range fs.initial {
		fs.rules = append(fs.rules, &liveRule{FaultRule: r})
	}
	fs.count.Store(int32(len(fs.rules)))
}

func (fs *faultSet) add(rules []FaultRule) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, r := range rules {
		fs.rules = append(fs.rules, &liveRule{FaultRule: r})
	}
	fs.count.Store(int32(len(fs.rules)))
}

func (fs *faultSet) clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.rules = nil
	fs.count.Store(0)
}

// pick returns the fault for a request on route, consuming scripted rules.
func (fs *faultSet) pick(route string) (Fault, bool) {
	if fs.count.Load() == 0 || route == "" {
		return Fault{}, false
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, r := range fs.rules {
		if r.Route != "" && r.Route != "*" && r.Route != route {
			continue
		}
		if r.Route != route && route == RouteBundleDownload {
			continue // the storage host takes only rules that name it
		}
		if r.Probability > 0 && fs.rng.Float64() >= r.Probability {
			continue
		}
		r.fired++
		if r.Times > 0 && r.fired >= r.Times {
			fs.rules = slices.Delete(fs.rules, i, i+1)
			fs.count.Store(int32(len(fs.rules)))
		}
		return r.Fault, true
	}
	return Fault{}, false
}

func (fs *faultSet) list() []FaultRule {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]FaultRule, len(fs.rules))
	for i, r := range fs.rules {
		out[i] = r.FaultRule
		if r.Times > 0 {
			out[i].Times = r.Times - r.fired // what is left to fire
		}
	}
	return out
}

// InjectFault adds fault rules to the running server, after any already
// there.
func (s *Server) InjectFault(rules ...FaultRule) error {
	for _, r := range rules {
		if err := r.validate(); err != nil {
			return fmt.Errorf("mockserver: fault %q: %w", r, err)
		}
	}
	s.faults.add(rules)
	return nil
}

// ClearFaults removes every fault rule, including those from WithFaults
// (Reset brings those back).
func (s *Server) ClearFaults() { s.faults.clear() }

// Faults lists the rules still active; Times counts what is left.
func (s *Server) Faults() []FaultRule { return s.faults.list() }

// overrides are what one request's override headers (and the fault rules)
// ask of it.
type overrides struct {
	fault   Fault   // FaultHeader's, else one drawn from the rules
	outcome Outcome // OutcomeHeader's, on the routes that read it ("" if none)
}

// readOverrides checks the override headers before anything is processed,
// so a bad one is a 400 that neither the endpoint nor a rate limit sees, and
// returns the fault for this request: FaultHeader if present, else one
// drawn from the rules.
func (s *Server) readOverrides(r *http.Request, rt *route) (overrides, reply, bool) {
	var o overrides
	if rt.outcome {
		var rep reply
		var ok bool
		if o.outcome, rep, ok = outcomeOverride(r); !ok {
			return overrides{}, rep, false
		}
	}
	if values := r.Header[FaultHeader]; len(values) > 0 {
		rule, err := ParseFault(values[0])
		if err == nil && (rule.Route != "" || rule.Times != 0 || rule.Probability != 0) {
			err = errors.New("route, times and p belong in fault rules; the header applies to its own request")
		}
		if err != nil {
			return overrides{}, errorReply(http.StatusBadRequest, "Invalid "+FaultHeader+" header", err.Error()), false
		}
		o.fault = rule.Fault
		return o, reply{}, true
	}
	o.fault, _ = s.faults.pick(rt.name)
	return o, reply{}, true
}

func outcomeOverride(r *http.Request) (Outcome, reply, bool) {
	values := r.Header[OutcomeHeader]
	if len(values) == 0 {
		return "", reply{}, true
	}
	o := Outcome(strings.TrimSpace(strings.ToLower(values[0])))
	if !jobs.ValidOutcome(o) {
		return "", errorReply(http.StatusBadRequest, "Invalid "+OutcomeHeader+" header",
			"expected one of "+string(OutcomePullRequest)+", "+string(OutcomeNoChange)+", "+string(OutcomeFailed)+"; got "+strconv.Quote(values[0])), false
	}
	return o, reply{}, true
}

// ParseFault reads the compact spec used by the -fault flag, the control
// API and FaultHeader: comma-separated items, each a kind or key=value.
//
//	status=503                    answer 503 (not processed)
//	status=429,retry-after=30s    answer 429 with Retry-After: 30
//	status=429,retry-after=0      answer 429 with Retry-After: 0
//	status=504,processed          create the job, then answer 504
//	latency=250ms  slow=2s        delay the answer; trickle the body
//	status-value=queued           report this status (processed)
//	close  reset  truncate  html  the other kinds, by name
//	route=create-job,times=2      which route, how many requests
//	p=0.1                         probability per request
func ParseFault(spec string) (FaultRule, error) {
	var rule FaultRule
	var errs []error
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, value, hasValue := strings.Cut(item, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if !hasValue {
			if n, err := strconv.Atoi(key); err == nil {
				rule.Kind, rule.Status = FaultStatus, n
				continue
			}
			switch key {
			case "processed", "after-processing":
				rule.AfterProcessing = true
			default:
				rule.Kind = FaultKind(key)
			}
			continue
		}
		var err error
		switch key {
		case "route":
			rule.Route = value
		case "kind":
			rule.Kind = FaultKind(strings.ToLower(value))
		case "status":
			rule.Kind = FaultStatus
			rule.Status, err = strconv.Atoi(value)
		case "retry-after":
			rule.RetryAfter, err = parseSeconds(value)
			// 0 is a value to send, not "unset": a 429 would default to 1s.
			rule.RetryAfterZero = err == nil && rule.RetryAfter == 0
		case "delay":
			rule.Delay, err = time.ParseDuration(value)
		case "latency":
			rule.Kind = FaultLatency
			rule.Delay, err = time.ParseDuration(value)
		case "slow":
			rule.Kind = FaultSlowBody
			rule.Delay, err = time.ParseDuration(value)
		case "status-value":
			rule.Kind, rule.Value = FaultStatusValue, value
		case "times":
			rule.Times, err = strconv.Atoi(value)
		case "p", "probability":
			rule.Probability, err = strconv.ParseFloat(value, 64)
		default:
			err = errors.New("unknown key")
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%q: %w", item, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return FaultRule{}, fmt.Errorf("mockserver: fault %q: %w", spec, err)
	}
	if err := rule.validate(); err != nil {
		return FaultRule{}, fmt.Errorf("mockserver: fault %q: %w", spec, err)
	}
	return rule, nil
}

// parseSeconds accepts "30" (seconds, as in a Retry-After header) or "30s".
func parseSeconds(s string) (time.Duration, error) {
	if n, err := strconv.Atoi(s); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	return time.ParseDuration(s)
}

func (r FaultRule) validate() error {
	var errs []error
	if r.Route == RouteBundleDownload && !storageFaultKind(r.Kind) {
		errs = append(errs, fmt.Errorf("route %s takes status, close, reset, truncate and latency faults", RouteBundleDownload))
	}
	if r.Route != "" && r.Route != "*" && r.Route != RouteBundleDownload && !slices.ContainsFunc(apiRoutes, func(rt *route) bool { return rt.name == r.Route }) {
		errs = append(errs, fmt.Errorf("unknown route %q (want a route name such as %s, %s or %s, or *)", r.Route, RouteCreateJob, RouteVisitors, RouteTriggerDeployment))
	}
	if r.Kind == FaultStreamError && r.Route != "" && r.Route != "*" && !slices.ContainsFunc(apiRoutes, func(rt *route) bool { return rt.name == r.Route && rt.streams }) {
		errs = append(errs, fmt.Errorf("route %s does not stream; stream-error applies to %s and %s", r.Route, RouteAssistantMessage, RouteAssistantMessageV1))
	}
	switch {
	case !slices.Contains(faultKinds, r.Kind):
		errs = append(errs, fmt.Errorf("unknown fault kind %q", r.Kind))
	case r.Kind == FaultStatus && (r.Status < 400 || r.Status > 599):
		errs = append(errs, fmt.Errorf("status %d is not an error status (400-599)", r.Status))
	case r.Kind == FaultLatency && r.Delay <= 0:
		errs = append(errs, errors.New("latency needs a positive delay"))
	case r.Kind == FaultStatusValue && (r.Value == "" || len(r.Value) > maxStatusValue):
		errs = append(errs, fmt.Errorf("status-value needs a value of 1 to %d bytes", maxStatusValue))
	case r.Kind != FaultStatusValue && r.Value != "":
		errs = append(errs, errors.New("a value belongs to status-value faults only"))
	}
	if r.Delay < 0 || r.RetryAfter < 0 {
		errs = append(errs, errors.New("durations must not be negative"))
	}
	if r.RetryAfterZero && r.RetryAfter != 0 {
		errs = append(errs, errors.New("RetryAfterZero and a non-zero RetryAfter contradict each other"))
	}
	if r.AfterProcessing && r.Kind != FaultStatus {
		errs = append(errs, errors.New("processed applies to status faults only"))
	}
	if r.Times < 0 {
		errs = append(errs, errors.New("times must not be negative"))
	}
	if r.Probability < 0 || r.Probability > 1 || r.Probability != r.Probability {
		errs = append(errs, errors.New("probability must be between 0 and 1"))
	}
	return errors.Join(errs...)
}

// String gives the rule back in ParseFault's syntax.
func (r FaultRule) String() string {
	var items []string
	if r.Route != "" {
		items = append(items, "route="+r.Route)
	}
	switch r.Kind {
	case FaultStatus:
		items = append(items, "status="+strconv.Itoa(r.Status))
		if r.RetryAfter > 0 {
			items = append(items, "retry-after="+r.RetryAfter.String())
		} else if r.RetryAfterZero {
			items = append(items, "retry-after=0")
		}
		if r.AfterProcessing {
			items = append(items, "processed")
		}
	case FaultLatency, FaultSlowBody:
		items = append(items, string(r.Kind)+"="+r.Delay.String())
	case FaultStatusValue:
		items = append(items, string(r.Kind)+"="+r.Value)
	default:
		items = append(items, string(r.Kind))
	}
	if r.Times > 0 {
		items = append(items, "times="+strconv.Itoa(r.Times))
	}
	if r.Probability > 0 {
		items = append(items, "p="+strconv.FormatFloat(r.Probability, 'g', -1, 64))
	}
	return strings.Join(items, ",")
}

// defaultSlowBody is how long FaultSlowBody takes when no Delay is given.
const defaultSlowBody = time.Second

// deliver sends rep to the client, or misbehaves as f says. Each fault has
// two implementations: on a real connection (hijacked when the fault needs
// to break it) and in memory (memWriter turns it into what a client would
// observe: an error from RoundTrip, a body that fails or trickles).
func (s *Server) deliver(w http.ResponseWriter, r *http.Request, rep reply, f Fault) {
	if rep.stream != nil && f.Kind != FaultReset && f.Kind != FaultHTML {
		s.writeStream(w, r, rep, f) // assistant.go: how each fault reaches a stream
		return
	}
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

// withStatusValue is rep with its top-level "status" member set to value,
// when rep is a 2xx JSON object that has one (FaultStatusValue).
func withStatusValue(rep reply, value string) reply {
	var obj map[string]json.RawMessage
	if rep.status/100 != 2 || rep.stream != nil || json.Unmarshal(rep.body, &obj) != nil || obj["status"] == nil {
		return rep
	}
	obj["status"] = mustJSON(value)
	rewritten := jsonReply(rep.status, mustJSON(obj))
	rewritten.retryAfter = rep.retryAfter
	return rewritten
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
		rep.retryAfter = strconv.Itoa(ratelimit.RetryAfterSeconds(f.RetryAfter))
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

// writeTruncated sends the whole answer's headers (its Content-Length
// included) and the first half of its body, then cuts the connection.
func writeTruncated(w http.ResponseWriter, rep reply) {
	setHeaders(w, rep)
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body[:len(rep.body)/2])
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	cutShort(w, rc)
}

// cutShort ends an answer before its end, a truncated body or a cut
// stream: the connection closes after what was sent (in memory, the body
// then fails with io.ErrUnexpectedEOF), so no client reads it as a whole
// answer.
func cutShort(w http.ResponseWriter, rc *http.ResponseController) {
	if m, ok := w.(*memWriter); ok {
		m.cut = true
		return
	}
	conn, _, err := rc.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // not hijackable (HTTP/2): abort the stream
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
