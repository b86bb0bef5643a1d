package openapicheck_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/internal/openapicheck"
)

const documents = "../../testdata/openapi"

func load(t *testing.T) *openapicheck.Documents {
	t.Helper()
	docs, err := openapicheck.Load(documents)
	require.NoError(t, err)
	return docs
}

func exchange(t *testing.T, method, path, reqBody string, status int, body string) openapicheck.Exchange {
	t.Helper()
	req, err := http.NewRequest(method, "http://127.0.0.1:8080"+path, strings.NewReader(reqBody))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer mint_x")
	if reqBody != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return openapicheck.Exchange{Request: req, RequestBody: []byte(reqBody), Status: status,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

const job = `{"id":"job_1","status":"%s","source":{"repository":"https://github.com/a/b","ref":null},"model":"m","prLink":null,"createdAt":"2026-01-01T00:00:00Z","archivedAt":null}`

func TestCheckNamesEachKindOfDifference(t *testing.T) {
	t.Parallel()
	docs := load(t)
	cases := []struct {
		name string
		ex   openapicheck.Exchange
		want openapicheck.Kind // "" for none
		in   string            // a piece of the detail
	}{
		{"a documented answer", exchange(t, "GET", "/v2/agent/p1/job/job_1", "", 200, strings.Replace(job, "%s", "active", 1)), "", ""},
		{"an enum value the document lacks", exchange(t, "GET", "/v2/agent/p1/job/job_1", "", 200, strings.Replace(job, "%s", "paused", 1)),
			openapicheck.InvalidResponse, "paused"},
		{"a required member missing", exchange(t, "GET", "/v1/analytics/p1/assistant/caller-stats", "", 200, `{"web":1,"api":2,"other":0}`),
			openapicheck.InvalidResponse, "total"},
		{"a status the operation omits", exchange(t, "GET", "/v2/agent/p1/job/job_1", "", 418, `{"error":"teapot"}`),
			openapicheck.UndocumentedStatus, ""},
		{"an undocumented error of another shape", exchange(t, "GET", "/v2/agent/p1/job/job_1", "", 401, `{"error":{"message":"no"}}`),
			openapicheck.ErrorShape, "error"},
		{"an undocumented error that is not JSON", exchange(t, "GET", "/v1/static-export/jobs/j1", "", 500, `<html>`),
			openapicheck.ErrorShape, "not JSON"},
		{"a stream where the document says JSON", exchange(t, "POST", "/discovery/v2/assistant/d.example.com/message",
			`{"fp":"a","messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"q"}]}]}`, 200, "data: {}\n\n"),
			"", ""}, // replaced below by its header
		{"a body the document refuses, accepted", exchange(t, "POST", "/v2/agent/p1/job", `{"prompt":7}`, 201, strings.Replace(job, "%s", "active", 1)),
			openapicheck.InvalidRequest, "prompt"},
		{"a body the document refuses, refused", exchange(t, "POST", "/v2/agent/p1/job", `{"prompt":7}`, 400, `{"error":"prompt: must be a string"}`), "", ""},
		{"a request alone", exchange(t, "POST", "/api/universal-search/v1/search", `{"query":"q"}`, 0, ""),
			openapicheck.InvalidRequest, "numResults"},
		{"a query outside the range", exchange(t, "GET", "/v1/analytics/p1/visitors?limit=251", "", 0, ""),
			openapicheck.InvalidRequest, "limit"},
		{"no key", func() openapicheck.Exchange {
			ex := exchange(t, "GET", "/v1/project/update-status/s1", "", 0, "")
			ex.Request.Header.Del("Authorization")
			return ex
		}(), openapicheck.InvalidRequest, "security"},
		{"a route on the wrong base", exchange(t, "POST", "/project/update/p1", "", 202, `{"statusId":"s"}`),
			openapicheck.UndocumentedRoute, ""},
		{"the deployments document under /v1", exchange(t, "POST", "/v1/project/update/p1", "", 202, `{"statusId":"s"}`), "", ""},
		{"the Index document under its base", exchange(t, "POST", "/api/universal-search/v1/search", `{"query":"q","numResults":1}`,
			200, `{"requestId":"r","results":[]}`), "", ""},
		{"an undocumented error with more after it", exchange(t, "GET", "/v2/agent/p1/job/job_1", "", 418, `{"error":"teapot"}]`),
			openapicheck.ErrorShape, "not JSON"},
	}
	cases[6].ex.Header.Set("Content-Type", "text/event-stream")
	cases[6].want, cases[6].in = openapicheck.MediaType, "Content-Type"
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diffs := docs.Check(context.Background(), c.ex)
			if c.want == "" {
				assert.Empty(t, diffs)
				return
			}
			var found bool
			for _, d := range diffs {
				found = found || (d.Kind == c.want && strings.Contains(d.Detail, c.in))
			}
			assert.True(t, found, "want a %s about %q, got %v", c.want, c.in, diffs)
		})
	}
}

func TestAllowlistCountsAndReportsUnusedEntries(t *testing.T) {
	t.Parallel()
	_, err := openapicheck.NewAllowlist(openapicheck.Allowed{Kind: openapicheck.MediaType})
	require.Error(t, err, "an entry without its reason")
	allow, err := openapicheck.NewAllowlist(
		openapicheck.Allowed{Kind: openapicheck.UndocumentedStatus, Statuses: []int{429}, Reason: "limits"},
		openapicheck.Allowed{Kind: openapicheck.UndocumentedRoute, Route: "/_mock/*", Reason: "control"},
	)
	require.NoError(t, err)
	assert.True(t, allow.Allows(openapicheck.Difference{Kind: openapicheck.UndocumentedRoute, Method: "GET", Route: "/_mock/journal"}))
	assert.False(t, allow.Allows(openapicheck.Difference{Kind: openapicheck.UndocumentedStatus, Status: 500}))
	assert.False(t, allow.Allows(openapicheck.Difference{Kind: openapicheck.UndocumentedRoute, Route: "/_other"}))
	assert.Equal(t, []int{0, 1}, allow.Hits())
	unused := allow.Unused()
	require.Len(t, unused, 1, "the 429 entry matched nothing: it is stale")
	assert.Equal(t, []int{429}, unused[0].Statuses)
}

func TestRouteMatches(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pattern, route string
		want           bool
	}{
		{"/v1/project/update/{projectId}", "/v1/project/update/p1", true},
		{"/v1/project/update/{projectId}", "/v1/project/update/{id}", true},
		{"/v1/project/update/{projectId}", "/v1/project/update/", false},
		{"/v1/project/update/{projectId}", "/v1/project/update/p1/x", false},
		{"/_mock/*", "/_mock/", true},
		{"/_mock/*", "/_mock/a/b", true},
		{"/_mock/*", "/_mocks/a", false},
		{"/discovery/*", "/discovery", false},
	} {
		assert.Equal(t, c.want, openapicheck.RouteMatches(c.pattern, c.route), "%s ~ %s", c.pattern, c.route)
	}
}

func TestLoadRefusesWhatIsNoDocument(t *testing.T) {
	t.Parallel()
	_, err := openapicheck.Load(t.TempDir())
	require.Error(t, err, "an empty folder")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.json"), []byte(`{"openapi":"3.0.1","info":{"title":"x","version":"1"},"paths":{}}`), 0o644))
	_, err = openapicheck.Load(dir)
	require.ErrorContains(t, err, "server", "a document without a server has no base for its paths")
	docs := load(t)
	assert.Len(t, docs.Operations(), 28)
}
