package mockserver

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/analytics"
)

// The analytics events a project stores, from which every analytics answer
// is computed. They are defined with the computations, in
// internal/analytics; these names are their public face.
type (
	// Visit is one content view: a row of the views export, deduplicated
	// by visitor for the visitors export.
	Visit = analytics.Visit
	// SearchEvent is one search, and the page opened from its results.
	SearchEvent = analytics.SearchEvent
	// Feedback is one piece of reader feedback.
	Feedback = analytics.Feedback
	// FeedbackSource is where feedback came from (FeedbackCodeSnippet, ...).
	FeedbackSource = analytics.Source
	// FeedbackStatus is a feedback entry's review status.
	FeedbackStatus = analytics.Status
	// Thread is an assistant conversation of one or more turns.
	Thread = analytics.Thread
	// Turn is a query to the assistant and its response.
	Turn = analytics.Turn
	// TurnSource is a page an assistant response cites.
	TurnSource = analytics.TurnSource
	// Caller is what asked the assistant (CallerWeb, CallerAPI, CallerOther).
	Caller = analytics.Caller
	// EventCounts says how many events of each kind a project stores.
	EventCounts = analytics.Counts
)

// Feedback sources, review statuses and assistant callers, as the service
// spells them.
const (
	FeedbackCodeSnippet = analytics.SourceCodeSnippet
	FeedbackContextual  = analytics.SourceContextual
	FeedbackAgent       = analytics.SourceAgent
	FeedbackThumbsOnly  = analytics.SourceThumbsOnly

	FeedbackPending    = analytics.StatusPending
	FeedbackInProgress = analytics.StatusInProgress
	FeedbackResolved   = analytics.StatusResolved
	FeedbackDismissed  = analytics.StatusDismissed

	CallerWeb   = analytics.CallerWeb
	CallerAPI   = analytics.CallerAPI
	CallerOther = analytics.CallerOther
)

// Page-size bounds of the visitors export, as the service documents them.
const (
	DefaultLimit = 50
	MaxLimit     = 250
)

// SyntheticPaths is how many distinct pages the synthetic data draw from.
const SyntheticPaths = analytics.SyntheticPaths

// SyntheticVisits returns the visits of the -seed data set: n visits from
// 2025-01-01 (or 90 days before end, if that is earlier) up to end, in time
// order. The same n and end always give the same visits, so counts in a
// test or a bug report can be reproduced exactly. Visitors average eight
// visits each; a few pages take most views; some visitors are AI agents and
// some are seen both ways.
func SyntheticVisits(n int, end time.Time) []Visit {
	visits := make([]Visit, 0, max(n, 0))
	analytics.GenerateVisits(n, end, func(v Visit) { visits = append(visits, v) })
	return visits
}

// AddSearches stores search events for a project; the searches export
// reflects them at once (walks already under way keep their own view).
func (s *Server) AddSearches(projectID string, searches ...SearchEvent) error {
	st, err := s.eventStore(projectID)
	if err != nil {
		return err
	}
	return st.AddSearches(searches)
}

// AddFeedback stores feedback entries for a project. An empty ID is
// generated and an empty status is pending.
func (s *Server) AddFeedback(projectID string, entries ...Feedback) error {
	st, err := s.eventStore(projectID)
	if err != nil {
		return err
	}
	return st.AddFeedback(entries)
}

// AddThreads stores assistant threads for a project. Empty thread and
// message IDs are generated (ULIDs); give your own to know them.
func (s *Server) AddThreads(projectID string, threads ...Thread) error {
	st, err := s.eventStore(projectID)
	if err != nil {
		return err
	}
	return st.AddThreads(threads)
}

// AddVisits stores visits for a project; the visitors and views exports
// reflect them at once.
func (s *Server) AddVisits(projectID string, visits ...Visit) error {
	st, err := s.eventStore(projectID)
	if err != nil {
		return err
	}
	return st.Visits.Add(visits)
}

// EventCounts reports how many events of each kind a project stores.
func (s *Server) EventCounts(projectID string) (EventCounts, error) {
	st, err := s.eventStore(projectID)
	if err != nil {
		return EventCounts{}, err
	}
	return st.Counts(), nil
}

func (s *Server) eventStore(projectID string) (*analytics.Store, error) {
	p := s.projects[projectID]
	if p == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownProject, projectID)
	}
	return p.events, nil
}

// MaxSeed bounds WithSeed, WithSyntheticVisits and -seed: 100 million
// visits and their searches, feedback and threads are about 6 GB
// (docs/mock.md measures 60 MB a million); past it the data set cannot be
// held, and larger counts overflowed a slice's length.
const MaxSeed = 100_000_000

// seedEvents stores the events given as options for the primary project
// and freezes them as the state Reset returns to.
func (s *Server) seedEvents() error {
	st := s.projects[s.projectID].events
	cfg := &s.cfg
	for _, o := range []struct {
		option string
		n      int
	}{{"WithSeed", cfg.seed}, {"WithSyntheticVisits", cfg.synthetic}} {
		if o.n < 0 || o.n > MaxSeed {
			return fmt.Errorf("mockserver: %s(%d): want 0 to %d visits", o.option, o.n, MaxSeed)
		}
	}
	if cfg.seed > 0 {
		if err := st.Seed(cfg.seed, s.Now()); err != nil {
			return fmt.Errorf("mockserver: WithSeed: %w", err)
		}
	}
	visits := cfg.visits
	if cfg.synthetic > 0 {
		visits = append(slices.Clip(visits), SyntheticVisits(cfg.synthetic, s.Now())...)
	}
	for _, step := range []struct {
		option string
		add    func() error
	}{
		{"WithVisits", func() error { return st.Visits.Add(visits) }},
		{"WithSearches", func() error { return st.AddSearches(cfg.searches) }},
		{"WithFeedback", func() error { return st.AddFeedback(cfg.feedback) }},
		{"WithThreads", func() error { return st.AddThreads(cfg.threads) }},
	} {
		if err := step.add(); err != nil {
			return fmt.Errorf("mockserver: %s: %w", step.option, err)
		}
	}
	st.Freeze()
	return nil
}

// The analytics routes are thin: validate the query, let the project's
// event store compute the answer, map a refusal to the error body.
// Everything route-specific lives in internal/analytics.

func (s *Server) visitors(c *call) reply {
	return c.analyticsPage(&analytics.VisitorsSpec, func(q *analytics.Query) (any, error) {
		return c.project.events.Visits.Visitors(q), nil
	})
}

func (s *Server) views(c *call) reply {
	return c.analyticsPage(&analytics.ViewsSpec, func(q *analytics.Query) (any, error) {
		return c.project.events.Visits.Views(q), nil
	})
}

func (s *Server) searches(c *call) reply {
	return c.analyticsPage(&analytics.SearchesSpec, func(q *analytics.Query) (any, error) {
		return c.project.events.Searches(q)
	})
}

func (s *Server) feedback(c *call) reply {
	return c.analyticsPage(&analytics.FeedbackSpec, func(q *analytics.Query) (any, error) {
		return c.project.events.Feedback(q)
	})
}

func (s *Server) feedbackByPage(c *call) reply {
	return c.analyticsPage(&analytics.FeedbackByPageSpec, func(q *analytics.Query) (any, error) {
		return c.project.events.FeedbackByPage(q), nil
	})
}

func (s *Server) conversations(c *call) reply {
	return c.analyticsPage(&analytics.ConversationsSpec, func(q *analytics.Query) (any, error) {
		return c.project.events.Conversations(q)
	})
}

func (s *Server) callerStats(c *call) reply {
	return c.analyticsPage(&analytics.CallerStatsSpec, func(q *analytics.Query) (any, error) {
		return c.project.events.CallerStats(q), nil
	})
}

func (s *Server) thread(c *call) reply {
	return analyticsAnswer(c.project.events.Thread(c.r.PathValue("threadId")))
}

func (c *call) analyticsPage(spec *analytics.Spec, compute func(*analytics.Query) (any, error)) reply {
	q, err := analytics.ParseQuery(spec, c.r.URL.RawQuery)
	if err != nil {
		return analyticsError(err)
	}
	return analyticsAnswer(compute(&q))
}

// analyticsAnswer writes an answer, or its refusal.
func analyticsAnswer(answer any, err error) reply {
	if err != nil {
		return analyticsError(err)
	}
	return jsonReply(http.StatusOK, mustJSON(answer))
}

func analyticsError(err error) reply {
	var e *analytics.Error
	if errors.As(err, &e) {
		status := http.StatusBadRequest
		if e.NotFound {
			status = http.StatusNotFound
		}
		return errorReply(status, e.Message, e.Details...)
	}
	return errorReply(http.StatusInternalServerError, "Internal server error", err.Error())
}
