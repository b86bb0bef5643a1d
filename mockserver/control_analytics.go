package mockserver

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/docsagent/mintlify-go/mockserver/internal/reqbody"
)

// maxSyntheticVisits bounds the visits one control-API request may
// generate: a million take about 16 MB and half a second; a typo of a few
// more digits must not take the machine.
const maxSyntheticVisits = 1_000_000

// What one control request may load, counted before anything is decoded:
// each decoded item costs its Go value (200 bytes for a turn, 180 for a
// feedback entry) whatever its bytes, and a 16 MiB body of {} is 5.6
// million of them. The bounds hold a test's data set in a request or a
// few (and -seed or "synthetic" make more), and keep the heap of any one
// control request near 64 MiB.
const (
	maxVisitsPerRequest   = 100_000
	maxSearchesPerRequest = 100_000
	maxFeedbackPerRequest = 20_000
	maxThreadsPerRequest  = 10_000
	maxTurnsPerRequest    = 50_000  // in all the threads of a request
	maxSourcesPerRequest  = 100_000 // in all its turns
)

var eventLimits = reqbody.Limits{
	"visits":                maxVisitsPerRequest,
	"searches":              maxSearchesPerRequest,
	"feedback":              maxFeedbackPerRequest,
	"threads":               maxThreadsPerRequest,
	"threads.turns":         maxTurnsPerRequest,
	"threads.turns.sources": maxSourcesPerRequest,
}

// analyticsControl loads analytics events and counts them.
var analyticsControl = []*controlRoute{
	{route: route{method: "POST", path: "/_mock/visits"}, doc: `add visits: {"project": "...", "visits": [{"visitorId", "path", "ai", "timestamp"}], "synthetic": N}`, serve: (*Server).ctlAddVisits},
	{route: route{method: "POST", path: "/_mock/searches"}, doc: `add search events: {"project": "...", "searches": [{"query", "timestamp", "clickedPath"}]}`, serve: (*Server).ctlAddSearches},
	{route: route{method: "POST", path: "/_mock/feedback"}, doc: `add feedback: {"project": "...", "feedback": [{"id", "path", "source", "status", "comment", "createdAt", "helpful", "contact", "code", "filename", "lang"}]}`, serve: (*Server).ctlAddFeedback},
	{route: route{method: "POST", path: "/_mock/threads"}, doc: `add assistant threads: {"project": "...", "threads": [{"id", "caller", "turns": [{"timestamp", "query", "response", ...}]}]}`, serve: (*Server).ctlAddThreads},
	{route: route{method: "GET", path: "/_mock/events"}, doc: "how many events of each kind a project stores (?project=)", serve: (*Server).ctlEventCounts},
}

func (s *Server) ctlAddVisits(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Project   string  `json:"project"`
		Visits    []Visit `json:"visits"`
		Synthetic int     `json:"synthetic"`
	}
	if !decodeControlWithin(w, r, &body, eventLimits) {
		return
	}
	if body.Synthetic < 0 || body.Synthetic > maxSyntheticVisits {
		writeProblem(w, http.StatusBadRequest, fmt.Sprintf("synthetic: want 0 to %d visits per request", maxSyntheticVisits))
		return
	}
	s.ctlAddEvents(w, body.Project, len(body.Visits)+body.Synthetic, func(projectID string) error {
		if err := s.AddVisits(projectID, body.Visits...); err != nil {
			return err
		}
		st, _ := s.eventStore(projectID)
		st.Visits.AddSynthetic(body.Synthetic, s.Now())
		return nil
	})
}

func (s *Server) ctlAddSearches(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Project  string        `json:"project"`
		Searches []SearchEvent `json:"searches"`
	}
	if decodeControlWithin(w, r, &body, eventLimits) {
		s.ctlAddEvents(w, body.Project, len(body.Searches), func(p string) error { return s.AddSearches(p, body.Searches...) })
	}
}

func (s *Server) ctlAddFeedback(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Project  string     `json:"project"`
		Feedback []Feedback `json:"feedback"`
	}
	if decodeControlWithin(w, r, &body, eventLimits) {
		s.ctlAddEvents(w, body.Project, len(body.Feedback), func(p string) error { return s.AddFeedback(p, body.Feedback...) })
	}
}

func (s *Server) ctlAddThreads(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Project string   `json:"project"`
		Threads []Thread `json:"threads"`
	}
	if decodeControlWithin(w, r, &body, eventLimits) {
		s.ctlAddEvents(w, body.Project, len(body.Threads), func(p string) error { return s.AddThreads(p, body.Threads...) })
	}
}

// ctlAddEvents stores events with add and answers {"added": n}, or the
// problems, one detail each.
func (s *Server) ctlAddEvents(w http.ResponseWriter, projectID string, n int, add func(projectID string) error) {
	if projectID == "" {
		projectID = s.projectID
	}
	if err := add(projectID); err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, ErrUnknownProject) {
			status = http.StatusNotFound
		}
		writeProblem(w, status, strings.Split(err.Error(), "\n")...)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"added": n})
}

func (s *Server) ctlEventCounts(w http.ResponseWriter, r *http.Request) {
	projectID := r.URL.Query().Get("project")
	if projectID == "" {
		projectID = s.projectID
	}
	counts, err := s.EventCounts(projectID)
	if err != nil {
		writeProblem(w, http.StatusNotFound, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, counts)
}
