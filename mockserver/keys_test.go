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

func TestReadOnlyKeyIsRefusedEveryPost(t *testing.T) {
	t.Parallel()
	h := setup(t)
	fromHTTP := h.newKey(`{"scopes":["read"]}`)
	fromGo, err := h.s.NewKey(mockserver.KeySpec{Scopes: []mockserver.Scope{mockserver.ScopeRead}})
	require.NoError(t, err)
	posts := routes(t, func(rt mockserver.RouteRow) bool { return rt.API == "admin" && rt.Method == http.MethodPost })
	samples := make([]mockserver.SampleRequest, len(posts))
	for i, rt := range posts {
		samples[i] = mockserver.Sample(t, h.s, rt.Name)
	}
	jobs, deployments := len(h.s.Jobs()), len(h.s.Deployments())
	for _, key := range []string{fromHTTP, fromGo} {
		auth := "Bearer " + key
		for i, rt := range posts {
			r := h.sendSample(rt, samples[i], "Authorization", auth)
			assert.Equal(t, http.StatusForbidden, r.Status, "%s: %s", rt.Name, r.Body)
			assert.Contains(t, r.apiError(t).Details[0].Message, "write scope", rt.Name)
		}
		assert.Equal(t, http.StatusOK, h.do("GET", h.visitorsPath(""), "", "Authorization", auth).Status, "reads work")
		assert.Equal(t, http.StatusNotFound, h.do("GET", "/v1/static-export/jobs/se_0000000000000000", "", "Authorization", auth).Status)
	}
	assert.Len(t, h.s.Jobs(), jobs, "nothing was created")
	assert.Len(t, h.s.Deployments(), deployments, "nothing was triggered")

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

// Every admin route, with keys it refuses: no key, a wrong scheme, an
// unknown key, and (where the path names the project) a valid key of
// another project. The refusal names why and never echoes the key.
func TestAuthMatrix(t *testing.T) {
	t.Parallel()
	h := setup(t,
		mockserver.WithoutRateLimits(),
		mockserver.WithProject("other", "mint_other_key"),
	)
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
	for _, rt := range routes(t, func(rt mockserver.RouteRow) bool { return rt.API == "admin" }) {
		req := mockserver.Sample(t, h.s, rt.Name)
		for _, tc := range cases {
			if tc.status == http.StatusForbidden && !hasProject(rt) {
				continue // the key's organization has no such resource
			}
			t.Run(rt.Name+"/"+tc.name, func(t *testing.T) {
				r := h.do(req.Method, req.Path, req.Body, "Authorization", tc.auth)
				want := tc.status
				if want == 0 {
					want = req.Status
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
	h := setup(t, mockserver.WithoutRateLimits(), mockserver.WithProject("other", "mint_other_key"))
	for _, rt := range routes(t, func(rt mockserver.RouteRow) bool { return rt.API == "admin" && hasProject(rt) }) {
		req := mockserver.Sample(t, h.s, rt.Name)
		existing := h.do(req.Method, inProject(h.s, req.Path, "other"), req.Body)
		missing := h.do(req.Method, inProject(h.s, req.Path, "no-such-project"), req.Body)
		assert.Equal(t, http.StatusForbidden, existing.Status, rt.Name)
		assert.Equal(t, existing.Status, missing.Status, rt.Name)
		assert.Equal(t, string(existing.Body), string(missing.Body), rt.Name)
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
