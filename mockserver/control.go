package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/jobs"
	"github.com/docsagent/mintlify-go/mockserver/internal/reqbody"
)

// maxControlBody bounds control-API uploads (events, mostly): what one
// request can make the server hold while it decodes.
const maxControlBody = 16 << 20

type controlRoute struct {
	route
	doc   string
	serve func(s *Server, w http.ResponseWriter, r *http.Request)
}

// controlAPI is the test-facing side of the server, for test code in any
// language. It needs no key: the mock listens on loopback and holds nothing
// secret.
var controlAPI = slices.Concat(serverControl, jobControl, analyticsControl, deploymentControl, staticExportControl, assistantControl)

// serverControl drives the server as a whole: its journal, clock, forced
// outcome, fault rules, keys and reset.
var serverControl = []*controlRoute{
	{route: route{method: "GET", path: "/_mock/"}, doc: "this index", serve: (*Server).ctlIndex},
	{route: route{method: "GET", path: "/_mock/journal"}, doc: "recorded API requests, oldest first", serve: (*Server).ctlJournal},
	{route: route{method: "DELETE", path: "/_mock/journal"}, doc: "forget recorded requests", serve: (*Server).ctlClearJournal},
	{route: route{method: "GET", path: "/_mock/outcome"}, doc: "the outcome forced on new runs, if any", serve: (*Server).ctlGetOutcome},
	{route: route{method: "PUT", path: "/_mock/outcome"}, doc: `force the outcome of new runs: {"outcome": "failed"}; {"outcome": ""} hands back to the agent`, serve: (*Server).ctlPutOutcome},
	{route: route{method: "GET", path: "/_mock/clock"}, doc: "the server's time", serve: (*Server).ctlClock},
	{route: route{method: "POST", path: "/_mock/clock"}, doc: `move the server's time forward: {"advance": "90s"}`, serve: (*Server).ctlAdvance},
	{route: route{method: "GET", path: "/_mock/faults"}, doc: "active fault rules", serve: (*Server).ctlFaults},
	{route: route{method: "POST", path: "/_mock/faults"}, doc: `add fault rules: {"faults": ["route=create-job,status=503,times=2"]}`, serve: (*Server).ctlAddFaults},
	{route: route{method: "DELETE", path: "/_mock/faults"}, doc: "remove every fault rule", serve: (*Server).ctlClearFaults},
	{route: route{method: "POST", path: "/_mock/reset"}, doc: "back to the initial state: no jobs, initial visits and faults, empty journal, fresh rate limits, clock advance undone", serve: (*Server).ctlReset},
	{route: route{method: "POST", path: "/_mock/keys"}, doc: `a new key of the organization: {"scopes": ["read"], "expiresAt": "...", "allowIPs": ["10.0.0.0/8"], "type": "admin", "domain": "..."} answers {"key"}; type assistant (of domain, default the mock's) or index makes those keys`, serve: (*Server).ctlNewKey},
}

// Filled by init: the index handler cannot refer to controlAPI, which
// refers to it.
var (
	controlAsRoutes []*route
	controlIndex    []controlDoc
)

type controlDoc struct {
	Route string `json:"route"`
	Doc   string `json:"doc"`
}

func init() {
	for _, c := range controlAPI {
		c.pattern = c.method + " " + c.path
		c.segs = strings.Split(c.path, "/")
		controlAsRoutes = append(controlAsRoutes, &c.route)
		controlIndex = append(controlIndex, controlDoc{c.pattern, c.doc})
	}
}

func (s *Server) controlRoutes() *http.ServeMux {
	mux := http.NewServeMux()
	for _, c := range controlAPI {
		pattern := c.pattern
		if strings.HasSuffix(pattern, "/") {
			pattern += "{$}" // the index only, not the whole subtree
		}
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) { c.serve(s, w, r) })
	}
	notFound := func(w http.ResponseWriter, r *http.Request) {
		hint := closestRoute(controlAsRoutes, r.Method, r.URL.Path)
		writeReply(w, errorReply(http.StatusNotFound, "Not found",
			"no control route for "+clipDetail(r.Method)+" "+clipDetail(r.URL.Path), "closest route: "+hint.pattern))
	}
	mux.HandleFunc("/", notFound)
	// Registered so that ServeMux does not answer "/_mock" itself with an
	// HTML redirect to the index: every answer of the mock is JSON.
	mux.HandleFunc(controlPrefix, notFound)
	return mux
}

// controlGuard keeps web pages away from the control API, which has no
// key: a page of any site could otherwise move a developer's clock or
// read the journal with a cross-site POST (the browser marks it with
// Origin), or read answers by DNS rebinding (its requests then name the
// page's host). Named origins may drive it, for tests in a browser.
type controlGuard struct {
	origins map[string]bool // serialized origins, lower case
	hosts   map[string]bool // host names beyond localhost and IP addresses, lower case
}

func newControlGuard(origins, hosts []string) (controlGuard, error) {
	g := controlGuard{origins: map[string]bool{}, hosts: map[string]bool{}}
	for _, o := range origins {
		u, err := url.Parse(strings.TrimSuffix(o, "/"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			u.Path != "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return g, fmt.Errorf("mockserver: WithControlOrigins(%q): want an http or https origin such as http://localhost:5173", o)
		}
		g.origins[strings.ToLower(u.Scheme+"://"+u.Host)] = true
	}
	for _, h := range hosts {
		if h == "" || strings.ContainsAny(h, ":/ ") {
			return g, fmt.Errorf("mockserver: WithControlHosts(%q): want a host name without a port", h)
		}
		g.hosts[strings.ToLower(h)] = true
	}
	return g, nil
}

// admit answers a control request that may not pass (403), and a CORS
// preflight of an allowed origin, and reports whether the request goes on.
// checkHost is false for the in-memory client.
func (g *controlGuard) admit(w http.ResponseWriter, r *http.Request, checkHost bool) bool {
	refuse := func(detail string) bool {
		writeProblem(w, http.StatusForbidden, detail, "the control API has no key, so it answers neither web pages nor hosts that are not this machine")
		return false
	}
	if checkHost && !g.hostAllowed(r.Host) {
		return refuse(fmt.Sprintf("host %q: the control API answers requests addressed to localhost, an IP address or a reserved test name (a page on another name could reach it by DNS rebinding); name more with -control-host or WithControlHosts", clipDetail(r.Host)))
	}
	origins := r.Header.Values("Origin")
	if len(origins) == 0 {
		if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
			return refuse("a browser marked this request " + clipDetail(site) + ": the control API answers no web page")
		}
		return true
	}
	if len(origins) > 1 || !g.origins[strings.ToLower(origins[0])] {
		return refuse(fmt.Sprintf("origin %q: the control API answers no web page; allow a page's origin with -control-origin or WithControlOrigins", clipDetail(origins[0])))
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origins[0])
	h.Add("Vary", "Origin")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return true
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
	h.Set("Access-Control-Allow-Headers", "Content-Type")
	h.Set("Access-Control-Max-Age", "600")
	if r.Header.Get("Access-Control-Request-Private-Network") == "true" {
		h.Set("Access-Control-Allow-Private-Network", "true") // a public page calling a loopback mock
	}
	w.WriteHeader(http.StatusNoContent)
	return false
}

// hostAllowed reports whether a request's Host is one no other site can
// point at this machine: an IP address, localhost, a name reserved for
// tests and examples (RFC 2606 and 6761: .localhost, .test, .invalid,
// .example, example.com, .net, .org; httptest.NewRequest says
// example.com), or a name given with WithControlHosts. DNS rebinding
// needs a name its attacker resolves. The port is not compared: rebinding
// changes what a name points to, not the port, and a forwarded port still
// reaches this mock.
func (g *controlGuard) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	host = strings.ToLower(host)
	if g.hosts[host] {
		return true
	}
	for _, name := range reservedNames {
		if host == name || strings.HasSuffix(host, "."+name) {
			return true
		}
	}
	return false
}

// reservedNames can be no attacker's: special-use names (RFC 6761) and the
// example domains IANA keeps (RFC 2606), with every name under them.
var reservedNames = []string{"localhost", "test", "invalid", "example", "example.com", "example.net", "example.org"}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeReply(w, errorReply(http.StatusInternalServerError, "Internal server error", err.Error()))
		return
	}
	writeReply(w, reply{status: status, body: body})
}

// ofProject keeps the items of the project the query names (?project=),
// or all of them; never nil, so the answer is a JSON array.
func ofProject[T any](r *http.Request, items []T, project func(T) string) []T {
	p := r.URL.Query().Get("project")
	out := make([]T, 0, len(items))
	for _, it := range items {
		if p == "" || project(it) == p {
			out = append(out, it)
		}
	}
	return out
}

func writeProblem(w http.ResponseWriter, status int, details ...string) {
	writeReply(w, errorReply(status, http.StatusText(status), details...))
}

// decodeControl reads a JSON body into v; an empty body leaves v as is.
// Keys must name v's fields exactly: a misspelt key is a 400, never a
// silently ignored setting. Every array holds at most
// reqbody.DefaultMaxItems items (413 past it).
func decodeControl(w http.ResponseWriter, r *http.Request, v any) bool {
	return decodeControlWithin(w, r, v, nil)
}

// decodeControlWithin is decodeControl with the array bounds of limits,
// for the routes that load events by the thousand: the items are counted
// before any is decoded.
func decodeControlWithin(w http.ResponseWriter, r *http.Request, v any, limits reqbody.Limits) bool {
	if r.ContentLength > maxControlBody {
		// Refused on the declaration, as the API does: reading first would
		// wait for bytes a client may never send.
		writeProblem(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("control bodies are limited to %d bytes; send the events in smaller batches", maxControlBody))
		return false
	}
	body, err := readControlBody(http.MaxBytesReader(w, r.Body, maxControlBody), r.ContentLength)
	var tooBig *http.MaxBytesError
	var tooMany *reqbody.ItemsError
	switch {
	case errors.As(err, &tooBig):
		writeProblem(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("control bodies are limited to %d bytes; send the events in smaller batches", maxControlBody))
		return false
	case err != nil:
		writeProblem(w, http.StatusBadRequest, "the request body could not be read: "+err.Error())
		return false
	case len(bytes.TrimSpace(body)) == 0:
		return true
	case bytes.TrimSpace(body)[0] != '{':
		// null would decode to nothing and leave every setting at its
		// default: a mistake that must not pass for a request.
		writeProblem(w, http.StatusBadRequest, "the request body must be a JSON object")
		return false
	}
	err = limits.DecodeStrict(body, v)
	switch {
	case errors.As(err, &tooMany):
		writeProblem(w, http.StatusRequestEntityTooLarge, err.Error())
		return false
	case err != nil:
		writeProblem(w, http.StatusBadRequest, bodyProblem(err))
		return false
	}
	return true
}

// readControlBody reads a body of at most maxControlBody bytes into one
// buffer: of the declared size, else doubled as it fills up to the bound
// (plus the byte that shows the end). A 16 MiB body then costs at most
// 24 MiB while it is read; append's gentler growth left 70 MiB of
// buffers behind for a chunked one.
func readControlBody(r io.Reader, declared int64) ([]byte, error) {
	size := int64(64 << 10)
	if declared > 0 {
		size = declared + 1
	}
	b := make([]byte, 0, min(size, maxControlBody+1))
	for {
		if len(b) == cap(b) {
			grown := make([]byte, len(b), min(2*cap(b), maxControlBody+1))
			copy(grown, b)
			b = grown
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		switch {
		case err == io.EOF:
			return b, nil
		case err != nil:
			return b, err
		}
	}
}

func (s *Server) ctlIndex(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"version": Version,
		"routes":  controlIndex,
		"headers": map[string]string{
			OutcomeHeader: "on create-job, follow-up, trigger-deployment, trigger-preview or start-static-export: the run's outcome (pull-request, no-change, failed)",
			FaultHeader:   "on any API request: one fault for this request, e.g. status=503, reset, latency=200ms",
		},
	})
}

func (s *Server) ctlJournal(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"entries": s.Journal()})
}

func (s *Server) ctlClearJournal(w http.ResponseWriter, _ *http.Request) {
	s.ClearJournal()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) ctlGetOutcome(w http.ResponseWriter, _ *http.Request) {
	var o Outcome
	if p := s.defaultOutcome.Load(); p != nil {
		o = *p
	}
	writeJSON(w, http.StatusOK, map[string]Outcome{"outcome": o})
}

func (s *Server) ctlPutOutcome(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Outcome Outcome `json:"outcome"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	switch {
	case body.Outcome == "":
		s.defaultOutcome.Store(nil)
	case jobs.ValidOutcome(body.Outcome):
		s.defaultOutcome.Store(&body.Outcome)
	default:
		writeProblem(w, http.StatusBadRequest, fmt.Sprintf("invalid outcome %q", body.Outcome))
		return
	}
	s.ctlGetOutcome(w, r)
}

func (s *Server) ctlClock(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"now":     s.Now().UTC().Format(time.RFC3339Nano),
		"advance": time.Duration(s.offset.Load()).String(),
	})
}

// maxClockAdvance bounds the control API's clock moves: a hundred years
// serves any test of expiry, and keeps every time the mock computes far
// from the overflow of time.Duration.
const maxClockAdvance = 100 * 365 * 24 * time.Hour

func (s *Server) ctlAdvance(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Advance string `json:"advance"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	d, err := time.ParseDuration(body.Advance)
	if err != nil || d <= 0 {
		writeProblem(w, http.StatusBadRequest, fmt.Sprintf("advance must be a positive Go duration such as \"90s\" or \"1h\", got %q", body.Advance))
		return
	}
	for {
		// Durations are int64 nanoseconds: past the bound a sum wraps and
		// the clock would jump back almost three centuries.
		cur := s.offset.Load()
		if d > maxClockAdvance-time.Duration(cur) {
			writeProblem(w, http.StatusBadRequest, fmt.Sprintf("the clock may be moved at most %s in all; it is %s ahead now", maxClockAdvance, time.Duration(cur)))
			return
		}
		if s.offset.CompareAndSwap(cur, cur+int64(d)) {
			break
		}
	}
	s.ctlClock(w, r)
}

func (s *Server) ctlFaults(w http.ResponseWriter, _ *http.Request) {
	rules := s.Faults()
	specs := make([]string, len(rules))
	for i, r := range rules {
		specs[i] = r.String()
	}
	writeJSON(w, http.StatusOK, map[string]any{"faults": specs})
}

func (s *Server) ctlAddFaults(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Fault  string   `json:"fault"`
		Faults []string `json:"faults"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	if body.Fault != "" {
		body.Faults = append(body.Faults, body.Fault)
	}
	var rules []FaultRule
	var problems []string
	for _, spec := range body.Faults {
		rule, err := ParseFault(spec)
		if err != nil {
			problems = append(problems, err.Error())
		}
		rules = append(rules, rule)
	}
	if len(problems) > 0 || len(rules) == 0 {
		writeProblem(w, http.StatusBadRequest, append(problems, `send {"faults": ["route=create-job,status=503,times=2"]}`)...)
		return
	}
	_ = s.InjectFault(rules...) // validated by ParseFault
	s.ctlFaults(w, r)
}

func (s *Server) ctlClearFaults(w http.ResponseWriter, _ *http.Request) {
	s.ClearFaults()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) ctlReset(w http.ResponseWriter, _ *http.Request) {
	s.Reset()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) ctlNewKey(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Scopes    []Scope  `json:"scopes"`
		ExpiresAt string   `json:"expiresAt"`
		AllowIPs  []string `json:"allowIPs"`
		Type      KeyType  `json:"type"`   // admin (default), assistant or index
		Domain    string   `json:"domain"` // an assistant key's (default: the mock's)
	}
	if !decodeControl(w, r, &body) {
		return
	}
	spec := KeySpec{Scopes: body.Scopes, AllowIPs: body.AllowIPs, Type: body.Type, Domain: body.Domain}
	if body.ExpiresAt != "" {
		t, err := time.Parse(time.RFC3339, body.ExpiresAt)
		if err != nil {
			writeProblem(w, http.StatusBadRequest, "expiresAt: want an RFC 3339 time such as 2026-01-02T15:04:05Z")
			return
		}
		spec.ExpiresAt = t
	}
	key, err := s.NewKey(spec)
	if err != nil {
		writeProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"key": key})
}
