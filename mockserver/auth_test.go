package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// endpoint is one API route with a request that would succeed.
type endpoint struct {
	name, method, path, body string
	ok                       int
}

func endpoints(h *harness, project, jobID string) []endpoint {
	return []endpoint{
		{mockserver.RouteCreateJob, "POST", "/v2/agent/" + project + "/job", `{"prompt":"x"}`, http.StatusCreated},
		{mockserver.RouteGetJob, "GET", "/v2/agent/" + project + "/job/" + jobID, "", http.StatusOK},
		{mockserver.RouteFollowUp, "POST", "/v2/agent/" + project + "/job/" + jobID + "/message", `{"prompt":"y"}`, http.StatusOK},
		{mockserver.RouteVisitors, "GET", "/v1/analytics/" + project + "/visitors", "", http.StatusOK},
	}
}

func TestAuthMatrix(t *testing.T) {
	t.Parallel()
	h := setup(t,
		mockserver.WithoutRateLimits(),
		mockserver.WithProject("other", "mint_other_key"),
	)
	jobID := h.createJob("seed").ID
	key := h.s.APIKey()

	cases := []struct {
		name, auth string
		status     int
	}{
		{"valid key", "Bearer " + key, 0},
		{"scheme is case-insensitive", "bearer " + key, 0},
		{"missing header", "", http.StatusUnauthorized},
		{"wrong scheme", "Basic " + key, http.StatusUnauthorized},
		{"token without scheme", key, http.StatusUnauthorized},
		{"empty bearer", "Bearer ", http.StatusUnauthorized},
		{"unknown key", "Bearer mint_not_a_real_key", http.StatusUnauthorized},
		{"key without mint_ prefix", "Bearer " + key[len("mint_"):], http.StatusUnauthorized},
		{"valid key of another project", "Bearer mint_other_key", http.StatusForbidden},
	}
	for _, ep := range endpoints(h, h.s.ProjectID(), jobID) {
		for _, tc := range cases {
			t.Run(ep.name+"/"+tc.name, func(t *testing.T) {
				r := h.do(ep.method, ep.path, ep.body, "Authorization", tc.auth)
				want := tc.status
				if want == 0 {
					want = ep.ok
				}
				require.Equal(t, want, r.Status, "body: %s", r.Body)
				if want >= 400 {
					e := r.apiError(t)
					assert.NotEmpty(t, e.Details)
					assert.NotContains(t, string(r.Body), key, "the key must not be echoed")
				}
			})
		}
	}
}

// A key that does not own a project gets the same answer whether the
// project exists or not, so project IDs cannot be probed.
func TestForbiddenDoesNotRevealWhetherProjectExists(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("other", "mint_other_key"))
	for _, ep := range endpoints(h, "other", "job_x") {
		existing := h.do(ep.method, ep.path, ep.body)
		missing := h.do(ep.method, ep.path[:len("/v2/agent/")]+"no-such-project"+ep.path[len("/v2/agent/other"):], ep.body)
		if ep.name == mockserver.RouteVisitors {
			missing = h.do(ep.method, "/v1/analytics/no-such-project/visitors", ep.body)
		}
		assert.Equal(t, http.StatusForbidden, existing.Status, ep.name)
		assert.Equal(t, existing.Status, missing.Status, ep.name)
		assert.Equal(t, string(existing.Body), string(missing.Body), ep.name)
	}
}

func TestKeyWithSeveralProjects(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("second")) // owned by the primary key
	r := h.do("GET", "/v1/analytics/second/visitors", "")
	assert.Equal(t, http.StatusOK, r.Status)
	r = h.do("POST", "/v2/agent/second/job", `{"prompt":"x"}`)
	assert.Equal(t, http.StatusCreated, r.Status)
}
