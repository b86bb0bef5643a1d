package mockserver_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

func TestNewListensOnLoopbackWithFreshCredentials(t *testing.T) {
	t.Parallel()
	a := mockserver.New()
	defer a.Close()
	b := mockserver.New()
	defer b.Close()

	assert.True(t, strings.HasPrefix(a.URL(), "http://127.0.0.1:"), a.URL())
	assert.NotEqual(t, a.URL(), b.URL())
	assert.True(t, strings.HasPrefix(a.APIKey(), "mint_"))
	assert.NotEqual(t, a.APIKey(), b.APIKey(), "keys must not work across servers")
	assert.NotEqual(t, a.ProjectID(), b.ProjectID())
}

func TestOptionsSetKeyAndProject(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithAPIKey("mint_fixed"), mockserver.WithProjectID("docs"))
	assert.Equal(t, "mint_fixed", h.s.APIKey())
	assert.Equal(t, "docs", h.s.ProjectID())
	h.createJob("hello")
}

func TestNewRejectsKeyWithoutAdminPrefix(t *testing.T) {
	t.Parallel()
	assert.PanicsWithError(t, `mockserver: API key *** does not start with "mint_", so the service would refuse it`,
		func() { mockserver.New(mockserver.WithAPIKey("sk_live_secret")) })
}

func TestEveryResponseCarriesVersionHeader(t *testing.T) {
	t.Parallel()
	h := setup(t)
	for _, path := range []string{h.jobsPath("/nope"), "/nowhere", "/_mock/", h.visitorsPath("limit=0")} {
		r := h.do("GET", path, "")
		assert.Equal(t, mockserver.Version, r.Header.Get(mockserver.VersionHeader), path)
	}
	r := h.do("GET", h.jobsPath("/nope"), "")
	assert.Regexp(t, `^req_\d+$`, r.Header.Get(mockserver.RequestIDHeader))
}

func TestHandlerCanBeMountedElsewhere(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	outer := httptest.NewServer(s.Handler())
	defer outer.Close()

	req, _ := http.NewRequest("GET", outer.URL+"/v1/analytics/"+s.ProjectID()+"/visitors", nil)
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	resp, err := outer.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestInMemoryClientNeedsNoSocket(t *testing.T) {
	t.Parallel()
	h := setup(t)
	mem := h.s.Client()
	// The host is never dialled: any URL reaches the server.
	req, _ := http.NewRequest("POST", "http://unreachable.invalid/v2/agent/"+h.s.ProjectID()+"/job",
		strings.NewReader(`{"prompt":"in memory"}`))
	req.Header.Set("Authorization", "Bearer "+h.s.APIKey())
	resp, err := mem.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusCreated, resp.StatusCode, string(body))
	assert.Equal(t, mockserver.Version, resp.Header.Get(mockserver.VersionHeader))
	assert.Equal(t, int64(len(body)), resp.ContentLength)

	jobs := h.s.Jobs()
	require.Len(t, jobs, 1)
	assert.Equal(t, "in memory", jobs[0].Prompt)
}

func TestInMemoryClientHonoursContext(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL()+"/", nil)
	_, err := s.Client().Do(req)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestCloseIsIdempotentAndRefusesLaterRequests(t *testing.T) {
	t.Parallel()
	s := mockserver.New()
	s.Close()
	s.Close()

	_, err := http.Get(s.URL() + "/")
	assert.Error(t, err, "the port is closed")

	req, _ := http.NewRequest("GET", s.URL()+"/", nil)
	_, err = s.Client().Do(req)
	assert.Error(t, err)

	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
}

func TestStartClosesWithTheTest(t *testing.T) {
	t.Parallel()
	var s *mockserver.Server
	t.Run("inner", func(t *testing.T) {
		s = mockserver.Start(t)
		require.NotEmpty(t, s.URL())
	})
	_, err := http.Get(s.URL() + "/")
	assert.Error(t, err, "closed by the subtest's cleanup")
}

func TestUnmatchedRequestNamesTheClosestRoute(t *testing.T) {
	t.Parallel()
	h := setup(t)
	p := h.s.ProjectID()
	cases := []struct {
		method, path, want string
	}{
		{"GET", "/v2/agent/" + p + "/jobs/abc", "GET /v2/agent/{projectId}/job/{id}"},
		{"POST", "/v2/agent/" + p + "/jobs", "POST /v2/agent/{projectId}/job"},
		{"GET", "/v2/agent/" + p + "/job", "POST /v2/agent/{projectId}/job"},
		{"DELETE", "/v2/agent/" + p + "/job/abc", "GET /v2/agent/{projectId}/job/{id}"},
		{"POST", "/v2/agent/" + p + "/job/abc/messages", "POST /v2/agent/{projectId}/job/{id}/message"},
		{"GET", "/v1/analytics/" + p + "/visitor", "GET /v1/analytics/{projectId}/visitors"},
		{"GET", "/v2/agent/" + p + "/job/", "GET /v2/agent/{projectId}/job/{id}"},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := h.do(tc.method, tc.path, "")
			require.Equal(t, http.StatusNotFound, r.Status)
			e := r.apiError(t)
			assert.Contains(t, e.details(), "closest route: "+tc.want)
		})
	}
}

func TestPathTricksNeverReachAnotherResource(t *testing.T) {
	t.Parallel()
	h := setup(t)
	j := h.createJob("target")
	p := h.s.ProjectID()
	for _, path := range []string{
		"/v2/agent/" + p + "/job/" + j.ID + "%2Fmessage",
		"/v2/agent/" + p + "/job/x/../" + j.ID,
		"/v2/agent/" + p + "/job/%2E%2E",
		"/v2/agent/" + p + "/job/..%2F" + j.ID,
		"/v2/agent/" + p + "/job//" + j.ID,
		"/v2/agent/" + p + "/job/./" + j.ID,
	} {
		req, err := http.NewRequest("GET", h.s.URL()+path, nil)
		require.NoError(t, err)
		req.URL.RawPath = req.URL.EscapedPath() // keep the client from cleaning it
		req.Header.Set("Authorization", "Bearer "+h.s.APIKey())
		resp, err := h.hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, path)
	}
}
