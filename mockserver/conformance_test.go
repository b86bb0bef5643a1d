package mockserver

// The mock against the vendor's own OpenAPI documents (testdata/openapi),
// judged by a maintained validator (kin-openapi, through
// internal/openapicheck): every route of the route table, with a request
// it accepts, the requests it refuses and every status it answers, in
// process. A route without a sample fails the test, a difference the
// allowlist below does not name fails it, and so does an entry of the
// allowlist that no exchange needed.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/internal/openapicheck"
)

// vendorDocuments is the repository's copy of the vendor's documents.
const vendorDocuments = "../testdata/openapi"

// The statuses every route of the service may answer beyond its
// documented ones, by what the vendor's prose says of all calls.
var (
	keyStatuses    = []int{http.StatusUnauthorized, http.StatusForbidden}
	serverStatuses = []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}
)

// mockDifferences are the ways the mock knowingly differs from the
// vendor's documents, each with its reason. Every entry must still be
// needed: an entry that matched no exchange fails the test.
var mockDifferences = []openapicheck.Allowed{
	{Kind: openapicheck.UndocumentedStatus, Statuses: keyStatuses,
		Reason: "every call carries a key, which may be missing, unknown or expired (401) or refused by its scope, its IP allowlist, its project or its domain (403); the documents list these on some routes only"},
	{Kind: openapicheck.UndocumentedStatus, Statuses: serverStatuses,
		Reason: "a server error or a gateway's (500, 502, 503, 504) may answer any call, and the clients retry them; the documents list 500 on the analytics and Index routes only. The mock answers them through its fault rules"},
	{Kind: openapicheck.UndocumentedStatus, Statuses: []int{http.StatusTooManyRequests},
		Reason: "the prose gives rate limits for the agent, analytics, deployment, preview, automation, assistant and Index calls, refused with 429 and Retry-After; the documents list 429 on the agent jobs and the Index routes only"},
	{Kind: openapicheck.UndocumentedStatus, Statuses: []int{http.StatusBadRequest},
		Reason: "a request the server cannot read (two Authorization headers, a body that is not a JSON object, a required member missing) is a 400 on every route, in the API's error body; the documents list 400 where they describe their own checks only"},
	{Kind: openapicheck.UndocumentedStatus, Statuses: []int{http.StatusRequestEntityTooLarge},
		Reason: "the mock bounds every request body to 1 MiB, as any server bounds them; the documents give no size"},
	{Kind: openapicheck.UndocumentedStatus, Method: http.MethodGet, Route: "/v1/project/update-status/{statusId}", Statuses: []int{http.StatusNotFound},
		Reason: "a status ID that names no deployment of the key's organization is a 404, which the prose promises; the document lists 200 only"},
	{Kind: openapicheck.UndocumentedStatus, Method: http.MethodPost, Route: "/discovery/v2/assistant/{domain}/message", Statuses: []int{http.StatusNotFound},
		Reason: "a follow-up in a thread that is unknown, of another site, or sent without its key or with a wrong one is a 404 {message}, which the prose promises; the document lists 200 only"},
	{Kind: openapicheck.MediaType, Method: http.MethodPost, Route: "/discovery/v2/assistant/{domain}/message", Statuses: []int{http.StatusOK},
		Reason: "the document gives the answer the media type application/json, but it is the AI SDK's UI message stream, text/event-stream, which every AI SDK client reads"},
	{Kind: openapicheck.MediaType, Method: http.MethodPost, Route: "/discovery/v1/assistant/{domain}/message", Statuses: []int{http.StatusOK},
		Reason: "the document gives the answer the media type application/json, but it is the AI SDK's v4 data stream of text lines, text/plain"},
	{Kind: openapicheck.InvalidRequest, Method: http.MethodPost, Route: "/discovery/v1/assistant/{domain}/message", Detail: `property "parts" is missing`,
		Reason: "the deprecated v1 route reads a message's text from content, and the mock takes a message without the parts the document also requires (AI SDK v4 clients send both)"},
	{Kind: openapicheck.UndocumentedRoute, Method: http.MethodPost, Route: "/v2/workflow/{projectId}/{workflowSchemaId}/webhook",
		Reason: "the webhook route is on the vendor's reference pages but not in the stored documents, which predate it"},
	{Kind: openapicheck.UndocumentedRoute, Method: http.MethodOptions, Route: "/discovery/*",
		Reason: "the CORS preflight a browser sends before it calls the assistant API from a page; the documents describe the calls, not the preflight"},
	{Kind: openapicheck.UndocumentedRoute, Route: "/_mock/*",
		Reason: "the mock's own control routes, for tests; the service has none"},
}

func TestMockConformsToVendorDocuments(t *testing.T) {
	t.Parallel()
	docs, err := openapicheck.Load(vendorDocuments)
	require.NoError(t, err)
	allow, err := openapicheck.NewAllowlist(mockDifferences...)
	require.NoError(t, err)
	x := &conformer{t: t, docs: docs, allow: allow, statuses: map[string]map[int]bool{}}

	clock := NewFakeClock(time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC))
	srv := New(WithClock(clock), WithJobDuration(time.Minute), WithSeed(400), WithoutRateLimits())
	defer srv.Close()
	limited := New(WithClock(clock), WithJobDuration(time.Minute),
		WithJobRateLimit(1, time.Hour), WithAnalyticsRateLimit(1, time.Hour), WithDeployRateLimit(1, time.Hour),
		WithPreviewRateLimit(1, time.Hour), WithAssistantRateLimit(1, time.Hour), WithDocsRateLimit(1, time.Hour),
		WithIndexRateLimit(1, time.Hour))
	defer limited.Close()

	keys := x.restrictedKeys(srv)
	for _, rt := range apiRoutes {
		smp, ok := sampleOf(rt)
		if !ok {
			t.Errorf("route %s has no sample in conformanceSamples: add one, with a request it accepts and the ones it refuses", rt.pattern)
			continue
		}
		if smp.schema == "" && !rt.streams {
			t.Errorf("route %s: its sample names no schema of its answer", rt.pattern)
		}
		x.route = rt
		valid := smp.valid(x, srv)
		x.expect(srv, valid)
		if smp.more != nil {
			smp.more(x, srv)
		}
		x.keyAnswers(srv, valid, keys)
		x.serverErrors(srv, valid)
		if rt.limit != noLimit {
			// The setup of a request may itself be refused there: any
			// status goes until the route's own 429.
			x.lenient = true
			limitedValid := smp.valid(x, limited)
			x.lenient = false
			x.rateLimited(limited, limitedValid)
		}
	}
	for pattern := range conformanceSamples {
		if !slices.ContainsFunc(apiRoutes, func(rt *route) bool { return sameRoute(rt.pattern, pattern) }) {
			t.Errorf("conformanceSamples has %s, which the route table does not serve", pattern)
		}
	}
	x.route = nil
	x.outsideTheTable(srv)

	for _, rt := range apiRoutes {
		seen := slices.Sorted(maps.Keys(x.statuses[rt.name]))
		if !slices.ContainsFunc(seen, func(st int) bool { return st/100 == 2 }) {
			t.Errorf("route %s: no exchange was a success", rt.pattern)
		}
		t.Logf("%-62s answered %v", rt.pattern, seen)
	}
	for _, e := range allow.Unused() {
		t.Errorf("allowlist entry %s matched no exchange: remove it (%s)", e, e.Reason)
	}
	hits := allow.Hits()
	for i, e := range mockDifferences {
		t.Logf("allowed %4d× %s", hits[i], e)
	}
	t.Logf("%d exchanges over %d routes validated against %d documented operations", x.exchanges, len(apiRoutes), len(docs.Operations()))
}

// sample drives one route: valid builds a request the route accepts on a
// server (after any setup it needs), more sends the route's other
// answers: refusals, unknown resources, each state of what it shows.
// schema names the project's JSON Schema of its success
// (testdata/schema), "" for a stream.
type sample struct {
	schema string
	valid  func(x *conformer, s *Server) probe
	more   func(x *conformer, s *Server)
}

// probe is one request and the status the mock must answer it with.
type probe struct {
	method, path, body string
	// auth is the Authorization header's values: nil sends the route's
	// own key, an empty slice none.
	auth   []string
	header map[string]string
	want   int
}

func sampleOf(rt *route) (sample, bool) {
	for pattern, smp := range conformanceSamples {
		if sameRoute(rt.pattern, pattern) {
			return smp, true
		}
	}
	return sample{}, false
}

// sameRoute compares "METHOD /path" patterns whatever their parameters'
// names.
func sameRoute(a, b string) bool {
	am, ap, _ := strings.Cut(a, " ")
	bm, bp, _ := strings.Cut(b, " ")
	return am == bm && openapicheck.RouteMatches(ap, bp) && openapicheck.RouteMatches(bp, ap)
}

// conformer sends probes to servers in process and validates each
// exchange.
type conformer struct {
	t         testing.TB
	docs      *openapicheck.Documents // nil: no exchange is validated
	allow     *openapicheck.Allowlist
	route     *route // the route being sampled, nil outside the table
	lenient   bool   // any status passes
	mu        sync.Mutex
	exchanges int
	statuses  map[string]map[int]bool // by route name
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) decode(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(a.body, v), "body: %.500s", a.body)
}

// expect sends p, checks its status and validates the exchange.
func (x *conformer) expect(s *Server, p probe) answer {
	x.t.Helper()
	a := x.send(s, p)
	if p.want != 0 && a.status != p.want && !x.lenient {
		x.t.Errorf("%s %s: status %d, want %d; body: %.300s", p.method, p.path, a.status, p.want, a.body)
	}
	return a
}

func (x *conformer) send(s *Server, p probe) answer {
	x.t.Helper()
	var body io.Reader = http.NoBody
	if p.body != "" {
		body = strings.NewReader(p.body)
	}
	req, err := http.NewRequestWithContext(context.Background(), p.method, "http://mock.test"+p.path, body)
	require.NoError(x.t, err)
	if p.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	switch {
	case p.auth == nil && x.route != nil:
		req.Header.Set("Authorization", "Bearer "+keyFor(s, x.route.api))
	default:
		for _, v := range p.auth {
			req.Header.Add("Authorization", v)
		}
	}
	for k, v := range p.header {
		req.Header.Set(k, v)
	}
	resp, err := s.Client().Do(req)
	require.NoError(x.t, err, "%s %s", p.method, p.path)
	got, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	require.NoError(x.t, err)
	a := answer{status: resp.StatusCode, header: resp.Header, body: got}

	if x.docs == nil {
		return a
	}
	check := req.Clone(context.Background())
	for _, d := range x.docs.Check(context.Background(), openapicheck.Exchange{
		Request: check, RequestBody: []byte(p.body), Status: a.status, Header: a.header, Body: a.body,
	}) {
		if !x.allow.Allows(d) {
			x.t.Errorf("a difference no allowlist entry names: %s\n  request: %s %s %.300s\n  answer: %.500s", d, p.method, p.path, p.body, a.body)
		}
	}
	x.mu.Lock()
	x.exchanges++
	if x.route != nil {
		if x.statuses[x.route.name] == nil {
			x.statuses[x.route.name] = map[int]bool{}
		}
		x.statuses[x.route.name][a.status] = true
	}
	x.mu.Unlock()
	return a
}

func keyFor(s *Server, api apiKind) string {
	switch api {
	case assistantAPI:
		return s.AssistantKey()
	case indexAPI:
		return s.IndexKey()
	}
	return s.APIKey()
}

// restricted are keys each API refuses one way or another.
type restricted struct {
	readOnly                       string // an admin key without write
	adminIP, assistantIP, indexIP  string // keys of another network
	expiredAdmin, expiredAssistant string
	otherDomain                    string // an assistant key of another site
}

func (x *conformer) restrictedKeys(s *Server) restricted {
	mk := func(spec KeySpec) string {
		k, err := s.NewKey(spec)
		require.NoError(x.t, err)
		return k
	}
	far := []string{"203.0.113.0/24"}
	return restricted{
		readOnly:         mk(KeySpec{Scopes: []Scope{ScopeRead}}),
		adminIP:          mk(KeySpec{AllowIPs: far}),
		assistantIP:      mk(KeySpec{Type: KeyAssistant, AllowIPs: far}),
		indexIP:          mk(KeySpec{Type: KeyIndex, AllowIPs: far}),
		expiredAdmin:     mk(KeySpec{ExpiresAt: s.Now().Add(-time.Hour)}),
		expiredAssistant: mk(KeySpec{Type: KeyAssistant, ExpiresAt: s.Now().Add(-time.Hour)}),
		otherDomain:      mk(KeySpec{Type: KeyAssistant, Domain: "other.example.com"}),
	}
}

// keyAnswers sends the route's valid request with keys it refuses: none,
// an unknown one, one of another API, an expired one, one of another
// network, a read-only one (admin POSTs), one of another site
// (assistant), and two Authorization headers.
func (x *conformer) keyAnswers(s *Server, valid probe, k restricted) {
	with := func(want int, auth ...string) {
		p := valid
		p.auth, p.want = auth, want
		if auth == nil {
			p.auth = []string{}
		}
		x.expect(s, p)
	}
	with(http.StatusUnauthorized)
	with(http.StatusUnauthorized, "Bearer mint_unknownunknownunknown")
	with(http.StatusUnauthorized, "Basic "+keyFor(s, x.route.api))
	with(http.StatusBadRequest, "Bearer "+keyFor(s, x.route.api), "Bearer "+keyFor(s, x.route.api))
	switch x.route.api {
	case adminAPI:
		with(http.StatusUnauthorized, "Bearer "+s.IndexKey())
		with(http.StatusUnauthorized, "Bearer "+k.expiredAdmin)
		with(http.StatusForbidden, "Bearer "+k.adminIP)
		if valid.method == http.MethodPost {
			with(http.StatusForbidden, "Bearer "+k.readOnly)
		}
		if strings.Contains(x.route.path, "{projectId}") {
			p := valid
			segs := strings.Split(p.path, "/")
			segs[slices.Index(segs, s.ProjectID())] = "proj_not_ours"
			p.path, p.want = strings.Join(segs, "/"), http.StatusForbidden
			x.expect(s, p)
		}
	case assistantAPI:
		with(http.StatusUnauthorized, "Bearer "+s.APIKey())
		with(http.StatusUnauthorized, "Bearer "+k.expiredAssistant)
		with(http.StatusForbidden, "Bearer "+k.assistantIP)
		with(http.StatusForbidden, "Bearer "+k.otherDomain)
	case indexAPI:
		with(http.StatusUnauthorized, "Bearer "+s.AssistantKey())
		with(http.StatusForbidden, "Bearer "+k.indexIP)
	}
	if valid.body != "" {
		p := valid
		p.body, p.want = `{"pad":"`+strings.Repeat("x", maxBodyBytes)+`"}`, http.StatusRequestEntityTooLarge
		x.expect(s, p)
	}
}

// serverErrors has the fault rules answer the route's valid request with
// each server error a client retries.
func (x *conformer) serverErrors(s *Server, valid probe) {
	for _, st := range serverStatuses {
		require.NoError(x.t, s.InjectFault(FaultRule{Route: x.route.name, Times: 1, Fault: Fault{Kind: FaultStatus, Status: st}}))
		p := valid
		p.want = st
		x.expect(s, p)
	}
}

// rateLimited sends the route's valid request to a server whose every
// limit is one request an hour until one is refused.
func (x *conformer) rateLimited(s *Server, valid probe) {
	for range 3 {
		if a := x.send(s, valid); a.status == http.StatusTooManyRequests {
			if secs, err := strconv.Atoi(a.header.Get("Retry-After")); err != nil || secs < 0 {
				x.t.Errorf("%s: a 429 without Retry-After in seconds: %q", x.route.pattern, a.header.Get("Retry-After"))
			}
			return
		}
	}
	x.t.Errorf("%s: no 429 after three requests at one an hour", x.route.pattern)
}

// outsideTheTable sends what reaches the mock outside its route table: a
// CORS preflight of the assistant API, and control routes.
func (x *conformer) outsideTheTable(s *Server) {
	x.expect(s, probe{method: http.MethodOptions, path: "/discovery/v2/assistant/" + s.Domain() + "/message", auth: []string{},
		header: map[string]string{"Origin": "https://docs.example.com", "Access-Control-Request-Method": "POST"}, want: http.StatusNoContent})
	x.expect(s, probe{method: http.MethodGet, path: "/_mock/", auth: []string{}, want: http.StatusOK})
	x.expect(s, probe{method: http.MethodPost, path: "/_mock/clock", body: `{"advance":"1s"}`, auth: []string{}, want: http.StatusOK})
}

// The requests of the samples.

// advance moves s's time forward by d, as the control API's clock does.
func (x *conformer) advance(s *Server, d time.Duration) { s.offset.Add(int64(d)) }

func (x *conformer) project(s *Server, suffix string) string {
	return "/v2/agent/" + s.ProjectID() + "/job" + suffix
}

func (x *conformer) analytics(s *Server, route string) string {
	return "/v1/analytics/" + s.ProjectID() + "/" + route
}

// createJob creates a job on s, the run ending as outcome says ("" for
// the default, a pull request).
func (x *conformer) createJob(s *Server, outcome Outcome) string {
	p := probe{method: http.MethodPost, path: x.project(s, ""), body: `{"prompt":"Document the retry option"}`, want: http.StatusCreated}
	if outcome != "" {
		p.header = map[string]string{OutcomeHeader: string(outcome)}
	}
	saved := x.route
	x.route = routeNamed(RouteCreateJob)
	defer func() { x.route = saved }()
	var j struct {
		ID string `json:"id"`
	}
	a := x.expect(s, p)
	if a.status != http.StatusCreated {
		return "job_none"
	}
	a.decode(x.t, &j)
	return j.ID
}

func routeNamed(name string) *route {
	for _, rt := range apiRoutes {
		if rt.name == name {
			return rt
		}
	}
	panic("no route " + name)
}

// via sends p as a request of another route, for a sample's setup.
func (x *conformer) via(s *Server, name string, p probe) answer {
	saved := x.route
	x.route = routeNamed(name)
	defer func() { x.route = saved }()
	return x.expect(s, p)
}

func (x *conformer) statusID(s *Server, outcome Outcome) string {
	p := probe{method: http.MethodPost, path: "/v1/project/update/" + s.ProjectID(), want: http.StatusAccepted}
	if outcome != "" {
		p.header = map[string]string{OutcomeHeader: string(outcome)}
	}
	var out struct {
		StatusID string `json:"statusId"`
	}
	a := x.via(s, RouteTriggerDeployment, p)
	if a.status != http.StatusAccepted {
		return "0000000000000000000000aa"
	}
	a.decode(x.t, &out)
	return out.StatusID
}

func (x *conformer) exportID(s *Server, outcome Outcome) string {
	p := probe{method: http.MethodPost, path: "/v1/static-export/jobs", body: `{"domain":"docs.example.com"}`, want: http.StatusAccepted}
	if outcome != "" {
		p.header = map[string]string{OutcomeHeader: string(outcome)}
	}
	var out struct {
		JobID string `json:"jobId"`
	}
	a := x.via(s, RouteStartStaticExport, p)
	if a.status != http.StatusAccepted {
		return "se_none"
	}
	a.decode(x.t, &out)
	return out.JobID
}

func (x *conformer) automation(s *Server, trigger AutomationTrigger, active bool) string {
	a, err := s.AddAutomation(s.ProjectID(), trigger, active)
	if err != nil {
		return "0123456789abcdef01234567" // the server cannot make one: the request is refused
	}
	return a.ID
}

// threadID is a conversation's thread in s's analytics, one added an
// hour ago if it has none.
func (x *conformer) threadID(s *Server) string {
	if counts, err := s.EventCounts(s.ProjectID()); err == nil && counts.Threads == 0 {
		require.NoError(x.t, s.AddThreads(s.ProjectID(), Thread{Turns: []Turn{{Time: s.Now().Add(-time.Hour), Query: "How do I authenticate?"}}}))
	}
	var page struct {
		Conversations []struct {
			ID string `json:"id"`
		} `json:"conversations"`
	}
	a := x.via(s, RouteConversations, probe{method: http.MethodGet, path: x.analytics(s, "assistant?limit=1"), want: http.StatusOK})
	if a.status == http.StatusOK {
		a.decode(x.t, &page)
	}
	if len(page.Conversations) == 0 {
		return "01HZY6J0V7Q4N2M8K3D5F9G1B0"
	}
	return page.Conversations[0].ID
}

// walk follows a cursor route from its first page of limit rows for up
// to three pages.
func (x *conformer) walk(s *Server, path string) {
	next := ""
	for range 3 {
		p := path
		if next != "" {
			p += "&cursor=" + next
		}
		var page struct {
			NextCursor *string `json:"nextCursor"`
		}
		a := x.expect(s, probe{method: http.MethodGet, path: p, want: http.StatusOK})
		a.decode(x.t, &page)
		if page.NextCursor == nil {
			return
		}
		next = *page.NextCursor
	}
}

const (
	question   = `{"fp":"anonymous","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"How do I authenticate?"}]}]}`
	questionV1 = `{"fp":"anonymous","messages":[{"id":"m1","role":"user","content":"How do I authenticate?","parts":[{"type":"text","text":"How do I authenticate?"}]}]}`
)

func get(path string) probe { return probe{method: http.MethodGet, path: path, want: http.StatusOK} }

func post(path, body string, want int) probe {
	return probe{method: http.MethodPost, path: path, body: body, want: want}
}

// conformanceSamples has a sample for every route of the table, keyed by its
// pattern: the one table of the routes' requests that every test of the
// package takes its routes from (RouteTable, export_test.go).
var conformanceSamples = map[string]sample{
	"POST /v2/agent/{projectId}/job": {schema: "job",
		valid: func(x *conformer, s *Server) probe {
			return post(x.project(s, ""), `{"prompt":"Document the retry option","PROMPT":"","extra":1}`, http.StatusCreated)
		},
		more: func(x *conformer, s *Server) {
			for _, body := range []string{`{}`, `{"prompt":""}`, `{"prompt":7}`, `{"prompt":null}`, `[]`, `not json`, ``} {
				x.expect(s, post(x.project(s, ""), body, http.StatusBadRequest))
			}
		},
	},
	"GET /v2/agent/{projectId}/job/{id}": {schema: "job",
		valid: func(x *conformer, s *Server) probe { return get(x.project(s, "/"+x.createJob(s, ""))) },
		more: func(x *conformer, s *Server) {
			ids := map[Outcome]string{}
			for _, o := range []Outcome{OutcomePullRequest, OutcomeNoChange, OutcomeFailed} {
				ids[o] = x.createJob(s, o)
				x.expect(s, get(x.project(s, "/"+ids[o]))) // active
			}
			archived := x.createJob(s, "")
			for _, id := range ids {
				require.NoError(x.t, s.FinishJob(id))
				x.expect(s, get(x.project(s, "/"+id)))
			}
			require.NoError(x.t, s.ArchiveJob(archived))
			x.expect(s, get(x.project(s, "/"+archived)))
			x.expect(s, probe{method: http.MethodGet, path: x.project(s, "/job_unknown"), want: http.StatusNotFound})
		},
	},
	"POST /v2/agent/{projectId}/job/{id}/message": {schema: "job",
		valid: func(x *conformer, s *Server) probe {
			return post(x.project(s, "/"+x.createJob(s, "")+"/message"), `{"prompt":"Also the timeout"}`, http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			id := x.createJob(s, "")
			x.expect(s, post(x.project(s, "/"+id+"/message"), `{"prompt":""}`, http.StatusBadRequest))
			x.expect(s, post(x.project(s, "/job_unknown/message"), `{"prompt":"x"}`, http.StatusNotFound))
			require.NoError(x.t, s.ArchiveJob(id))
			x.expect(s, post(x.project(s, "/"+id+"/message"), `{"prompt":"x"}`, http.StatusBadRequest))
		},
	},
	"GET /v1/analytics/{projectId}/visitors": {schema: "visitors",
		valid: func(x *conformer, s *Server) probe { return get(x.analytics(s, "visitors")) },
		more: func(x *conformer, s *Server) {
			x.expect(s, get(x.analytics(s, "visitors?limit=2&offset=3&dateFrom=2026-01-01&dateTo=2026-12-31")))
			x.expect(s, get(x.analytics(s, "visitors?dateFrom=2026-03-01T00:00:00Z&dateTo=2026-03-11T00:00:00.000Z")))
			for _, q := range []string{"limit=0", "limit=251", "offset=-1", "dateFrom=yesterday", "dateFrom=2026-03-02&dateTo=2026-03-01"} {
				x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "visitors?"+q), want: http.StatusBadRequest})
			}
		},
	},
	"GET /v1/analytics/{projectId}/views": {schema: "views",
		valid: func(x *conformer, s *Server) probe { return get(x.analytics(s, "views?limit=250")) },
		more: func(x *conformer, s *Server) {
			x.expect(s, get(x.analytics(s, "views?limit=1&offset=1000000")))
			x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "views?limit=x"), want: http.StatusBadRequest})
		},
	},
	"GET /v1/analytics/{projectId}/searches": {schema: "searches",
		valid: func(x *conformer, s *Server) probe { return get(x.analytics(s, "searches")) },
		more: func(x *conformer, s *Server) {
			x.walk(s, x.analytics(s, "searches?limit=2"))
			for _, q := range []string{"limit=101", "cursor=garbage"} {
				x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "searches?"+q), want: http.StatusBadRequest})
			}
		},
	},
	"GET /v1/analytics/{projectId}/feedback": {schema: "feedback",
		valid: func(x *conformer, s *Server) probe { return get(x.analytics(s, "feedback?limit=100")) },
		more: func(x *conformer, s *Server) {
			x.walk(s, x.analytics(s, "feedback?limit=3"))
			for _, src := range []string{"code_snippet", "contextual", "agent", "thumbs_only"} {
				x.expect(s, get(x.analytics(s, "feedback?source="+src+"&status=pending,in_progress,resolved,dismissed")))
			}
			for _, q := range []string{"source=email", "status=open", "limit=101", "cursor=x"} {
				x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "feedback?"+q), want: http.StatusBadRequest})
			}
		},
	},
	"GET /v1/analytics/{projectId}/feedback/by-page": {schema: "feedback-by-page",
		valid: func(x *conformer, s *Server) probe { return get(x.analytics(s, "feedback/by-page")) },
		more: func(x *conformer, s *Server) {
			x.expect(s, get(x.analytics(s, "feedback/by-page?limit=100&source=contextual&status=resolved")))
			x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "feedback/by-page?limit=0"), want: http.StatusBadRequest})
		},
	},
	"GET /v1/analytics/{projectId}/assistant": {schema: "assistant",
		valid: func(x *conformer, s *Server) probe { return get(x.analytics(s, "assistant?limit=1000")) },
		more: func(x *conformer, s *Server) {
			x.walk(s, x.analytics(s, "assistant?limit=2"))
			x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "assistant?limit=1001"), want: http.StatusBadRequest})
		},
	},
	"GET /v1/analytics/{projectId}/assistant/threads/{threadId}": {schema: "thread",
		valid: func(x *conformer, s *Server) probe { return get(x.analytics(s, "assistant/threads/"+x.threadID(s))) },
		more: func(x *conformer, s *Server) {
			x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "assistant/threads/01HZY6J0V7Q4N2M8K3D5F9G1B0"), want: http.StatusNotFound})
			x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "assistant/threads/not-a-ulid"), want: http.StatusBadRequest})
		},
	},
	"GET /v1/analytics/{projectId}/assistant/caller-stats": {schema: "caller-stats",
		valid: func(x *conformer, s *Server) probe { return get(x.analytics(s, "assistant/caller-stats")) },
		more: func(x *conformer, s *Server) {
			x.expect(s, get(x.analytics(s, "assistant/caller-stats?dateFrom=2026-01-01")))
			x.expect(s, probe{method: http.MethodGet, path: x.analytics(s, "assistant/caller-stats?dateTo=someday"), want: http.StatusBadRequest})
		},
	},
	"POST /v1/project/update/{projectId}": {schema: "deployment-trigger",
		valid: func(x *conformer, s *Server) probe {
			return post("/v1/project/update/"+s.ProjectID(), "", http.StatusAccepted)
		},
	},
	"GET /v1/project/update-status/{statusId}": {schema: "deployment",
		valid: func(x *conformer, s *Server) probe { return get("/v1/project/update-status/" + x.statusID(s, "")) },
		more: func(x *conformer, s *Server) {
			ok, failing := x.statusID(s, ""), x.statusID(s, OutcomeFailed)
			preview := x.via(s, RouteTriggerPreview, post("/v1/project/preview/"+s.ProjectID(), `{"branch":"feature/nav"}`, http.StatusAccepted))
			var pv struct {
				StatusID string `json:"statusId"`
			}
			preview.decode(x.t, &pv)
			for range 3 { // queued, in progress, ended
				for _, id := range []string{ok, failing, pv.StatusID} {
					x.expect(s, get("/v1/project/update-status/"+id))
				}
				x.advance(s, 40*time.Second)
			}
			x.expect(s, probe{method: http.MethodGet, path: "/v1/project/update-status/0123456789abcdef01234567", want: http.StatusNotFound})
		},
	},
	"POST /v1/project/preview/{projectId}": {schema: "preview",
		valid: func(x *conformer, s *Server) probe {
			return post("/v1/project/preview/"+s.ProjectID(), `{"branch":"feature/new-nav"}`, http.StatusAccepted)
		},
		more: func(x *conformer, s *Server) {
			for _, body := range []string{`{}`, `{"branch":""}`, `{"branch":"a\u0007b"}`} {
				x.expect(s, post("/v1/project/preview/"+s.ProjectID(), body, http.StatusBadRequest))
			}
			off := New(WithPreviews(false), WithStaticExport(false))
			defer off.Close()
			x.expect(off, post("/v1/project/preview/"+off.ProjectID(), `{"branch":"main"}`, http.StatusForbidden))
		},
	},
	"POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger": {schema: "automation-run",
		valid: func(x *conformer, s *Server) probe {
			return post("/v1/workflow/"+s.ProjectID()+"/"+x.automation(s, TriggerCustomSchedule, true)+"/trigger", "", http.StatusAccepted)
		},
		more: func(x *conformer, s *Server) {
			path := func(id string) string { return "/v1/workflow/" + s.ProjectID() + "/" + id + "/trigger" }
			x.expect(s, post(path("not-hex"), "", http.StatusBadRequest))
			x.expect(s, post(path(x.automation(s, TriggerCustomSchedule, false)), "", http.StatusBadRequest))
			x.expect(s, post(path(x.automation(s, TriggerCodeChange, true)), "", http.StatusBadRequest))
			x.expect(s, post(path("0123456789abcdef01234567"), "", http.StatusNotFound))
		},
	},
	"POST /v2/workflow/{projectId}/{workflowSchemaId}/webhook": {schema: "automation-webhook",
		valid: func(x *conformer, s *Server) probe {
			return post("/v2/workflow/"+s.ProjectID()+"/"+x.automation(s, TriggerWebhook, true)+"/webhook", "", http.StatusAccepted)
		},
		more: func(x *conformer, s *Server) {
			path := func(id string) string { return "/v2/workflow/" + s.ProjectID() + "/" + id + "/webhook" }
			x.expect(s, probe{method: http.MethodPost, path: path(x.automation(s, TriggerCustomSchedule, true)), want: http.StatusNotFound})
			x.expect(s, probe{method: http.MethodPost, path: path("0123456789abcdef01234567"), want: http.StatusNotFound})
		},
	},
	"POST /v1/static-export/jobs": {schema: "static-export-job",
		valid: func(x *conformer, s *Server) probe {
			return post("/v1/static-export/jobs", `{"domain":"docs.example.com","version":"v2","paths":["quickstart","guides/auth"]}`, http.StatusAccepted)
		},
		more: func(x *conformer, s *Server) {
			for _, body := range []string{`{}`, `{"domain":"https://docs.example.com"}`, `{"domain":"docs.example.com","paths":[""]}`} {
				x.expect(s, post("/v1/static-export/jobs", body, http.StatusBadRequest))
			}
			off := New(WithPreviews(false), WithStaticExport(false))
			defer off.Close()
			x.expect(off, post("/v1/static-export/jobs", `{"domain":"docs.example.com"}`, http.StatusForbidden))
		},
	},
	"GET /v1/static-export/jobs/{jobId}": {schema: "static-export-job",
		valid: func(x *conformer, s *Server) probe { return get("/v1/static-export/jobs/" + x.exportID(s, "")) },
		more: func(x *conformer, s *Server) {
			ok, failing := x.exportID(s, ""), x.exportID(s, OutcomeFailed)
			for range 3 {
				x.expect(s, get("/v1/static-export/jobs/"+ok))
				x.expect(s, get("/v1/static-export/jobs/"+failing))
				x.advance(s, 40*time.Second)
			}
			x.expect(s, probe{method: http.MethodGet, path: "/v1/static-export/jobs/se_unknown", want: http.StatusNotFound})
		},
	},
	"POST /v1/static-export/jobs/{jobId}/bundle": {schema: "static-export-bundle",
		valid: func(x *conformer, s *Server) probe {
			id := x.exportID(s, "")
			x.advance(s, 2*time.Minute)
			return post("/v1/static-export/jobs/"+id+"/bundle", "", http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			x.expect(s, post("/v1/static-export/jobs/"+x.exportID(s, "")+"/bundle", "", http.StatusConflict))
			x.expect(s, post("/v1/static-export/jobs/se_unknown/bundle", "", http.StatusNotFound))
		},
	},
	"POST /discovery/v2/assistant/{domain}/message": { // a stream
		valid: func(x *conformer, s *Server) probe {
			return post("/discovery/v2/assistant/"+s.Domain()+"/message", question, http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			path := "/discovery/v2/assistant/" + s.Domain() + "/message"
			a := x.expect(s, post(path, question, http.StatusOK))
			id, key := a.header.Get(ThreadIDHeader), a.header.Get(ThreadKeyHeader)
			follow := fmt.Sprintf(`{"fp":"anonymous","threadId":%q,"threadKey":%q,"retrievalPageSize":3,"currentPath":"/quickstart",`+
				`"filter":{"version":"v2","language":"en"},"context":[{"type":"code","value":"curl -H x","path":"/quickstart"}],`+
				`"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"How do I authenticate?"}]},`+
				`{"id":"m2","role":"assistant","parts":[{"type":"text","text":"Send the key."}]},`+
				`{"id":"m3","role":"user","parts":[{"type":"text","text":"And the rate limits?"}]}]}`, id, key)
			x.expect(s, post(path, follow, http.StatusOK))
			x.expect(s, post(path, `{"fp":"anonymous","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"zebra xylophone quux"}]}]}`, http.StatusOK))
			x.expect(s, post(path, strings.Replace(follow, `"threadKey":`+fmt.Sprintf("%q", key)+`,`, "", 1), http.StatusNotFound))
			for _, body := range []string{`{}`, `{"fp":"a","messages":[]}`, `{"fp":"a","retrievalPageSize":0,"messages":[{"id":"m","role":"user","parts":[{"type":"text","text":"q"}]}]}`,
				`{"fp":"a","messages":[{"id":"m","role":"assistant","parts":[{"type":"text","text":"q"}]}]}`} {
				x.expect(s, post(path, body, http.StatusBadRequest))
			}
		},
	},
	"POST /discovery/v1/assistant/{domain}/message": { // a stream
		valid: func(x *conformer, s *Server) probe {
			return post("/discovery/v1/assistant/"+s.Domain()+"/message", questionV1, http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			path := "/discovery/v1/assistant/" + s.Domain() + "/message"
			x.expect(s, post(path, `{"fp":"anonymous","messages":[{"id":"m1","role":"user","content":"How do I authenticate?"}]}`, http.StatusOK))
			x.expect(s, post(path, `{"fp":"a"}`, http.StatusBadRequest))
		},
	},
	"POST /discovery/v1/search/{domain}": {schema: "docs-search",
		valid: func(x *conformer, s *Server) probe {
			return post("/discovery/v1/search/"+s.Domain(), `{"query":"authentication"}`, http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			path := "/discovery/v1/search/" + s.Domain()
			x.expect(s, post(path, `{"query":"rate limits","pageSize":50,"scoreThreshold":0.1,"filter":{"version":"v2","language":"en","tag":"api","groups":["staff"]}}`, http.StatusOK))
			x.expect(s, post(path, `{"query":"zebra xylophone quux","pageSize":1}`, http.StatusOK))
			for _, body := range []string{`{}`, `{"query":""}`, `{"query":"q","pageSize":51}`, `{"query":"q","scoreThreshold":2}`} {
				x.expect(s, post(path, body, http.StatusBadRequest))
			}
		},
	},
	"POST /discovery/v1/page/{domain}": {schema: "page-content",
		valid: func(x *conformer, s *Server) probe {
			return post("/discovery/v1/page/"+s.Domain(), `{"path":"quickstart"}`, http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			path := "/discovery/v1/page/" + s.Domain()
			x.expect(s, post(path, `{"path":"/authentication","groups":["staff"]}`, http.StatusOK))
			x.expect(s, post(path, `{"path":"no/such/page"}`, http.StatusNotFound))
			x.expect(s, post(path, `{}`, http.StatusBadRequest))
		},
	},
	"POST /api/universal-search/v1/context": {schema: "index-context",
		valid: func(x *conformer, s *Server) probe {
			return post("/api/universal-search/v1/context", `{"query":"How do I cache pages?","format":"txt"}`, http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			path := "/api/universal-search/v1/context"
			x.expect(s, post(path, `{"query":"rate limits","format":"json","tokenBudget":200,"product":"Example","includeDomains":["docs.example.com"],"excludeDomains":["blog.example.org"]}`, http.StatusOK))
			x.expect(s, post(path, `{"query":"zebra xylophone quux","format":"txt"}`, http.StatusOK))
			for _, body := range []string{`{"query":"q"}`, `{"query":"q","format":"md"}`, `{"query":"q","format":"txt","tokenBudget":6001}`, `{"query":"q","format":"txt","extra":1}`} {
				x.expect(s, post(path, body, http.StatusBadRequest))
			}
		},
	},
	"POST /api/universal-search/v1/search": {schema: "index-search",
		valid: func(x *conformer, s *Server) probe {
			return post("/api/universal-search/v1/search", `{"query":"caching","numResults":5}`, http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			path := "/api/universal-search/v1/search"
			x.expect(s, post(path, `{"query":"authentication","numResults":20,"text":true}`, http.StatusOK))
			x.expect(s, post(path, `{"query":"deployment","numResults":3,"text":{"maxCharacters":40},"excludeDomains":["blog.example.org"]}`, http.StatusOK))
			for _, body := range []string{`{"query":"q"}`, `{"query":"q","numResults":21}`, `{"query":"q","numResults":2,"text":{}}`, `{"query":"q","numResults":2,"Query":"x"}`} {
				x.expect(s, post(path, body, http.StatusBadRequest))
			}
		},
	},
	"POST /api/universal-search/v1/contents": {schema: "index-contents",
		valid: func(x *conformer, s *Server) probe {
			var found struct {
				Results []struct {
					ID, URL string
				} `json:"results"`
			}
			a := x.via(s, RouteIndexSearch, post("/api/universal-search/v1/search", `{"query":"caching","numResults":2}`, http.StatusOK))
			a.decode(x.t, &found)
			ids := []string{"example:/none"}
			for _, r := range found.Results {
				ids = append(ids, r.ID)
			}
			body, _ := json.Marshal(map[string]any{"ids": ids, "urls": []string{"https://nowhere.example/gone"}, "maxCharacters": 100, "query": "cache"})
			return post("/api/universal-search/v1/contents", string(body), http.StatusOK)
		},
		more: func(x *conformer, s *Server) {
			path := "/api/universal-search/v1/contents"
			for _, body := range []string{`{}`, `{"ids":[]}`, `{"ids":["` + strings.Repeat(`a","`, 20) + `a"]}`, `{"urls":["not a url"]}`} {
				x.expect(s, post(path, body, http.StatusBadRequest))
			}
		},
	},
}
