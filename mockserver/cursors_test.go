package mockserver_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// Events that arrive during a walk: a keyset walk gives every event that
// existed when it began exactly once, whatever arrives meanwhile; a
// searches walk stays on the ranking it began with.
func TestCursorWalksSurviveNewEvents(t *testing.T) {
	t.Parallel()
	d := buildDataset(3)
	s := mockserver.Start(t, d.options()...)
	c := newRouteClient(t, s)
	added := 0
	more := func() {
		added++
		at := day0.Add(time.Duration(added) * 37 * time.Hour) // inside the data's range, before and after the cursor
		searches := []mockserver.SearchEvent{{Query: "term 1", Time: at}, {Query: "new " + strconv.Itoa(added), Time: at}}
		f := mockserver.Feedback{ID: "new" + strconv.Itoa(added), Path: "/p/1", Source: mockserver.FeedbackAgent, Status: mockserver.FeedbackPending, CreatedAt: at}
		th := mockserver.Thread{ID: ulidFor(at, 1<<40+uint64(added)), Caller: mockserver.CallerAPI, Turns: []mockserver.Turn{{
			Time: at, Query: "new", UserMessageID: ulidFor(at, 2<<40+uint64(added)), AssistantMessageID: ulidFor(at, 3<<40+uint64(added))}}}
		require.NoError(t, s.AddSearches(s.ProjectID(), searches...))
		require.NoError(t, s.AddFeedback(s.ProjectID(), f))
		require.NoError(t, s.AddThreads(s.ProjectID(), th))
		// The test's own record of what is stored, for the next walk.
		d.searches = append(d.searches, searches...)
		d.feedback = append(d.feedback, f)
		d.threads = append(d.threads, th)
	}
	for _, size := range []int{1, 2, 7, 33} {
		_, wantSearches := modelSearches(d.searches, window{})
		total := -1
		got := walkCursor(c, "searches", "searches", "", size, searchesPage(t, &total), more)
		assert.Equal(t, wantSearches, got, "size %d: the walk keeps the ranking it began with", size)

		before := modelFeedback(d.feedback, window{}, feedbackFilter{})
		gotFeedback := walkCursor(c, "feedback", "feedback", "", size, feedbackPage(t), more)
		assertEachOnce(t, ids(before, func(r feedbackRow) string { return r.ID }), ids(gotFeedback, func(r feedbackRow) string { return r.ID }))

		turns := modelConversations(d.threads, window{})
		gotTurns := walkCursor(c, "assistant", "assistant", "", size*3, conversationsPage(t), more)
		key := func(r conversationRow) string { return r.ID + "@" + r.Timestamp }
		assertEachOnce(t, ids(turns, key), ids(gotTurns, key))
	}
	// After the walks, a fresh walk sees everything, exactly.
	_, wantSearches := modelSearches(d.searches, window{})
	total := -1
	assert.Equal(t, wantSearches, walkCursor(c, "searches", "searches", "", 100, searchesPage(t, &total), nil))
	assert.Equal(t, modelFeedback(d.feedback, window{}, feedbackFilter{}), walkCursor(c, "feedback", "feedback", "", 100, feedbackPage(t), nil))
	assert.Equal(t, stripCursor(modelConversations(d.threads, window{})), stripCursor(walkCursor(c, "assistant", "assistant", "", 1000, conversationsPage(t), nil)))
}

func ids[R any](rows []R, key func(R) string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = key(r)
	}
	return out
}

// assertEachOnce: every key of want appears exactly once in got, and got
// repeats nothing.
func assertEachOnce(t *testing.T, want, got []string) {
	t.Helper()
	seen := map[string]int{}
	for _, k := range got {
		seen[k]++
		require.Equal(t, 1, seen[k], "%s repeated", k)
	}
	for _, k := range want {
		require.Equal(t, 1, seen[k], "%s skipped", k)
	}
}

func TestCursorsAreBoundToTheirQuery(t *testing.T) {
	t.Parallel()
	d := buildDataset(4)
	s := mockserver.Start(t, append(d.options(), mockserver.WithProject("other"))...)
	c := newRouteClient(t, s)
	next := func(route, query string) string {
		var p struct {
			NextCursor *string `json:"nextCursor"`
		}
		c.ok(route, strings.ReplaceAll(route, "/", "-"), query, &p)
		require.NotNil(t, p.NextCursor, route)
		return *p.NextCursor
	}
	searches := next("searches", "limit=2")
	feedback := next("feedback", "limit=2&source=contextual")

	refused := func(route, query string) {
		t.Helper()
		status, body := c.get(route, "error", query)
		require.Equal(t, http.StatusBadRequest, status, "%s?%s: %s", route, query, body)
		var e apiError
		require.NoError(t, json.Unmarshal(body, &e))
		assert.Equal(t, "Invalid cursor", e.Error, "%s?%s", route, query)
		require.Len(t, e.Details, 1)
	}
	altered := func(cursor string) string {
		raw, err := base64.RawURLEncoding.DecodeString(cursor)
		require.NoError(t, err)
		raw[len(raw)/2] ^= 1
		return base64.RawURLEncoding.EncodeToString(raw)
	}
	for _, q := range []string{
		"limit=3&cursor=" + searches,                            // another limit is fine...
		"limit=2&cursor=" + searches + "&dateFrom=2025-01-01",   // ...another window is not
		"cursor=" + altered(searches),                           // altered
		"cursor=" + url.QueryEscape(searches[:len(searches)-2]), // cut short
		"cursor=bm90IGEgY3Vyc29y",                               // made up
		"cursor=" + feedback,                                    // another route's
	} {
		if strings.HasPrefix(q, "limit=3") {
			status, _ := c.get("searches", "searches", q)
			assert.Equal(t, http.StatusOK, status)
			continue
		}
		refused("searches", q)
	}
	for _, q := range []string{
		"cursor=" + feedback,              // without the filter it was issued for
		"source=agent&cursor=" + feedback, // another filter
		"source=contextual&status=pending&cursor=" + feedback,
		"source=contextual&cursor=" + altered(feedback),
		"source=contextual&cursor=" + searches,
	} {
		refused("feedback", q)
	}
	// Another project's cursor, with a key that may read both.
	var other struct {
		NextCursor *string `json:"nextCursor"`
	}
	require.NoError(t, s.AddSearches("other", d.searches...))
	oc := &routeClient{t: t, s: s, hc: s.Client()}
	req, _ := http.NewRequest("GET", s.URL()+"/v1/analytics/other/searches?limit=1", nil)
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	resp, err := oc.hc.Do(req)
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&other))
	resp.Body.Close()
	refused("searches", "cursor="+url.QueryEscape(*other.NextCursor))

	// Assistant cursors are ULIDs: a user message of this project inside
	// the window, nothing else.
	turns := modelConversations(d.threads, window{})
	assistantMessage := d.threads[0].Turns[0].AssistantMessageID
	for _, q := range []string{
		"cursor=not-a-ulid",
		"cursor=8ZZZZZZZZZZZZZZZZZZZZZZZZZ",                // past 128 bits
		"cursor=01ARZ3NDEKTSV4RRFFQ69G5FAV",                // well formed, unknown
		"cursor=" + assistantMessage,                       // an assistant message
		"cursor=" + turns[0].cursor + "&dateTo=2025-03-01", // outside the window
	} {
		status, body := c.get("assistant", "error", q)
		assert.Equal(t, http.StatusBadRequest, status, "%s: %s", q, body)
	}
	status, _ := c.get("assistant", "assistant", "cursor="+strings.ToLower(turns[0].cursor))
	assert.Equal(t, http.StatusOK, status, "ULIDs are case-insensitive")

	// A reset ends the walks begun before it.
	s.Reset()
	refused("searches", "limit=2&cursor="+searches)
}

func TestThreads(t *testing.T) {
	t.Parallel()
	d := buildDataset(5)
	c := newRouteClient(t, mockserver.Start(t, d.options()...))
	type message struct {
		ID        string `json:"id"`
		Role      string `json:"role"`
		Content   string `json:"content"`
		CreatedAt string `json:"createdAt"`
	}
	for _, th := range d.threads {
		var got struct {
			ThreadID  string    `json:"threadId"`
			CreatedAt string    `json:"createdAt"`
			Messages  []message `json:"messages"`
		}
		c.ok("assistant/threads/"+th.ID, "thread", "", &got)
		var want []message
		for _, turn := range th.Turns {
			want = append(want,
				message{turn.UserMessageID, "user", turn.Query, stamp(turn.Time)},
				message{turn.AssistantMessageID, "assistant", turn.Response, stamp(turn.Time)})
		}
		assert.Equal(t, th.ID, got.ThreadID)
		assert.Equal(t, stamp(th.Turns[0].Time), got.CreatedAt)
		assert.Equal(t, want, got.Messages)
	}
	// Every conversation's id leads to its thread.
	for _, r := range modelConversations(d.threads, window{})[:20] {
		status, _ := c.get("assistant/threads/"+r.ID, "thread", "")
		assert.Equal(t, http.StatusOK, status)
	}
	status, body := c.get("assistant/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV", "error", "")
	assert.Equal(t, http.StatusNotFound, status, "%s", body)
	for _, bad := range []string{"x", "01ARZ3NDEKTSV4RRFFQ69G5FA", "01ARZ3NDEKTSV4RRFFQ69G5FAVX", "01ARZ3NDEKTSV4RRFFQ69G5FAU", "81ARZ3NDEKTSV4RRFFQ69G5FAV"} {
		status, body := c.get("assistant/threads/"+bad, "error", "")
		assert.Equal(t, http.StatusBadRequest, status, "%s: %s", bad, body)
	}
}
