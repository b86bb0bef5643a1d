package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

func TestAnalyticsParameterValidation(t *testing.T) {
	t.Parallel()
	c := newRouteClient(t, mockserver.Start(t, mockserver.WithoutRateLimits()))
	cases := []struct {
		route, query string
		details      []string
	}{
		{"views", "limit=0", []string{`limit: must be an integer from 1 to 250, got "0"`}},
		{"views", "limit=251&offset=-1", []string{`limit: must be an integer from 1 to 250, got "251"`, `offset: must be an integer of 0 or more, got "-1"`}},
		{"searches", "limit=101", []string{`limit: must be an integer from 1 to 100, got "101"`}},
		{"searches", "limit=2.5&cursor=", []string{`limit: must be an integer from 1 to 100, got "2.5"`, "cursor: must not be empty"}},
		{"feedback", "source=email", []string{`source: must be one of code_snippet, contextual, agent, thumbs_only; got "email"`}},
		{"feedback", "status=pending,open,,resolved", []string{
			`status: each comma-separated value must be one of pending, in_progress, resolved, dismissed; got "open"`,
			`status: each comma-separated value must be one of pending, in_progress, resolved, dismissed; got ""`,
		}},
		{"feedback", "limit=0&status=Pending", []string{
			`limit: must be an integer from 1 to 100, got "0"`,
			`status: each comma-separated value must be one of pending, in_progress, resolved, dismissed; got "Pending"`,
		}},
		{"feedback/by-page", "limit=101&source=x", []string{`limit: must be an integer from 1 to 100, got "101"`, `source: must be one of code_snippet, contextual, agent, thumbs_only; got "x"`}},
		{"assistant", "limit=1001", []string{`limit: must be an integer from 1 to 1000, got "1001"`}},
		{"assistant", "cursor=abc", []string{`cursor: must be a ULID (26 characters of Crockford base32), got "abc"`}},
		{"assistant/caller-stats", "dateFrom=2025-02-01&dateTo=2025-01-01", []string{"dateFrom must be before dateTo (dateTo is exclusive)"}},
		{"assistant/caller-stats", "dateTo=tomorrow", []string{`dateTo: must be an ISO 8601 date-time or YYYY-MM-DD, got "tomorrow"`}},
		{"searches", "dateFrom=2025-01-01&dateFrom=2025-01-02", []string{"dateFrom: given more than once"}},
	}
	for _, tc := range cases {
		status, body := c.get(tc.route, "error", tc.query)
		require.Equal(t, http.StatusBadRequest, status, "%s?%s: %s", tc.route, tc.query, body)
		var e apiError
		require.NoError(t, json.Unmarshal(body, &e))
		assert.Equal(t, "Invalid query parameters", e.Error)
		assert.Equal(t, tc.details, e.details(), "%s?%s", tc.route, tc.query)
	}
	// Valid edges, and parameters a route does not take are ignored.
	for _, ok := range []struct{ route, schema, query string }{
		{"views", "views", "limit=250&offset=99999999999"},
		{"searches", "searches", "limit=100&offset=-5"},
		{"feedback", "feedback", "limit=100&status=in_progress,dismissed&source=agent"},
		{"feedback/by-page", "feedback-by-page", "limit=1&status=pending"},
		{"assistant", "assistant", "limit=1000&dateFrom=2025-01-01T10:00&dateTo=2025-01-02T00:00:00.5%2B02:00"},
		{"assistant/caller-stats", "caller-stats", "limit=0&cursor=x"},
	} {
		status, body := c.get(ok.route, ok.schema, ok.query)
		assert.Equal(t, http.StatusOK, status, "%s?%s: %s", ok.route, ok.query, body)
	}
}

func TestEventsOverTheControlAPI(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	c := newRouteClient(t, h.s)
	post := func(path, body string) *response {
		t.Helper()
		return h.do("POST", path, body)
	}
	require.Equal(t, http.StatusOK, post("/_mock/searches", `{"searches":[
		{"query":"deploy","timestamp":"2025-03-01T10:00:00Z","clickedPath":"/deploy"},
		{"query":"deploy","timestamp":"2025-03-01T11:00:00Z"}]}`).Status)
	require.Equal(t, http.StatusOK, post("/_mock/feedback", `{"feedback":[
		{"id":"fb1","path":"/deploy","source":"code_snippet","status":"resolved","createdAt":"2025-03-01T10:00:00Z","code":"x","lang":"go"},
		{"path":"/deploy","source":"contextual","createdAt":"2025-03-01T11:00:00Z","helpful":true,"contact":"a@b.c"}]}`).Status)
	r := post("/_mock/threads", `{"threads":[{"id":"01JNGJ5W0000000000000000AA","caller":"api","turns":[
		{"timestamp":"2025-03-01T10:00:00Z","query":"how?","response":"so.","sources":[{"title":"Deploy","url":"https://docs.example.com/deploy"}]},
		{"timestamp":"2025-03-01T10:05:00Z","query":"and then?","response":"done.","responseType":"clarifying_question","resolutionStatus":"unanswered"}]}]}`)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	var counts mockserver.EventCounts
	h.do("GET", "/_mock/events", "").decode(t, &counts)
	assert.Equal(t, mockserver.EventCounts{Searches: 2, Feedback: 2, Threads: 1, Turns: 2}, counts)

	var searches struct {
		Searches []searchRow `json:"searches"`
	}
	c.ok("searches", "searches", "", &searches)
	page := "/deploy"
	assert.Equal(t, []searchRow{{SearchQuery: "deploy", Hits: 2, CTR: 0.5, TopClickedPage: &page, LastSearchedAt: "2025-03-01T11:00:00.000Z"}}, searches.Searches)

	var feedback struct {
		Feedback []map[string]any `json:"feedback"`
	}
	c.ok("feedback", "feedback", "", &feedback)
	require.Len(t, feedback.Feedback, 2)
	assert.Equal(t, map[string]any{"id": "fb1", "path": "/deploy", "comment": nil, "createdAt": "2025-03-01T10:00:00.000Z",
		"source": "code_snippet", "status": "resolved", "code": "x", "filename": nil, "lang": "go"}, feedback.Feedback[1])
	assert.Equal(t, "pending", feedback.Feedback[0]["status"], "status defaults to pending")

	var stats callerStats
	c.ok("assistant/caller-stats", "caller-stats", "", &stats)
	assert.Equal(t, callerStats{API: 2, Total: 2}, stats)
	status, _ := c.get("assistant/threads/01jngj5w0000000000000000aa", "thread", "")
	assert.Equal(t, http.StatusOK, status)

	// Refusals: one detail per problem, nothing stored.
	bad := post("/_mock/feedback", `{"feedback":[{"path":"","source":"mail","createdAt":"2025-03-01T10:00:00Z"},{"id":"fb1","path":"/a","source":"agent","createdAt":"2025-03-01T10:00:00Z"}]}`)
	require.Equal(t, http.StatusBadRequest, bad.Status)
	assert.Len(t, bad.apiError(t).details(), 2)
	bad = post("/_mock/threads", `{"threads":[{"turns":[{"timestamp":"2025-03-01T10:00:00Z","query":"a"},{"timestamp":"2025-03-01T10:00:00Z","query":"a"}]}]}`)
	require.Equal(t, http.StatusBadRequest, bad.Status)
	assert.Contains(t, bad.apiError(t).details()[0], "same timestamp and query")
	assert.Equal(t, http.StatusNotFound, post("/_mock/searches", `{"project":"nope","searches":[]}`).Status)
	h.do("GET", "/_mock/events", "").decode(t, &counts)
	assert.Equal(t, mockserver.EventCounts{Searches: 2, Feedback: 2, Threads: 1, Turns: 2}, counts)

	// Reset returns to the initial state: here, nothing.
	require.Equal(t, http.StatusNoContent, post("/_mock/reset", "").Status)
	h.do("GET", "/_mock/events", "").decode(t, &counts)
	assert.Equal(t, mockserver.EventCounts{}, counts)
}

func TestResetReturnsToTheInitialEvents(t *testing.T) {
	t.Parallel()
	d := buildDataset(6)
	s := mockserver.Start(t, d.options()...)
	initial, err := s.EventCounts(s.ProjectID())
	require.NoError(t, err)
	assert.Equal(t, mockserver.EventCounts{Visits: len(d.visits), Searches: len(d.searches), Feedback: len(d.feedback), Threads: len(d.threads),
		Turns: len(modelConversations(d.threads, window{}))}, initial)
	at := day0.Add(time.Hour)
	require.NoError(t, s.AddSearches(s.ProjectID(), mockserver.SearchEvent{Query: "later", Time: at}))
	require.NoError(t, s.AddVisits(s.ProjectID(), mockserver.Visit{VisitorID: "x", Path: "/x", Time: at}))
	require.NoError(t, s.AddThreads(s.ProjectID(), mockserver.Thread{Turns: []mockserver.Turn{{Time: at, Query: "q"}}}))
	s.Reset()
	after, _ := s.EventCounts(s.ProjectID())
	assert.Equal(t, initial, after)
	c := newRouteClient(t, s)
	_, want := modelSearches(d.searches, window{})
	total := -1
	assert.Equal(t, want, walkCursor(c, "searches", "searches", "", 100, searchesPage(t, &total), nil))
}

// -seed N gives every route rows, over the same pages, deterministically;
// the fixed range of the README's commands (January 2025) is covered.
func TestSeedIsCoherentAndDeterministic(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	a := mockserver.Start(t, mockserver.WithSeed(20_000), mockserver.WithClock(clock), mockserver.WithoutRateLimits(), mockserver.WithAPIKey("mint_a"), mockserver.WithProjectID("p"))
	b := mockserver.Start(t, mockserver.WithSeed(20_000), mockserver.WithClock(clock), mockserver.WithoutRateLimits(), mockserver.WithAPIKey("mint_a"), mockserver.WithProjectID("p"))
	ca, cb := newRouteClient(t, a), newRouteClient(t, b)
	counts, _ := a.EventCounts("p")
	assert.Equal(t, 20_000, counts.Visits)
	assert.Equal(t, 4_000, counts.Searches)
	assert.Equal(t, 400, counts.Feedback)
	assert.Equal(t, 100, counts.Threads)
	assert.Greater(t, counts.Turns, 2*counts.Threads, "threads have several turns")

	january := "&dateFrom=2025-01-01&dateTo=2025-02-01"
	// Every analytics list (a thread is one of their rows).
	const under = "/v1/analytics/{projectId}/"
	visitors := routeNamed(t, mockserver.RouteVisitors)
	for _, rt := range routes(t, func(rt mockserver.RouteRow) bool {
		return rt.Limit == visitors.Limit && !strings.Contains(strings.TrimPrefix(rt.Path, under), "{")
	}) {
		route := strings.TrimPrefix(rt.Path, under)
		_, bodyA := ca.get(route, rt.Schema, "limit=100"+january)
		_, bodyB := cb.get(route, rt.Schema, "limit=100"+january)
		bodyA, bodyB = dropCursor(t, bodyA), dropCursor(t, bodyB) // cursors are sealed per server
		assert.Equal(t, string(bodyA), string(bodyB), "%s is deterministic", route)
		assert.True(t, hasRows(t, bodyA), "%s has rows in January 2025", route)
	}

	// Coherent: feedback and clicked searches are on pages that have views;
	// every source, status and caller type shows up; some terms are never
	// clicked.
	var views struct {
		Views []row `json:"views"`
	}
	ca.ok("views", "views", "limit=250", &views)
	viewed := map[string]bool{}
	for _, v := range views.Views {
		viewed[v.Path] = true
	}
	var feedback []feedbackRow
	feedback = walkCursor(ca, "feedback", "feedback", "", 100, feedbackPage(t), nil)
	sources, statuses := map[string]bool{}, map[string]bool{}
	for _, f := range feedback {
		sources[f.Source], statuses[f.Status] = true, true
	}
	assert.Len(t, sources, 4)
	assert.Len(t, statuses, 4)
	total := -1
	searches := walkCursor(ca, "searches", "searches", "", 100, searchesPage(t, &total), nil)
	clicked, unclicked := 0, 0
	for _, s := range searches {
		if s.TopClickedPage == nil {
			unclicked++
			continue
		}
		clicked++
		assert.True(t, strings.HasPrefix(*s.TopClickedPage, "/"))
	}
	assert.Positive(t, clicked)
	assert.Positive(t, unclicked)
	var stats callerStats
	ca.ok("assistant/caller-stats", "caller-stats", "", &stats)
	assert.Positive(t, stats.Web)
	assert.Positive(t, stats.API)
	assert.Positive(t, stats.Other)
	var byPage struct {
		Feedback []pageFeedbackRow `json:"feedback"`
	}
	ca.ok("feedback/by-page", "feedback-by-page", "limit=100", &byPage)
	for _, p := range byPage.Feedback[:20] {
		assert.True(t, viewed[p.Path] || len(views.Views) == 250, "feedback on %s, a page with views", p.Path)
	}
}

// hasRows reports whether an answer's row list (or caller-stats total) is
// not empty.
func hasRows(t *testing.T, body []byte) bool {
	var v map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &v))
	for _, key := range []string{"visitors", "views", "searches", "feedback", "conversations"} {
		if raw, ok := v[key]; ok {
			var rows []json.RawMessage
			require.NoError(t, json.Unmarshal(raw, &rows))
			return len(rows) > 0
		}
	}
	return string(v["total"]) != "0"
}

func dropCursor(t *testing.T, body []byte) []byte {
	var v map[string]any
	require.NoError(t, json.Unmarshal(body, &v))
	delete(v, "nextCursor")
	b, _ := json.Marshal(v)
	return b
}

// Every route has its name in fault rules and the journal: a rule naming
// it fires there, once, with the error body of its API; the journal names
// the route of both requests, and the next answer matches the route's
// schema.
func TestEveryRouteIsNamedInFaultsAndJournal(t *testing.T) {
	t.Parallel()
	for _, rt := range routes(t, nil) {
		t.Run(rt.Name, func(t *testing.T) {
			t.Parallel()
			rule, err := mockserver.ParseFault("route=" + rt.Name + ",status=503,times=1")
			require.NoError(t, err)
			h := setup(t, mockserver.WithFaults(rule), mockserver.WithoutRateLimits())
			req := mockserver.Sample(t, h.s, rt.Name)
			h.s.ClearJournal()
			r := h.sendSample(rt, req)
			assert.Equal(t, http.StatusServiceUnavailable, r.Status)
			validate(t, errorSchema(rt.API), r.Body)
			r = h.sendSample(rt, req)
			assert.Equal(t, req.Status, r.Status, "the rule fired once: %s", r.Body)
			if rt.Schema != "" {
				validate(t, rt.Schema, r.Body)
			}
			journal := h.s.Journal()
			require.Len(t, journal, 2)
			assert.Equal(t, rt.Name, journal[0].Route)
			assert.Equal(t, rt.Name, journal[1].Route)
		})
	}
}
