package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/docsagent/mintlify-go/mockserver/internal/reqbody"
)

// Outcome is how a run of a job ends once its duration has passed.
type Outcome string

// The outcomes the service produces. The zero Outcome means "let the agent
// decide" wherever an Outcome is optional.
const (
	OutcomePullRequest Outcome = "pull-request" // completed, prLink set
	OutcomeNoChange    Outcome = "no-change"    // completed, no files changed, prLink null
	OutcomeFailed      Outcome = "failed"       // failed
)

func (o Outcome) valid() bool {
	return o == OutcomePullRequest || o == OutcomeNoChange || o == OutcomeFailed
}

// Status is a job's status as the API reports it.
type Status string

// Job statuses, as in the service.
const (
	StatusActive    Status = "active"
	StatusCompleted Status = "completed"
	StatusArchived  Status = "archived"
	StatusFailed    Status = "failed"
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

// mockModel is what the mock reports as the agent's model.
const mockModel = "claude-sonnet-4-5"

type job struct {
	id         string
	project    *project
	ref        string
	createdAt  time.Time
	prompt     string
	followUps  []string
	runEnd     time.Time // the current run is active until then
	outcome    Outcome   // of the current run
	archived   bool
	archivedAt time.Time
	prNumber   int  // reserved by the first run meant to open a pull request
	hadPR      bool // an earlier run finished with a pull request
}

// view derives status and whether the pull request exists from the clock;
// nothing runs in the background, which is why a fake clock can drive jobs.
func (j *job) view(now time.Time) (status Status, prOpen bool) {
	at := now
	archived := j.archived
	if archived && j.archivedAt.Before(at) {
		at = j.archivedAt // archiving stops the run where it was
	}
	finished := !at.Before(j.runEnd)
	prOpen = j.prNumber > 0 && (j.hadPR || (finished && j.outcome == OutcomePullRequest))
	switch {
	case archived:
		return StatusArchived, prOpen
	case !finished:
		return StatusActive, false
	case j.outcome == OutcomeFailed:
		return StatusFailed, prOpen
	default:
		return StatusCompleted, prOpen
	}
}

type jobStore struct {
	mu    sync.RWMutex
	byID  map[string]*job
	order []*job
	prSeq map[string]int // last pull-request number per repository
}

func newJobStore() *jobStore {
	return &jobStore{byID: map[string]*job{}, prSeq: map[string]int{}}
}

func (st *jobStore) reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.byID, st.order, st.prSeq = map[string]*job{}, nil, map[string]int{}
}

// startRun begins a new run; the caller holds st.mu. Pull-request numbers
// are reserved when a run that will open one starts, so numbering follows
// request order and never depends on who polls first.
func (st *jobStore) startRun(j *job, outcome Outcome, now time.Time, d time.Duration) {
	j.outcome = outcome
	j.runEnd = now.Add(d)
	st.reservePR(j)
}

func (st *jobStore) reservePR(j *job) {
	if j.outcome == OutcomePullRequest && j.prNumber == 0 {
		st.prSeq[j.project.repo]++
		j.prNumber = st.prSeq[j.project.repo]
	}
}

// lookup finds a job in a project: another project's job is as unknown as
// a job that never existed.
func (st *jobStore) lookup(id string, p *project) *job {
	j := st.byID[id]
	if j == nil || (p != nil && j.project != p) {
		return nil
	}
	return j
}

func (j *job) snapshot(now time.Time) Job {
	status, pr := j.view(now)
	out := Job{
		ID:         j.id,
		ProjectID:  j.project.id,
		Status:     status,
		Outcome:    j.outcome,
		Prompt:     j.prompt,
		FollowUps:  append([]string{}, j.followUps...),
		Repository: j.project.repo,
		Ref:        j.ref,
		Model:      mockModel,
		CreatedAt:  j.createdAt,
		RunEndsAt:  j.runEnd,
	}
	if pr {
		out.PRLink = j.prLink()
	}
	if j.archived {
		t := j.archivedAt
		out.ArchivedAt = &t
	}
	return out
}

func (j *job) prLink() string {
	return j.project.repo + "/pull/" + strconv.Itoa(j.prNumber)
}

// apiTime is the service's timestamp format: RFC 3339 in UTC, milliseconds.
const apiTime = "2006-01-02T15:04:05.000Z07:00"

// appendJSON writes the job as the API shows it.
func (j *job) appendJSON(b []byte, now time.Time) []byte {
	status, pr := j.view(now)
	b = append(b, `{"id":`...)
	b = appendJSONString(b, j.id)
	b = append(b, `,"status":"`...)
	b = append(b, status...)
	b = append(b, `","source":{"repository":`...)
	b = appendJSONString(b, j.project.repo)
	b = append(b, `,"ref":`...)
	b = appendJSONString(b, j.ref)
	b = append(b, `},"model":"`+mockModel+`","prLink":`...)
	if pr {
		b = append(b, '"')
		b = append(b, j.project.repo...)
		b = append(b, "/pull/"...)
		b = strconv.AppendInt(b, int64(j.prNumber), 10)
		b = append(b, '"')
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"createdAt":"`...)
	b = j.createdAt.UTC().AppendFormat(b, apiTime)
	b = append(b, `","archivedAt":`...)
	if !j.archived {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = j.archivedAt.UTC().AppendFormat(b, apiTime)
		b = append(b, '"')
	}
	return append(b, '}')
}

// repositoryURL gives each project its own repository, so pull-request
// numbers count per project as they would on GitHub.
func repositoryURL(projectID string) string {
	return "https://github.com/acme/" + slug(projectID, 40, "docs")
}

// branchName mimics the service naming the branch after the prompt; the
// job ID suffix keeps two jobs with one prompt apart.
func branchName(prompt, jobID string) string {
	suffix := strings.TrimPrefix(jobID, "job_")
	return "mintlify/" + slug(prompt, 40, "agent") + "-" + suffix[:min(6, len(suffix))]
}

func slug(s string, maxLen int, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			if b.Len() >= maxLen {
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return fallback
	}
	return b.String()
}

// Jobs returns every stored job in creation order, across projects, with
// the prompts each was given.
func (s *Server) Jobs() []Job {
	now := s.Now()
	st := s.jobs
	st.mu.RLock()
	defer st.mu.RUnlock()
	out := make([]Job, len(st.order))
	for i, j := range st.order {
		out[i] = j.snapshot(now)
	}
	return out
}

// Job returns one stored job, in any project.
func (s *Server) Job(id string) (Job, bool) {
	now := s.Now()
	st := s.jobs
	st.mu.RLock()
	defer st.mu.RUnlock()
	j := st.lookup(id, nil)
	if j == nil {
		return Job{}, false
	}
	return j.snapshot(now), true
}

// SetOutcome changes how the job's current run ends. If the run is already
// over, the job's status changes at once, which is how a test makes a
// finished job fail.
func (s *Server) SetOutcome(jobID string, o Outcome) error {
	if !o.valid() {
		return fmt.Errorf("mockserver: invalid outcome %q", o)
	}
	return s.updateJob(jobID, func(st *jobStore, j *job) error {
		j.outcome = o
		st.reservePR(j)
		return nil
	})
}

// FinishJob ends the job's current run now, with its outcome, for tests on
// a real clock that should not wait for the job duration.
func (s *Server) FinishJob(jobID string) error {
	now := s.Now()
	return s.updateJob(jobID, func(_ *jobStore, j *job) error {
		if j.archived {
			return ErrJobArchived
		}
		if now.Before(j.runEnd) {
			j.runEnd = now
		}
		return nil
	})
}

// ArchiveJob archives the job, as the dashboard would: its status becomes
// archived and follow-ups are refused. Archiving twice keeps the first
// archivedAt.
func (s *Server) ArchiveJob(jobID string) error {
	now := s.Now()
	return s.updateJob(jobID, func(_ *jobStore, j *job) error {
		if !j.archived {
			j.archived, j.archivedAt = true, now
		}
		return nil
	})
}

func (s *Server) updateJob(jobID string, update func(*jobStore, *job) error) error {
	st := s.jobs
	st.mu.Lock()
	defer st.mu.Unlock()
	j := st.lookup(jobID, nil)
	if j == nil {
		return fmt.Errorf("%w: %q", ErrJobNotFound, jobID)
	}
	return update(st, j)
}

func (s *Server) createJob(c *call) reply {
	prompt, forced, rep, ok := readRun(c)
	if !ok {
		return rep
	}
	outcome := s.chooseOutcome(prompt, forced)
	j := &job{
		id:        "job_" + randomToken(),
		project:   c.project,
		createdAt: c.now,
		prompt:    prompt,
	}
	j.ref = branchName(prompt, j.id)

	st := s.jobs
	st.mu.Lock()
	defer st.mu.Unlock()
	st.startRun(j, outcome, c.now, s.cfg.jobDuration)
	st.byID[j.id] = j
	st.order = append(st.order, j)
	return jobReply(http.StatusCreated, j, c.now)
}

// readRun reads what a create and a follow-up both carry: the prompt, and
// the outcome forced by the override header, if any (readOverrides has
// already refused a bad one).
func readRun(c *call) (string, Outcome, reply, bool) {
	forced, rep, ok := outcomeOverride(c.r)
	if !ok {
		return "", "", rep, false
	}
	prompt, rep, ok := readPrompt(c)
	if !ok {
		return "", "", rep, false
	}
	return prompt, forced, reply{}, true
}

func (s *Server) getJob(c *call) reply {
	st := s.jobs
	st.mu.RLock()
	defer st.mu.RUnlock()
	j := st.lookup(c.r.PathValue("id"), c.project)
	if j == nil {
		return jobNotFound()
	}
	return jobReply(http.StatusOK, j, c.now)
}

// followUp starts a new run of the job whatever state it is in, except
// archived: that is final, as in the service. The agent decides the run's
// outcome only once the job is known to take it, and outside the lock, since
// it is the caller's code.
func (s *Server) followUp(c *call) reply {
	prompt, forced, rep, ok := readRun(c)
	if !ok {
		return rep
	}
	id := c.r.PathValue("id")
	st := s.jobs
	st.mu.RLock()
	_, rep, ok = followable(st.lookup(id, c.project))
	st.mu.RUnlock()
	if !ok {
		return rep
	}
	outcome := s.chooseOutcome(prompt, forced)

	st.mu.Lock()
	defer st.mu.Unlock()
	j, rep, ok := followable(st.lookup(id, c.project)) // archived meanwhile?
	if !ok {
		return rep
	}
	if _, pr := j.view(c.now); pr {
		j.hadPR = true // the pull request stays open whatever the next run does
	}
	j.followUps = append(j.followUps, prompt)
	st.startRun(j, outcome, c.now, s.cfg.jobDuration)
	return jobReply(http.StatusOK, j, c.now)
}

// followable says whether j can take a follow-up, and if not the answer.
func followable(j *job) (*job, reply, bool) {
	switch {
	case j == nil:
		return nil, jobNotFound(), false
	case j.archived:
		return nil, errorReply(http.StatusBadRequest, "Invalid request", "the job is archived and cannot take follow-up messages"), false
	}
	return j, reply{}, true
}

func jobNotFound() reply {
	return errorReply(http.StatusNotFound, "Job not found")
}

func jobReply(status int, j *job, now time.Time) reply {
	buf := getBuf()
	*buf = j.appendJSON(*buf, now)
	return reply{status: status, body: *buf, buf: buf}
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
		if o := s.cfg.agent(prompt); o.valid() {
			return o
		}
	}
	return OutcomePullRequest
}

func outcomeOverride(r *http.Request) (Outcome, reply, bool) {
	values := r.Header[OutcomeHeader]
	if len(values) == 0 {
		return "", reply{}, true
	}
	o := Outcome(strings.TrimSpace(strings.ToLower(values[0])))
	if !o.valid() {
		return "", errorReply(http.StatusBadRequest, "Invalid "+OutcomeHeader+" header",
			"expected one of "+string(OutcomePullRequest)+", "+string(OutcomeNoChange)+", "+string(OutcomeFailed)+"; got "+strconv.Quote(values[0])), false
	}
	return o, reply{}, true
}

// readPrompt reads and validates {"prompt": "..."}. The body is read through
// http.MaxBytesReader, so an oversized body costs at most the limit.
func readPrompt(c *call) (string, reply, bool) {
	if c.r.ContentLength > maxBodyBytes {
		return "", tooLarge(), false
	}
	buf := getBuf()
	defer putBuf(buf)
	body, err := reqbody.ReadAll(http.MaxBytesReader(c.w, c.r.Body, maxBodyBytes), *buf)
	*buf = body
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return "", tooLarge(), false
		}
		return "", invalidBody("the request body could not be read: " + err.Error()), false
	}
	if len(body) == 0 {
		return "", invalidBody("the request body is empty; send {\"prompt\": \"...\"}"), false
	}
	// Keys are read exactly as the schema spells them: encoding/json would
	// let {"Prompt": "x"} or {"prompt": "", "PROMPT": "x"} through.
	if !utf8.Valid(body) {
		return "", invalidBody("the request body is not valid UTF-8"), false
	}
	// A repeated key loses one of its values whatever the parser keeps.
	if err := reqbody.CheckKeys(json.NewDecoder(bytes.NewReader(body)), nil, "", false, 0); err != nil && !reqbody.IsSyntaxError(err) {
		return "", invalidBody(bodyProblem(err)), false
	}
	var payload map[string]json.RawMessage
	if err := json.Unmarshal(body, &payload); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return "", invalidBody("the request body must be a JSON object with a prompt"), false
		}
		return "", invalidBody("the request body is not valid JSON: " + err.Error()), false
	}
	for key := range payload {
		if key != "prompt" && strings.EqualFold(key, "prompt") {
			return "", invalidBody(strconv.Quote(key) + ": unknown field; field names are case-sensitive: send \"prompt\""), false
		}
	}
	raw := payload["prompt"]
	if len(raw) == 0 || string(raw) == "null" {
		return "", invalidBody("prompt: required"), false
	}
	var prompt string
	if err := json.Unmarshal(raw, &prompt); err != nil {
		return "", invalidBody("prompt: must be a string"), false
	}
	if prompt == "" {
		return "", invalidBody("prompt: must not be empty"), false
	}
	return prompt, reply{}, true
}
