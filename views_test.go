package mintlify_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go"
)

const analyticsBase = "https://api.test/v1/analytics/proj/"

// recordQueries answers every request to route with body and records each
// request's URL and Authorization header.
type routeRecorder struct {
	urls  []*url.URL
	auths []string
}

func (r *routeRecorder) register(mock *httpmock.MockTransport, route, body string) {
	mock.RegisterResponder(http.MethodGet, analyticsBase+route, func(req *http.Request) (*http.Response, error) {
		r.urls = append(r.urls, req.URL)
		r.auths = append(r.auths, req.Header.Get("Authorization"))
		resp := httpmock.NewStringResponse(http.StatusOK, body)
		resp.Header.Set("Content-Type", "application/json")
		return resp, nil
	})
}

var (
	jan1 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	feb1 = time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
)

func TestGetViewsRequestAndDecoding(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	// Counts as the schema's "number": whole values, one written 12.0.
	rec.register(mock, "views", `{
		"totals": {"human": 120, "ai": 45.0, "total": 165},
		"views": [
			{"path": "/quickstart", "human": 80, "ai": 30, "total": 110},
			{"path": "/api/views", "human": 40, "ai": 15, "total": 55}
		],
		"hasMore": true
	}`)
	page, err := c.GetViews(context.Background(), mintlify.ViewsParams{DateFrom: jan1, DateTo: feb1, Limit: 2, Offset: 4})
	require.NoError(t, err)
	assert.Equal(t, &mintlify.ViewsPage{
		Totals: mintlify.ViewCounts{Human: 120, AI: 45, Total: 165},
		Views: []mintlify.PathViews{
			{Path: "/quickstart", Human: 80, AI: 30, Total: 110},
			{Path: "/api/views", Human: 40, AI: 15, Total: 55},
		},
		HasMore: true,
	}, page)
	require.Len(t, rec.urls, 1)
	assert.Equal(t, "/v1/analytics/proj/views", rec.urls[0].Path)
	assert.Equal(t, url.Values{"dateFrom": {"2025-01-01"}, "dateTo": {"2025-02-01"}, "limit": {"2"}, "offset": {"4"}},
		rec.urls[0].Query())
	assert.Equal(t, "Bearer mint_test", rec.auths[0])
}

func TestViewsIteratorsAskForTheLargestPage(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	rec.register(mock, "views", `{"totals":{"human":0,"ai":0,"total":0},"views":[],"hasMore":false}`)
	ctx := context.Background()
	_, err := c.GetViews(ctx, mintlify.ViewsParams{})
	require.NoError(t, err)
	for _, err := range c.ViewPages(ctx, mintlify.ViewsParams{}) {
		require.NoError(t, err)
	}
	for _, err := range c.Views(ctx, mintlify.ViewsParams{Limit: 7}) {
		require.NoError(t, err)
	}
	require.Len(t, rec.urls, 3)
	assert.Equal(t, "", rec.urls[0].RawQuery, "GetViews with Limit 0 sends none")
	assert.Equal(t, "limit=250", rec.urls[1].RawQuery)
	assert.Equal(t, "limit=7", rec.urls[2].RawQuery)
}

// TestAnalyticsMalformedAnswers: a 2xx that is not the documented object
// is an error wrapping ErrMalformedResponse, never a zero-value success.
func TestAnalyticsMalformedAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := map[string]func(c *mintlify.Client) error{
		"visitors": func(c *mintlify.Client) error {
			_, err := c.GetVisitors(ctx, mintlify.VisitorsParams{})
			return err
		},
		"views": func(c *mintlify.Client) error {
			_, err := c.GetViews(ctx, mintlify.ViewsParams{})
			return err
		},
		"searches": func(c *mintlify.Client) error {
			_, err := c.GetSearches(ctx, mintlify.SearchesParams{})
			return err
		},
		"feedback": func(c *mintlify.Client) error {
			_, err := c.GetFeedback(ctx, mintlify.FeedbackParams{})
			return err
		},
		"feedback/by-page": func(c *mintlify.Client) error {
			_, err := c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{})
			return err
		},
		"assistant": func(c *mintlify.Client) error {
			_, err := c.GetConversations(ctx, mintlify.ConversationsParams{})
			return err
		},
		"assistant/threads/01HZY6J0V7Q4N2M8K3D5F9G1B0": func(c *mintlify.Client) error {
			_, err := c.GetThread(ctx, "01HZY6J0V7Q4N2M8K3D5F9G1B0")
			return err
		},
		"assistant/caller-stats": func(c *mintlify.Client) error {
			_, err := c.GetCallerStats(ctx, mintlify.CallerStatsParams{})
			return err
		},
	}
	const row = `{"path":"/a","human":1,"ai":0,"total":1}`
	const search = `{"searchQuery":"q","hits":3,"ctr":0.5,"topClickedPage":null,"lastSearchedAt":"2025-01-01"}`
	const entry = `{"id":"f1","path":"/a","comment":null,"createdAt":null,"source":"agent","status":"pending"}`
	const turn = `{"id":"01HZY6J0V7Q4N2M8K3D5F9G1B0","timestamp":"2025-01-01T00:00:00Z","query":"q","response":"r",` +
		`"sources":[],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}`
	type malformed struct {
		route, body string
		// schemaValid marks an answer the schema allows but the SDK
		// refuses: a whole count too large for an int.
		schemaValid bool
	}
	cases := []malformed{}
	for route := range calls {
		for _, body := range []string{`{}`, `null`, `[]`, `"ok"`, `{"error":"oops"}`} {
			cases = append(cases, malformed{route, body, false})
		}
	}
	more := []malformed{
		{"visitors", `{"totals":{"human":1,"ai":1,"total":1},"visitors":[` + row + `]}`, false},                              // no hasMore
		{"visitors", `{"totals":{"human":1,"ai":1},"visitors":[],"hasMore":false}`, false},                                   // totals.total
		{"views", `{"totals":{"human":1,"ai":1,"total":1},"views":null,"hasMore":false}`, false},                             // views null
		{"views", `{"totals":{"human":1,"ai":1,"total":1},"views":[{"path":"/a","human":1,"ai":0}],"hasMore":false}`, false}, // row total
		{"views", `{"totals":{"human":1,"ai":1,"total":1},"views":[{"path":"/a","human":1.5,"ai":0,"total":1}],"hasMore":false}`, false},
		{"views", `{"totals":{"human":"1","ai":1,"total":1},"views":[],"hasMore":false}`, false},
		{"views", `{"totals":{"human":1,"ai":1,"total":1},"views":[{"path":null,"human":1,"ai":0,"total":1}],"hasMore":false}`, false},
		{"views", `{"totals":{"human":1,"ai":1,"total":1},"views":[],"hasMore":"no"}`, false},
		{"searches", `{"searches":[` + search + `],"totalSearches":3}`, false}, // nextCursor absent (it is required, nullable)
		{"searches", `{"searches":[` + search + `],"totalSearches":3.5,"nextCursor":null}`, false},
		{"searches", `{"searches":[{"searchQuery":"q","hits":3,"ctr":0.5,"lastSearchedAt":"x"}],"totalSearches":3,"nextCursor":null}`, false},
		{"searches", `{"searches":[{"searchQuery":"q","hits":3,"ctr":"0.5","topClickedPage":null,"lastSearchedAt":"x"}],"totalSearches":3,"nextCursor":null}`, false},
		{"feedback", `{"feedback":[` + entry + `],"nextCursor":null}`, false},
		{"feedback", `{"feedback":[{"id":"f1","path":"/a","createdAt":null,"source":"agent","status":"pending"}],"nextCursor":null,"hasMore":false}`, false},
		{"feedback", `{"feedback":[{"id":null,"path":"/a","comment":null,"createdAt":null,"source":"agent","status":"pending"}],"nextCursor":null,"hasMore":false}`, false},
		{"feedback/by-page", `{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":0,"code":0}],"hasMore":false}`, false},
		{"assistant", `{"conversations":[` + turn + `],"hasMore":false}`, false},
		{"assistant", `{"conversations":[{"id":"x","timestamp":"t","query":"q","response":"r","resolutionStatus":"answered","queryCategory":null,"pageUrl":null}],"nextCursor":null,"hasMore":false}`, false},
		{"assistant", `{"conversations":[{"id":"x","timestamp":"t","query":"q","response":"r","sources":[{"title":"t"}],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}],"nextCursor":null,"hasMore":false}`, false},
		{"assistant/threads/01HZY6J0V7Q4N2M8K3D5F9G1B0", `{"threadId":"01HZY6J0V7Q4N2M8K3D5F9G1B0","createdAt":"2025-01-01"}`, false},
		{"assistant/threads/01HZY6J0V7Q4N2M8K3D5F9G1B0", `{"threadId":"x","createdAt":"2025-01-01","messages":[{"id":"m","role":"user","content":"c"}]}`, false},
		{"assistant/caller-stats", `{"web":1,"api":2,"other":3}`, false},
		{"assistant/caller-stats", `{"web":1,"api":2,"other":3,"total":6.25}`, false},
		{"assistant/caller-stats", `{"web":1,"api":2,"other":3,"total":1e300}`, true},
	}
	cases = append(cases, more...)
	for _, tc := range cases {
		t.Run(tc.route+" "+tc.body, func(t *testing.T) {
			t.Parallel()
			// The project's schema of the vendor answer agrees: these are
			// not the documented object.
			if schemaErr := validateAnswer(t, tc.route, tc.body); tc.schemaValid {
				require.NoError(t, schemaErr)
			} else {
				require.Error(t, schemaErr, "the schema accepts it: not a malformed answer")
			}
			c, mock := newVisitorsClient(t, mintlify.WithMaxRetries(0))
			(&routeRecorder{}).register(mock, tc.route, tc.body)
			err := calls[tc.route](c)
			require.Error(t, err)
			assert.ErrorIs(t, err, mintlify.ErrMalformedResponse)
			assert.Equal(t, 1, mock.GetTotalCallCount())
		})
	}
}

// respondJSON is a 200 answer with a JSON body.
func respondJSON(body string) *http.Response {
	resp := httpmock.NewStringResponse(http.StatusOK, body)
	resp.Header.Set("Content-Type", "application/json")
	return resp
}

// The project's JSON Schemas of the vendor answers, written from the
// vendor documents (shared with the mock server's tests).
var (
	answerSchemasOnce sync.Once
	answerSchemas     map[string]*jsonschema.Schema
	answerSchemasErr  error
)

// validateAnswer checks body against the schema of route's answer.
func validateAnswer(t *testing.T, route, body string) error {
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
	name := map[string]string{"feedback/by-page": "feedback-by-page", "assistant/caller-stats": "caller-stats"}[route]
	switch {
	case name != "":
	case strings.HasPrefix(route, "assistant/threads/"):
		name = "thread"
	default:
		name = route
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
	if err != nil {
		return err
	}
	return answerSchemas[name].Validate(doc)
}
