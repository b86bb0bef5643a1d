package mockserver

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/docsagent/mintlify-go/mockserver/internal/deploy"
	"github.com/docsagent/mintlify-go/mockserver/internal/jobs"
)

// AutomationTrigger is what starts an automation. A custom schedule can be
// run now over the trigger route, a webhook over the webhook route.
type AutomationTrigger string

// The automation triggers of the service.
const (
	TriggerCustomSchedule AutomationTrigger = "custom_schedule"
	TriggerCodeChange     AutomationTrigger = "code_change"
	TriggerContentUpdate  AutomationTrigger = "content_update"
	TriggerWebhook        AutomationTrigger = "webhook"
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
// Every project starts with five (stable IDs): an active custom-schedule
// one, an inactive custom-schedule one, a code-change one, a
// content-update one and a webhook one.
func (s *Server) Automations() []Automation {
	all := s.deploys.automations.All()
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
		return Automation{}, fmt.Errorf("mockserver: unknown trigger %q (want %s, %s, %s or %s)", trigger,
			TriggerCustomSchedule, TriggerCodeChange, TriggerContentUpdate, TriggerWebhook)
	}
	a := deploy.Automation{ID: randomHex(), Project: projectID, Trigger: deploy.Trigger(trigger), Active: active}
	s.deploys.automations.Add(a)
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
	for _, d := range s.deploys.runs.All() {
		r := DeploymentRecord{ID: d.ID, ProjectID: d.ProjectID, Preview: d.Preview, Branch: d.Branch,
			Status: string(s.deploys.runs.StatusAt(d, now)), CreatedAt: d.CreatedAt}
		r.EndsAt, r.Fails = s.deploys.runs.Verdict(d)
		if d.Preview {
			r.PreviewURL = deploy.PreviewURL(d.Subdomain, d.Branch)
		}
		out = append(out, r)
	}
	return out
}

// SetProjectOutcome sets how the project's new deployments, previews and
// exports end ("" or a success outcome: success; OutcomeFailed: failure).
func (s *Server) SetProjectOutcome(projectID string, o Outcome) error {
	p := s.projects[projectID]
	if p == nil {
		return fmt.Errorf("%w %q", ErrUnknownProject, projectID)
	}
	if o == "" {
		p.outcome.Store(nil)
		return nil
	}
	if !jobs.ValidOutcome(o) {
		return fmt.Errorf("mockserver: invalid outcome %q", o)
	}
	p.outcome.Store(&o)
	return nil
}

// triggerDeployment deploys the project's deployment branch.
func (s *Server) triggerDeployment(c *call) reply {
	p := c.project
	d := s.deploys.runs.Start(&deploy.Deployment{
		ID: randomHex(), ProjectID: p.id, Branch: p.branch, Subdomain: p.subdomain,
		Source: "api", CreatedAt: c.now, Duration: s.cfg.jobDuration, Fails: s.runFails(c.forced, p),
	})
	return jsonReply(http.StatusAccepted, mustJSON(map[string]string{"statusId": d.ID}))
}

// triggerPreview deploys a branch to its preview URL; a second preview of
// the same branch redeploys it there under a new status ID.
func (s *Server) triggerPreview(c *call) reply {
	var body struct {
		Branch *string `json:"branch"`
	}
	if rep, ok := readBody(c, &body, ""); !ok {
		return rep
	}
	if body.Branch == nil || *body.Branch == "" {
		return invalidBody("branch: required, a non-empty string")
	}
	if strings.ContainsFunc(*body.Branch, unicode.IsControl) {
		// Git refuses such a ref; it would also reach logs and the
		// status answer as it came.
		return invalidBody("branch: must not contain control characters")
	}
	p := c.project
	if previews, _ := s.orgs.Features(c.org); !previews || p.noPreviews {
		return errorReply(http.StatusForbidden, "Preview deployments are not available on your current plan")
	}
	d := s.deploys.runs.Start(&deploy.Deployment{
		ID: randomHex(), ProjectID: c.project.id, Preview: true, Branch: *body.Branch, Subdomain: p.subdomain,
		Source: "api", CreatedAt: c.now, Duration: s.cfg.jobDuration, Fails: s.runFails(c.forced, p),
		Author: &deploy.Author{Name: "Grace Hopper", AvatarURL: "https://avatars.githubusercontent.com/u/1002", GitHubUserID: 1002},
	})
	return jsonReply(http.StatusAccepted, mustJSON(map[string]string{
		"statusId": d.ID, "previewUrl": deploy.PreviewURL(p.subdomain, d.Branch),
	}))
}

// deploymentStatus answers for deployments and previews of the key's
// organization; any other ID is not found, whether or not it exists.
func (s *Server) deploymentStatus(c *call) reply {
	d := s.deploys.runs.Get(c.r.PathValue("statusId"))
	if d == nil || !c.org.Owns(d.ProjectID) {
		return errorReply(http.StatusNotFound, "Deployment not found")
	}
	return jsonReply(http.StatusOK, s.deploys.runs.JSON(d, c.now))
}

// triggerAutomation records a run of a custom-schedule automation.
func (s *Server) triggerAutomation(c *call) reply {
	id := c.r.PathValue("workflowSchemaId")
	if !isHexID(id) {
		return errorReply(http.StatusBadRequest, "Invalid automation ID", "an automation ID is 24 hexadecimal digits")
	}
	run, refusal := s.deploys.automations.Trigger(c.project.id, id, randomHex(), randomHex())
	switch refusal {
	case deploy.NotFound:
		return errorReply(http.StatusNotFound, "Automation not found")
	case deploy.Inactive:
		return errorReply(http.StatusBadRequest, "Automation is not active")
	case deploy.NotSchedule:
		return errorReply(http.StatusBadRequest, "Automation is not configured with a custom schedule",
			"only custom-schedule automations can be triggered over the API")
	}
	return jsonReply(http.StatusAccepted, mustJSON(map[string]string{
		"schemaId": run.AutomationID, "instanceId": run.RunID, "jobId": run.JobID,
	}))
}

// runWebhook records a run of a webhook automation. The request body is
// ignored, as the service ignores it. Any ID that is not an active webhook
// automation of the project is not found, a malformed one too: the route
// documents no 400 for it; an inactive one is refused as on the trigger
// route.
func (s *Server) runWebhook(c *call) reply {
	run, refusal := s.deploys.automations.RunWebhook(c.project.id, c.r.PathValue("workflowSchemaId"), randomHex())
	switch refusal {
	case deploy.NotFound:
		return errorReply(http.StatusNotFound, "Automation not found",
			"only custom automations with a webhook trigger can be run over this route")
	case deploy.Inactive:
		return errorReply(http.StatusBadRequest, "Automation is not active")
	}
	return jsonReply(http.StatusAccepted, mustJSON(map[string]any{"success": true, "runId": run.RunID}))
}

// deployState is the server's side of deployments: the runs of deployments
// and previews, and the automations that trigger them. The rules live in
// internal/deploy.
type deployState struct {
	runs        *deploy.Store
	automations *deploy.Automations
}

func newDeployState() *deployState {
	return &deployState{runs: deploy.NewStore(), automations: deploy.NewAutomations()}
}

// resetDeployments forgets every run and automation, then gives every
// project, with or without -seed, the automations -seed promises (an
// active custom-schedule one, an inactive one, a code-change, a
// content-update and a webhook one) and a short deployment history of three
// GitHub-triggered runs, all with stable IDs: tests in any language can
// name them without asking first. Projects are seeded in the order of
// their IDs, so the lists come out the same on every start.
func (s *Server) resetDeployments() {
	s.deploys.runs.Reset()
	s.deploys.automations.Reset()
	now := s.Now()
	for _, id := range slices.Sorted(maps.Keys(s.projects)) {
		p := s.projects[id]
		for _, a := range []struct {
			name    string
			trigger deploy.Trigger
			active  bool
		}{
			{"weekly", deploy.CustomSchedule, true},
			{"paused", deploy.CustomSchedule, false},
			{"on-push", deploy.CodeChange, true},
			{"on-content", deploy.ContentUpdate, true},
			{"on-webhook", deploy.Webhook, true},
		} {
			s.deploys.automations.Add(deploy.Automation{ID: stableHex(id, a.name), Project: id, Trigger: a.trigger, Active: a.active})
		}
		for i := 3; i >= 1; i-- {
			s.deploys.runs.Start(&deploy.Deployment{
				ID: stableHex(id, fmt.Sprint("deployment", i)), ProjectID: id, Branch: p.branch, Subdomain: p.subdomain,
				Source: "github", CreatedAt: now.Add(-time.Duration(i) * 24 * time.Hour), Duration: 2 * time.Minute,
				Fails:  i == 2,
				Author: &deploy.Author{Name: "Ada Lovelace", AvatarURL: "https://avatars.githubusercontent.com/u/1001", GitHubUserID: 1001},
			})
		}
	}
}

// runFails decides whether a new deployment, preview or export ends in
// failure: the override header, then the outcome forced on every run (the
// flag or the control API), then the project's own outcome.
func (s *Server) runFails(forced Outcome, p *project) bool {
	if forced != "" {
		return forced == OutcomeFailed
	}
	if o := s.defaultOutcome.Load(); o != nil {
		return *o == OutcomeFailed
	}
	if p != nil {
		if o := p.outcome.Load(); o != nil {
			return *o == OutcomeFailed
		}
	}
	return false
}

// stableHex is a 24-hex-digit ID (the service's IDs look like MongoDB
// ObjectIds) that depends only on its parts, for seeded data.
func stableHex(parts ...string) string {
	sum := sha1.Sum([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:12])
}

// randomHex is a fresh 24-hex-digit ID.
func randomHex() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// isHexID reports whether id has the shape of the service's IDs.
func isHexID(id string) bool {
	if len(id) != 24 {
		return false
	}
	for i := range len(id) {
		if c := id[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
