package mockserver

import (
	"fmt"
	"net/http"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/deploy"
)

// AutomationTrigger is what starts an automation. Only a custom schedule can
// be triggered over the API.
type AutomationTrigger string

// The automation triggers of the service.
const (
	TriggerCustomSchedule AutomationTrigger = "custom_schedule"
	TriggerCodeChange     AutomationTrigger = "code_change"
	TriggerContentUpdate  AutomationTrigger = "content_update"
)

// Automation is a stored automation and how many runs it was asked for.
type Automation struct {
	ID      string            `json:"id"`
	Project string            `json:"project"`
	Trigger AutomationTrigger `json:"trigger"`
	Active  bool              `json:"active"`
	Runs    int               `json:"runs"`
}

// Automations lists the stored automations in the order they were added.
// Every project starts with four (stable IDs): an active custom-schedule
// one, an inactive custom-schedule one, a code-change one and a
// content-update one.
func (s *Server) Automations() []Automation {
	all := s.ci.deploys.Automations()
	out := make([]Automation, len(all))
	for i, a := range all {
		out[i] = Automation{ID: a.ID, Project: a.Project, Trigger: AutomationTrigger(a.Trigger), Active: a.Active, Runs: a.Runs}
	}
	return out
}

// AddAutomation stores a new automation of the project and returns it.
func (s *Server) AddAutomation(projectID string, trigger AutomationTrigger, active bool) (Automation, error) {
	if s.projects[projectID] == nil {
		return Automation{}, fmt.Errorf("%w %q", ErrUnknownProject, projectID)
	}
	if !deploy.Trigger(trigger).Valid() {
		return Automation{}, fmt.Errorf("mockserver: unknown trigger %q (want %s, %s or %s)", trigger,
			TriggerCustomSchedule, TriggerCodeChange, TriggerContentUpdate)
	}
	a := deploy.Automation{ID: randomHex(), Project: projectID, Trigger: deploy.Trigger(trigger), Active: active}
	s.ci.deploys.AddAutomation(a)
	return Automation{ID: a.ID, Project: a.Project, Trigger: trigger, Active: active}, nil
}

// DeploymentRecord is a deployment or preview as the server stores it.
type DeploymentRecord struct {
	ID         string    `json:"statusId"`
	ProjectID  string    `json:"projectId"`
	Preview    bool      `json:"preview"`
	Branch     string    `json:"branch"`
	Status     string    `json:"status"`               // as the status route reports it now
	PreviewURL string    `json:"previewUrl,omitempty"` // previews only
	CreatedAt  time.Time `json:"createdAt"`
	EndsAt     time.Time `json:"endsAt"` // when the run reaches its verdict
	Fails      bool      `json:"fails"`  // the verdict will be (or was) failure
}

// Deployments lists deployments and previews in the order they started,
// the seeded history first.
func (s *Server) Deployments() []DeploymentRecord {
	now := s.Now()
	var out []DeploymentRecord
	for _, d := range s.ci.deploys.All() {
		r := DeploymentRecord{ID: d.ID, ProjectID: d.ProjectID, Preview: d.Preview, Branch: d.Branch,
			Status: string(s.ci.deploys.StatusAt(d, now)), CreatedAt: d.CreatedAt}
		r.EndsAt, r.Fails = s.ci.deploys.Verdict(d)
		if d.Preview {
			r.PreviewURL = deploy.PreviewURL(d.Subdomain, d.Branch)
		}
		out = append(out, r)
	}
	return out
}

// takesOutcome lists the routes that read OutcomeHeader besides the job
// routes.
func takesOutcome(route string) bool {
	return route == RouteTriggerDeployment || route == RouteTriggerPreview || route == RouteStartStaticExport
}

func (s *Server) ctlAutomations(w http.ResponseWriter, r *http.Request) {
	out := []Automation{}
	for _, a := range s.Automations() {
		if p := r.URL.Query().Get("project"); p == "" || p == a.Project {
			out = append(out, a)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) ctlAddAutomation(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Project string            `json:"project"`
		Trigger AutomationTrigger `json:"trigger"`
		Active  *bool             `json:"active"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	if body.Project == "" {
		body.Project = s.projectID
	}
	active := body.Active == nil || *body.Active
	a, err := s.AddAutomation(body.Project, body.Trigger, active)
	if err != nil {
		status := http.StatusBadRequest
		if s.projects[body.Project] == nil {
			status = http.StatusNotFound
		}
		writeProblem(w, status, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, a)
}

func (s *Server) ctlNewKey(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Scopes    []Scope  `json:"scopes"`
		ExpiresAt string   `json:"expiresAt"`
		AllowIPs  []string `json:"allowIPs"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	spec := KeySpec{Scopes: body.Scopes, AllowIPs: body.AllowIPs}
	if body.ExpiresAt != "" {
		t, err := time.Parse(time.RFC3339, body.ExpiresAt)
		if err != nil {
			writeProblem(w, http.StatusBadRequest, "expiresAt: want an RFC 3339 time such as 2026-01-02T15:04:05Z")
			return
		}
		spec.ExpiresAt = t
	}
	key, err := s.NewKey(spec)
	if err != nil {
		writeProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"key": key})
}

func (s *Server) ctlDeployments(w http.ResponseWriter, r *http.Request) {
	out := []DeploymentRecord{}
	for _, d := range s.Deployments() {
		if p := r.URL.Query().Get("project"); p == "" || p == d.ProjectID {
			out = append(out, d)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) ctlProjectOutcome(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Outcome Outcome `json:"outcome"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	id := r.PathValue("id")
	if s.projects[id] == nil {
		writeProblem(w, http.StatusNotFound, "no project "+clipDetail(id))
		return
	}
	if err := s.SetProjectOutcome(id, body.Outcome); err != nil {
		writeProblem(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]Outcome{"outcome": body.Outcome})
}

func (s *Server) ctlStaticExport(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Enabled    *bool  `json:"enabled"`
		BundleSize *int64 `json:"bundleSize"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	if body.BundleSize != nil && (*body.BundleSize < 0 || *body.BundleSize > MaxBundleSize) {
		writeProblem(w, http.StatusBadRequest, fmt.Sprintf("bundleSize: want 0 to %d bytes (1 TiB)", int64(MaxBundleSize)))
		return
	}
	if body.Enabled != nil {
		_ = s.SetStaticExport(s.apiKey, *body.Enabled) // the primary key always exists
	}
	if body.BundleSize != nil {
		s.SetBundleSize(*body.BundleSize)
	}
	_, enabled := s.features(s.orgs.primary)
	writeJSON(w, http.StatusOK, map[string]any{"enabled": enabled, "bundleSize": s.ci.bundleSize.Load()})
}
