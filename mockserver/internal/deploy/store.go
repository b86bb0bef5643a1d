package deploy

import (
	"encoding/json"
	"sync"
	"time"
)

// Store keeps every deployment, preview and automation of one server.
// It is safe for concurrent use.
type Store struct {
	mu          sync.RWMutex
	deployments map[string]*Deployment
	order       []*Deployment
	perProject  map[string]int // deployments so far, to vary commits
	automations map[string]*Automation
	autoOrder   []*Automation
}

// NewStore returns an empty store.
func NewStore() *Store {
	st := &Store{}
	st.Reset()
	return st
}

// Reset forgets everything.
func (st *Store) Reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.deployments = map[string]*Deployment{}
	st.order = nil
	st.perProject = map[string]int{}
	st.automations = map[string]*Automation{}
	st.autoOrder = nil
}

// Start records a new deployment. The caller fills everything but the
// commit, which follows the project's history when left empty.
func (st *Store) Start(d *Deployment) *Deployment {
	st.mu.Lock()
	defer st.mu.Unlock()
	n := st.perProject[d.ProjectID]
	st.perProject[d.ProjectID] = n + 1
	if d.Commit.SHA == "" {
		d.Commit = CommitFor(d.ProjectID, d.Branch, n)
	}
	st.deployments[d.ID] = d
	st.order = append(st.order, d)
	return d
}

// Get returns the deployment with the ID, or nil.
func (st *Store) Get(id string) *Deployment {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.deployments[id]
}

// All lists deployments in the order they were started.
func (st *Store) All() []*Deployment {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return append([]*Deployment(nil), st.order...)
}

// JSON is the status route's answer for d at now, with the vendor's field
// names: endedAt and the screenshots appear once the run has ended (and
// screenshots only on success); author is null when unknown.
func (st *Store) JSON(d *Deployment, now time.Time) []byte {
	st.mu.RLock()
	v := d.At(now)
	w := wireDeployment{
		ID:        d.ID,
		ProjectID: d.ProjectID,
		CreatedAt: stamp(d.CreatedAt),
		Status:    v.Status,
		Summary:   v.Summary,
		Logs:      v.Logs,
		Subdomain: d.Subdomain,
		Source:    d.Source,
		Commit: wireCommit{SHA: d.Commit.SHA, Ref: d.Commit.Ref, Message: d.Commit.Message,
			FilesChanged: wireFiles{Added: d.Commit.Added, Modified: d.Commit.Modified, Removed: d.Commit.Removed}},
	}
	if d.Author != nil {
		w.Author = &wireAuthor{Name: d.Author.Name, AvatarURL: d.Author.AvatarURL, GitHubUserID: d.Author.GitHubUserID}
	}
	st.mu.RUnlock()
	if !v.EndedAt.IsZero() {
		w.EndedAt = stamp(v.EndedAt)
	}
	if v.Status == Success {
		base := "https://screenshots.mintlify.dev/" + d.ID
		w.Screenshot, w.ScreenshotLight, w.ScreenshotDark = base+".png", base+"-light.png", base+"-dark.png"
	}
	b, _ := json.Marshal(w) // plain strings, slices and numbers: cannot fail
	return b
}

// stamp is the service's time format: RFC 3339 in UTC with milliseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

type wireDeployment struct {
	ID              string      `json:"_id"`
	ProjectID       string      `json:"projectId"`
	CreatedAt       string      `json:"createdAt"`
	EndedAt         string      `json:"endedAt,omitempty"`
	Status          Status      `json:"status"`
	Summary         string      `json:"summary"`
	Logs            []string    `json:"logs"`
	Subdomain       string      `json:"subdomain"`
	Screenshot      string      `json:"screenshot,omitempty"`
	ScreenshotLight string      `json:"screenshotLight,omitempty"`
	ScreenshotDark  string      `json:"screenshotDark,omitempty"`
	Author          *wireAuthor `json:"author"`
	Commit          wireCommit  `json:"commit"`
	Source          string      `json:"source"`
}

type wireAuthor struct {
	Name         string `json:"name"`
	AvatarURL    string `json:"avatarUrl"`
	GitHubUserID int64  `json:"githubUserId"`
}

type wireCommit struct {
	SHA          string    `json:"sha"`
	Ref          string    `json:"ref"`
	Message      string    `json:"message"`
	FilesChanged wireFiles `json:"filesChanged"`
}

type wireFiles struct {
	Added    []string `json:"added"`
	Modified []string `json:"modified"`
	Removed  []string `json:"removed"`
}

// Trigger is what starts an automation.
type Trigger string

// The automation triggers of the service. Only a custom schedule can be
// triggered over the API; the others wait for their event.
const (
	CustomSchedule Trigger = "custom_schedule"
	CodeChange     Trigger = "code_change"
	ContentUpdate  Trigger = "content_update"
)

// Valid reports whether t is one of the service's triggers.
func (t Trigger) Valid() bool {
	return t == CustomSchedule || t == CodeChange || t == ContentUpdate
}

// Automation is a stored automation with the runs it was asked for.
type Automation struct {
	ID      string  `json:"id"`
	Project string  `json:"project"`
	Trigger Trigger `json:"trigger"`
	Active  bool    `json:"active"`
	Runs    int     `json:"runs"`
}

// Run is one recorded run of an automation.
type Run struct {
	AutomationID, RunID, JobID string
}

// AddAutomation stores a; its ID must be new.
func (st *Store) AddAutomation(a Automation) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, dup := st.automations[a.ID]; dup {
		return false
	}
	a.Runs = 0
	st.automations[a.ID] = &a
	st.autoOrder = append(st.autoOrder, &a)
	return true
}

// Automations lists the automations in the order they were added, as
// copies.
func (st *Store) Automations() []Automation {
	st.mu.RLock()
	defer st.mu.RUnlock()
	out := make([]Automation, len(st.autoOrder))
	for i, a := range st.autoOrder {
		out[i] = *a
	}
	return out
}

// Refusal says why an automation cannot run.
type Refusal int

// Why TriggerAutomation refused, in the order the checks are made.
const (
	Accepted    Refusal = iota
	NotFound            // unknown, or another project's (the same answer)
	Inactive            // switched off
	NotSchedule         // not on a custom schedule
)

// TriggerAutomation records a run of the automation for project, with the
// run and job IDs the caller drew, unless a rule refuses it.
func (st *Store) TriggerAutomation(project, id, runID, jobID string) (Run, Refusal) {
	st.mu.Lock()
	defer st.mu.Unlock()
	a := st.automations[id]
	switch {
	case a == nil || a.Project != project:
		return Run{}, NotFound
	case !a.Active:
		return Run{}, Inactive
	case a.Trigger != CustomSchedule:
		return Run{}, NotSchedule
	}
	a.Runs++
	return Run{AutomationID: id, RunID: runID, JobID: jobID}, Accepted
}

// StatusAt is d's status at now.
func (st *Store) StatusAt(d *Deployment, now time.Time) Status {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return d.At(now).Status
}

// Verdict says when d's run ends and whether it fails.
func (st *Store) Verdict(d *Deployment) (time.Time, bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return d.CreatedAt.Add(d.Duration), d.Fails
}
