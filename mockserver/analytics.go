package mockserver

import (
	"errors"
	"net/http"

	"github.com/docsagent/mintlify-go/mockserver/internal/analytics"
)

// The analytics routes are thin: validate the query, let the project's
// event store compute the answer into a pooled buffer, map a refusal to
// the error body. Everything route-specific lives in internal/analytics.

func (s *Server) visitors(c *call) reply {
	return c.analyticsPage(&analytics.VisitorsSpec, func(b []byte, q *analytics.Query) ([]byte, error) {
		return c.project.events.Visits.Visitors(b, q), nil
	})
}

func (s *Server) views(c *call) reply {
	return c.analyticsPage(&analytics.ViewsSpec, func(b []byte, q *analytics.Query) ([]byte, error) {
		return c.project.events.Visits.Views(b, q), nil
	})
}

func (s *Server) searches(c *call) reply {
	return c.analyticsPage(&analytics.SearchesSpec, c.project.events.Searches)
}

func (s *Server) feedback(c *call) reply {
	return c.analyticsPage(&analytics.FeedbackSpec, c.project.events.Feedback)
}

func (s *Server) feedbackByPage(c *call) reply {
	return c.analyticsPage(&analytics.FeedbackByPageSpec, func(b []byte, q *analytics.Query) ([]byte, error) {
		return c.project.events.FeedbackByPage(b, q), nil
	})
}

func (s *Server) conversations(c *call) reply {
	return c.analyticsPage(&analytics.ConversationsSpec, c.project.events.Conversations)
}

func (s *Server) callerStats(c *call) reply {
	return c.analyticsPage(&analytics.CallerStatsSpec, func(b []byte, q *analytics.Query) ([]byte, error) {
		return c.project.events.CallerStats(b, q), nil
	})
}

func (s *Server) thread(c *call) reply {
	return c.answer(func(b []byte) ([]byte, error) {
		return c.project.events.Thread(b, c.r.PathValue("threadId"))
	})
}

func (c *call) analyticsPage(spec *analytics.Spec, compute func([]byte, *analytics.Query) ([]byte, error)) reply {
	q, err := analytics.ParseQuery(spec, c.r.URL.RawQuery)
	if err != nil {
		return analyticsError(err)
	}
	return c.answer(func(b []byte) ([]byte, error) { return compute(b, &q) })
}

// answer runs compute on a pooled buffer.
func (c *call) answer(compute func([]byte) ([]byte, error)) reply {
	buf := getBuf()
	body, err := compute(*buf)
	if err != nil {
		putBuf(buf)
		return analyticsError(err)
	}
	*buf = body
	return reply{status: http.StatusOK, body: body, buf: buf}
}

func analyticsError(err error) reply {
	var e *analytics.Error
	if errors.As(err, &e) {
		return errorReply(e.Status, e.Message, e.Details...)
	}
	return errorReply(http.StatusInternalServerError, "Internal server error", err.Error())
}
