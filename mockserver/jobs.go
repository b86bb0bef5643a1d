package mockserver

import (
	"strconv"
	"strings"
	"sync"
	"time"
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
