package mockserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

func TestCreatedJobIsFilledLikeTheService(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithProjectID("acme-docs"))

	r := h.do("POST", h.jobsPath(""), `{"prompt":"Document the webhooks API"}`)
	require.Equal(t, http.StatusCreated, r.Status)
	var raw map[string]any
	r.decode(t, &raw)
	assert.ElementsMatch(t, []string{"id", "status", "source", "model", "prLink", "createdAt", "archivedAt"}, keys(raw))
	assert.Nil(t, raw["prLink"], "prLink is JSON null while active")
	assert.Nil(t, raw["archivedAt"])
	assert.Contains(t, raw, "prLink")

	var j job
	r.decode(t, &j)
	assert.Regexp(t, `^job_[a-z2-7]{26}$`, j.ID)
	assert.Equal(t, "active", j.Status)
	assert.Equal(t, "https://github.com/acme/acme-docs", j.Source.Repository)
	require.NotNil(t, j.Source.Ref)
	assert.True(t, strings.HasPrefix(*j.Source.Ref, "mintlify/document-the-webhooks-api-"), *j.Source.Ref)
	assert.NotEmpty(t, j.Model)
	assert.Equal(t, "2025-03-10T12:00:00.000Z", j.CreatedAt)
	_, err := time.Parse(time.RFC3339, j.CreatedAt)
	assert.NoError(t, err)

	assert.Equal(t, j, h.getJob(j.ID), "a created job reads back the same")
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestJobIDsAreUnguessable(t *testing.T) {
	t.Parallel()
	h := setup(t)
	seen := map[string]bool{}
	for range 20 {
		id := h.createJob("same prompt").ID
		assert.False(t, seen[id])
		seen[id] = true
	}
}

func TestJobLifecycleFollowsTheClock(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(time.Minute))

	j := h.createJob("write the guide")
	clock.Advance(59 * time.Second)
	assert.Equal(t, "active", h.getJob(j.ID).Status)
	assert.Nil(t, h.getJob(j.ID).PRLink)

	clock.Advance(time.Second)
	done := h.getJob(j.ID)
	assert.Equal(t, "completed", done.Status)
	require.NotNil(t, done.PRLink)
	assert.Equal(t, done.Source.Repository+"/pull/1", *done.PRLink)

	snapshot, ok := h.s.Job(j.ID)
	require.True(t, ok)
	assert.Equal(t, epoch.Add(time.Minute), snapshot.RunEndsAt)
}

func TestOutcomesFromTheAgent(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithAgent(func(prompt string) mockserver.Outcome {
		switch {
		case strings.Contains(prompt, "fail"):
			return mockserver.OutcomeFailed
		case strings.Contains(prompt, "nothing"):
			return mockserver.OutcomeNoChange
		}
		return "" // the default: a pull request
	}))
	failed := h.createJob("please fail")
	unchanged := h.createJob("change nothing")
	pr := h.createJob("add a page")
	clock.Advance(mockserver.DefaultJobDuration)

	assert.Equal(t, "failed", h.getJob(failed.ID).Status)
	assert.Nil(t, h.getJob(failed.ID).PRLink)
	assert.Equal(t, "completed", h.getJob(unchanged.ID).Status)
	assert.Nil(t, h.getJob(unchanged.ID).PRLink, "no files changed: prLink stays null")
	assert.Equal(t, "completed", h.getJob(pr.ID).Status)
	assert.NotNil(t, h.getJob(pr.ID).PRLink)
}

func TestOutcomeHeaderOverridesTheAgent(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock))
	j := h.createJob("x", mockserver.OutcomeHeader, "failed")
	clock.Advance(time.Hour)
	assert.Equal(t, "failed", h.getJob(j.ID).Status)

	r := h.do("POST", h.jobsPath(""), `{"prompt":"x"}`, mockserver.OutcomeHeader, "explode")
	require.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, r.apiError(t).details()[0], "pull-request, no-change, failed")
	assert.Len(t, h.s.Jobs(), 1, "a bad override creates nothing")
}

func TestSetOutcomeFinishJobAndArchiveFromGo(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(time.Hour))
	j := h.createJob("x")

	require.NoError(t, h.s.SetOutcome(j.ID, mockserver.OutcomeFailed))
	require.NoError(t, h.s.FinishJob(j.ID))
	assert.Equal(t, "failed", h.getJob(j.ID).Status)

	clock.Advance(time.Minute)
	require.NoError(t, h.s.ArchiveJob(j.ID))
	got := h.getJob(j.ID)
	assert.Equal(t, "archived", got.Status)
	require.NotNil(t, got.ArchivedAt)
	assert.Equal(t, "2025-03-10T12:01:00.000Z", *got.ArchivedAt)

	assert.ErrorIs(t, h.s.SetOutcome("job_missing", mockserver.OutcomeFailed), mockserver.ErrJobNotFound)
	assert.ErrorIs(t, h.s.ArchiveJob("job_missing"), mockserver.ErrJobNotFound)
	assert.ErrorIs(t, h.s.FinishJob(j.ID), mockserver.ErrJobArchived)
	assert.Error(t, h.s.SetOutcome(j.ID, "bogus"))
}

func TestPullRequestNumbersCountPerRepository(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithProject("second"))
	a := h.createJob("a")
	h.createJob("b", mockserver.OutcomeHeader, "no-change") // takes no number
	c := h.createJob("c")
	r := h.do("POST", "/v2/agent/second/job", `{"prompt":"d"}`)
	var d job
	r.decode(t, &d)
	clock.Advance(time.Hour)

	assert.Equal(t, a.Source.Repository+"/pull/1", deref(h.getJob(a.ID).PRLink))
	assert.True(t, strings.HasSuffix(deref(h.getJob(c.ID).PRLink), "/pull/2"))
	second := h.do("GET", "/v2/agent/second/job/"+d.ID, "")
	var got job
	second.decode(t, &got)
	assert.Equal(t, "https://github.com/acme/second/pull/1", deref(got.PRLink))
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestFollowUpRunsTheJobAgain(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(time.Minute))
	j := h.createJob("first", mockserver.OutcomeHeader, "failed")
	clock.Advance(time.Minute)
	require.Equal(t, "failed", h.getJob(j.ID).Status)

	r := h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"try again"}`)
	require.Equal(t, http.StatusOK, r.Status)
	var again job
	r.decode(t, &again)
	assert.Equal(t, "active", again.Status, "a follow-up sends the job back to active")
	assert.Equal(t, j.ID, again.ID)
	assert.Nil(t, again.PRLink)

	clock.Advance(time.Minute)
	done := h.getJob(j.ID)
	assert.Equal(t, "completed", done.Status)
	require.NotNil(t, done.PRLink)

	// A follow-up on a completed job with a PR keeps the same PR.
	h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"and tweak it"}`, mockserver.OutcomeHeader, "no-change")
	assert.Equal(t, "active", h.getJob(j.ID).Status)
	clock.Advance(time.Minute)
	assert.Equal(t, done.PRLink, h.getJob(j.ID).PRLink)

	// Follow-up on an active job restarts its run.
	h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"one"}`)
	clock.Advance(30 * time.Second)
	h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"two"}`)
	clock.Advance(40 * time.Second)
	assert.Equal(t, "active", h.getJob(j.ID).Status)

	stored, _ := h.s.Job(j.ID)
	assert.Equal(t, "first", stored.Prompt)
	assert.Equal(t, []string{"try again", "and tweak it", "one", "two"}, stored.FollowUps)
}

func TestFollowUpOnArchivedJobIsRefused(t *testing.T) {
	t.Parallel()
	h := setup(t)
	j := h.createJob("x")
	require.NoError(t, h.s.ArchiveJob(j.ID))
	r := h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"more"}`)
	require.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, r.apiError(t).details()[0], "archived")
	assert.Equal(t, "archived", h.getJob(j.ID).Status)
}

func TestJobsAreScopedToTheirProject(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("second"))
	j := h.createJob("mine")
	for _, r := range []*response{
		h.do("GET", "/v2/agent/second/job/"+j.ID, ""),
		h.do("POST", "/v2/agent/second/job/"+j.ID+"/message", `{"prompt":"x"}`),
		h.do("GET", h.jobsPath("/job_doesnotexist"), ""),
		h.do("POST", h.jobsPath("/job_doesnotexist/message"), `{"prompt":"x"}`),
	} {
		require.Equal(t, http.StatusNotFound, r.Status)
		assert.Equal(t, "Job not found", r.apiError(t).Error)
	}
}

func TestJobRequestValidation(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	j := h.createJob("x")
	cases := []struct {
		name, body, detail string
	}{
		{"no body", "", "empty"},
		{"empty object", `{}`, "prompt: required"},
		{"null prompt", `{"prompt":null}`, "prompt: required"},
		{"empty prompt", `{"prompt":""}`, "prompt: must not be empty"},
		{"number prompt", `{"prompt":42}`, "prompt: must be a string"},
		{"malformed JSON", `{"prompt":`, "not valid JSON"},
		{"trailing garbage", `{"prompt":"x"} {}`, "not valid JSON"},
		{"array", `["prompt"]`, "JSON object"},
		{"string", `"prompt"`, "JSON object"},
	}
	for _, path := range []string{h.jobsPath(""), h.jobsPath("/" + j.ID + "/message")} {
		for _, tc := range cases {
			t.Run(path+"/"+tc.name, func(t *testing.T) {
				r := h.do("POST", path, tc.body)
				require.Equal(t, http.StatusBadRequest, r.Status, "body: %s", r.Body)
				e := r.apiError(t)
				require.Len(t, e.Details, 1)
				assert.Contains(t, e.Details[0].Message, tc.detail)
			})
		}
	}
	assert.Len(t, h.s.Jobs(), 1)
}

func TestOversizedBodyIsRefused(t *testing.T) {
	t.Parallel()
	h := setup(t)
	big := `{"prompt":"` + strings.Repeat("a", 1<<20) + `"}`
	r := h.do("POST", h.jobsPath(""), big)
	require.Equal(t, http.StatusRequestEntityTooLarge, r.Status)
	assert.Equal(t, "Request body too large", r.apiError(t).Error)

	// Without Content-Length the limit still holds (chunked upload).
	req, _ := http.NewRequest("POST", h.s.URL()+h.jobsPath(""), strings.NewReader(big))
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+h.s.APIKey())
	resp, err := h.hc.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)

	// Just under the limit is fine.
	ok := `{"prompt":"` + strings.Repeat("a", 1<<20-20) + `"}`
	assert.Equal(t, http.StatusCreated, h.do("POST", h.jobsPath(""), ok).Status)
}

// countingReader is an endless body that counts what the server read.
type countingReader struct{ n int }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	c.n += len(p)
	return len(p), nil
}

func TestOversizedBodyIsNotReadWhole(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	body := &countingReader{}
	req, _ := http.NewRequest("POST", s.URL()+"/v2/agent/"+s.ProjectID()+"/job", io.MultiReader(strings.NewReader(`{"prompt":"`), body))
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	resp, err := s.Client().Do(req) // in memory: the handler reads the caller's reader directly
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.Less(t, body.n, 1<<20+64<<10, "read %d bytes of an endless body", body.n)
	assert.Empty(t, s.Jobs())
}

func TestJobsSnapshotListsPrompts(t *testing.T) {
	t.Parallel()
	h := setup(t)
	a := h.createJob("alpha")
	h.do("POST", h.jobsPath("/"+a.ID+"/message"), `{"prompt":"alpha 2"}`)
	h.createJob("beta")

	jobs := h.s.Jobs()
	require.Len(t, jobs, 2)
	assert.Equal(t, "alpha", jobs[0].Prompt)
	assert.Equal(t, []string{"alpha 2"}, jobs[0].FollowUps)
	assert.Equal(t, "beta", jobs[1].Prompt)
	assert.Equal(t, h.s.ProjectID(), jobs[1].ProjectID)

	b, err := json.Marshal(jobs[0])
	require.NoError(t, err)
	assert.Contains(t, string(b), `"followUps":["alpha 2"]`)
}

// The agent is the test's code: it decides a run only for a job that can
// take one, so an unknown or archived job never reaches it.
func TestFollowUpAsksTheAgentOnlyForAJobThatTakesIt(t *testing.T) {
	t.Parallel()
	var asked []string
	var mu sync.Mutex
	h := setup(t, mockserver.WithAgent(func(prompt string) mockserver.Outcome {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, prompt)
		return mockserver.OutcomePullRequest
	}))
	j := h.createJob("first")
	require.NoError(t, h.s.ArchiveJob(j.ID))

	r := h.do("POST", h.jobsPath("/job_unknown/message"), `{"prompt":"to nobody"}`)
	assert.Equal(t, http.StatusNotFound, r.Status)
	r = h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"to the archive"}`)
	assert.Equal(t, http.StatusBadRequest, r.Status)

	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"first"}, asked)
}

// A bad X-Mock-Outcome is refused before anything is processed, like a bad
// X-Mock-Fault: no job, no rate-limit slot, and the journal says so.
func TestBadOutcomeHeaderIsNotProcessed(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobRateLimit(1, time.Hour))

	r := h.do("POST", h.jobsPath(""), `{"prompt":"p"}`, mockserver.OutcomeHeader, "bogus")
	require.Equal(t, http.StatusBadRequest, r.Status)
	journal := h.s.Journal()
	require.Len(t, journal, 1)
	assert.False(t, journal[0].Processed)
	assert.Empty(t, h.s.Jobs())

	h.createJob("the one allowed create") // the refused request used no slot
}
