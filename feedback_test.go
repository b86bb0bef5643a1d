package mintlify_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go"
)

func TestGetFeedbackRequestAndDecoding(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	// One entry per source. Nullable fields null or set; fields another
	// source has are ignored whatever their type (the agent entry's
	// "helpful": "yes", the contextual entry's "code": 7).
	rec.register(mock, "feedback", `{
		"feedback": [
			{"id": "fb1", "path": "/quickstart", "comment": "Unclear step 3", "createdAt": "2025-01-05T09:00:00Z",
			 "source": "contextual", "status": "pending", "helpful": false, "contact": "ann@example.com", "code": 7},
			{"id": "fb2", "path": "/quickstart", "comment": null, "createdAt": null,
			 "source": "contextual", "status": "resolved", "helpful": true, "contact": null},
			{"id": "fb3", "path": "/api", "comment": "Typo", "createdAt": "2025-01-06",
			 "source": "code_snippet", "status": "in_progress", "code": "curl -X GET", "filename": null, "lang": "bash", "helpful": true},
			{"id": "fb4", "path": "/api", "comment": null, "createdAt": "not a time",
			 "source": "code_snippet", "status": "dismissed", "code": "x", "filename": "main.go", "lang": null},
			{"id": "fb5", "path": "/faq", "comment": "Needs an example", "createdAt": "2025-01-07T00:00:00Z",
			 "source": "agent", "status": "pending", "helpful": "yes", "contact": 1, "code": null},
			{"id": "fb6", "path": "/faq", "comment": null, "createdAt": "2025-01-08T00:00:00Z",
			 "source": "thumbs_only", "status": "pending"}
		],
		"nextCursor": "next+1",
		"hasMore": true
	}`)
	page, err := c.GetFeedback(context.Background(), mintlify.FeedbackParams{
		DateFrom: jan1, DateTo: feb1, Source: mintlify.FeedbackContextual,
		Statuses: []mintlify.FeedbackStatus{mintlify.FeedbackPending, mintlify.FeedbackInProgress},
		Limit:    6, Cursor: "c1",
	})
	require.NoError(t, err)
	no, yes := false, true
	day := func(d int) time.Time { return time.Date(2025, 1, d, 0, 0, 0, 0, time.UTC) }
	assert.Equal(t, &mintlify.FeedbackPage{
		Feedback: []mintlify.Feedback{
			{ID: "fb1", Path: "/quickstart", Comment: "Unclear step 3", CreatedAt: day(5).Add(9 * time.Hour),
				Source: mintlify.FeedbackContextual, Status: mintlify.FeedbackPending, Helpful: &no, Contact: "ann@example.com"},
			{ID: "fb2", Path: "/quickstart", Source: mintlify.FeedbackContextual, Status: mintlify.FeedbackResolved, Helpful: &yes},
			{ID: "fb3", Path: "/api", Comment: "Typo", CreatedAt: day(6), Source: mintlify.FeedbackCodeSnippet,
				Status: mintlify.FeedbackInProgress, Code: "curl -X GET", Lang: "bash"},
			{ID: "fb4", Path: "/api", Source: mintlify.FeedbackCodeSnippet, Status: mintlify.FeedbackDismissed,
				Code: "x", Filename: "main.go"},
			{ID: "fb5", Path: "/faq", Comment: "Needs an example", CreatedAt: day(7), Source: mintlify.FeedbackAgent,
				Status: mintlify.FeedbackPending},
			{ID: "fb6", Path: "/faq", CreatedAt: day(8), Source: mintlify.FeedbackThumbsOnly, Status: mintlify.FeedbackPending},
		},
		NextCursor: "next+1",
		HasMore:    true,
	}, page)
	require.Len(t, rec.urls, 1)
	assert.Equal(t, url.Values{
		"dateFrom": {"2025-01-01"}, "dateTo": {"2025-02-01"}, "limit": {"6"}, "cursor": {"c1"},
		"source": {"contextual"}, "status": {"pending,in_progress"},
	}, rec.urls[0].Query())
}

func TestGetFeedbackByPageRequestAndDecoding(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	rec.register(mock, "feedback/by-page", `{
		"feedback": [
			{"path": "/quickstart", "thumbsUp": 4, "thumbsDown": 1, "code": 0, "total": 5},
			{"path": "/api", "thumbsUp": 0, "thumbsDown": 0, "code": 2.0, "total": 2}
		],
		"hasMore": false
	}`)
	got, err := c.GetFeedbackByPage(context.Background(), mintlify.FeedbackByPageParams{
		Source: mintlify.FeedbackCodeSnippet, Statuses: []mintlify.FeedbackStatus{mintlify.FeedbackDismissed}, Limit: 100,
	})
	require.NoError(t, err)
	assert.Equal(t, &mintlify.FeedbackByPage{Pages: []mintlify.PageFeedback{
		{Path: "/quickstart", ThumbsUp: 4, ThumbsDown: 1, Total: 5},
		{Path: "/api", Code: 2, Total: 2},
	}}, got)
	require.Len(t, rec.urls, 1)
	assert.Equal(t, "/v1/analytics/proj/feedback/by-page", rec.urls[0].Path)
	assert.Equal(t, url.Values{"limit": {"100"}, "source": {"code_snippet"}, "status": {"dismissed"}}, rec.urls[0].Query())

	_, err = c.GetFeedbackByPage(context.Background(), mintlify.FeedbackByPageParams{})
	require.NoError(t, err)
	assert.Equal(t, "", rec.urls[1].RawQuery, "Limit 0 sends none: the server's default is 10")
}
