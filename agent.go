package mintlify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// JobStatus is the state of an agent job. Values the SDK does not know yet
// are kept as they came and are not terminal, so polling continues.
type JobStatus string

// The job states the API documents.
const (
	JobActive    JobStatus = "active"    // the agent is working
	JobCompleted JobStatus = "completed" // done; PRLink is set if files changed
	JobArchived  JobStatus = "archived"
	JobFailed    JobStatus = "failed"
)

// Terminal reports whether the job has stopped: polling can end.
func (s JobStatus) Terminal() bool {
	return s == JobCompleted || s == JobArchived || s == JobFailed
}

// Job is an agent job. Nullable fields come back as their zero value.
type Job struct {
	ID     string    `json:"id"`
	Status JobStatus `json:"status"`
	Source JobSource `json:"source"`
	// Model is the AI model the agent runs on.
	Model string `json:"model"`
	// PRLink is the pull request the agent opened: "" while the job is
	// active and when it changed no files.
	PRLink     string     `json:"prLink"`
	CreatedAt  time.Time  `json:"createdAt"`
	ArchivedAt *time.Time `json:"archivedAt"` // nil until archived
}

// JobSource is where the agent works: a GitHub repository and its branch.
type JobSource struct {
	Repository string `json:"repository"` // full URL of the GitHub repository
	Ref        string `json:"ref"`        // branch; "" when the API sends null
}

// check insists on what every job answer has: an ID and a status.
func (j *Job) check() error {
	switch {
	case j.ID == "":
		return errors.New("the job has no id")
	case j.Status == "":
		return errors.New("the job has no status")
	}
	return nil
}

type promptBody struct {
	Prompt string `json:"prompt"`
}

const jobsPath = "/v2/agent/{projectId}/job"

// CreateJob starts an agent job from a prompt (POST
// /v2/agent/{projectId}/job, answered 201). The job starts out active:
// follow it with [Client.PollJob]. It is retried only where the server
// cannot have acted, so it never creates two jobs; when the answer is lost
// or malformed the error wraps [ErrOutcomeUnknown].
func (c *Client) CreateJob(ctx context.Context, prompt string) (*Job, error) {
	if prompt == "" {
		return nil, invalidf("empty prompt")
	}
	return c.postPrompt(ctx, request{method: http.MethodPost, path: jobsPath, want: http.StatusCreated}, prompt, "")
}

// GetJob reads a job's current state (GET /v2/agent/{projectId}/job/{id}).
// An unknown job is [ErrNotFound]; an answer about another job is
// [ErrMalformedResponse].
func (c *Client) GetJob(ctx context.Context, jobID string) (*Job, error) {
	return c.getJob(ctx, jobID, false)
}

// getJob is GetJob, also for a poller (see request.polling).
func (c *Client) getJob(ctx context.Context, jobID string, polling bool) (*Job, error) {
	if err := checkSegment("job ID", jobID); err != nil {
		return nil, err
	}
	r := request{method: http.MethodGet, path: jobsPath + "/" + url.PathEscape(jobID), polling: polling}
	job, err := send[Job](ctx, c, r)
	if err != nil {
		return nil, err
	}
	return c.sameJob(r, job, jobID)
}

// SendMessage sends a follow-up instruction to a job (POST
// /v2/agent/{projectId}/job/{id}/message), which sends it back to active:
// poll it again. Retries and [ErrOutcomeUnknown] work as in
// [Client.CreateJob].
func (c *Client) SendMessage(ctx context.Context, jobID, prompt string) (*Job, error) {
	if err := checkSegment("job ID", jobID); err != nil {
		return nil, err
	}
	if prompt == "" {
		return nil, invalidf("empty prompt")
	}
	r := request{method: http.MethodPost, path: jobsPath + "/" + url.PathEscape(jobID) + "/message"}
	return c.postPrompt(ctx, r, prompt, jobID)
}

// postPrompt sends {"prompt": ...}; a non-empty jobID is the job the answer
// must be about.
func (c *Client) postPrompt(ctx context.Context, r request, prompt, jobID string) (*Job, error) {
	body, err := json.Marshal(promptBody{Prompt: prompt})
	if err != nil {
		return nil, invalidf("prompt cannot be encoded: %v", err)
	}
	r.body = body
	job, err := send[Job](ctx, c, r)
	if err != nil || jobID == "" {
		return job, err
	}
	return c.sameJob(r, job, jobID)
}

// sameJob refuses an answer about another job than the one asked for: a
// confused proxy or cache, which the caller must not act on.
func (c *Client) sameJob(r request, job *Job, jobID string) (*Job, error) {
	if job.ID != jobID {
		return nil, c.malformed(r, "the answer is about job %q, not %q", job.ID, jobID)
	}
	return job, nil
}

// PollJob reads the job until its status is terminal and returns it with a
// nil error, whichever terminal status it is: check Status and PRLink. It
// reads at once, then waits a growing, jittered interval between reads
// (see [WithPollInterval]); the stop reasons are those of every poller (see
// [PollOption]). An answer about another job than jobID is an error.
func (c *Client) PollJob(ctx context.Context, jobID string, opts ...PollOption) (*Job, error) {
	if err := checkSegment("job ID", jobID); err != nil {
		return nil, err
	}
	return poll(ctx, c, fmt.Sprintf("job %q", jobID), func(ctx context.Context) (*Job, error) {
		return c.getJob(ctx, jobID, true)
	}, func(j *Job) bool { return j.Status.Terminal() }, opts)
}
