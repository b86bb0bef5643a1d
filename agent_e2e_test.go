package mintlify_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// e2eJobs starts a mock server with a fake clock that moves a minute on every
// poll, so jobs (active for 5 minutes) end without the test sleeping.
func e2eJobs(t *testing.T, opts ...mockserver.Option) (*mintlify.Client, *mockserver.Server, mintlify.PollOption) {
	t.Helper()
	clock := mockserver.NewFakeClock(time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC))
	opts = append([]mockserver.Option{mockserver.WithClock(clock), mockserver.WithJobDuration(5 * time.Minute)}, opts...)
	mock := mockserver.Start(t, opts...)
	c := mockClient(t, mock)
	tick := mintlify.WithPollObserver(func(*mintlify.Job) { clock.Advance(time.Minute) })
	return c, mock, tick
}

var fastPoll = mintlify.WithPollInterval(time.Millisecond)

// mockClient is the end-to-end tests' client of srv's primary project, over
// loopback, with retry waits of milliseconds; opts come last, so they win
// (another key or project, say).
func mockClient(t testing.TB, srv *mockserver.Server, opts ...mintlify.Option) *mintlify.Client {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	c, err := mintlify.NewClient(append([]mintlify.Option{mintlify.WithAPIKey(srv.APIKey()), mintlify.WithProjectID(srv.ProjectID()),
		mintlify.WithBaseURL(srv.URL()), mintlify.WithHTTPClient(&http.Client{Transport: tr, Timeout: 5 * time.Second}),
		mintlify.WithRetryWait(time.Millisecond, 20*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return c
}

// testContext bounds a test's calls, so a regression fails instead of hanging.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestE2EJobRunsToPullRequestAndFollowUpRunsAgain(t *testing.T) {
	t.Parallel()
	c, _, tick := e2eJobs(t)
	ctx := testContext(t)

	created, err := c.CreateJob(ctx, "Document the CLI")
	require.NoError(t, err)
	assert.Equal(t, mintlify.JobActive, created.Status)
	assert.Empty(t, created.PRLink, "no pull request while active")
	assert.Nil(t, created.ArchivedAt)
	assert.Contains(t, created.Source.Repository, "https://github.com/")
	assert.NotEmpty(t, created.Source.Ref)
	assert.NotEmpty(t, created.Model)
	assert.False(t, created.CreatedAt.IsZero())

	var seen []mintlify.JobStatus
	observe := mintlify.WithPollObserver(func(j *mintlify.Job) { seen = append(seen, j.Status) })
	done, err := c.PollJob(ctx, created.ID, fastPoll, tick, observe)
	require.NoError(t, err)
	assert.Equal(t, mintlify.JobCompleted, done.Status)
	assert.Regexp(t, `^https://github\.com/[^/]+/[^/]+/pull/\d+$`, done.PRLink)
	assert.Equal(t, created.ID, done.ID)
	assert.Equal(t, mintlify.JobCompleted, seen[len(seen)-1])
	assert.Equal(t, []mintlify.JobStatus{mintlify.JobActive}, seen[:1], "the first poll saw the job still active")

	again, err := c.SendMessage(ctx, created.ID, "Also document the config file")
	require.NoError(t, err)
	assert.Equal(t, mintlify.JobActive, again.Status, "a follow-up sends the job back to active")

	read, err := c.GetJob(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, mintlify.JobActive, read.Status)

	done, err = c.PollJob(ctx, created.ID, fastPoll, tick)
	require.NoError(t, err)
	assert.Equal(t, mintlify.JobCompleted, done.Status)
	assert.NotEmpty(t, done.PRLink)
}

func TestE2EOutcomesAreReportedAsTheyEnd(t *testing.T) {
	t.Parallel()
	outcomes := map[string]mockserver.Outcome{
		"fail":    mockserver.OutcomeFailed,
		"nothing": mockserver.OutcomeNoChange,
		"pr":      mockserver.OutcomePullRequest,
	}
	c, mock, tick := e2eJobs(t, mockserver.WithAgent(func(p string) mockserver.Outcome { return outcomes[p] }))
	ctx := testContext(t)

	for _, tc := range []struct {
		prompt string
		status mintlify.JobStatus
		pr     bool
	}{
		{"fail", mintlify.JobFailed, false},
		{"nothing", mintlify.JobCompleted, false},
		{"pr", mintlify.JobCompleted, true},
	} {
		job, err := c.CreateJob(ctx, tc.prompt)
		require.NoError(t, err)
		job, err = c.PollJob(ctx, job.ID, fastPoll, tick)
		require.NoError(t, err, "a terminal status is not an error")
		assert.Equal(t, tc.status, job.Status, tc.prompt)
		assert.Equal(t, tc.pr, job.PRLink != "", tc.prompt)
	}

	job, err := c.CreateJob(ctx, "pr")
	require.NoError(t, err)
	require.NoError(t, mock.ArchiveJob(job.ID))
	job, err = c.PollJob(ctx, job.ID, fastPoll)
	require.NoError(t, err)
	assert.Equal(t, mintlify.JobArchived, job.Status)
	require.NotNil(t, job.ArchivedAt)

	_, err = c.SendMessage(ctx, job.ID, "one more thing")
	assert.ErrorIs(t, err, mintlify.ErrBadRequest, "an archived job takes no follow-up")
}

// TestE2EPollersWaitThroughAStatusTheyDoNotKnow: the mock reports a job as
// "queued" and a deployment as "building" (statuses this SDK does not
// know) for three reads; the pollers show them to the observer, keep
// polling, and end on the real verdict.
func TestE2EPollersWaitThroughAStatusTheyDoNotKnow(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC))
	mock := mockserver.Start(t, mockserver.WithClock(clock), mockserver.WithJobDuration(5*time.Minute))
	c := mockClient(t, mock)
	ctx := testContext(t)
	unknownFor3 := func(route, status string) {
		require.NoError(t, mock.InjectFault(mockserver.FaultRule{Route: route, Times: 3,
			Fault: mockserver.Fault{Kind: mockserver.FaultStatusValue, Value: status}}))
	}

	job, err := c.CreateJob(ctx, "Document the CLI")
	require.NoError(t, err)
	unknownFor3(mockserver.RouteGetJob, "queued")
	var jobs []mintlify.JobStatus
	done, err := c.PollJob(ctx, job.ID, fastPoll, mintlify.WithPollObserver(func(j *mintlify.Job) {
		jobs = append(jobs, j.Status)
		clock.Advance(time.Minute)
	}))
	require.NoError(t, err)
	assert.Equal(t, mintlify.JobCompleted, done.Status)
	assert.Equal(t, []mintlify.JobStatus{"queued", "queued", "queued", mintlify.JobActive, mintlify.JobActive, mintlify.JobCompleted}, jobs)
	assert.False(t, jobs[0].Known())

	id, err := c.TriggerDeployment(ctx)
	require.NoError(t, err)
	unknownFor3(mockserver.RouteDeploymentStatus, "building")
	var deps []mintlify.DeploymentStatus
	d, err := c.PollDeployment(ctx, id, fastPoll, mintlify.WithPollObserver(func(d *mintlify.Deployment) {
		deps = append(deps, d.Status)
		clock.Advance(time.Minute)
	}))
	require.NoError(t, err)
	assert.Equal(t, mintlify.DeploymentSucceeded, d.Status)
	assert.Equal(t, []mintlify.DeploymentStatus{"building", "building", "building", mintlify.DeploymentInProgress,
		mintlify.DeploymentInProgress, mintlify.DeploymentSucceeded}, deps)
}
