package mintlify_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go"
)

func TestGetSearchesRequestAndDecoding(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	rec := &routeRecorder{}
	// Every nullable field null once and set once; times in the forms the
	// SDK reads, and one it cannot (zero, not an error).
	rec.register(mock, "searches", `{
		"searches": [
			{"searchQuery": "install", "hits": 12, "ctr": 0.25, "topClickedPage": "/quickstart", "lastSearchedAt": "2025-01-30T10:00:00.5+02:00"},
			{"searchQuery": "rate limit", "hits": 3.0, "ctr": 0, "topClickedPage": null, "lastSearchedAt": "2025-01-29"},
			{"searchQuery": "caf\u00e9", "hits": 1, "ctr": 1, "topClickedPage": null, "lastSearchedAt": "yesterday"}
		],
		"totalSearches": 16,
		"nextCursor": "c/2+x"
	}`)
	page, err := c.GetSearches(context.Background(), mintlify.SearchesParams{DateFrom: jan1, DateTo: feb1, Limit: 3, Cursor: "c/1 x"})
	require.NoError(t, err)
	assert.Equal(t, &mintlify.SearchesPage{
		Searches: []mintlify.SearchTerm{
			{Query: "install", Hits: 12, CTR: 0.25, TopClickedPage: "/quickstart",
				LastSearchedAt: time.Date(2025, 1, 30, 8, 0, 0, 5e8, time.UTC)},
			{Query: "rate limit", Hits: 3, CTR: 0, LastSearchedAt: time.Date(2025, 1, 29, 0, 0, 0, 0, time.UTC)},
			{Query: "café", Hits: 1, CTR: 1},
		},
		TotalSearches: 16,
		NextCursor:    "c/2+x",
	}, normalizeSearchTimes(page))
	require.Len(t, rec.urls, 1)
	assert.Equal(t, url.Values{"dateFrom": {"2025-01-01"}, "dateTo": {"2025-02-01"}, "limit": {"3"}, "cursor": {"c/1 x"}},
		rec.urls[0].Query(), "the cursor is query-escaped")
}

// normalizeSearchTimes puts times in UTC so that Equal compares instants.
func normalizeSearchTimes(p *mintlify.SearchesPage) *mintlify.SearchesPage {
	for i := range p.Searches {
		if !p.Searches[i].LastSearchedAt.IsZero() {
			p.Searches[i].LastSearchedAt = p.Searches[i].LastSearchedAt.UTC()
		}
	}
	return p
}

func TestSearchesFollowCursorsUntilNull(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	var cursors []string
	answers := map[string]string{
		"":   `{"searches":[{"searchQuery":"a","hits":3,"ctr":0.5,"topClickedPage":null,"lastSearchedAt":"2025-01-01"}],"totalSearches":5,"nextCursor":"p2"}`,
		"p2": `{"searches":[{"searchQuery":"b","hits":2,"ctr":0.5,"topClickedPage":null,"lastSearchedAt":"2025-01-01"}],"totalSearches":5,"nextCursor":null}`,
	}
	mock.RegisterResponder("GET", analyticsBase+"searches", func(req *http.Request) (*http.Response, error) {
		cur := req.URL.Query().Get("cursor")
		cursors = append(cursors, cur)
		return respondJSON(answers[cur]), nil
	})
	var got []string
	for term, err := range c.Searches(context.Background(), mintlify.SearchesParams{}) {
		require.NoError(t, err)
		got = append(got, term.Query)
	}
	assert.Equal(t, []string{"a", "b"}, got)
	assert.Equal(t, []string{"", "p2"}, cursors)
}
