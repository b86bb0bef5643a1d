package mintlify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// End-to-end: every list route walked by the SDK equals the same route
// walked by hand with net/http and encoding/json, over a real socket to the
// bundled mock server, at several page sizes. The expected rows are built
// from the raw JSON by the rules of the vendor schema, not by the SDK.

// rawRoute walks one route by hand and builds what the SDK should yield.
type rawRoute struct {
	name, path string
	max        int
	offset     bool   // offset paging, else cursor
	rowsKey    string // the array holding the rows
	hasMore    bool   // the answer says hasMore (searches end on a null cursor)
	expect     func(t *testing.T, row map[string]json.RawMessage) any
	sdk        func(c *mintlify.Client, limit int) iter.Seq2[any, error]
}

func rawString(t *testing.T, m map[string]json.RawMessage, key string) string {
	t.Helper()
	var s *string
	require.NoError(t, json.Unmarshal(m[key], &s), key)
	if s == nil {
		return ""
	}
	return *s
}

func rawInt(t *testing.T, m map[string]json.RawMessage, key string) int {
	t.Helper()
	var f float64
	require.NoError(t, json.Unmarshal(m[key], &f), key)
	require.Equal(t, float64(int(f)), f, "%s is a whole number", key)
	return int(f)
}

func rawTime(t *testing.T, m map[string]json.RawMessage, key string) time.Time {
	t.Helper()
	s := rawString(t, m, key)
	if s == "" {
		return time.Time{}
	}
	at, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err, "the mock writes RFC 3339: %s", s)
	return at
}

var rawRoutes = []rawRoute{
	{
		name: "visitors", path: "visitors", max: 250, offset: true, rowsKey: "visitors", hasMore: true,
		expect: func(t *testing.T, m map[string]json.RawMessage) any {
			return mintlify.PathVisitors{Path: rawString(t, m, "path"), Human: rawInt(t, m, "human"), AI: rawInt(t, m, "ai"), Total: rawInt(t, m, "total")}
		},
		sdk: func(c *mintlify.Client, limit int) iter.Seq2[any, error] {
			return erase(c.Visitors(context.Background(), mintlify.VisitorsParams{Limit: limit}))
		},
	},
	{
		name: "views", path: "views", max: 250, offset: true, rowsKey: "views", hasMore: true,
		expect: func(t *testing.T, m map[string]json.RawMessage) any {
			return mintlify.PathViews{Path: rawString(t, m, "path"), Human: rawInt(t, m, "human"), AI: rawInt(t, m, "ai"), Total: rawInt(t, m, "total")}
		},
		sdk: func(c *mintlify.Client, limit int) iter.Seq2[any, error] {
			return erase(c.Views(context.Background(), mintlify.ViewsParams{Limit: limit}))
		},
	},
	{
		name: "searches", path: "searches", max: 100, rowsKey: "searches",
		expect: func(t *testing.T, m map[string]json.RawMessage) any {
			var ctr float64
			require.NoError(t, json.Unmarshal(m["ctr"], &ctr))
			return mintlify.SearchTerm{Query: rawString(t, m, "searchQuery"), Hits: rawInt(t, m, "hits"), CTR: ctr,
				TopClickedPage: rawString(t, m, "topClickedPage"), LastSearchedAt: rawTime(t, m, "lastSearchedAt")}
		},
		sdk: func(c *mintlify.Client, limit int) iter.Seq2[any, error] {
			return erase(c.Searches(context.Background(), mintlify.SearchesParams{Limit: limit}))
		},
	},
	{
		name: "feedback", path: "feedback", max: 100, rowsKey: "feedback", hasMore: true,
		expect: func(t *testing.T, m map[string]json.RawMessage) any {
			f := mintlify.Feedback{ID: rawString(t, m, "id"), Path: rawString(t, m, "path"), Comment: rawString(t, m, "comment"),
				CreatedAt: rawTime(t, m, "createdAt"), Source: mintlify.FeedbackSource(rawString(t, m, "source")),
				Status: mintlify.FeedbackStatus(rawString(t, m, "status"))}
			switch f.Source {
			case mintlify.FeedbackContextual:
				var helpful bool
				require.NoError(t, json.Unmarshal(m["helpful"], &helpful))
				f.Helpful, f.Contact = &helpful, rawString(t, m, "contact")
			case mintlify.FeedbackCodeSnippet:
				f.Code, f.Filename, f.Lang = rawString(t, m, "code"), rawString(t, m, "filename"), rawString(t, m, "lang")
			}
			return f
		},
		sdk: func(c *mintlify.Client, limit int) iter.Seq2[any, error] {
			return erase(c.Feedback(context.Background(), mintlify.FeedbackParams{Limit: limit}))
		},
	},
	{
		name: "conversations", path: "assistant", max: 1000, rowsKey: "conversations", hasMore: true,
		expect: func(t *testing.T, m map[string]json.RawMessage) any {
			var sources []mintlify.ConversationSource
			require.NoError(t, json.Unmarshal(m["sources"], &sources))
			if sources == nil {
				sources = []mintlify.ConversationSource{}
			}
			kind := "answer"
			if _, ok := m["responseType"]; ok {
				kind = rawString(t, m, "responseType")
			}
			return mintlify.Conversation{ID: rawString(t, m, "id"), Timestamp: rawTime(t, m, "timestamp"),
				Query: rawString(t, m, "query"), Response: rawString(t, m, "response"), ResponseType: kind, Sources: sources,
				ResolutionStatus: rawString(t, m, "resolutionStatus"), QueryCategory: rawString(t, m, "queryCategory"),
				PageURL: rawString(t, m, "pageUrl")}
		},
		sdk: func(c *mintlify.Client, limit int) iter.Seq2[any, error] {
			return erase(c.Conversations(context.Background(), mintlify.ConversationsParams{Limit: limit}))
		},
	},
}

// walkRaw is the loop a user would write: offset += rows while hasMore, or
// follow nextCursor.
func walkRaw(t *testing.T, srv *mockserver.Server, r rawRoute, limit int) (rows []map[string]json.RawMessage) {
	t.Helper()
	offset, cursor := 0, ""
	for page := 0; ; page++ {
		require.Less(t, page, 20_000, "the raw walk ends")
		q := url.Values{"limit": {strconv.Itoa(limit)}}
		if offset > 0 {
			q.Set("offset", strconv.Itoa(offset))
		}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		req, err := http.NewRequest(http.MethodGet, srv.URL()+"/v1/analytics/"+srv.ProjectID()+"/"+r.path+"?"+q.Encode(), nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+srv.APIKey())
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
		var answer struct {
			HasMore    bool    `json:"hasMore"`
			NextCursor *string `json:"nextCursor"`
		}
		var rowsOf map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(body, &answer))
		require.NoError(t, json.Unmarshal(body, &rowsOf))
		var pageRows []map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(rowsOf[r.rowsKey], &pageRows))
		rows = append(rows, pageRows...)
		switch {
		case r.offset && answer.HasMore:
			offset += len(pageRows)
		case !r.offset && answer.NextCursor != nil && (answer.HasMore || !r.hasMore):
			cursor = *answer.NextCursor
		default:
			return rows
		}
	}
}

func TestAnalyticsE2EWalksEqualRawWalks(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithSeed(3000), mockserver.WithoutRateLimits())
	c := mockClient(t, srv, mintlify.WithMaxWalkRequests(100_000))
	for _, r := range rawRoutes {
		t.Run(r.name, func(t *testing.T) {
			var want []any
			for _, row := range walkRaw(t, srv, r, r.max) {
				want = append(want, r.expect(t, row))
			}
			require.NotEmpty(t, want, "the seed fills every route")
			for _, limit := range []int{1, 2, 7, r.max - 1, r.max} {
				if limit <= 2 && len(want) > 1500 {
					continue // bounded: a page of 1 over thousands of rows adds nothing
				}
				t.Run(fmt.Sprint("limit=", limit), func(t *testing.T) {
					if limit != r.max {
						raw := walkRaw(t, srv, r, limit)
						require.Len(t, raw, len(want), "the raw walk at this page size")
					}
					var got []any
					for row, err := range r.sdk(c, limit) {
						require.NoError(t, err)
						got = append(got, normalizeTimes(row))
					}
					wantUTC := make([]any, len(want))
					for i, w := range want {
						wantUTC[i] = normalizeTimes(w)
					}
					assert.Equal(t, wantUTC, got)
				})
			}
		})
	}
}

// normalizeTimes puts a row's times in UTC, so that equal instants compare
// equal whatever offset they were written with, and keeps its exported
// fields only (see inUTC).
func normalizeTimes(row any) any { return inUTC(row) }

func TestAnalyticsE2ESingleAnswers(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithSeed(3000), mockserver.WithoutRateLimits())
	c := mockClient(t, srv)
	ctx := context.Background()

	stats, err := c.GetCallerStats(ctx, mintlify.CallerStatsParams{})
	require.NoError(t, err)
	assert.Equal(t, stats.Web+stats.API+stats.Other, stats.Total)
	assert.Positive(t, stats.Total)

	byPage, err := c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{Limit: 100})
	require.NoError(t, err)
	require.NotEmpty(t, byPage.Pages)
	for _, p := range byPage.Pages {
		assert.GreaterOrEqual(t, p.Total, p.ThumbsUp+p.ThumbsDown+p.Code, p.Path)
	}

	var turn mintlify.Conversation
	for row, err := range c.Conversations(ctx, mintlify.ConversationsParams{}) {
		require.NoError(t, err)
		turn = row
		break
	}
	thread, err := c.GetThread(ctx, turn.ID)
	require.NoError(t, err)
	assert.Equal(t, turn.ID, thread.ID)
	assert.NotEmpty(t, thread.Messages)

	_, err = c.GetThread(ctx, "01ARZ3NDEKTSV4RRFFQ69G5FAV")
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
}

// TestAnalyticsE2EResumeAfterQuota: the mock's hourly quota stops a walk
// mid-way; each time, a new walk from the WalkError's Offset or Cursor, an
// hour later, carries on. The pieces together are the whole export, each
// row once: for the offset routes and for a cursor route, in pieces of 10
// rows a page and of the largest page (which takes fewer hours).
func TestAnalyticsE2EResumeAfterQuota(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC))
	srv := mockserver.Start(t, mockserver.WithClock(clock), mockserver.WithSeed(3000),
		mockserver.WithAnalyticsRateLimit(3, time.Hour))
	c := mockClient(t, srv, mintlify.WithRetryWait(time.Millisecond, time.Millisecond))
	ctx := context.Background()

	// walkInPieces resumes walk until it ends, and returns every row, how
	// many times it stopped and how many rows the first piece held.
	walkInPieces := func(t *testing.T, walk func(we *mintlify.WalkError) iter.Seq2[any, error]) (rows []any, stops, first int) {
		var resume *mintlify.WalkError
		for piece := 0; ; piece++ {
			require.Less(t, piece, 100, "the export ends")
			var stopped *mintlify.WalkError
			for row, err := range walk(resume) {
				if err != nil {
					require.ErrorIs(t, err, mintlify.ErrRateLimited)
					require.ErrorAs(t, err, &stopped)
					var apiErr *mintlify.APIError
					require.ErrorAs(t, err, &apiErr)
					assert.Greater(t, apiErr.RetryAfter, 30*time.Minute, "far beyond what the client sleeps on")
					break
				}
				rows = append(rows, normalizeTimes(row))
			}
			if stopped == nil {
				return rows, stops, first
			}
			if stops++; stops == 1 {
				first = len(rows)
			}
			resume = stopped
			clock.Advance(time.Hour) // the quota comes back
		}
	}
	visitors := func(limit int) func(we *mintlify.WalkError) iter.Seq2[any, error] {
		return func(we *mintlify.WalkError) iter.Seq2[any, error] {
			p := mintlify.VisitorsParams{Limit: limit}
			if we != nil {
				p.Offset = we.Offset
			}
			return erase(c.Visitors(ctx, p))
		}
	}
	views := func(limit int) func(we *mintlify.WalkError) iter.Seq2[any, error] {
		return func(we *mintlify.WalkError) iter.Seq2[any, error] {
			p := mintlify.ViewsParams{Limit: limit}
			if we != nil {
				p.Offset = we.Offset
			}
			return erase(c.Views(ctx, p))
		}
	}
	searches := func(limit int) func(we *mintlify.WalkError) iter.Seq2[any, error] {
		return func(we *mintlify.WalkError) iter.Seq2[any, error] {
			p := mintlify.SearchesParams{Limit: limit}
			if we != nil {
				p.Cursor = we.Cursor
			}
			return erase(c.Searches(ctx, p))
		}
	}
	for name, walk := range map[string]func(int) func(*mintlify.WalkError) iter.Seq2[any, error]{
		"visitors by offset": visitors, "views by offset": views, "searches by cursor": searches,
	} {
		t.Run(name, func(t *testing.T) {
			clock.Advance(time.Hour) // a full quota
			small, stops, first := walkInPieces(t, walk(10))
			assert.Greater(t, stops, 1, "the walk stopped and resumed more than once")
			assert.Equal(t, 30, first, "three pages of 10 rows fit in the hour")
			clock.Advance(time.Hour)
			large, _, _ := walkInPieces(t, walk(0))
			require.NotEmpty(t, large)
			assert.Equal(t, large, small)
		})
	}
}
