package mockserver

import (
	"errors"
	"net/http"
)

// jobControl reads jobs and moves them on, as a test in any language needs.
var jobControl = []*controlRoute{
	{route: route{method: "GET", path: "/_mock/jobs"}, doc: "stored jobs with prompts and follow-ups (?project= to filter)", serve: (*Server).ctlJobs},
	{route: route{method: "GET", path: "/_mock/jobs/{id}"}, doc: "one stored job", serve: (*Server).ctlJob},
	{route: route{method: "POST", path: "/_mock/jobs/{id}/outcome"}, doc: `set the current run's outcome: {"outcome": "pull-request" | "no-change" | "failed"}`, serve: (*Server).ctlSetOutcome},
	{route: route{method: "POST", path: "/_mock/jobs/{id}/finish"}, doc: "end the current run now", serve: (*Server).ctlFinish},
	{route: route{method: "POST", path: "/_mock/jobs/{id}/archive"}, doc: "archive the job", serve: (*Server).ctlArchive},
}

func (s *Server) ctlJobs(w http.ResponseWriter, r *http.Request) {
	jobs := ofProject(r, s.Jobs(), func(j Job) string { return j.ProjectID })
	writeJSON(w, http.StatusOK, map[string]any{"jobs": jobs})
}

func (s *Server) ctlJob(w http.ResponseWriter, r *http.Request) {
	j, ok := s.Job(r.PathValue("id"))
	if !ok {
		writeProblem(w, http.StatusNotFound, "no job "+clipDetail(r.PathValue("id")))
		return
	}
	writeJSON(w, http.StatusOK, j)
}

// ctlJobUpdate answers a job mutation with the job as it now stands.
func (s *Server) ctlJobUpdate(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, ErrJobNotFound):
		writeProblem(w, http.StatusNotFound, err.Error())
	case err != nil:
		writeProblem(w, http.StatusBadRequest, err.Error())
	default:
		s.ctlJob(w, r)
	}
}

func (s *Server) ctlSetOutcome(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Outcome Outcome `json:"outcome"`
	}
	if decodeControl(w, r, &body) {
		s.ctlJobUpdate(w, r, s.SetOutcome(r.PathValue("id"), body.Outcome))
	}
}

func (s *Server) ctlFinish(w http.ResponseWriter, r *http.Request) {
	s.ctlJobUpdate(w, r, s.FinishJob(r.PathValue("id")))
}

func (s *Server) ctlArchive(w http.ResponseWriter, r *http.Request) {
	s.ctlJobUpdate(w, r, s.ArchiveJob(r.PathValue("id")))
}
