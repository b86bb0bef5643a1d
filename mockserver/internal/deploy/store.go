package deploy

import (
	"encoding/json"
	"sync"
	"time"
)

// Store keeps every deployment and preview of one server. It is safe for
// concurrent use.
type Store struct {
	mu          sync.RWMutex
	deployments map[string]*Deployment
	order       []*Deployment
	perProject  map[string]int // deployments so far, to vary commits
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
