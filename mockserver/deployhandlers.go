package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode"

	"github.com/docsagent/mintlify-go/mockserver/internal/deploy"
)

// triggerDeployment deploys the project's deployment branch.
func (s *Server) triggerDeployment(c *call) reply {
	forced, rep, ok := outcomeOverride(c.r)
	if !ok {
		return rep
	}
	p := s.ci.projects[c.project.id]
	d := s.ci.deploys.Start(&deploy.Deployment{
		ID: randomHex(), ProjectID: c.project.id, Branch: p.branch, Subdomain: p.subdomain,
		Source: "api", CreatedAt: c.now, Duration: s.cfg.jobDuration, Fails: s.runFails(forced, p),
	})
	return jsonReply(http.StatusAccepted, mustJSON(map[string]string{"statusId": d.ID}))
}

// triggerPreview deploys a branch to its preview URL; a second preview of
// the same branch redeploys it there under a new status ID.
func (s *Server) triggerPreview(c *call) reply {
	forced, rep, ok := outcomeOverride(c.r)
	if !ok {
		return rep
	}
	var body struct {
		Branch *string `json:"branch"`
	}
	if rep, ok := readBody(c, &body); !ok {
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
	p := s.ci.projects[c.project.id]
	if previews, _ := s.features(c.org); !previews || p.noPreviews {
		return errorReply(http.StatusForbidden, "Preview deployments are not available on your current plan")
	}
	d := s.ci.deploys.Start(&deploy.Deployment{
		ID: randomHex(), ProjectID: c.project.id, Preview: true, Branch: *body.Branch, Subdomain: p.subdomain,
		Source: "api", CreatedAt: c.now, Duration: s.cfg.jobDuration, Fails: s.runFails(forced, p),
		Author: &deploy.Author{Name: "Grace Hopper", AvatarURL: "https://avatars.githubusercontent.com/u/1002", GitHubUserID: 1002},
	})
	return jsonReply(http.StatusAccepted, mustJSON(map[string]string{
		"statusId": d.ID, "previewUrl": deploy.PreviewURL(p.subdomain, d.Branch),
	}))
}

// deploymentStatus answers for deployments and previews of the key's
// organization; any other ID is not found, whether or not it exists.
func (s *Server) deploymentStatus(c *call) reply {
	d := s.ci.deploys.Get(c.r.PathValue("statusId"))
	if d == nil || !c.org.owns(d.ProjectID) {
		return errorReply(http.StatusNotFound, "Deployment not found")
	}
	return jsonReply(http.StatusOK, s.ci.deploys.JSON(d, c.now))
}

// triggerAutomation records a run of a custom-schedule automation.
func (s *Server) triggerAutomation(c *call) reply {
	id := c.r.PathValue("workflowSchemaId")
	if !isHexID(id) {
		return errorReply(http.StatusBadRequest, "Invalid automation ID", "an automation ID is 24 hexadecimal digits")
	}
	run, refusal := s.ci.deploys.TriggerAutomation(c.project.id, id, randomHex(), randomHex())
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

// mustJSON encodes values that cannot fail to encode (maps of strings,
// plain structs).
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
