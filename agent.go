package mintlify

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"
)

// JobStatus is the state of an agent job.
type JobStatus string

// The job states the API documents. An answer may carry a state the
// vendor added since, a well-formed token (lower-case letters, digits, _
// and -, at most 64 bytes): it is kept as sent and is not terminal (see
// [JobStatus.Known]). Any other value is a malformed answer (an error).
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

// Known reports whether the status is one this version of the SDK
// documents. A poller waits through one it does not know: only a known
// status ends a wait.
func (s JobStatus) Known() bool { return s == JobActive || s.Terminal() }

// Job is an agent job. Nullable fields come back as their zero value. It
// marshals as the API sends it: PRLink "" and a nil ArchivedAt as null.
type Job struct {
	ID     string
	Status JobStatus
	Source JobSource
	// Model is the AI model the agent runs on.
	Model string
	// PRLink is the pull request the agent opened: "" while the job is
	// active and when it changed no files.
	PRLink     string
	CreatedAt  time.Time
	ArchivedAt *time.Time // nil until archived
}

// MarshalJSON writes the job as the API does.
func (j Job) MarshalJSON() ([]byte, error) { return marshalWire(j.wire()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (j *Job) UnmarshalJSON(b []byte) error { return unmarshalWire(b, j, (*wireJob).job) }

// JobSource is where the agent works: a GitHub repository and its branch.
// It marshals as the API sends it, Ref "" as null.
type JobSource struct {
	Repository string // full URL of the GitHub repository
	Ref        string // branch; "" when the API sends null
}

// MarshalJSON writes the source as the API does.
func (s JobSource) MarshalJSON() ([]byte, error) { return marshalWire(s.wire()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (s *JobSource) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, s, (*wireJobSource).source)
}

// wireJob is a job as the API sends it. The times are date-times in the
// vendor schema: a value that is not one is an error.
type wireJob struct {
	ID         string        `json:"id"`
	Status     JobStatus     `json:"status"`
	Source     wireJobSource `json:"source"`
	Model      string        `json:"model"`
	PRLink     jsonString    `json:"prLink"`
	CreatedAt  dateTime      `json:"createdAt"`
	ArchivedAt dateTime      `json:"archivedAt"`
}

type wireJobSource struct {
	Repository string     `json:"repository"`
	Ref        jsonString `json:"ref"`
}

// check insists on what every job answer has: an ID that can be one, and
// a status that can be one.
func (w *wireJob) check() error {
	switch {
	case w.ID == "":
		return errors.New("the job has no id")
	case w.Status == "":
		return errors.New("the job has no status")
	}
	if err := checkToken("job status", w.Status); err != nil {
		return err
	}
	return checkID("job id", w.ID)
}

func (w *wireJob) about() string { return w.ID }

func (w *wireJob) job() Job {
	j := Job{ID: w.ID, Status: w.Status, Source: w.Source.source(), Model: w.Model, PRLink: w.PRLink.s, CreatedAt: w.CreatedAt.t}
	if t := w.ArchivedAt.t; !t.IsZero() {
		j.ArchivedAt = &t
	}
	return j
}

func (j Job) wire() wireJob {
	w := wireJob{ID: j.ID, Status: j.Status, Source: j.Source.wire(), Model: j.Model, PRLink: nullable(j.PRLink), CreatedAt: dateTime{j.CreatedAt}}
	if j.ArchivedAt != nil {
		w.ArchivedAt.t = *j.ArchivedAt
	}
	return w
}

func (w *wireJobSource) source() JobSource { return JobSource{Repository: w.Repository, Ref: w.Ref.s} }

func (s JobSource) wire() wireJobSource {
	return wireJobSource{Repository: s.Repository, Ref: nullable(s.Ref)}
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
	return c.getJob(ctx, jobID, nil)
}

// getJob is GetJob, also for a poller, whose reads share buf (nil for
// GetJob; see request.buf).
func (c *Client) getJob(ctx context.Context, jobID string, buf *answerBuffer) (*Job, error) {
	if err := checkSegment("job ID", jobID); err != nil {
		return nil, err
	}
	r := request{method: http.MethodGet, path: jobsPath + "/" + url.PathEscape(jobID), buf: buf}
	return c.sendJob(ctx, r, jobID)
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
	body, err := requestBody(promptBody{Prompt: prompt})
	if err != nil {
		return nil, err
	}
	r.body = body
	return c.sendJob(ctx, r, jobID)
}

// sendJob sends r and reads the job it answers. A non-empty jobID is the
// job the answer must be about (see sendAbout).
func (c *Client) sendJob(ctx context.Context, r request, jobID string) (*Job, error) {
	w, err := sendAbout[wireJob](ctx, c, r, "job", jobID)
	if err != nil {
		return nil, err
	}
	job := w.job()
	return &job, nil
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
	return poll(ctx, c, "job", jobID, c.getJob, func(j *Job) bool { return j.Status.Terminal() }, opts)
}
