// Package jobs holds the mock's agent jobs: their state, the rules that
// move a run from active to its outcome on the server's clock, follow-ups,
// archiving and pull-request numbering. It knows nothing of HTTP, keys or
// rate limits; mockserver's handlers call it with the time of the request.
package jobs

import (
	"errors"
	"fmt"
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
	PullRequest Outcome = "pull-request" // completed, prLink set
	NoChange    Outcome = "no-change"    // completed, no files changed, prLink null
	Failed      Outcome = "failed"       // failed
)

// ValidOutcome reports whether o is one of the service's outcomes.
func ValidOutcome(o Outcome) bool {
	return o == PullRequest || o == NoChange || o == Failed
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

// Model is what the mock reports as the agent's model.
const Model = "claude-sonnet-4-5"

// Errors of the store's Go-facing changes.
var (
	ErrNotFound = errors.New("mockserver: job not found")
	ErrArchived = errors.New("mockserver: job is archived")
)

// Job is a stored job. The store hands out copies: a copy's View is the
// job's state at the time asked.
type Job struct {
	ID         string
	ProjectID  string
	Repo       string // the project's GitHub repository
	Ref        string
	CreatedAt  time.Time
	Prompt     string
	FollowUps  []string
	RunEnd     time.Time // the current run is active until then
	Outcome    Outcome   // of the current run
	Archived   bool
	ArchivedAt time.Time
	PRNumber   int  // reserved by the first run meant to open a pull request
	hadPR      bool // an earlier run finished with a pull request
}

// View derives status and whether the pull request exists from the clock;
// nothing runs in the background, which is why a fake clock can drive jobs.
func (j *Job) View(now time.Time) (status Status, prOpen bool) {
	at := now
	archived := j.Archived
	if archived && j.ArchivedAt.Before(at) {
		at = j.ArchivedAt // archiving stops the run where it was
	}
	finished := !at.Before(j.RunEnd)
	prOpen = j.PRNumber > 0 && (j.hadPR || (finished && j.Outcome == PullRequest))
	switch {
	case archived:
		return StatusArchived, prOpen
	case !finished:
		return StatusActive, false
	case j.Outcome == Failed:
		return StatusFailed, prOpen
	default:
		return StatusCompleted, prOpen
	}
}

// PRLink is the pull request a run opened (or will open).
func (j *Job) PRLink() string {
	return j.Repo + "/pull/" + strconv.Itoa(j.PRNumber)
}

// Store keeps every job of one server. It is safe for concurrent use.
type Store struct {
	mu    sync.RWMutex
	byID  map[string]*Job
	order []*Job
	prSeq map[string]int // last pull-request number per repository
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{byID: map[string]*Job{}, prSeq: map[string]int{}}
}

// Reset forgets every job.
func (st *Store) Reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.byID, st.order, st.prSeq = map[string]*Job{}, nil, map[string]int{}
}

// startRun begins a new run; the caller holds st.mu. Pull-request numbers
// are reserved when a run that will open one starts, so numbering follows
// request order and never depends on who polls first.
func (st *Store) startRun(j *Job, outcome Outcome, now time.Time, d time.Duration) {
	j.Outcome = outcome
	j.RunEnd = now.Add(d)
	st.reservePR(j)
}

func (st *Store) reservePR(j *Job) {
	if j.Outcome == PullRequest && j.PRNumber == 0 {
		st.prSeq[j.Repo]++
		j.PRNumber = st.prSeq[j.Repo]
	}
}

// lookup finds a job in a project ("" for any): another project's job is
// as unknown as a job that never existed. The caller holds st.mu.
func (st *Store) lookup(id, projectID string) *Job {
	j := st.byID[id]
	if j == nil || (projectID != "" && j.ProjectID != projectID) {
		return nil
	}
	return j
}

// Create stores j (ID, ProjectID, Repo, CreatedAt and Prompt filled; Ref
// is named after the prompt) and starts its first run at now, and returns
// a copy.
func (st *Store) Create(j *Job, outcome Outcome, now time.Time, d time.Duration) Job {
	j.Ref = branchName(j.Prompt, j.ID)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.startRun(j, outcome, now, d)
	st.byID[j.ID] = j
	st.order = append(st.order, j)
	return *j
}

// Get returns a copy of the job of the project ("" for any).
func (st *Store) Get(id, projectID string) (Job, bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	j := st.lookup(id, projectID)
	if j == nil {
		return Job{}, false
	}
	return *j, true
}

// All returns copies of every job, in creation order.
func (st *Store) All() []Job {
	st.mu.RLock()
	defer st.mu.RUnlock()
	out := make([]Job, len(st.order))
	for i, j := range st.order {
		out[i] = *j
	}
	return out
}

// Refusal says why a job cannot take a follow-up.
type Refusal int

// The refusals of a follow-up.
const (
	Accepted Refusal = iota
	NotFound         // unknown, or another project's (the same answer)
	Archived         // archived: final, as in the service
)

func followable(j *Job) Refusal {
	switch {
	case j == nil:
		return NotFound
	case j.Archived:
		return Archived
	}
	return Accepted
}

// Followable says whether the job could take a follow-up now.
func (st *Store) Followable(id, projectID string) Refusal {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return followable(st.lookup(id, projectID))
}

// FollowUp starts a new run of the job whatever state it is in, except
// archived (which it may have become since Followable), and returns a copy.
func (st *Store) FollowUp(id, projectID, prompt string, outcome Outcome, now time.Time, d time.Duration) (Job, Refusal) {
	st.mu.Lock()
	defer st.mu.Unlock()
	j := st.lookup(id, projectID)
	if r := followable(j); r != Accepted {
		return Job{}, r
	}
	if _, pr := j.View(now); pr {
		j.hadPR = true // the pull request stays open whatever the next run does
	}
	j.FollowUps = append(j.FollowUps, prompt)
	st.startRun(j, outcome, now, d)
	return *j, Accepted
}

// update applies f to a job of any project under the lock.
func (st *Store) update(id string, f func(*Job) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	j := st.lookup(id, "")
	if j == nil {
		return fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return f(j)
}

// SetOutcome changes how the job's current run ends.
func (st *Store) SetOutcome(id string, o Outcome) error {
	return st.update(id, func(j *Job) error {
		j.Outcome = o
		st.reservePR(j)
		return nil
	})
}

// Finish ends the job's current run at now, with its outcome.
func (st *Store) Finish(id string, now time.Time) error {
	return st.update(id, func(j *Job) error {
		if j.Archived {
			return ErrArchived
		}
		if now.Before(j.RunEnd) {
			j.RunEnd = now
		}
		return nil
	})
}

// Archive archives the job at now; archiving twice keeps the first time.
func (st *Store) Archive(id string, now time.Time) error {
	return st.update(id, func(j *Job) error {
		if !j.Archived {
			j.Archived, j.ArchivedAt = true, now
		}
		return nil
	})
}

// RepositoryURL gives each project its own repository, so pull-request
// numbers count per project as they would on GitHub.
func RepositoryURL(projectID string) string {
	return "https://github.com/acme/" + Slug(projectID, 40, "docs")
}

// branchName mimics the service naming the branch after the prompt; the
// job ID suffix keeps two jobs with one prompt apart.
func branchName(prompt, jobID string) string {
	suffix := strings.TrimPrefix(jobID, "job_")
	return "mintlify/" + Slug(prompt, 40, "agent") + "-" + suffix[:min(6, len(suffix))]
}

// Slug is s in lower-case letters and digits, runs of anything else one
// dash, at most maxLen bytes; fallback when nothing is left. The mock names
// branches, repositories and subdomains with it.
func Slug(s string, maxLen int, fallback string) string {
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
