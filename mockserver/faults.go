package mockserver

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
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
)

var faultKinds = []FaultKind{FaultStatus, FaultLatency, FaultClose, FaultReset, FaultTruncate, FaultHTML, FaultSlowBody}

// Fault is one misbehaviour applied to one request.
type Fault struct {
	Kind            FaultKind     // what goes wrong
	Status          int           // FaultStatus: the status to answer
	RetryAfter      time.Duration // FaultStatus: Retry-After, whole seconds rounded up (429 sends 1s if unset)
	RetryAfterZero  bool          // FaultStatus: send "Retry-After: 0" (RetryAfter must be 0): a 429 a client may retry at once
	Delay           time.Duration // FaultLatency: added wait; FaultSlowBody: time to send the body (1s if unset)
	AfterProcessing bool          // FaultStatus: run the endpoint first, then answer Status anyway
}

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

// readOverrides checks the override headers before anything is processed,
// so a bad one is a 400 that neither the endpoint nor a rate limit sees, and
// returns the fault for this request: FaultHeader if present, else one
// drawn from the rules.
func (s *Server) readOverrides(r *http.Request, rt *route) (Fault, reply, bool) {
	if rt.name == RouteCreateJob || rt.name == RouteFollowUp || takesOutcome(rt.name) {
		if _, rep, ok := outcomeOverride(r); !ok {
			return Fault{}, rep, false
		}
	}
	if values := r.Header[FaultHeader]; len(values) > 0 {
		rule, err := ParseFault(values[0])
		if err == nil && (rule.Route != "" || rule.Times != 0 || rule.Probability != 0) {
			err = errors.New("route, times and p belong in fault rules; the header applies to its own request")
		}
		if err != nil {
			return Fault{}, errorReply(http.StatusBadRequest, "Invalid "+FaultHeader+" header", err.Error()), false
		}
		return rule.Fault, reply{}, true
	}
	f, _ := s.faults.pick(rt.name)
	return f, reply{}, true
}
