package mockserver

import (
	"net/http"
)

// assistantControl adds pages to the assistant API's sites and reads the
// credits its messages spent.
var assistantControl = []*controlRoute{
	{route: route{method: "POST", path: "/_mock/pages"}, doc: `add or replace pages of a site: {"domain": "docs.example.com", "pages": [{"path", "title", "content", "groups"}]} (domain defaults to the mock's; groups, version, language and tags optional) answers {"added": n}`, serve: (*Server).ctlAddPages},
	{route: route{method: "GET", path: "/_mock/credits"}, doc: `credits spent by assistant messages: {"credits": n}`, serve: (*Server).ctlCredits},
}

func (s *Server) ctlAddPages(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Domain string `json:"domain"`
		Pages  []Page `json:"pages"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	if body.Domain == "" {
		body.Domain = s.domain
	}
	n, err := s.assistant.AddPages(body.Domain, body.Pages)
	if err != nil {
		writeProblem(w, http.StatusBadRequest, assistantMessage(err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"added": n})
}

func (s *Server) ctlCredits(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]int64{"credits": s.Credits()})
}
