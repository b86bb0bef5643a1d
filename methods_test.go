package mintlify_test

// The method table: every call the SDK makes to the API, once, with all
// that the checks of this package need to know about it, in its row (its
// request, answers, bounds, refused input, polling). hostile_test.go,
// retry_test.go, validation_test.go, walk_test.go, poll_test.go,
// fuzz_test.go, conformance_test.go, index_calls_test.go and the key and
// ID checks against the mock (security_test.go, deployments_e2e_test.go)
// range over it, so a new method is one row here (a list route is one
// listRoute, three rows) and inherits every check. DownloadStaticExport
// talks to the storage host, not the API: download_test.go gives it the
// same checks.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

const (
	// testKey is long and distinctive, so that any piece of it showing up
	// in an error or a log line is certainly a leak.
	testKey     = "mint_sk_live_7hQ2pX9vLr4TzW8mN3bKc5yJ"
	testProject = "proj_42"
	testBase    = "https://api.example.test"
	testThread  = "01HZY6J0V7Q4N2M8K3D5F9G1B0"
)

// call makes one SDK call the way a user would; a walk runs to its end.
type call func(ctx context.Context, c *mintlify.Client) (any, error)

// method is one row of the table.
type method struct {
	name string // as a user calls it
	verb string // the HTTP method it sends
	// route is the path as the vendor documents it, relative to the base
	// URL; the call sends it with the client's project for {projectId} and
	// the row's id for the other braces. query is its first request's
	// query and reqBody its JSON body ("" for none).
	route, query, reqBody string
	// creates marks a POST under the no-duplicate rule: it is never sent
	// twice where the server may have acted, and a lost answer is
	// ErrOutcomeUnknown.
	creates bool
	status  int    // the documented success status
	also    int    // a second success status the route may answer, 0 for none
	good    string // a documented answer: terminal for a poller, the last page of a walk
	// required are the answer's top-level keys whose absence, null (unless
	// nullable) or wrong type make it malformed.
	required, nullable []string
	idKey, id          string // the answer's key naming the resource, and the one asked for
	cursor, hasMore    bool   // a cursor route (nextCursor), with hasMore where set
	schema             string // the project's JSON Schema of the answer (analytics routes)
	// nested are malformed values deep in good, as "dotted.path=raw JSON"
	// ("views.0.total=2.5"); "-" removes the key; a leading "~" marks a
	// value the schema allows that the SDK still refuses.
	nested  []string
	secret  string          // a piece of good that no error may quote (a link's signature)
	invalid map[string]call // input the API refuses: ErrInvalidInput before any request
	call    call
	do      bool // Client.Do: any JSON of any 2xx is a success
	poll    bool // a poller: several reads
	// walk is an iterator from a position; page answers numbered rows.
	walk func(ctx context.Context, c *mintlify.Client, offset int, cursor string) iter.Seq2[any, error]
	page func(rows []int, next string, more bool) string
	ok   func(v any) string // what a success must hold ("" when it does), for the fuzzer

	// bareArray marks an answer that is a bare JSON array ([] is an empty
	// success); stream one that is read as it arrives (see
	// assistant_methods_test.go for the checks that skip it).
	bareArray, stream bool

	// apiPrefix is the path of the row's API under a server that serves
	// all three: "" for the admin API, "/discovery" for the assistant's,
	// "/api/universal-search" for the Index.
	apiPrefix string
	// arg is the call with s as the one string a user types into it (an
	// ID, a domain, a page's path); badArgs are those it refuses before
	// sending. A row with arg and no call calls arg with id.
	arg     func(ctx context.Context, c *mintlify.Client, s string) (any, error)
	badArgs []string
	// index is the call on an IndexClient (the Index rows); a row with
	// index and no call calls it on IndexClientOf(c).
	index func(ctx context.Context, x *mintlify.IndexClient) (any, error)
	// poller is a poller's own behaviour (poll_test.go); a row with a
	// poller and no call polls quickly, and refuses pollInvalid too.
	poller *poller
	// bounds are the documented bounds of the answer's arrays, by dotted
	// path: that many elements are read, one more is malformed.
	bounds map[string]int
}

// poller is one of the three pollers: how to poll, how its answers look in
// a state, which states run and which end.
type poller struct {
	poll              func(ctx context.Context, c *mintlify.Client, opts ...mintlify.PollOption) (any, error)
	answer            func(status string) string
	observe           func(fn func(v any, status string)) mintlify.PollOption
	running, terminal []string
	unknown           string // a status the vendor may add: kept, not terminal
}

// complete derives what a row leaves out from what it gives: its call
// from arg, index or poller, and the refusals of badArgs and of the poll
// options.
func complete(ms []method) []method {
	for i := range ms {
		m := &ms[i]
		switch {
		case m.call != nil:
		case m.poller != nil:
			poll := m.poller.poll
			m.call = func(ctx context.Context, c *mintlify.Client) (any, error) { return poll(ctx, c, quickPoll...) }
		case m.arg != nil:
			arg, id := m.arg, m.id
			m.call = func(ctx context.Context, c *mintlify.Client) (any, error) { return arg(ctx, c, id) }
		case m.index != nil:
			index := m.index
			m.call = func(ctx context.Context, c *mintlify.Client) (any, error) {
				return index(ctx, mintlify.IndexClientOf(c))
			}
		}
		invalid := map[string]call{}
		if m.arg != nil {
			invalid = withArgs(m.arg, m.badArgs...)
		}
		if m.poller != nil {
			invalid = merge(invalid, pollInvalid(m.poller.poll))
		}
		m.invalid = merge(m.invalid, invalid)
	}
	return ms
}

// onAPI puts rows on the API whose path prefix is prefix.
func onAPI(prefix string, ms []method) []method {
	for i := range ms {
		ms[i].apiPrefix = prefix
	}
	return ms
}

// path is the row's route as its call sends it, escaped, for project.
func (m method) path(project string) string {
	return routeID.ReplaceAllLiteralString(strings.ReplaceAll(m.route, "{projectId}", url.PathEscape(project)), m.id)
}

var routeID = regexp.MustCompile(`\{[a-zA-Z]+\}`)

// takesID reports a row whose argument is an ID in its path.
func (m method) takesID() bool {
	return m.arg != nil && routeID.MatchString(strings.NewReplacer("{projectId}", "", "{domain}", "").Replace(m.route))
}

// takesAnyID reports a row that refuses only the empty ID and dot
// segments: every other ID is sent, escaped into one path segment.
func (m method) takesAnyID() bool {
	return m.takesID() && !slices.ContainsFunc(m.badArgs, func(s string) bool { return s != "" && s != "." && s != ".." })
}

// quickPoll polls every millisecond or two.
var quickPoll = []mintlify.PollOption{mintlify.WithPollInterval(time.Millisecond), mintlify.WithMaxPollInterval(2 * time.Millisecond)}

const (
	goodJob = `{"id":"job_1","status":"completed","source":{"repository":"https://github.com/acme/docs","ref":"main"},` +
		`"model":"claude-sonnet-4","prLink":"https://github.com/acme/docs/pull/7","createdAt":"2025-03-04T05:06:07Z","archivedAt":"2025-03-05T05:06:07Z"}`
	goodTraffic = `{"totals":{"human":3,"ai":2,"total":4},"%s":[{"path":"/a","human":2,"ai":1,"total":2}],"hasMore":false}`
	goodSearch  = `{"searches":[{"searchQuery":"install","hits":3,"ctr":0.5,"topClickedPage":"/a","lastSearchedAt":"2025-01-02T03:04:05Z"}],"totalSearches":3,"nextCursor":null}`
	goodFB      = `{"feedback":[{"id":"fb_1","path":"/a","comment":"nice","createdAt":"2025-01-02T03:04:05Z","source":"contextual","status":"pending","helpful":true,"contact":"a@b.c"}],"nextCursor":null,"hasMore":false}`
	goodByPage  = `{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":0,"code":0,"total":1}],"hasMore":false}`
	goodConv    = `{"conversations":[{"id":"` + testThread + `","timestamp":"2025-01-02T03:04:05Z","query":"how?","response":"so","responseType":"answer","sources":[{"title":"Intro","url":"https://d/a"}],"resolutionStatus":"answered","queryCategory":"setup","pageUrl":"https://d/a"}],"nextCursor":null,"hasMore":false}`
	goodThread  = `{"threadId":"` + testThread + `","createdAt":"2025-01-02T03:04:05Z","messages":[{"id":"01HZY6J0V7Q4N2M8K3D5F9G1B1","role":"user","content":"how?","createdAt":"2025-01-02T03:04:05Z"},` +
		`{"id":"01HZY6J0V7Q4N2M8K3D5F9G1B2","role":"assistant","content":"so","createdAt":"2025-01-02T03:04:06Z"}]}`
	goodCallers = `{"web":1,"api":2,"other":0,"total":3}`
	goodDeploy  = `{"_id":"st_1","projectId":"proj_42","createdAt":"2026-03-04T05:06:07Z","endedAt":"2026-03-04T05:08:09Z","status":"success","summary":"ok","logs":["built"],"subdomain":"acme","screenshot":"https://s/1.png","screenshotLight":"https://s/l.png","screenshotDark":"https://s/d.png","author":{"name":"Ada","avatarUrl":"https://a/ada.png","githubUserId":7},"commit":{"sha":"abc","ref":"main","message":"docs","filesChanged":{"added":["a.mdx"],"modified":["b.mdx"],"removed":["c.mdx"]}},"source":"api"}`
	goodExport  = `{"jobId":"exp_1","status":"completed","progress":100,"pageCount":3,"createdAt":"2026-03-04T05:06:07Z","updatedAt":"2026-03-04T05:08:09Z","error":null}`
	linkSecret  = "9f86d081884c7d659a2feaa0c55ad015"
	goodBundle  = `{"jobId":"exp_1","bundleUrl":"https://storage.test/b.tgz?X-Amz-Signature=` + linkSecret + `","sizeBytes":10,"expiresAt":"2099-01-01T00:00:00Z"}`
)

// isStatus reports a status an answer may carry: a token of lower-case
// letters, digits, _ and -, 1 to 64 bytes (the documented ones, and any the
// vendor may add); anything else in an answer is malformed.
func isStatus[S ~string](s S) bool { return statusToken.MatchString(string(s)) }

var statusToken = regexp.MustCompile(`^[a-z0-9_-]{1,64}$`)

// pollInvalid are the poll options every poller refuses before reading.
func pollInvalid(poll func(ctx context.Context, c *mintlify.Client, opts ...mintlify.PollOption) (any, error)) map[string]call {
	with := func(opts ...mintlify.PollOption) call {
		return func(ctx context.Context, c *mintlify.Client) (any, error) { return poll(ctx, c, opts...) }
	}
	return map[string]call{
		"zero interval":            with(mintlify.WithPollInterval(0)),
		"negative interval":        with(mintlify.WithPollInterval(-time.Second)),
		"maximum below first":      with(mintlify.WithPollInterval(10*time.Millisecond), mintlify.WithMaxPollInterval(5*time.Millisecond)),
		"zero maximum":             with(mintlify.WithMaxPollInterval(0)),
		"first above default max":  with(mintlify.WithPollInterval(time.Minute)),
		"maximum above a day":      with(mintlify.WithMaxPollInterval(25 * time.Hour)),
		"observer of another type": with(mintlify.WithPollObserver(func(*mintlify.ThreadMessage) {})),
	}
}

// withArgs calls fn once per argument: the invalid inputs of a method
// taking one.
func withArgs(fn func(ctx context.Context, c *mintlify.Client, s string) (any, error), args ...string) map[string]call {
	out := map[string]call{}
	for _, s := range args {
		out[fmt.Sprintf("argument %q", s)] = func(ctx context.Context, c *mintlify.Client) (any, error) { return fn(ctx, c, s) }
	}
	return out
}

func merge(ms ...map[string]call) map[string]call {
	out := map[string]call{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// sameID checks that an answer is about the resource asked for.
func sameID(got, want string) string {
	if got != want {
		return fmt.Sprintf("an answer about %q, not %q", got, want)
	}
	return ""
}

var jobMethods = jobAnswers([]method{
	{name: "CreateJob", verb: http.MethodPost, route: "/v2/agent/{projectId}/job", creates: true, status: 201,
		reqBody: `{"prompt":"Document the \"retry\" <option> & more"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.CreateJob(ctx, `Document the "retry" <option> & more`)
		},
		invalid: map[string]call{"empty prompt": func(ctx context.Context, c *mintlify.Client) (any, error) { return c.CreateJob(ctx, "") }},
		ok: func(v any) string {
			if j := v.(*mintlify.Job); j.ID == "" || !isStatus(j.Status) {
				return "a job without an id or a status"
			}
			return ""
		}},
	{name: "GetJob", verb: http.MethodGet, route: "/v2/agent/{projectId}/job/{jobId}", status: 200, idKey: "id", id: "job_1",
		arg:     func(ctx context.Context, c *mintlify.Client, id string) (any, error) { return c.GetJob(ctx, id) },
		badArgs: []string{"", ".", ".."},
		ok:      func(v any) string { return sameID(v.(*mintlify.Job).ID, "job_1") }},
	{name: "SendMessage", verb: http.MethodPost, route: "/v2/agent/{projectId}/job/{jobId}/message", creates: true, status: 200, idKey: "id", id: "job_1",
		reqBody: `{"prompt":"Also fix the typo\nplease ü"}`,
		arg: func(ctx context.Context, c *mintlify.Client, id string) (any, error) {
			return c.SendMessage(ctx, id, "Also fix the typo\nplease ü")
		},
		badArgs: []string{"", ".."},
		invalid: map[string]call{"empty prompt": func(ctx context.Context, c *mintlify.Client) (any, error) { return c.SendMessage(ctx, "job_1", "") }},
		ok:      func(v any) string { return sameID(v.(*mintlify.Job).ID, "job_1") }},
	{name: "PollJob", verb: http.MethodGet, route: "/v2/agent/{projectId}/job/{jobId}", status: 200, idKey: "id", id: "job_1",
		arg: func(ctx context.Context, c *mintlify.Client, id string) (any, error) {
			return c.PollJob(ctx, id, quickPoll...)
		},
		badArgs: []string{"", "."},
		poller: &poller{
			poll: func(ctx context.Context, c *mintlify.Client, opts ...mintlify.PollOption) (any, error) {
				return c.PollJob(ctx, "job_1", opts...)
			},
			answer: func(s string) string { return `{"id":"job_1","status":"` + s + `"}` },
			observe: func(fn func(any, string)) mintlify.PollOption {
				return mintlify.WithPollObserver(func(j *mintlify.Job) { fn(j, string(j.Status)) })
			},
			running: []string{"active", "active"}, terminal: []string{"completed", "archived", "failed"}, unknown: "queued"},
		ok: func(v any) string {
			if j := v.(*mintlify.Job); !j.Status.Terminal() || j.ID != "job_1" {
				return "a poll that ended before a terminal status, or on another job"
			}
			return ""
		}},
})

// jobAnswers gives the job methods their answer: a job.
func jobAnswers(ms []method) []method {
	for i := range ms {
		ms[i].good, ms[i].required = goodJob, []string{"id", "status"}
		// A job's times are date-times in the vendor schema.
		ms[i].nested = []string{`createdAt="yesterday"`, `archivedAt=7`, `source="x"`, `source.repository=7`}
	}
	return ms
}

// listRoute is one analytics list route: its GetX, XPages and X methods.
type listRoute struct {
	get, pages, rows string // the three methods' names
	path             string // under /v1/analytics/{projectId}/
	max              int    // the largest page, which the iterators ask for by default
	cursor, hasMore  bool
	good, schema     string
	required         []string
	nullable         []string
	nested           []string
	bounds           map[string]int // of GetX's answer
	page             func(rows []int, next string, more bool) string
}

// listMethods makes the rows of a list route from its params type: at is
// the params of a walk from a position, bad the params the API refuses.
func listMethods[P, Pg, R any](l listRoute, at func(offset int, cursor string) P, bad map[string]P,
	get func(*mintlify.Client, context.Context, P) (*Pg, error),
	pages func(*mintlify.Client, context.Context, P) iter.Seq2[*Pg, error],
	rows func(*mintlify.Client, context.Context, P) iter.Seq2[R, error],
	ok func(*Pg) string) []method {
	base := method{verb: http.MethodGet, route: "/v1/analytics/{projectId}/" + l.path, status: 200, good: l.good,
		required: l.required, nullable: l.nullable, cursor: l.cursor, hasMore: l.hasMore, schema: l.schema, nested: l.nested}
	one := base
	one.name, one.bounds = l.get, l.bounds
	one.call = func(ctx context.Context, c *mintlify.Client) (any, error) { return get(c, ctx, at(0, "")) }
	one.ok = func(v any) string { return ok(v.(*Pg)) }
	one.invalid = map[string]call{}
	for name, p := range bad {
		one.invalid[name] = func(ctx context.Context, c *mintlify.Client) (any, error) { return get(c, ctx, p) }
	}
	walker := func(name string, seq func(c *mintlify.Client, ctx context.Context, p P) iter.Seq2[any, error]) method {
		m := base
		m.name, m.page, m.query = name, l.page, fmt.Sprintf("limit=%d", l.max)
		m.ok = func(any) string { return "" } // its pages decode as GetX's answer does
		m.walk = func(ctx context.Context, c *mintlify.Client, offset int, cursor string) iter.Seq2[any, error] {
			return seq(c, ctx, at(offset, cursor))
		}
		m.call = func(ctx context.Context, c *mintlify.Client) (any, error) { return drain(m.walk(ctx, c, 0, "")) }
		m.invalid = map[string]call{}
		for name, p := range bad {
			m.invalid[name] = func(ctx context.Context, c *mintlify.Client) (any, error) { return drain(seq(c, ctx, p)) }
		}
		return m
	}
	return []method{one,
		walker(l.pages, func(c *mintlify.Client, ctx context.Context, p P) iter.Seq2[any, error] {
			return erase(pages(c, ctx, p))
		}),
		walker(l.rows, func(c *mintlify.Client, ctx context.Context, p P) iter.Seq2[any, error] {
			return erase(rows(c, ctx, p))
		}),
	}
}

// drain runs a walk to its end: the number of items, or the error that
// ended it. Anything yielded after an error is errAfterError.
func drain(seq iter.Seq2[any, error]) (any, error) {
	n := 0
	var first error
	for _, err := range seq {
		if first != nil {
			return nil, errAfterError
		}
		if err != nil {
			first = err
			continue
		}
		n++
	}
	if first != nil {
		return nil, first
	}
	return n, nil
}

var errAfterError = errors.New("test: the walk yielded again after an error")

func joinRows(rows []int, row func(i int) string) string {
	parts := make([]string, len(rows))
	for j, i := range rows {
		parts[j] = row(i)
	}
	return strings.Join(parts, ",")
}

func jsonCursor(next string) string {
	if next == "" {
		return "null"
	}
	return fmt.Sprintf("%q", next)
}

// trafficNested are the malformed values of a visitors or views answer.
func trafficNested(rows string) []string {
	return []string{`totals.human="3"`, `totals.total=1.5`, `totals.total=-`, `totals=null`,
		rows + `.0.path=7`, rows + `.0.path=null`, rows + `.0.human=null`, rows + `.0.human=1.5`, rows + `.0.total=2.5`,
		rows + `.0.total=-`, rows + `.0.ai="1"`, rows + `.0=null`, rows + `="x"`, `hasMore="no"`}
}

func trafficPage(rows string) func([]int, string, bool) string {
	return func(ids []int, _ string, more bool) string {
		return fmt.Sprintf(`{"totals":{"human":1,"ai":1,"total":2},"%s":[%s],"hasMore":%t}`, rows,
			joinRows(ids, func(i int) string { return fmt.Sprintf(`{"path":"/p%d","human":1,"ai":0,"total":1}`, i) }), more)
	}
}

// badRange is a date range every analytics route refuses.
var badDay = time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)

var analyticsMethods = slices.Concat(
	listMethods(listRoute{get: "GetVisitors", pages: "VisitorPages", rows: "Visitors", path: "visitors", max: 250, hasMore: true,
		good: fmt.Sprintf(goodTraffic, "visitors"), schema: "visitors", required: []string{"totals", "visitors", "hasMore"},
		nested: trafficNested("visitors"), page: trafficPage("visitors"), bounds: map[string]int{"visitors": 250}},
		func(o int, _ string) mintlify.VisitorsParams { return mintlify.VisitorsParams{Offset: o} },
		map[string]mintlify.VisitorsParams{
			"negative limit": {Limit: -1}, "limit above 250": {Limit: 251}, "negative offset": {Offset: -1},
			"empty range": {DateFrom: badDay, DateTo: badDay}, "reversed range": {DateFrom: badDay, DateTo: badDay.AddDate(0, 0, -1)},
			"the same instant in two zones": {DateFrom: badDay, DateTo: badDay.In(time.FixedZone("X", 3600))},
			// Sent as "2024-05-01", which the server reads as UTC midnight: after DateTo.
			"a local midnight sent as a later UTC day": {DateFrom: time.Date(2024, 5, 1, 0, 0, 0, 0, time.FixedZone("E", 5*3600)),
				DateTo: time.Date(2024, 4, 30, 20, 0, 0, 0, time.UTC)},
			"a year RFC 3339 cannot write":        {DateTo: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
			"a year RFC 3339 cannot write in UTC": {DateTo: time.Date(9999, 12, 31, 23, 30, 0, 0, time.FixedZone("W", -3600))},
		},
		(*mintlify.Client).GetVisitors, (*mintlify.Client).VisitorPages, (*mintlify.Client).Visitors,
		func(p *mintlify.VisitorsPage) string { return nonNil(p.Visitors != nil, "visitors") }),
	listMethods(listRoute{get: "GetViews", pages: "ViewPages", rows: "Views", path: "views", max: 250, hasMore: true,
		good: fmt.Sprintf(goodTraffic, "views"), schema: "views", required: []string{"totals", "views", "hasMore"},
		nested: trafficNested("views"), page: trafficPage("views"), bounds: map[string]int{"views": 250}},
		func(o int, _ string) mintlify.ViewsParams { return mintlify.ViewsParams{Offset: o} },
		map[string]mintlify.ViewsParams{"limit 251": {Limit: 251}, "negative limit": {Limit: -1}, "negative offset": {Offset: -1},
			"empty range": {DateFrom: badDay, DateTo: badDay}},
		(*mintlify.Client).GetViews, (*mintlify.Client).ViewPages, (*mintlify.Client).Views,
		func(p *mintlify.ViewsPage) string { return nonNil(p.Views != nil, "views") }),
	listMethods(listRoute{get: "GetSearches", pages: "SearchPages", rows: "Searches", path: "searches", max: 100, cursor: true,
		good: goodSearch, schema: "searches", required: []string{"searches", "totalSearches", "nextCursor"}, nullable: []string{"nextCursor"},
		nested: []string{`searches.0.hits="3"`, `searches.0.hits=3.5`, `searches.0.ctr="0.5"`, `searches.0.lastSearchedAt=7`,
			`searches.0.searchQuery=null`, `searches.0=null`, `searches.0.topClickedPage=7`, `searches.0.topClickedPage=-`, `totalSearches=1.5`},
		bounds: map[string]int{"searches": 100},
		page: func(ids []int, next string, _ bool) string {
			return fmt.Sprintf(`{"searches":[%s],"totalSearches":9,"nextCursor":%s}`, joinRows(ids, func(i int) string {
				return fmt.Sprintf(`{"searchQuery":"q%d","hits":3,"ctr":0.5,"topClickedPage":null,"lastSearchedAt":"2025-01-01T00:00:00Z"}`, i)
			}), jsonCursor(next))
		}},
		func(_ int, c string) mintlify.SearchesParams { return mintlify.SearchesParams{Cursor: c} },
		map[string]mintlify.SearchesParams{"limit 101": {Limit: 101}, "reversed range": {DateFrom: badDay, DateTo: badDay.AddDate(0, 0, -1)}},
		(*mintlify.Client).GetSearches, (*mintlify.Client).SearchPages, (*mintlify.Client).Searches,
		func(p *mintlify.SearchesPage) string { return nonNil(p.Searches != nil, "searches") }),
	listMethods(listRoute{get: "GetFeedback", pages: "FeedbackPages", rows: "Feedback", path: "feedback", max: 100, cursor: true, hasMore: true,
		good: goodFB, schema: "feedback", required: []string{"feedback", "nextCursor", "hasMore"}, nullable: []string{"nextCursor"},
		nested: []string{`feedback.0.id=7`, `~feedback.0.id=""`, `feedback.0.id=null`, `feedback.0.status=null`, `feedback.0=null`,
			`feedback.0.createdAt=7`, `feedback.0.path=["a"]`, `feedback.0.comment=-`, `hasMore=1`},
		bounds: map[string]int{"feedback": 100},
		page: func(ids []int, next string, more bool) string {
			return fmt.Sprintf(`{"feedback":[%s],"nextCursor":%s,"hasMore":%t}`, joinRows(ids, func(i int) string {
				return fmt.Sprintf(`{"id":"f%d","path":"/p","comment":null,"createdAt":null,"source":"agent","status":"pending"}`, i)
			}), jsonCursor(next), more)
		}},
		func(_ int, c string) mintlify.FeedbackParams { return mintlify.FeedbackParams{Cursor: c} },
		map[string]mintlify.FeedbackParams{"limit 101": {Limit: 101}, "unknown source": {Source: "email"},
			"source in the wrong case": {Source: "Contextual"}, "unknown status": {Statuses: []mintlify.FeedbackStatus{"pending", "open"}},
			"empty status": {Statuses: []mintlify.FeedbackStatus{""}}, "a comma list as one status": {Statuses: []mintlify.FeedbackStatus{"pending,resolved"}}},
		(*mintlify.Client).GetFeedback, (*mintlify.Client).FeedbackPages, (*mintlify.Client).Feedback,
		func(p *mintlify.FeedbackPage) string {
			for _, f := range p.Feedback {
				switch {
				case f.ID == "":
					return "an entry without an id: the repeat filter would drop the next one"
				case f.Source != mintlify.FeedbackContextual && (f.Helpful != nil || f.Contact != ""):
					return "contextual fields on another source"
				case f.Source != mintlify.FeedbackCodeSnippet && (f.Code != "" || f.Filename != "" || f.Lang != ""):
					return "code fields on another source"
				}
			}
			return ""
		}),
	listMethods(listRoute{get: "GetConversations", pages: "ConversationPages", rows: "Conversations", path: "assistant", max: 1000, cursor: true, hasMore: true,
		good: goodConv, schema: "assistant", required: []string{"conversations", "nextCursor", "hasMore"}, nullable: []string{"nextCursor"},
		nested: []string{`conversations.0.sources="x"`, `conversations.0.sources=-`, `conversations.0.sources.0.url=7`, `conversations.0.sources.0.url=-`,
			`conversations.0.sources.0=null`, `conversations.0.responseType=null`, `conversations.0.timestamp=null`, `conversations.0=null`,
			`conversations.0.id=7`, `conversations.0.id=""`},
		bounds: map[string]int{"conversations": 1000, "conversations.0.sources": 100},
		// Every turn belongs to one thread: the walk must tell them apart
		// by timestamp, not by ID.
		page: func(ids []int, next string, more bool) string {
			return fmt.Sprintf(`{"conversations":[%s],"nextCursor":%s,"hasMore":%t}`, joinRows(ids, func(i int) string {
				return fmt.Sprintf(`{"id":"01J0000000000000000000THRD","timestamp":"2025-01-01T00:%02d:%02dZ",`+
					`"query":"q","response":"r","sources":[],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}`, i/60, i%60)
			}), jsonCursor(next), more)
		}},
		func(_ int, c string) mintlify.ConversationsParams { return mintlify.ConversationsParams{Cursor: c} },
		map[string]mintlify.ConversationsParams{"limit 1001": {Limit: 1001}, "reversed range": {DateFrom: badDay, DateTo: badDay.AddDate(0, 0, -1)}},
		(*mintlify.Client).GetConversations, (*mintlify.Client).ConversationPages, (*mintlify.Client).Conversations,
		func(p *mintlify.ConversationsPage) string {
			for _, cv := range p.Conversations {
				if cv.ID == "" || cv.ResponseType == "" || cv.Sources == nil {
					return "a turn without id, responseType or sources"
				}
			}
			return ""
		}),
	[]method{
		{name: "GetFeedbackByPage", verb: http.MethodGet, route: "/v1/analytics/{projectId}/feedback/by-page", status: 200, good: goodByPage,
			schema: "feedback-by-page", required: []string{"feedback", "hasMore"},
			nested: []string{`feedback.0.total="1"`, `feedback.0.total=-`, `feedback.0.path=null`, `feedback.0.code=0.5`, `feedback.0=null`},
			bounds: map[string]int{"feedback": 100},
			call: func(ctx context.Context, c *mintlify.Client) (any, error) {
				return c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{})
			},
			invalid: byPageInvalid(map[string]mintlify.FeedbackByPageParams{"limit 101": {Limit: 101}, "unknown source": {Source: "x"},
				"unknown status": {Statuses: []mintlify.FeedbackStatus{"done"}}, "empty range": {DateFrom: badDay, DateTo: badDay}}),
			ok: func(any) string { return "" }},
		{name: "GetThread", verb: http.MethodGet, route: "/v1/analytics/{projectId}/assistant/threads/{threadId}", status: 200, good: goodThread,
			schema: "thread", required: []string{"threadId", "createdAt", "messages"}, idKey: "threadId", id: testThread,
			nested: []string{`messages.0.role=7`, `messages="x"`, `messages.0=null`, `messages.0.createdAt=null`, `messages.0.createdAt=-`, `createdAt=7`},
			bounds: map[string]int{"messages": 10_000},
			arg:    func(ctx context.Context, c *mintlify.Client, id string) (any, error) { return c.GetThread(ctx, id) },
			badArgs: []string{"", "01HZY6J0V7Q4N2M8K3D5F9G1B", testThread + "0", "81HZY6J0V7Q4N2M8K3D5F9G1B0", "01HZY6J0V7Q4N2M8K3D5F9G1BU",
				"01HZY6J0V7Q4N2M8K3D5F9G/B0", "../../../../../../../../.."},
			ok: func(v any) string { return sameID(strings.ToUpper(v.(*mintlify.Thread).ID), testThread) }},
		{name: "GetCallerStats", verb: http.MethodGet, route: "/v1/analytics/{projectId}/assistant/caller-stats", status: 200, good: goodCallers,
			schema: "caller-stats", required: []string{"web", "api", "other", "total"},
			nested: []string{`web=1.5`, `total="3"`, `api=null`, `other=true`, `total=6.25`, `~total=1e300`},
			call: func(ctx context.Context, c *mintlify.Client) (any, error) {
				return c.GetCallerStats(ctx, mintlify.CallerStatsParams{})
			},
			invalid: map[string]call{
				"empty range": func(ctx context.Context, c *mintlify.Client) (any, error) {
					return c.GetCallerStats(ctx, mintlify.CallerStatsParams{DateFrom: badDay, DateTo: badDay})
				},
				"year 10000": func(ctx context.Context, c *mintlify.Client) (any, error) {
					return c.GetCallerStats(ctx, mintlify.CallerStatsParams{DateTo: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)})
				}},
			ok: func(any) string { return "" }},
	},
)

func byPageInvalid(bad map[string]mintlify.FeedbackByPageParams) map[string]call {
	out := map[string]call{}
	for name, p := range bad {
		out[name] = func(ctx context.Context, c *mintlify.Client) (any, error) { return c.GetFeedbackByPage(ctx, p) }
	}
	return out
}

func nonNil(ok bool, what string) string {
	if !ok {
		return what + " nil"
	}
	return ""
}

var deployNested = []string{`logs="x"`, `logs.0=7`, `author="x"`, `commit.filesChanged.added="a"`, `commit=[]`,
	`author.githubUserId="x"`, `summary=7`, `status="SUCCESS"`}

var exportNested = []string{`progress="50"`, `pageCount=1.5`, `createdAt=7`, `createdAt="last tuesday"`, `updatedAt="yesterday"`, `error=7`}

func deploymentOK(v any) string {
	d := v.(*mintlify.Deployment)
	if d.ID != "st_1" || !isStatus(d.Status) {
		return "another deployment or a status that is no status: " + d.ID + " " + string(d.Status)
	}
	return ""
}

func exportOK(id string) func(v any) string {
	return func(v any) string {
		e := v.(*mintlify.StaticExport)
		if e.ID == "" || (id != "" && e.ID != id) || !isStatus(e.Status) {
			return "no job ID, another export or a status that is no status"
		}
		return ""
	}
}

// logLine is a deployment's log line in the bounds check: the log's JSON
// array, plus 128 bytes a line, holds at most 16 MiB.
const logLine = `"built"`

var deployMethods = []method{
	{name: "TriggerDeployment", verb: http.MethodPost, route: "/v1/project/update/{projectId}", creates: true, status: 202,
		good: `{"statusId":"st_1"}`, required: []string{"statusId"}, nested: []string{`statusId=""`},
		call: func(ctx context.Context, c *mintlify.Client) (any, error) { return c.TriggerDeployment(ctx) },
		ok:   func(v any) string { return nonNil(v.(string) != "", "an empty status ID:") }},
	{name: "TriggerPreview", verb: http.MethodPost, route: "/v1/project/preview/{projectId}", creates: true, status: 202,
		reqBody: `{"branch":"feature/new-nav"}`,
		good:    `{"statusId":"st_1","previewUrl":"https://acme-main.mintlify.app"}`, required: []string{"statusId"},
		nested: []string{`previewUrl=7`, `statusId=""`},
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.TriggerPreview(ctx, "feature/new-nav")
		},
		invalid: map[string]call{"empty branch": func(ctx context.Context, c *mintlify.Client) (any, error) { return c.TriggerPreview(ctx, "") }},
		ok:      func(v any) string { return nonNil(v.(*mintlify.Preview).StatusID != "", "an empty status ID:") }},
	{name: "GetDeployment", verb: http.MethodGet, route: "/v1/project/update-status/{statusId}", status: 200, good: goodDeploy,
		required: []string{"_id", "status"}, idKey: "_id", id: "st_1", nested: deployNested,
		bounds: map[string]int{"commit.filesChanged.added": 100_000, "commit.filesChanged.modified": 100_000,
			"commit.filesChanged.removed": 100_000, "logs": (16<<20 - 1) / (len(logLine) + 1 + 128)},
		arg:     func(ctx context.Context, c *mintlify.Client, id string) (any, error) { return c.GetDeployment(ctx, id) },
		badArgs: []string{"", ".."},
		ok:      deploymentOK},
	{name: "PollDeployment", verb: http.MethodGet, route: "/v1/project/update-status/{statusId}", status: 200, good: goodDeploy,
		required: []string{"_id", "status"}, idKey: "_id", id: "st_1", nested: deployNested,
		arg: func(ctx context.Context, c *mintlify.Client, id string) (any, error) {
			return c.PollDeployment(ctx, id, quickPoll...)
		},
		badArgs: []string{""},
		poller: &poller{
			poll: func(ctx context.Context, c *mintlify.Client, opts ...mintlify.PollOption) (any, error) {
				return c.PollDeployment(ctx, "st_1", opts...)
			},
			answer: func(s string) string { return `{"_id":"st_1","status":"` + s + `","logs":["a"]}` },
			observe: func(fn func(any, string)) mintlify.PollOption {
				return mintlify.WithPollObserver(func(d *mintlify.Deployment) { fn(d, string(d.Status)) })
			},
			running: []string{"queued", "in_progress"}, terminal: []string{"success", "failure"}, unknown: "building"},
		ok: func(v any) string {
			if msg := deploymentOK(v); msg != "" || !v.(*mintlify.Deployment).Status.Terminal() {
				return "a poll that ended before a terminal status " + msg
			}
			return ""
		}},
	{name: "TriggerAutomation", verb: http.MethodPost, route: "/v1/workflow/{projectId}/{workflowSchemaId}/trigger", creates: true, status: 202,
		good: `{"schemaId":"auto_1","instanceId":"run_1","jobId":"j_1"}`, required: []string{"instanceId"}, idKey: "schemaId", id: "auto_1",
		nested: []string{`jobId=7`, `schemaId=7`, `instanceId=""`},
		arg: func(ctx context.Context, c *mintlify.Client, id string) (any, error) {
			return c.TriggerAutomation(ctx, id)
		},
		badArgs: []string{"", "wf/1", "wf 1", "wf\t1", `wf\1`},
		ok: func(v any) string {
			if r := v.(*mintlify.AutomationRun); r.RunID == "" || (r.AutomationID != "" && r.AutomationID != "auto_1") {
				return "no run ID, or a run of another automation"
			}
			return ""
		}},
	{name: "TriggerAutomationWebhook", verb: http.MethodPost, route: "/v2/workflow/{projectId}/{workflowSchemaId}/webhook", creates: true, status: 202, also: 200,
		good: `{"success":true,"runId":"run_1"}`, required: []string{"runId"}, id: "auto_1",
		nested: []string{`runId=""`, `success=false`, `success="yes"`},
		arg: func(ctx context.Context, c *mintlify.Client, id string) (any, error) {
			return c.TriggerAutomationWebhook(ctx, id)
		},
		badArgs: []string{"", "wf/1", "wf 1", "wf\t1", `wf\1`, ".."},
		ok:      func(v any) string { return nonNil(v.(*mintlify.AutomationWebhookRun).RunID != "", "no run ID:") }},
	{name: "StartStaticExport", verb: http.MethodPost, route: "/v1/static-export/jobs", creates: true, status: 202,
		reqBody: `{"domain":"docs.example.com"}`, id: "docs.example.com",
		good: strings.Replace(goodExport, "completed", "queued", 1), required: []string{"jobId", "status"}, nested: exportNested,
		arg: func(ctx context.Context, c *mintlify.Client, domain string) (any, error) {
			return c.StartStaticExport(ctx, mintlify.StaticExportParams{Domain: domain})
		},
		badArgs: []string{"", "https://docs.acme.com", "docs.acme.com/", "docs.acme.com/docs", "docs.acme.com:443",
			"//docs.acme.com", "docs acme.com", "user@docs.acme.com", "docs.acme.com?x", "docs.acme.com#x", `docs\acme`, "docs.acme.com\n"},
		invalid: map[string]call{
			"an empty path": func(ctx context.Context, c *mintlify.Client) (any, error) {
				return c.StartStaticExport(ctx, mintlify.StaticExportParams{Domain: "docs.acme.com", Paths: []string{"index", ""}})
			},
		},
		ok: exportOK("")},
	{name: "GetStaticExport", verb: http.MethodGet, route: "/v1/static-export/jobs/{jobId}", status: 200, good: goodExport,
		required: []string{"jobId", "status"}, idKey: "jobId", id: "exp_1", nested: exportNested,
		arg: func(ctx context.Context, c *mintlify.Client, id string) (any, error) {
			return c.GetStaticExport(ctx, id)
		},
		badArgs: []string{"", "."},
		ok:      exportOK("exp_1")},
	{name: "PollStaticExport", verb: http.MethodGet, route: "/v1/static-export/jobs/{jobId}", status: 200, good: goodExport,
		required: []string{"jobId", "status"}, idKey: "jobId", id: "exp_1", nested: exportNested,
		arg: func(ctx context.Context, c *mintlify.Client, id string) (any, error) {
			return c.PollStaticExport(ctx, id, quickPoll...)
		},
		badArgs: []string{""},
		poller: &poller{
			poll: func(ctx context.Context, c *mintlify.Client, opts ...mintlify.PollOption) (any, error) {
				return c.PollStaticExport(ctx, "exp_1", opts...)
			},
			answer: func(s string) string { return `{"jobId":"exp_1","status":"` + s + `","progress":50}` },
			observe: func(fn func(any, string)) mintlify.PollOption {
				return mintlify.WithPollObserver(func(e *mintlify.StaticExport) { fn(e, string(e.Status)) })
			},
			running: []string{"queued", "running"}, terminal: []string{"completed", "failed"}, unknown: "uploading-pages_2"},
		ok: exportOK("exp_1")},
	// Minting a link changes nothing: it is retried like a GET.
	{name: "BundleStaticExport", verb: http.MethodPost, route: "/v1/static-export/jobs/{jobId}/bundle", status: 200, good: goodBundle,
		required: []string{"bundleUrl", "sizeBytes"}, idKey: "jobId", id: "exp_1", secret: linkSecret,
		nested: []string{`sizeBytes="10"`, `sizeBytes=1.5`, `sizeBytes=-1`, `bundleUrl="ftp://storage.test/b"`, `bundleUrl=""`,
			`bundleUrl="https://u:p@storage.test/b"`, `bundleUrl="/b.tgz"`, `expiresAt="soon"`},
		arg: func(ctx context.Context, c *mintlify.Client, id string) (any, error) {
			return c.BundleStaticExport(ctx, id)
		},
		badArgs: []string{""},
		ok: func(v any) string {
			b := v.(*mintlify.StaticExportBundle)
			if b.JobID != "exp_1" || b.URL == "" || b.SizeBytes < 0 {
				return "another export, no link or a negative size"
			}
			// DownloadStaticExport checks the link before the context.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			c, _ := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject))
			if _, err := c.DownloadStaticExport(ctx, b, io.Discard); !errors.Is(err, context.Canceled) {
				return "a link DownloadStaticExport refuses: " + err.Error()
			}
			return ""
		}},
}

// The escape hatch, for a read and for a call that may create something.
var doMethods = []method{
	{name: "Do GET", verb: http.MethodGet, route: "/v1/analytics/{projectId}/views", query: "limit=5", status: 200, good: `{"ok":true}`, do: true,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			var out map[string]any
			if _, err := c.Do(ctx, http.MethodGet, "/v1/analytics/{projectId}/views?limit=5", nil, &out); err != nil {
				return nil, err
			}
			return out, nil
		},
		arg: func(ctx context.Context, c *mintlify.Client, path string) (any, error) {
			return c.Do(ctx, http.MethodGet, path, nil, nil)
		},
		ok: func(any) string { return "" }},
	{name: "Do POST", verb: http.MethodPost, route: "/v1/project/update/{projectId}", creates: true, status: 202, good: `{"statusId":"st_1"}`, do: true,
		reqBody: `{"branch":"main"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			var out map[string]any
			if _, err := c.Do(ctx, http.MethodPost, "/v1/project/update/{projectId}", map[string]string{"branch": "main"}, &out); err != nil {
				return nil, err
			}
			return out, nil
		},
		ok: func(any) string { return "" }},
}

// methods is the table.
var methods = complete(slices.Concat(jobMethods, analyticsMethods, deployMethods, doMethods,
	onAPI("/discovery", assistantMethods), onAPI("/api/universal-search", indexMethods)))

// rowsWith are the rows of the table that have what keep asks for.
func rowsWith(keep func(m method) bool) []method {
	var out []method
	for _, m := range methods {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

// walks, pollers and indexRows are the table's iterators, its pollers
// and its Index rows (which call an IndexClient).
func walks() []method     { return rowsWith(func(m method) bool { return m.walk != nil }) }
func pollers() []method   { return rowsWith(func(m method) bool { return m.poller != nil }) }
func indexRows() []method { return rowsWith(func(m method) bool { return m.index != nil }) }

func methodNamed(t testing.TB, name string) method {
	t.Helper()
	for _, m := range methods {
		if m.name == name {
			return m
		}
	}
	t.Fatalf("no method %q in the table", name)
	return method{}
}

// newClient returns a client for testProject whose requests go to a fresh
// httpmock transport, with retry waits of a few milliseconds; opts come
// last, so they win. A request no responder matches fails the test.
func newClient(t testing.TB, opts ...mintlify.Option) (*mintlify.Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(httpmock.NewNotFoundResponder(t.Error))
	c, err := mintlify.NewClient(append([]mintlify.Option{mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject),
		mintlify.WithBaseURL(testBase), mintlify.WithHTTPClient(&http.Client{Transport: mt}),
		mintlify.WithRetryWait(time.Millisecond, 5*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return c, mt
}

// answering is a client whose every request gets the responder's answer.
func answering(t testing.TB, r httpmock.Responder, opts ...mintlify.Option) (*mintlify.Client, *httpmock.MockTransport) {
	t.Helper()
	c, mt := newClient(t, opts...)
	mt.RegisterNoResponder(r)
	return c, mt
}

// respond answers every call with a fresh response: status, body and
// header key/value pairs. JSON bodies get a JSON Content-Type.
func respond(status int, body string, header ...string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		resp := httpmock.NewStringResponse(status, body)
		if strings.HasPrefix(body, "{") {
			resp.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			resp.Header.Set(header[i], header[i+1])
		}
		resp.Request = req
		return resp, nil
	}
}

// inOrder uses each responder for one call, in turn; the last one answers
// every call after that.
func inOrder(rs ...httpmock.Responder) httpmock.Responder {
	var mu sync.Mutex
	n := 0
	return func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		r := rs[min(n, len(rs)-1)]
		n++
		mu.Unlock()
		return r(req)
	}
}

// respondThen answers with status and body, and calls onClose (once) when
// the client closes that body: a hook at a known point of the exchange.
func respondThen(status int, body string, onClose func(), header ...string) httpmock.Responder {
	var once sync.Once
	return func(req *http.Request) (*http.Response, error) {
		resp, _ := respond(status, body, header...)(req)
		resp.Body = &onCloseBody{Reader: strings.NewReader(body), onClose: func() { once.Do(onClose) }}
		return resp, nil
	}
}

type onCloseBody struct {
	io.Reader
	onClose func()
}

func (b *onCloseBody) Close() error { b.onClose(); return nil }

// recorded is what a recorder saw of one request.
type recorded struct {
	Method string
	URL    *url.URL
	Header http.Header
	Body   []byte
	At     time.Time
}

// recorder keeps every request that goes through the responders it wraps.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

func (r *recorder) wrap(next httpmock.Responder) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		rec := recorded{Method: req.Method, URL: req.URL, Header: req.Header.Clone(), At: time.Now()}
		if req.Body != nil {
			rec.Body, _ = io.ReadAll(req.Body)
		}
		r.mu.Lock()
		r.reqs = append(r.reqs, rec)
		r.mu.Unlock()
		return next(req)
	}
}

func (r *recorder) requests() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}

// queries lists the raw queries of the requests, in order.
func (r *recorder) queries() []string {
	var out []string
	for _, req := range r.requests() {
		out = append(out, req.URL.RawQuery)
	}
	return out
}

// keyEchoes are the shapes in which a proxy echoes a key.
func keyEchoes(key string) map[string]string {
	j, _ := json.Marshal(key)
	return map[string]string{
		"as sent":         key,
		"percent-encoded": url.QueryEscape(key),
		"JSON-escaped":    strings.Trim(string(j), `"`),
		"Basic auth":      "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+key)),
		"cut short":       key[:len(key)-3],
		"after padding":   strings.Repeat("x", 53) + key, // cut by a 64-byte snippet
	}
}

// assertNoSecret fails if s holds key in any form a proxy echoes it in,
// or any 8-character piece of it, so that a key cut short counts too.
func assertNoSecret(t testing.TB, key, s, what string) {
	t.Helper()
	for form, echo := range keyEchoes(key) {
		if form != "cut short" && form != "after padding" && strings.Contains(s, strings.TrimPrefix(echo, "Basic ")) {
			t.Errorf("%s holds the key (%s): %s", what, form, s)
		}
	}
	for i := 0; i+8 <= len(key); i++ {
		if piece := key[i : i+8]; piece != "mint_sk_" && strings.Contains(s, piece) {
			t.Errorf("%s holds a piece of the key %q: %s", what, piece, s)
			return
		}
	}
}

// assertNoKey is assertNoSecret for testKey.
func assertNoKey(t testing.TB, s, what string) {
	t.Helper()
	assertNoSecret(t, testKey, s, what)
}

// eachError calls fn with err and every error it wraps, depth first.
func eachError(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		eachError(u.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			eachError(e, fn)
		}
	}
}

// readsOnce checks that an error says "mintlify:" once (plus what the
// server's own text said).
func readsOnce(t testing.TB, err error, server int) {
	t.Helper()
	assert.Equal(t, 1+server, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
}

// noResult reports a call that gave nothing back: a nil value, or the
// empty status ID of TriggerDeployment.
func noResult(got any) bool {
	if s, ok := got.(string); ok {
		return s == ""
	}
	v := reflect.ValueOf(got)
	return got == nil || v.Kind() == reflect.Pointer && v.IsNil() || v.Kind() == reflect.Map && v.IsNil()
}

// assertNoResult checks that a failed call gave nothing back.
func assertNoResult(t testing.TB, got any) {
	t.Helper()
	assert.True(t, noResult(got), "a result with the error: %#v", got)
}

// sentinelOf is the documented sentinel of an answer outside 2xx.
func sentinelOf(status int) error {
	switch {
	case status == 401:
		return mintlify.ErrUnauthorized
	case status == 403:
		return mintlify.ErrForbidden
	case status == 404:
		return mintlify.ErrNotFound
	case status == 429:
		return mintlify.ErrRateLimited
	case status >= 500 && status <= 599:
		return mintlify.ErrServer
	}
	return mintlify.ErrBadRequest
}

var sentinels = []error{mintlify.ErrBadRequest, mintlify.ErrUnauthorized, mintlify.ErrForbidden, mintlify.ErrNotFound,
	mintlify.ErrRateLimited, mintlify.ErrServer, mintlify.ErrInvalidInput, mintlify.ErrOutcomeUnknown}

// setPath returns the JSON text good with the value at a dotted path
// ("views.0.path") set to the JSON raw, or removed when raw is "-".
func setPath(t testing.TB, good, path, raw string) string {
	t.Helper()
	var p []any
	for _, part := range strings.Split(path, ".") {
		var i int
		if _, err := fmt.Sscan(part, &i); err == nil && part == fmt.Sprint(i) {
			p = append(p, i)
		} else {
			p = append(p, part)
		}
	}
	if raw == "-" {
		return setLeaf(t, good, p, removed{})
	}
	var v any
	require.NoError(t, json.Unmarshal([]byte(raw), &v))
	return setLeaf(t, good, p, v)
}

type removed struct{}

// setLeaf returns a copy of the JSON text good with the value at path (a
// sequence of object keys and array indexes) set to v (removed{} deletes).
func setLeaf(t testing.TB, good string, path []any, v any) string {
	t.Helper()
	var root any
	require.NoError(t, json.Unmarshal([]byte(good), &root))
	var set func(cur any, p []any) any
	set = func(cur any, p []any) any {
		if len(p) == 0 {
			return v
		}
		switch k := p[0].(type) {
		case string:
			m, ok := cur.(map[string]any)
			require.True(t, ok, "%v: no object at %v", path, k)
			if _, del := v.(removed); del && len(p) == 1 {
				delete(m, k)
			} else {
				m[k] = set(m[k], p[1:])
			}
		case int:
			a, ok := cur.([]any)
			require.True(t, ok, "%v: no array at %v", path, k)
			a[k] = set(a[k], p[1:])
		}
		return cur
	}
	b, err := json.Marshal(set(root, path))
	require.NoError(t, err)
	return string(b)
}

// stringLeaves appends to out the paths of every string value in v, a
// decoded JSON text.
func stringLeaves(v any, path []any, out *[][]any) {
	switch v := v.(type) {
	case string:
		*out = append(*out, slices.Clone(path))
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			stringLeaves(v[k], append(path, k), out)
		}
	case []any:
		for i, e := range v {
			stringLeaves(e, append(path, i), out)
		}
	}
}

func pathName(p []any) string {
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ".")
}

// withKey returns good with top-level key k set to v (raw JSON), or
// removed when v is "".
func withKey(t testing.TB, good, k, v string) string {
	t.Helper()
	if v == "" {
		v = "-"
	}
	return setPath(t, good, k, v)
}

// rawKey is the raw JSON of top-level key k of good.
func rawKey(t testing.TB, good, k string) string {
	t.Helper()
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(good), &obj))
	require.Contains(t, obj, k)
	return string(obj[k])
}

// The project's JSON Schemas of the vendor's analytics answers, written
// from the vendor documents (shared with the mock server's tests).
var (
	answerSchemasOnce sync.Once
	answerSchemas     map[string]*jsonschema.Schema
	answerSchemasErr  error
)

// validateAnswer checks body against the named schema.
func validateAnswer(t testing.TB, schema, body string) error {
	t.Helper()
	answerSchemasOnce.Do(func() {
		c := jsonschema.NewCompiler()
		answerSchemas = map[string]*jsonschema.Schema{}
		for _, name := range []string{"visitors", "views", "searches", "feedback", "feedback-by-page", "assistant", "thread", "caller-stats"} {
			s, err := c.Compile(filepath.Join("mockserver", "testdata", "schema", name+".json"))
			if err != nil {
				answerSchemasErr = err
				return
			}
			answerSchemas[name] = s
		}
	})
	require.NoError(t, answerSchemasErr)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
	if err != nil {
		return err
	}
	return answerSchemas[schema].Validate(doc)
}

// erase forgets an iterator's element type.
func erase[T any](seq iter.Seq2[T, error]) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		for v, err := range seq {
			if !yield(v, err) {
				return
			}
		}
	}
}

// Servers that answer in ways httpmock cannot: over a real connection.

// hijackServer reads each request's headers, then hands the connection to
// answer, which owns it from there; the connection stays open until the
// test ends.
func hijackServer(t testing.TB, answer func(conn net.Conn)) string {
	t.Helper()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		answer(conn)
		select { // hold the connection open until the test ends
		case <-done:
		case <-time.After(30 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // runs first
	return srv.URL
}

// lostAnswerServer reads each request in full, then closes the connection
// without answering: the server got the request, the client never learns
// what came of it. It counts the requests it read.
func lostAnswerServer(t testing.TB) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		n.Add(1)
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// refusedURL is an address on 127.0.0.1 where nobody listens: every
// connection is refused.
func refusedURL(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return "http://" + addr
}

// timingSlots bounds how many timing-sensitive subtests run at once: the
// bound they check is generous, but hundreds of parallel subtests under
// the race detector on two cores can starve a goroutine for longer.
var timingSlots = make(chan struct{}, 4)

// holdTimingSlot waits for a slot and gives it back when t ends.
func holdTimingSlot(t testing.TB) {
	t.Helper()
	timingSlots <- struct{}{}
	t.Cleanup(func() { <-timingSlots })
}

// TestEveryMethodSendsItsDocumentedRequest: each method sends its verb to
// its path, under the base URL's own path, with the project as one escaped
// segment, the key as a Bearer token, JSON Accept, the User-Agent with the
// application's suffix, and its JSON body (Content-Type set) or none; the
// documented answer is a success.
func TestEveryMethodSendsItsDocumentedRequest(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		for _, project := range []string{testProject, "team/docs ü"} {
			t.Run(m.name+"/"+project, func(t *testing.T) {
				t.Parallel()
				rec := &recorder{}
				c, _ := answering(t, rec.wrap(respond(m.status, m.good)), mintlify.WithProjectID(project),
					mintlify.WithBaseURL(testBase+"/prefix/"), mintlify.WithUserAgent("acme-docs-bot/2.0"), mintlify.WithMaxRetries(0))
				got, err := m.call(context.Background(), c)
				require.NoError(t, err)
				assert.NotNil(t, got)
				if m.schema != "" {
					assert.NoError(t, validateAnswer(t, m.schema, m.good), "the table's answer is the documented one")
				}
				reqs := rec.requests()
				require.Len(t, reqs, 1, "the documented answer ends walks and polls too")
				req := reqs[0]
				assert.Equal(t, m.verb, req.Method)
				assert.Equal(t, "/prefix"+m.path(project), req.URL.EscapedPath())
				assert.Equal(t, m.query, req.URL.RawQuery)
				assert.Empty(t, req.URL.Fragment)
				assert.Equal(t, []string{"Bearer " + testKey}, req.Header.Values("Authorization"))
				assert.Equal(t, "application/json", req.Header.Get("Accept"))
				assert.Equal(t, "mintlify-go/"+mintlify.Version+" acme-docs-bot/2.0", req.Header.Get("User-Agent"))
				if m.reqBody == "" {
					assert.Empty(t, req.Header.Values("Content-Type"))
					assert.Empty(t, req.Body)
				} else {
					assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
					assert.JSONEq(t, m.reqBody, string(req.Body))
				}
				if m.also != 0 { // the route's second success status is one too
					c, _ := answering(t, respond(m.also, m.good), mintlify.WithProjectID(project), mintlify.WithMaxRetries(0))
					got, err := m.call(context.Background(), c)
					require.NoError(t, err, "HTTP %d", m.also)
					assert.Empty(t, m.ok(got))
				}
			})
		}
	}
}
