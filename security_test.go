package mintlify_test

// Security from the client's side, against the mock over loopback: job IDs
// cannot reach another route, a wrong or foreign key gets a typed error and
// no data, oversized input is refused. NewClient's refusals are in
// validation_test.go; redirects, and the key echoed anywhere in any answer
// of every method, in hostile_test.go.

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// TestIDsStayOnTheirRoute sends hostile IDs through every admin method
// that takes any ID. Each must arrive as one path segment of the method's
// route (the journal shows the route and the decoded path), be not found,
// and leave every real job untouched, including one whose ID the hostile
// one embeds.
func TestIDsStayOnTheirRoute(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithoutRateLimits())
	c := mockClient(t, srv)
	ctx := relContext(t, 20*time.Second)
	real, err := c.CreateJob(ctx, "A job hostile IDs must not reach")
	require.NoError(t, err)

	ids := []string{
		"a/b", "../x", "x/..", "./x", "%2F", "a%2Fb", "%2e%2e", "a b", "a+b", "ü", "日本語",
		"x/../../v1/analytics/" + srv.ProjectID() + "/visitors",
		"../../../v1/analytics/" + srv.ProjectID() + "/visitors",
		real.ID + "/message", "../" + real.ID, real.ID + "/", real.ID + "?x=1", real.ID + "#frag",
		real.ID + ";x", real.ID + "%00", "a\x00b", "a\nb", "a\tb", `a\b`, "\u202ereversed",
	}
	n := 0
	for _, m := range methods {
		if !m.takesAnyID() || m.apiPrefix != "" {
			continue
		}
		n++
		// The route an unknown ID of no odd character reaches.
		srv.ClearJournal()
		_, err := m.arg(ctx, c, "unknown_0123")
		require.ErrorIs(t, err, mintlify.ErrNotFound, m.name)
		require.Len(t, srv.Journal(), 1, m.name)
		route := srv.Journal()[0].Route
		for _, id := range ids {
			srv.ClearJournal()
			got, err := m.arg(ctx, c, id)
			assertNoResult(t, got)
			assert.ErrorIs(t, err, mintlify.ErrNotFound, "%s(%q)", m.name, id)
			journal := srv.Journal()
			if assert.Len(t, journal, 1, "%s(%q): one request, not retried", m.name, id) {
				// The mock refuses to route a decoded path with "." or ".."
				// segments (route ""): either way, no other route.
				assert.Contains(t, []string{route, ""}, journal[0].Route, "%s(%q)", m.name, id)
				path := routeID.ReplaceAllLiteralString(strings.ReplaceAll(m.route, "{projectId}", srv.ProjectID()), id)
				assert.Equal(t, path, journal[0].Path, "%s(%q): the ID is one path segment", m.name, id)
				assert.Equal(t, http.StatusNotFound, journal[0].Status, "%s(%q)", m.name, id)
			}
		}
		// "." and ".." cannot be one segment once a proxy normalizes the
		// path: refused before sending.
		for _, id := range []string{".", "..", ""} {
			srv.ClearJournal()
			_, err := m.arg(ctx, c, id)
			assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "%s(%q)", m.name, id)
			assert.Empty(t, srv.Journal(), "%s(%q) sent nothing", m.name, id)
		}
	}
	assert.GreaterOrEqual(t, n, 3, "the job methods at least")

	stored := srv.Jobs()
	require.Len(t, stored, 1, "no job was created")
	assert.Empty(t, stored[0].FollowUps, "the real job got no follow-up")
}

// TestAnotherProjectsJobIsNotFound checks that a job is reachable only from
// its own project: another project's client gets the same 404 as for a job
// that never existed, and cannot send it a follow-up.
func TestAnotherProjectsJobIsNotFound(t *testing.T) {
	t.Parallel()
	const otherProject, otherKey = "proj_other_team", "mint_other_team_key_9f8e7d6c5b4a"
	srv := mockserver.Start(t, mockserver.WithoutRateLimits(), mockserver.WithProject(otherProject, otherKey))
	ctx := relContext(t, 20*time.Second)
	theirs, err := mockClient(t, srv, mintlify.WithAPIKey(otherKey), mintlify.WithProjectID(otherProject)).CreateJob(ctx, "Their job")
	require.NoError(t, err)

	c := mockClient(t, srv)
	got, err := c.GetJob(ctx, theirs.ID)
	assert.Nil(t, got)
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
	_, unknownErr := c.GetJob(ctx, "job_that_never_existed")
	var theirErr, neverErr *mintlify.APIError
	require.ErrorAs(t, err, &theirErr)
	require.ErrorAs(t, unknownErr, &neverErr)
	theirErr.RequestID, neverErr.RequestID = "", ""
	assert.Equal(t, neverErr, theirErr, "the same answer as for a job that never existed")

	got, err = c.SendMessage(ctx, theirs.ID, "Hijack it")
	assert.Nil(t, got)
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
	stored, _ := srv.Job(theirs.ID)
	assert.Empty(t, stored.FollowUps)
}

// TestAuthMatrix calls every admin method of a project with keys that
// must not work: an unknown key (401), a real key of another project (403),
// and the right key on a project that does not exist or is not its own
// (403). Each call gets the typed error after one request, and no data;
// nothing changes on the server.
func TestAuthMatrix(t *testing.T) {
	t.Parallel()
	const otherProject, otherKey = "proj_other_team", "mint_other_team_key_9f8e7d6c5b4a"
	srv := mockserver.Start(t, mockserver.WithoutRateLimits(), mockserver.WithVisits(relVisits()...),
		mockserver.WithProject(otherProject, otherKey))
	ctx := relContext(t, 20*time.Second)
	owner := mockClient(t, srv)
	_, err := owner.CreateJob(ctx, "The project's only job")
	require.NoError(t, err)

	cases := []struct {
		name, key, project string
		want               error
		status             int
	}{
		{"unknown key", "mint_unknown_0123456789abcdef", srv.ProjectID(), mintlify.ErrUnauthorized, 401},
		{"revoked-looking key", srv.APIKey() + "x", srv.ProjectID(), mintlify.ErrUnauthorized, 401},
		{"another project's key", otherKey, srv.ProjectID(), mintlify.ErrForbidden, 403},
		{"own key, another project", srv.APIKey(), otherProject, mintlify.ErrForbidden, 403},
		{"own key, no such project", srv.APIKey(), "proj_does_not_exist", mintlify.ErrForbidden, 403},
	}
	for _, tc := range cases {
		c := mockClient(t, srv, mintlify.WithAPIKey(tc.key), mintlify.WithProjectID(tc.project))
		for _, m := range methods {
			if m.apiPrefix != "" || !strings.Contains(m.route, "{projectId}") {
				continue
			}
			srv.ClearJournal()
			got, err := m.call(ctx, c)
			what := tc.name + "/" + m.name
			assert.ErrorIs(t, err, tc.want, what)
			var apiErr *mintlify.APIError
			if assert.ErrorAs(t, err, &apiErr, what) {
				assert.Equal(t, tc.status, apiErr.StatusCode, what)
				assert.NotEmpty(t, apiErr.Message, what, "the refusal says why")
			}
			assert.True(t, noResult(got), "%s: no data: %#v", what, got)
			if err != nil {
				assert.NotContains(t, err.Error(), tc.key, what)
			}
			journal := srv.Journal()
			if assert.Len(t, journal, 1, "%s: one request, not retried", what) {
				assert.Equal(t, tc.status, journal[0].Status, what)
			}
		}
	}
	stored := srv.Jobs()
	require.Len(t, stored, 1, "no job was created")
	assert.Empty(t, stored[0].FollowUps, "no follow-up was accepted")
}

// TestOversizedPromptIsRefused sends a prompt over the server's 1 MiB body
// limit: the call gets a typed 413 (or, if the server hangs up before the
// client hears the answer, an unknown outcome), is not retried, and no job
// is created.
func TestOversizedPromptIsRefused(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithoutRateLimits())
	c := mockClient(t, srv)
	ctx := relContext(t, 20*time.Second)
	huge := strings.Repeat("Document everything. ", (1<<20)/20+1)

	job, err := c.CreateJob(ctx, huge)
	assert.Nil(t, job)
	t.Logf("answer: %v", err)
	var apiErr *mintlify.APIError
	if errors.As(err, &apiErr) {
		assert.Equal(t, http.StatusRequestEntityTooLarge, apiErr.StatusCode)
		assert.ErrorIs(t, err, mintlify.ErrBadRequest)
		assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
	} else {
		assert.ErrorIs(t, err, mintlify.ErrOutcomeUnknown)
	}
	journal := relJournal(srv, 1)
	if assert.Len(t, journal, 1, "one request, not retried") {
		assert.Equal(t, http.StatusRequestEntityTooLarge, journal[0].Status)
	}
	assert.Empty(t, srv.Jobs())

	// The client is still usable afterwards.
	_, err = c.CreateJob(ctx, "A prompt of a normal size")
	assert.NoError(t, err)
}
