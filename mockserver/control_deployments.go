package mockserver

import "net/http"

// deploymentControl lists and adds automations, lists deployments and sets a
// project's outcome.
var deploymentControl = []*controlRoute{
	{route: route{method: "GET", path: "/_mock/automations"}, doc: `automations: [{"id", "project", "trigger", "active", "runs"}]`, serve: (*Server).ctlAutomations},
	{route: route{method: "POST", path: "/_mock/automations"}, doc: `add an automation: {"project", "trigger": "custom_schedule" | "code_change" | "content_update" | "webhook", "active"}`, serve: (*Server).ctlAddAutomation},
	{route: route{method: "GET", path: "/_mock/deployments"}, doc: "deployments and previews with their status now (?project= to filter)", serve: (*Server).ctlDeployments},
	{route: route{method: "PUT", path: "/_mock/projects/{id}/outcome"}, doc: `how the project's new deployments and exports end: {"outcome": "failed"}`, serve: (*Server).ctlProjectOutcome},
}

func (s *Server) ctlAutomations(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, ofProject(r, s.Automations(), func(a Automation) string { return a.Project }))
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

func (s *Server) ctlDeployments(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, ofProject(r, s.Deployments(), func(d DeploymentRecord) string { return d.ProjectID }))
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
