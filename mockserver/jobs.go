package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/jobs"
)

// Outcome is how a run of a job ends once its duration has passed.
type Outcome = jobs.Outcome

// The outcomes the service produces. The zero Outcome means "let the agent
// decide" wherever an Outcome is optional.
const (
	OutcomePullRequest Outcome = jobs.PullRequest // "pull-request": completed, prLink set
	OutcomeNoChange    Outcome = jobs.NoChange    // "no-change": completed, no files changed, prLink null
	OutcomeFailed      Outcome = jobs.Failed      // "failed": failed
)

// Status is a job's status as the API reports it.
type Status = jobs.Status

// Job statuses, as in the service.
const (
	StatusActive    Status = jobs.StatusActive    // "active"
	StatusCompleted Status = jobs.StatusCompleted // "completed"
	StatusArchived  Status = jobs.StatusArchived  // "archived"
	StatusFailed    Status = jobs.StatusFailed    // "failed"
)

// Job is a snapshot of a stored job, with what the API does not show (its
// project, prompts and outcome) so a test can check what the server was
// asked to do — for instance that no prompt produced two jobs.
type Job struct {
	ID         string     `json:"id"`                   // as in the API
	ProjectID  string     `json:"projectId"`            // the project it was created in
	Status     Status     `json:"status"`               // as the API reports it now
	Outcome    Outcome    `json:"outcome"`              // of the current run
	Prompt     string     `json:"prompt"`               // the create request's prompt
	FollowUps  []string   `json:"followUps"`            // follow-up prompts, in order
	Repository string     `json:"repository"`           // source.repository: one per project
	Ref        string     `json:"ref"`                  // source.ref: the branch, named after the prompt
	Model      string     `json:"model"`                // as in the API
	PRLink     string     `json:"prLink,omitempty"`     // "" where the API sends null
	CreatedAt  time.Time  `json:"createdAt"`            // server clock at creation
	RunEndsAt  time.Time  `json:"runEndsAt"`            // when the current run leaves active
	ArchivedAt *time.Time `json:"archivedAt,omitempty"` // nil until archived
}

// Jobs returns every stored job in creation order, across projects, with
// the prompts each was given.
func (s *Server) Jobs() []Job {
	now := s.Now()
	all := s.jobs.All()
	out := make([]Job, len(all))
	for i := range all {
		out[i] = snapshot(&all[i], now)
	}
	return out
}

// Job returns one stored job, in any project.
func (s *Server) Job(id string) (Job, bool) {
	now := s.Now()
	j, ok := s.jobs.Get(id, "")
	if !ok {
		return Job{}, false
	}
	return snapshot(&j, now), true
}

// SetOutcome changes how the job's current run ends. If the run is already
// over, the job's status changes at once, which is how a test makes a
// finished job fail.
func (s *Server) SetOutcome(jobID string, o Outcome) error {
	if !jobs.ValidOutcome(o) {
		return fmt.Errorf("mockserver: invalid outcome %q", o)
	}
	return s.jobs.SetOutcome(jobID, o)
}

// FinishJob ends the job's current run now, with its outcome, for tests on
// a real clock that should not wait for the job duration.
func (s *Server) FinishJob(jobID string) error {
	return s.jobs.Finish(jobID, s.Now())
}

// ArchiveJob archives the job, as the dashboard would: its status becomes
// archived and follow-ups are refused. Archiving twice keeps the first
// archivedAt.
func (s *Server) ArchiveJob(jobID string) error {
	return s.jobs.Archive(jobID, s.Now())
}

func (s *Server) createJob(c *call) reply {
	prompt, rep, ok := readPrompt(c)
	if !ok {
		return rep
	}
	outcome := s.chooseOutcome(prompt, c.forced)
	j := s.jobs.Create(&jobs.Job{
		ID:        "job_" + randomToken(),
		ProjectID: c.project.id,
		Repo:      c.project.repo,
		CreatedAt: c.now,
		Prompt:    prompt,
	}, outcome, c.now, s.cfg.jobDuration)
	return jobReply(http.StatusCreated, &j, c.now)
}

func (s *Server) getJob(c *call) reply {
	j, ok := s.jobs.Get(c.r.PathValue("id"), c.project.id)
	if !ok {
		return jobNotFound()
	}
	return jobReply(http.StatusOK, &j, c.now)
}

// followUp starts a new run of the job whatever state it is in, except
// archived: that is final, as in the service. The agent decides the run's
// outcome only once the job is known to take it, and outside the lock, since
// it is the caller's code.
func (s *Server) followUp(c *call) reply {
	prompt, rep, ok := readPrompt(c)
	if !ok {
		return rep
	}
	id := c.r.PathValue("id")
	if refusal := s.jobs.Followable(id, c.project.id); refusal != jobs.Accepted {
		return followUpRefused(refusal)
	}
	outcome := s.chooseOutcome(prompt, c.forced)
	j, refusal := s.jobs.FollowUp(id, c.project.id, prompt, outcome, c.now, s.cfg.jobDuration) // archived meanwhile?
	if refusal != jobs.Accepted {
		return followUpRefused(refusal)
	}
	return jobReply(http.StatusOK, &j, c.now)
}

// readPrompt reads and validates {"prompt": "..."}, the body of a create
// and of a follow-up.
func readPrompt(c *call) (string, reply, bool) {
	var body struct {
		Prompt json.RawMessage `json:"prompt"`
	}
	if rep, ok := readBody(c, &body, `the request body is empty; send {"prompt": "..."}`); !ok {
		return "", rep, false
	}
	if len(body.Prompt) == 0 || string(body.Prompt) == "null" {
		return "", invalidBody("prompt: required"), false
	}
	var prompt string
	if err := json.Unmarshal(body.Prompt, &prompt); err != nil {
		return "", invalidBody("prompt: must be a string"), false
	}
	if prompt == "" {
		return "", invalidBody("prompt: must not be empty"), false
	}
	return prompt, reply{}, true
}

// chooseOutcome decides how a run ends. The override header wins, then an
// outcome set over the control API, then the agent function; the default is
// the happy path, a pull request.
func (s *Server) chooseOutcome(prompt string, forced Outcome) Outcome {
	if forced != "" {
		return forced
	}
	if o := s.defaultOutcome.Load(); o != nil {
		return *o
	}
	if s.cfg.agent != nil {
		if o := s.cfg.agent(prompt); jobs.ValidOutcome(o) {
			return o
		}
	}
	return OutcomePullRequest
}

// followUpRefused is the answer to a follow-up the job cannot take.
func followUpRefused(r jobs.Refusal) reply {
	if r == jobs.Archived {
		return errorReply(http.StatusBadRequest, "Invalid request", "the job is archived and cannot take follow-up messages")
	}
	return jobNotFound()
}

func jobNotFound() reply {
	return errorReply(http.StatusNotFound, "Job not found")
}

func jobReply(status int, j *jobs.Job, now time.Time) reply {
	return jsonReply(status, mustJSON(jobAnswerOf(j, now)))
}

func snapshot(j *jobs.Job, now time.Time) Job {
	status, pr := j.View(now)
	out := Job{
		ID:         j.ID,
		ProjectID:  j.ProjectID,
		Status:     status,
		Outcome:    j.Outcome,
		Prompt:     j.Prompt,
		FollowUps:  append([]string{}, j.FollowUps...),
		Repository: j.Repo,
		Ref:        j.Ref,
		Model:      jobs.Model,
		CreatedAt:  j.CreatedAt,
		RunEndsAt:  j.RunEnd,
	}
	if pr {
		out.PRLink = j.PRLink()
	}
	if j.Archived {
		t := j.ArchivedAt
		out.ArchivedAt = &t
	}
	return out
}

// apiTime is the service's timestamp format: RFC 3339 in UTC, milliseconds.
const apiTime = "2006-01-02T15:04:05.000Z07:00"

// jobAnswer is a job as the API shows it.
type jobAnswer struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Source struct {
		Repository string `json:"repository"`
		Ref        string `json:"ref"`
	} `json:"source"`
	Model      string  `json:"model"`
	PRLink     *string `json:"prLink"`
	CreatedAt  string  `json:"createdAt"`
	ArchivedAt *string `json:"archivedAt"`
}

func jobAnswerOf(j *jobs.Job, now time.Time) jobAnswer {
	status, pr := j.View(now)
	a := jobAnswer{ID: j.ID, Status: string(status), Model: jobs.Model, CreatedAt: j.CreatedAt.UTC().Format(apiTime)}
	a.Source.Repository, a.Source.Ref = j.Repo, j.Ref
	if pr {
		link := j.PRLink()
		a.PRLink = &link
	}
	if j.Archived {
		at := j.ArchivedAt.UTC().Format(apiTime)
		a.ArchivedAt = &at
	}
	return a
}
