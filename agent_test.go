package mintlify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJobStatusTerminal(t *testing.T) {
	t.Parallel()
	tests := map[JobStatus]bool{
		JobActive:    false,
		JobCompleted: true,
		JobArchived:  true,
		JobFailed:    true,
		"queued":     false, // a status added to the API later
		"":           false,
		"Completed":  false,
	}
	for status, want := range tests {
		assert.Equal(t, want, status.Terminal(), "%q", status)
	}
}

func TestJobDecoding(t *testing.T) {
	t.Parallel()
	archived := time.Date(2025, 3, 5, 8, 0, 0, 0, time.UTC)
	created := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		name string
		body string
		want Job
	}{
		{
			name: "completed with a pull request",
			body: `{"id":"job_1","status":"completed",
				"source":{"repository":"https://github.com/acme/docs","ref":"docs/update"},
				"model":"claude-sonnet-4","prLink":"https://github.com/acme/docs/pull/7",
				"createdAt":"2025-03-04T05:06:07Z","archivedAt":null}`,
			want: Job{
				ID: "job_1", Status: JobCompleted,
				Source:    JobSource{Repository: "https://github.com/acme/docs", Ref: "docs/update"},
				Model:     "claude-sonnet-4",
				PRLink:    "https://github.com/acme/docs/pull/7",
				CreatedAt: created,
			},
		},
		{
			name: "active: nulls become zero values",
			body: `{"id":"job_1","status":"active","source":{"repository":"https://github.com/acme/docs","ref":null},
				"model":"m","prLink":null,"createdAt":"2025-03-04T05:06:07Z","archivedAt":null}`,
			want: Job{
				ID: "job_1", Status: JobActive,
				Source:    JobSource{Repository: "https://github.com/acme/docs"},
				Model:     "m",
				CreatedAt: created,
			},
		},
		{
			name: "archived",
			body: `{"id":"job_1","status":"archived","source":{"repository":"https://github.com/acme/docs","ref":"main"},
				"model":"m","prLink":null,"createdAt":"2025-03-04T05:06:07Z","archivedAt":"2025-03-05T08:00:00Z"}`,
			want: Job{
				ID: "job_1", Status: JobArchived,
				Source:     JobSource{Repository: "https://github.com/acme/docs", Ref: "main"},
				Model:      "m",
				CreatedAt:  created,
				ArchivedAt: &archived,
			},
		},
		{
			name: "unknown fields and a future status",
			body: `{"id":"job_1","status":"queued","priority":3,"owner":{"name":"x"},"tags":["a"],
				"source":{"repository":"https://github.com/acme/docs","ref":"main","commit":"abc"},
				"model":"m","createdAt":"2025-03-04T05:06:07Z"}`,
			want: Job{
				ID: "job_1", Status: "queued",
				Source:    JobSource{Repository: "https://github.com/acme/docs", Ref: "main"},
				Model:     "m",
				CreatedAt: created,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), respond(http.StatusOK, tt.body))
			job, err := c.GetJob(context.Background(), "job_1")
			require.NoError(t, err)
			require.NotNil(t, job)
			assert.True(t, tt.want.CreatedAt.Equal(job.CreatedAt))
			if tt.want.ArchivedAt != nil {
				require.NotNil(t, job.ArchivedAt)
				assert.True(t, tt.want.ArchivedAt.Equal(*job.ArchivedAt))
			}
			got := *job
			got.CreatedAt, got.ArchivedAt = tt.want.CreatedAt, tt.want.ArchivedAt
			assert.Equal(t, tt.want, got)
			if tt.want.ArchivedAt == nil {
				assert.Nil(t, job.ArchivedAt)
			}
		})
	}
}

func TestCreateJobReturnsNewJob(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	mt.RegisterResponder(http.MethodPost, coreJobsURL, respondJob(http.StatusCreated, "job_new", JobActive))
	job, err := c.CreateJob(context.Background(), "Document the CLI")
	require.NoError(t, err)
	assert.Equal(t, "job_new", job.ID)
	assert.Equal(t, JobActive, job.Status)
	assert.Empty(t, job.PRLink)
	assert.False(t, job.Status.Terminal())
}

func TestSendMessageReturnsJobBackToActive(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	mt.RegisterResponder(http.MethodPost, coreJobURL("job_1")+"/message", respondJob(http.StatusOK, "job_1", JobActive))
	job, err := c.SendMessage(context.Background(), "job_1", "Also cover errors")
	require.NoError(t, err)
	assert.Equal(t, JobActive, job.Status)
}

// PollJob.

// fastPoll polls every millisecond or two.
var fastPoll = []PollOption{WithPollInterval(time.Millisecond), WithMaxPollInterval(2 * time.Millisecond)}

func TestPollJobReturnsOnEveryTerminalStatus(t *testing.T) {
	t.Parallel()
	for _, final := range []JobStatus{JobCompleted, JobArchived, JobFailed} {
		t.Run(string(final), func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(
				respondJob(http.StatusOK, "job_1", JobActive),
				respondJob(http.StatusOK, "job_1", JobActive),
				respondJob(http.StatusOK, "job_1", final)))

			job, err := c.PollJob(context.Background(), "job_1", fastPoll...)
			require.NoError(t, err, "a terminal status is not an error: the caller reads Status")
			assert.Equal(t, final, job.Status)
			assert.Equal(t, 3, mt.GetTotalCallCount())
		})
	}
}

func TestPollJobObserverSeesEveryStateInOrder(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(
		respondJob(http.StatusOK, "job_1", JobActive),
		respondJob(http.StatusOK, "job_1", "queued"),
		respond(http.StatusServiceUnavailable, ""), // not a state: not observed
		respondJob(http.StatusOK, "job_1", JobActive),
		respondJob(http.StatusOK, "job_1", JobCompleted)))

	var seen []JobStatus
	var last *Job
	job, err := c.PollJob(context.Background(), "job_1", append(fastPoll, WithPollObserver(func(j *Job) {
		seen = append(seen, j.Status)
		last = j
	}))...)
	require.NoError(t, err)
	assert.Equal(t, []JobStatus{JobActive, "queued", JobActive, JobCompleted}, seen)
	assert.Same(t, last, job, "the observer sees the job PollJob returns")
}

func TestPollJobIntervals(t *testing.T) {
	t.Parallel()
	t.Run("the first wait is the poll interval", func(t *testing.T) {
		t.Parallel()
		c, mt := newCoreClient(t)
		rec := &coreRecorder{}
		mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), rec.wrap(inOrder(
			respondJob(http.StatusOK, "job_1", JobActive),
			respondJob(http.StatusOK, "job_1", JobCompleted))))
		_, err := c.PollJob(context.Background(), "job_1", WithPollInterval(100*time.Millisecond))
		require.NoError(t, err)
		reqs := rec.requests()
		require.Len(t, reqs, 2)
		gap := reqs[1].At.Sub(reqs[0].At)
		assert.GreaterOrEqual(t, gap, 80*time.Millisecond, "jitter takes at most a fifth off")
		assert.Less(t, gap, 3*time.Second, "not the 5s default")
	})
	t.Run("growth stops at the maximum", func(t *testing.T) {
		t.Parallel()
		// 40 polls from 1ms growing by half each time would take hours;
		// capped at 2ms they take well under a second.
		const polls = 40
		c, mt := newCoreClient(t)
		rs := make([]httpmock.Responder, 0, polls)
		for range polls - 1 {
			rs = append(rs, respondJob(http.StatusOK, "job_1", JobActive))
		}
		mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(append(rs, respondJob(http.StatusOK, "job_1", JobCompleted))...))

		start := time.Now()
		job, err := c.PollJob(context.Background(), "job_1", fastPoll...)
		require.NoError(t, err)
		assert.Equal(t, JobCompleted, job.Status)
		assert.Equal(t, polls, mt.GetTotalCallCount())
		assert.Less(t, time.Since(start), 3*time.Second)
	})
}

func TestPollJobRejectsBadIntervals(t *testing.T) {
	t.Parallel()
	tests := map[string][]PollOption{
		"zero interval":           {WithPollInterval(0)},
		"negative interval":       {WithPollInterval(-time.Second)},
		"maximum below first":     {WithPollInterval(10 * time.Millisecond), WithMaxPollInterval(5 * time.Millisecond)},
		"zero maximum":            {WithMaxPollInterval(0)},
		"first above default max": {WithPollInterval(time.Minute)},
	}
	for name, opts := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			job, err := c.PollJob(context.Background(), "job_1", opts...)
			require.ErrorIs(t, err, ErrInvalidInput)
			assert.Nil(t, job)
			assert.Zero(t, mt.GetTotalCallCount())
		})
	}
}

func TestPollJobStopsAtOnceOnHardErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status   int
		sentinel error
	}{
		{http.StatusNotFound, ErrNotFound},
		{http.StatusUnauthorized, ErrUnauthorized},
		{http.StatusForbidden, ErrForbidden},
		{http.StatusBadRequest, ErrBadRequest},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(
				respondJob(http.StatusOK, "job_1", JobActive),
				respond(tt.status, `{"error":"no such job"}`),
				respondJob(http.StatusOK, "job_1", JobCompleted)))

			job, err := c.PollJob(context.Background(), "job_1", fastPoll...)
			assert.Nil(t, job)
			require.ErrorIs(t, err, tt.sentinel)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.status, apiErr.StatusCode)
			assert.Contains(t, err.Error(), "job_1")
			assert.Equal(t, 2, mt.GetTotalCallCount())
		})
	}
}

func TestPollJobContinuesThroughTransientFailures(t *testing.T) {
	t.Parallel()
	// No client retries: PollJob sees every failure itself.
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(
		respondJob(http.StatusOK, "job_1", JobActive),
		respond(http.StatusServiceUnavailable, ""),
		respond(http.StatusServiceUnavailable, ""),
		respondJob(http.StatusOK, "job_1", JobActive), // resets the count of failures
		respond(http.StatusBadGateway, "<html>bad gateway</html>"),
		respond(http.StatusTooManyRequests, `{"error":"slow down"}`),
		respondJob(http.StatusOK, "job_1", JobActive),
		httpmock.NewErrorResponder(errors.New("connection reset by peer")),
		respond(http.StatusOK, `{"id":"job_1","status":"comp`), // a truncated answer
		respondJob(http.StatusOK, "job_1", JobCompleted)))

	job, err := c.PollJob(context.Background(), "job_1", fastPoll...)
	require.NoError(t, err)
	assert.Equal(t, JobCompleted, job.Status)
	assert.Equal(t, 10, mt.GetTotalCallCount())
}

func TestPollJobGivesUpAfterFiveFailedPolls(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(
		respondJob(http.StatusOK, "job_1", JobActive),
		respond(http.StatusServiceUnavailable, `{"error":"first"}`),
		respond(http.StatusInternalServerError, `{"error":"second"}`),
		respond(http.StatusOK, `{}`),
		respond(http.StatusGatewayTimeout, `{"error":"fourth"}`),
		respond(http.StatusBadGateway, `{"error":"fifth"}`),
		respondJob(http.StatusOK, "job_1", JobCompleted)))

	job, err := c.PollJob(context.Background(), "job_1", fastPoll...)
	assert.Nil(t, job)
	require.ErrorIs(t, err, ErrServer)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadGateway, apiErr.StatusCode, "the last failure")
	assert.Equal(t, "fifth", apiErr.Message)
	assert.Equal(t, 6, mt.GetTotalCallCount(), "one good read, then five failures, then stop")
}

func TestPollJobHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	rec := &coreRecorder{}
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), rec.wrap(inOrder(
		respond(http.StatusTooManyRequests, `{"error":"slow down"}`, "Retry-After", "1"),
		respondJob(http.StatusOK, "job_1", JobCompleted))))

	_, err := c.PollJob(context.Background(), "job_1",
		WithPollInterval(time.Millisecond), WithMaxPollInterval(2*time.Second))
	require.NoError(t, err)
	reqs := rec.requests()
	require.Len(t, reqs, 2)
	assert.GreaterOrEqual(t, reqs[1].At.Sub(reqs[0].At), time.Second)
}

// A Retry-After beyond the longest poll interval is the caller's decision,
// never a silent long sleep.
func TestPollJobStopsOnRetryAfterBeyondMaxInterval(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"),
		respond(http.StatusTooManyRequests, `{"error":"slow down"}`, "Retry-After", "3600"))

	start := time.Now()
	_, err := c.PollJob(context.Background(), "job_1", fastPoll...)
	assert.Less(t, time.Since(start), 2*time.Second)
	require.ErrorIs(t, err, ErrRateLimited)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, time.Hour, apiErr.RetryAfter)
	assert.Equal(t, 1, mt.GetTotalCallCount())
}

func TestPollJobStopsWhenContextEndsWhileWaiting(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), respondJob(http.StatusOK, "job_1", JobActive))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	start := time.Now()
	job, err := c.PollJob(ctx, "job_1", WithPollInterval(10*time.Second),
		WithPollObserver(func(*Job) { cancel() })) // cancel once the first state is in
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Nil(t, job)
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "job_1")
	assert.Equal(t, 1, mt.GetTotalCallCount())
}

func TestPollJobDeadline(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), respondJob(http.StatusOK, "job_1", JobActive))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()

	start := time.Now()
	_, err := c.PollJob(ctx, "job_1", WithPollInterval(20*time.Millisecond), WithMaxPollInterval(time.Hour))
	assert.Less(t, time.Since(start), 2*time.Second)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.GreaterOrEqual(t, mt.GetTotalCallCount(), 1)
}

func TestPollJobContextEndAfterFailureWrapsBoth(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel just after the client has read the 503: PollJob is then
	// about to sleep or sleeping.
	var once sync.Once
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), respondThen(http.StatusServiceUnavailable,
		`{"error":"maintenance"}`, func() { once.Do(func() { time.AfterFunc(20*time.Millisecond, cancel) }) }))

	start := time.Now()
	_, err := c.PollJob(ctx, "job_1", WithPollInterval(10*time.Second))
	assert.Less(t, time.Since(start), 2*time.Second)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, ErrServer, "the last failure is kept")
	assert.Contains(t, err.Error(), "maintenance")
}

// The contract (agent.go, PollJob): when ctx ends, the error wraps ctx.Err()
// and the last failure. Here the context ends during the poll that follows
// a failed one.
func TestPollJobContextEndDuringPollKeepsLastFailure(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(
		respond(http.StatusServiceUnavailable, `{"error":"maintenance"}`),
		func(req *http.Request) (*http.Response, error) {
			cancel()
			<-req.Context().Done()
			return nil, req.Context().Err()
		}))

	_, err := c.PollJob(ctx, "job_1", fastPoll...)
	require.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, ErrServer, "the 503 of the previous poll is the last failure")
	assert.Equal(t, 2, mt.GetTotalCallCount())
}
