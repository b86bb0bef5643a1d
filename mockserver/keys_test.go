package mockserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

func (h *harness) newKey(body string) string {
	h.t.Helper()
	r := h.do("POST", "/_mock/keys", body)
	require.Equal(h.t, http.StatusOK, r.Status, "body: %s", r.Body)
	var out struct {
		Key string `json:"key"`
	}
	r.decode(h.t, &out)
	require.Regexp(h.t, `^mint_[a-z2-7]+$`, out.Key)
	return out.Key
}

// everyPost is one request per POST route of the API.
func everyPost(h *harness) map[string][2]string {
	p := h.s.ProjectID()
	return map[string][2]string{
		mockserver.RouteCreateJob:          {"/v2/agent/" + p + "/job", `{"prompt":"x"}`},
		mockserver.RouteFollowUp:           {"/v2/agent/" + p + "/job/job_x/message", `{"prompt":"x"}`},
		mockserver.RouteTriggerDeployment:  {"/v1/project/update/" + p, ""},
		mockserver.RouteTriggerPreview:     {"/v1/project/preview/" + p, `{"branch":"main"}`},
		mockserver.RouteTriggerAutomation:  {"/v1/workflow/" + p + "/0123456789abcdef01234567/trigger", ""},
		mockserver.RouteAutomationWebhook:  {"/v2/workflow/" + p + "/0123456789abcdef01234567/webhook", ""},
		mockserver.RouteStartStaticExport:  {"/v1/static-export/jobs", `{"domain":"docs.example.com"}`},
		mockserver.RouteStaticExportBundle: {"/v1/static-export/jobs/se_0000000000000000/bundle", ""},
	}
}

func TestReadOnlyKeyIsRefusedEveryPost(t *testing.T) {
	t.Parallel()
	h := setup(t)
	fromHTTP := h.newKey(`{"scopes":["read"]}`)
	fromGo, err := h.s.NewKey(mockserver.KeySpec{Scopes: []mockserver.Scope{mockserver.ScopeRead}})
	require.NoError(t, err)
	for _, key := range []string{fromHTTP, fromGo} {
		auth := "Bearer " + key
		for route, req := range everyPost(h) {
			r := h.do("POST", req[0], req[1], "Authorization", auth)
			assert.Equal(t, http.StatusForbidden, r.Status, "%s: %s", route, r.Body)
			assert.Contains(t, r.apiError(t).Details[0].Message, "write scope", route)
		}
		assert.Equal(t, http.StatusOK, h.do("GET", h.visitorsPath(""), "", "Authorization", auth).Status, "reads work")
		assert.Equal(t, http.StatusNotFound, h.do("GET", "/v1/static-export/jobs/se_0000000000000000", "", "Authorization", auth).Status)
	}
	assert.Empty(t, h.s.Jobs(), "nothing was created")

	writer := h.newKey(`{"scopes":["write"]}`)
	assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "", "Authorization", "Bearer "+writer).Status)
	assert.Equal(t, http.StatusOK, h.do("GET", h.visitorsPath(""), "", "Authorization", "Bearer "+writer).Status, "write implies read")
}

func TestExpiredKeyIsUnauthorized(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock),
		mockserver.WithKey("mint_short_lived", mockserver.KeySpec{ExpiresAt: epoch.Add(time.Hour)}))
	key := h.newKey(`{"expiresAt":"` + epoch.Add(time.Minute).Format(time.RFC3339) + `"}`)
	for _, k := range []string{key, "mint_short_lived"} {
		assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "", "Authorization", "Bearer "+k).Status)
	}
	clock.Advance(time.Minute)
	r := h.do("GET", h.visitorsPath(""), "", "Authorization", "Bearer "+key)
	assert.Equal(t, http.StatusUnauthorized, r.Status)
	assert.Contains(t, r.apiError(t).Details[0].Message, "expired")
	assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "", "Authorization", "Bearer mint_short_lived").Status)
	require.Equal(t, http.StatusOK, h.do("POST", "/_mock/clock", `{"advance":"1h"}`).Status)
	assert.Equal(t, http.StatusUnauthorized, h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "", "Authorization", "Bearer mint_short_lived").Status,
		"the control API's clock counts too")
}

func TestAllowlistedKeyIsRefusedFromElsewhere(t *testing.T) {
	t.Parallel()
	h := setup(t)
	elsewhere := h.newKey(`{"allowIPs":["10.0.0.0/8","192.0.2.7"]}`)
	here := h.newKey(`{"allowIPs":["127.0.0.1"]}`)
	mem := h.s.Client() // in memory: RemoteAddr 127.0.0.1
	for _, hc := range []*http.Client{h.hc, mem} {
		r := h.send(hc, "GET", h.visitorsPath(""), "", "Authorization", "Bearer "+elsewhere)
		assert.Equal(t, http.StatusForbidden, r.Status)
		assert.Contains(t, r.apiError(t).Details[0].Message, "127.0.0.1")
		assert.Equal(t, http.StatusOK, h.send(hc, "GET", h.visitorsPath(""), "", "Authorization", "Bearer "+here).Status)
	}
}

func TestNewKeyRefusesBadSpecs(t *testing.T) {
	t.Parallel()
	h := setup(t)
	for _, body := range []string{`{"scopes":["admin"]}`, `{"expiresAt":"tomorrow"}`, `{"allowIPs":["10.0.0.0/33"]}`,
		`{"allowIPs":["example.com"]}`, `{"Scopes":["read"]}`, `{"scopes":"read"}`, `[]`} {
		assert.Equal(t, http.StatusBadRequest, h.do("POST", "/_mock/keys", body).Status, body)
	}
	assert.NotEmpty(t, h.newKey(""), "every field is optional")
}

func TestKeysNamedApartFormSeparateOrganizations(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("second"), mockserver.WithProject("theirs", "mint_their_key"))
	key := h.newKey(`{}`)
	assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/project/update/second", "", "Authorization", "Bearer "+key).Status,
		"a new key works for every project of the organization")
	assert.Equal(t, http.StatusForbidden, h.do("POST", "/v1/project/update/theirs", "", "Authorization", "Bearer "+key).Status)
	assert.Equal(t, http.StatusForbidden, h.do("POST", "/v1/project/update/second", "", "Authorization", "Bearer mint_their_key").Status)
}

func TestWithKeyRestrictsAKeyInItsOwnOrganization(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("theirs", "mint_their_key"),
		mockserver.WithKey("mint_their_key", mockserver.KeySpec{Scopes: []mockserver.Scope{mockserver.ScopeRead}}))
	assert.Equal(t, http.StatusForbidden, h.do("POST", "/v1/project/update/theirs", "", "Authorization", "Bearer mint_their_key").Status)
	r := h.do("GET", "/v1/analytics/theirs/visitors", "", "Authorization", "Bearer mint_their_key")
	assert.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	assert.Equal(t, http.StatusForbidden, h.do("GET", h.visitorsPath(""), "", "Authorization", "Bearer mint_their_key").Status)
}

func TestKeysSharingAProjectJoinOneOrganization(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("p1", "mint_k1"), mockserver.WithProject("p2", "mint_k2"),
		mockserver.WithProject("p1", "mint_k3"), mockserver.WithProject("p2", "mint_k3"), mockserver.WithProject("p4", "mint_k4"))
	for _, c := range []struct {
		key, project string
		status       int
	}{
		{"mint_k1", "p2", http.StatusAccepted}, // through k3, named on both
		{"mint_k2", "p1", http.StatusAccepted},
		{"mint_k4", "p1", http.StatusForbidden},
		{"mint_k1", "p4", http.StatusForbidden},
		{"mint_k1", h.s.ProjectID(), http.StatusForbidden},
	} {
		r := h.do("POST", "/v1/project/update/"+c.project, "", "Authorization", "Bearer "+c.key)
		assert.Equal(t, c.status, r.Status, "%s on %s", c.key, c.project)
	}
}

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
