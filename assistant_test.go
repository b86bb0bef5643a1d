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

const threadULID = "01HZY6J0V7Q4N2M8K3D5F9G1B0"

func TestGetConversationsRequestAndDecoding(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	// Two turns of one thread; responseType present, absent; nullable
	// fields set and null.
	rec.register(mock, "assistant", `{
		"conversations": [
			{"id": "`+threadULID+`", "timestamp": "2025-01-03T10:00:00Z", "query": "How do I log in?",
			 "response": "Which SDK?", "responseType": "clarifying_question", "sources": [],
			 "resolutionStatus": "answered", "queryCategory": null, "pageUrl": null},
			{"id": "`+threadULID+`", "timestamp": "2025-01-03T10:01:00Z", "query": "Go",
			 "response": "Use NewClient.", "sources": [{"title": "Quickstart", "url": "https://docs.example.com/quickstart"}],
			 "resolutionStatus": "unanswered", "queryCategory": "auth", "pageUrl": "https://docs.example.com/"}
		],
		"nextCursor": "01HZY6J0V7Q4N2M8K3D5F9G1B1",
		"hasMore": true
	}`)
	page, err := c.GetConversations(context.Background(), mintlify.ConversationsParams{DateFrom: jan1, Limit: 1000, Cursor: "01HZY6J0V7Q4N2M8K3D5F9G1AZ"})
	require.NoError(t, err)
	at := func(min int) time.Time { return time.Date(2025, 1, 3, 10, min, 0, 0, time.UTC) }
	assert.Equal(t, &mintlify.ConversationsPage{
		Conversations: []mintlify.Conversation{
			{ID: threadULID, Timestamp: at(0), Query: "How do I log in?", Response: "Which SDK?",
				ResponseType: "clarifying_question", Sources: []mintlify.ConversationSource{}, ResolutionStatus: "answered"},
			{ID: threadULID, Timestamp: at(1), Query: "Go", Response: "Use NewClient.", ResponseType: "answer",
				Sources:          []mintlify.ConversationSource{{Title: "Quickstart", URL: "https://docs.example.com/quickstart"}},
				ResolutionStatus: "unanswered", QueryCategory: "auth", PageURL: "https://docs.example.com/"},
		},
		NextCursor: "01HZY6J0V7Q4N2M8K3D5F9G1B1",
		HasMore:    true,
	}, page)
	require.Len(t, rec.urls, 1)
	assert.Equal(t, url.Values{"dateFrom": {"2025-01-01"}, "limit": {"1000"}, "cursor": {"01HZY6J0V7Q4N2M8K3D5F9G1AZ"}},
		rec.urls[0].Query())
}

func TestConversationsIteratorsAskForTheLargestPage(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	rec.register(mock, "assistant", `{"conversations":[],"nextCursor":null,"hasMore":false}`)
	for _, err := range c.Conversations(context.Background(), mintlify.ConversationsParams{}) {
		require.NoError(t, err)
	}
	require.Len(t, rec.urls, 1)
	assert.Equal(t, "limit=1000", rec.urls[0].RawQuery)
}

func TestGetThreadRequestAndDecoding(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	rec.register(mock, "assistant/threads/"+threadULID, `{
		"threadId": "`+threadULID+`",
		"createdAt": "2025-01-03T10:00:00Z",
		"messages": [
			{"id": "m1", "role": "user", "content": "How do I log in?", "createdAt": "2025-01-03T10:00:00Z"},
			{"id": "m2", "role": "assistant", "content": "Which SDK?", "createdAt": "garbled"}
		]
	}`)
	th, err := c.GetThread(context.Background(), threadULID)
	require.NoError(t, err)
	at := time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC)
	assert.Equal(t, &mintlify.Thread{ID: threadULID, CreatedAt: at, Messages: []mintlify.ThreadMessage{
		{ID: "m1", Role: "user", Content: "How do I log in?", CreatedAt: at},
		{ID: "m2", Role: "assistant", Content: "Which SDK?"},
	}}, th)
	require.Len(t, rec.urls, 1)
	assert.Equal(t, "", rec.urls[0].RawQuery)
	// Lower case is a ULID too.
	_, err = c.GetThread(context.Background(), "01hzy6j0v7q4n2m8k3d5f9g1b0")
	assert.NotErrorIs(t, err, mintlify.ErrInvalidInput)
}

func TestGetCallerStatsRequestAndDecoding(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	rec.register(mock, "assistant/caller-stats", `{"web": 10, "api": 4.0, "other": 1, "total": 15}`)
	got, err := c.GetCallerStats(context.Background(), mintlify.CallerStatsParams{DateFrom: jan1, DateTo: feb1})
	require.NoError(t, err)
	assert.Equal(t, &mintlify.CallerStats{Web: 10, API: 4, Other: 1, Total: 15}, got)
	assert.Equal(t, url.Values{"dateFrom": {"2025-01-01"}, "dateTo": {"2025-02-01"}}, rec.urls[0].Query())
}
