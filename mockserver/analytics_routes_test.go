package mockserver_test

import (
	"cmp"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// routeClient calls one server's analytics routes in memory.
type routeClient struct {
	t  testing.TB
	s  *mockserver.Server
	hc *http.Client
}

func newRouteClient(t testing.TB, s *mockserver.Server) *routeClient {
	return &routeClient{t: t, s: s, hc: s.Client()}
}

// get fetches /v1/analytics/{project}/{route}?query and checks the answer
// against the route's schema (or the error schema).
func (c *routeClient) get(route, schema, query string) (int, []byte) {
	c.t.Helper()
	req, err := http.NewRequest("GET", c.s.URL()+"/v1/analytics/"+c.s.ProjectID()+"/"+route+"?"+query, nil)
	require.NoError(c.t, err)
	req.Header.Set("Authorization", "Bearer "+c.s.APIKey())
	resp, err := c.hc.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	if resp.StatusCode == http.StatusOK {
		validate(c.t, schema, body)
	} else {
		validate(c.t, "error", body)
	}
	return resp.StatusCode, body
}

func (c *routeClient) ok(route, schema, query string, v any) {
	c.t.Helper()
	status, body := c.get(route, schema, query)
	require.Equal(c.t, http.StatusOK, status, "%s?%s: %s", route, query, body)
	require.NoError(c.t, json.Unmarshal(body, v))
}

// walkOffset walks an offset route (views or visitors) to its end.
func (c *routeClient) walkOffset(route string, w window, size int) (counts, []row) {
	var rows []row
	var totals counts
	for offset := 0; ; offset += size {
		var raw map[string]json.RawMessage
		c.ok(route, route, "limit="+strconv.Itoa(size)+"&offset="+strconv.Itoa(offset)+w.query(), &raw)
		var p struct {
			Totals  counts
			Views   []row
			HasMore bool
		}
		require.NoError(c.t, json.Unmarshal(raw["totals"], &p.Totals))
		require.NoError(c.t, json.Unmarshal(raw[route], &p.Views))
		require.NoError(c.t, json.Unmarshal(raw["hasMore"], &p.HasMore))
		if offset > 0 {
			require.Equal(c.t, totals, p.Totals, "totals change between pages")
		}
		totals = p.Totals
		rows = append(rows, p.Views...)
		if !p.HasMore {
			return totals, rows
		}
		require.Len(c.t, p.Views, size, "a page with more after it is full")
	}
}

// walkCursor follows a cursor route to its end; page decodes one answer
// into its rows and returns the next cursor ("" at the end). between runs
// after each page, to change the data during the walk.
func walkCursor[R any](c *routeClient, route, schema, query string, size int, page func([]byte) ([]R, string, bool), between func()) []R {
	c.t.Helper()
	var rows []R
	cursor := ""
	for n := 0; ; n++ {
		require.Less(c.t, n, 10_000, "the walk does not end")
		q := "limit=" + strconv.Itoa(size) + query
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		status, body := c.get(route, schema, q)
		require.Equal(c.t, http.StatusOK, status, "%s?%s: %s", route, q, body)
		got, next, hasMore := page(body)
		require.LessOrEqual(c.t, len(got), size)
		rows = append(rows, got...)
		require.Equal(c.t, next != "", hasMore, "nextCursor is set exactly when more remain")
		if next == "" {
			return rows
		}
		require.NotEqual(c.t, cursor, next, "the cursor advances")
		require.Len(c.t, got, size, "a page with more after it is full")
		cursor = next
		if between != nil {
			between()
		}
	}
}

func searchesPage(t testing.TB, total *int) func([]byte) ([]searchRow, string, bool) {
	return func(body []byte) ([]searchRow, string, bool) {
		var p struct {
			Searches      []searchRow `json:"searches"`
			TotalSearches int         `json:"totalSearches"`
			NextCursor    *string     `json:"nextCursor"`
		}
		require.NoError(t, json.Unmarshal(body, &p))
		if *total >= 0 {
			require.Equal(t, *total, p.TotalSearches, "totalSearches is the same on every page of a walk")
		}
		*total = p.TotalSearches
		if p.NextCursor == nil {
			return p.Searches, "", false
		}
		return p.Searches, *p.NextCursor, true
	}
}

func feedbackPage(t testing.TB) func([]byte) ([]feedbackRow, string, bool) {
	return func(body []byte) ([]feedbackRow, string, bool) {
		var p struct {
			Feedback   []feedbackRow `json:"feedback"`
			NextCursor *string       `json:"nextCursor"`
			HasMore    bool          `json:"hasMore"`
		}
		require.NoError(t, json.Unmarshal(body, &p))
		if p.NextCursor == nil {
			return p.Feedback, "", p.HasMore
		}
		return p.Feedback, *p.NextCursor, p.HasMore
	}
}

func conversationsPage(t testing.TB) func([]byte) ([]conversationRow, string, bool) {
	return func(body []byte) ([]conversationRow, string, bool) {
		var p struct {
			Conversations []conversationRow `json:"conversations"`
			NextCursor    *string           `json:"nextCursor"`
			HasMore       bool              `json:"hasMore"`
		}
		require.NoError(t, json.Unmarshal(body, &p))
		if p.NextCursor == nil {
			return p.Conversations, "", p.HasMore
		}
		return p.Conversations, *p.NextCursor, p.HasMore
	}
}

// sizes are the page sizes swept for a route whose maximum is max: the
// smallest, a few odd ones, the largest, and one at random. Sizes 1 and 2
// are only used on the first windows, to keep the sweep bounded.
func sizes(rng *rand.Rand, max int, small bool) []int {
	s := []int{7, max - 1, max, 3 + rng.IntN(max-3)}
	if small {
		s = append(s, 1, 2)
	}
	return s
}

var feedbackFilters = []feedbackFilter{
	{},
	{source: "contextual"},
	{statuses: []string{"pending", "resolved"}},
	{source: "code_snippet", statuses: []string{"dismissed"}},
	{source: "thumbs_only", statuses: []string{"in_progress", "pending", "resolved", "dismissed"}},
}

func TestAnalyticsRoutesMatchTheSpec(t *testing.T) {
	t.Parallel()
	d := buildDataset(1)
	s := mockserver.Start(t, d.options()...)
	c := newRouteClient(t, s)
	rng := rand.New(rand.NewPCG(7, 7))
	for wi, w := range d.windows(rng) {
		small := wi < 3
		t.Run("window"+strconv.Itoa(wi), func(t *testing.T) {
			c := &routeClient{t: t, s: c.s, hc: c.hc}

			wantTotals, wantViews := modelViews(d.visits, w)
			wantVisitorTotals, wantVisitors := modelVisitors(d.visits, w)
			for _, size := range sizes(rng, 250, small) {
				totals, views := c.walkOffset("views", w, size)
				require.Equal(t, wantTotals, totals, "views totals")
				require.Equal(t, orEmpty(wantViews), orEmpty(views), "views rows, size %d", size)
				totals, visitors := c.walkOffset("visitors", w, size)
				require.Equal(t, wantVisitorTotals, totals, "visitors totals")
				require.Equal(t, orEmpty(wantVisitors), orEmpty(visitors), "visitors rows, size %d", size)
			}

			wantTotal, wantSearches := modelSearches(d.searches, w)
			for _, size := range sizes(rng, 100, small) {
				total := -1
				got := walkCursor(c, "searches", "searches", w.query(), size, searchesPage(t, &total), nil)
				require.Equal(t, wantTotal, max(total, 0), "totalSearches")
				require.Equal(t, orEmpty(wantSearches), orEmpty(got), "searches, size %d", size)
			}

			for _, f := range feedbackFilters {
				want := modelFeedback(d.feedback, w, f)
				for _, size := range sizes(rng, 100, small && f.source == "") {
					got := walkCursor(c, "feedback", "feedback", w.query()+f.query(), size, feedbackPage(t), nil)
					require.Equal(t, orEmpty(want), orEmpty(got), "feedback %+v, size %d", f, size)
				}
				byPage := modelFeedbackByPage(d.feedback, w, f)
				for _, limit := range []int{1, 2, 7, 10, 99, 100} {
					var p struct {
						Feedback []pageFeedbackRow `json:"feedback"`
						HasMore  bool              `json:"hasMore"`
					}
					c.ok("feedback/by-page", "feedback-by-page", "limit="+strconv.Itoa(limit)+w.query()+f.query(), &p)
					require.Equal(t, orEmpty(byPage[:min(limit, len(byPage))]), orEmpty(p.Feedback), "by-page %+v, limit %d", f, limit)
					require.Equal(t, len(byPage) > limit, p.HasMore)
				}
			}

			wantTurns := modelConversations(d.threads, w)
			for _, size := range sizes(rng, 1000, small) {
				got := walkCursor(c, "assistant", "assistant", w.query(), size, conversationsPage(t), nil)
				require.Equal(t, stripCursor(wantTurns), stripCursor(got), "conversations, size %d", size)
			}

			var stats callerStats
			c.ok("assistant/caller-stats", "caller-stats", w.query(), &stats)
			require.Equal(t, modelCallerStats(d.threads, w), stats)
		})
	}
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func stripCursor(rows []conversationRow) []conversationRow {
	out := make([]conversationRow, len(rows))
	for i, r := range rows {
		r.cursor = ""
		out[i] = r
	}
	return orEmpty(out)
}

func TestDefaultLimits(t *testing.T) {
	t.Parallel()
	d := buildDataset(2)
	c := newRouteClient(t, mockserver.Start(t, d.options()...))
	countAt := func(route, schema, key string) int {
		var p map[string]json.RawMessage
		c.ok(route, schema, "", &p)
		var rows []json.RawMessage
		require.NoError(t, json.Unmarshal(p[key], &rows))
		return len(rows)
	}
	count := func(route, key string) int { return countAt(route, route, key) }
	_, views := modelViews(d.visits, window{})
	_, terms := modelSearches(d.searches, window{})
	require.Less(t, len(views), 50)
	require.Less(t, len(terms), 50)
	assert.Equal(t, len(views), count("views", "views"), "all paths fit in the default 50")
	assert.Equal(t, len(terms), count("searches", "searches"), "all terms fit in the default 50")
	assert.Equal(t, 50, count("feedback", "feedback"))
	assert.Equal(t, 10, countAt("feedback/by-page", "feedback-by-page", "feedback"))
	assert.Equal(t, 100, count("assistant", "conversations"))
}

// byPageFromWalk counts a /feedback walk per page as the vendor's schema
// defines feedback/by-page: thumbsUp and thumbsDown are "positive (thumbs
// up) / negative (thumbs down) contextual feedback entries", so they count
// contextual rows by helpful; code counts code_snippet rows; total counts
// every row of the page. Pages by total descending, then path.
func byPageFromWalk(rows []feedbackRow) []pageFeedbackRow {
	byPath := map[string]*pageFeedbackRow{}
	var pages []*pageFeedbackRow
	for _, r := range rows {
		p := byPath[r.Path]
		if p == nil {
			p = &pageFeedbackRow{Path: r.Path}
			byPath[r.Path] = p
			pages = append(pages, p)
		}
		p.Total++
		switch {
		case r.Source == "code_snippet":
			p.Code++
		case r.Source == "contextual" && r.Helpful != nil && *r.Helpful:
			p.ThumbsUp++
		case r.Source == "contextual":
			p.ThumbsDown++
		}
	}
	out := make([]pageFeedbackRow, len(pages))
	for i, p := range pages {
		out[i] = *p
	}
	slices.SortFunc(out, func(a, b pageFeedbackRow) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Path, b.Path))
	})
	return out
}

// The by-page rows are what a /feedback walk with the same window and
// filters shows, counted per page: thumbs_only votes count in total only.
func TestFeedbackByPageCountsWhatAFeedbackWalkShows(t *testing.T) {
	t.Parallel()
	d := buildDataset(3)
	s := mockserver.Start(t, d.options()...)
	c := newRouteClient(t, s)
	rng := rand.New(rand.NewPCG(3, 3))
	filters := append(slices.Clone(feedbackFilters), feedbackFilter{source: "thumbs_only"}, feedbackFilter{source: "contextual", statuses: []string{"pending"}})
	for wi, w := range d.windows(rng) {
		for _, f := range filters {
			walked := walkCursor(c, "feedback", "feedback", w.query()+f.query(), 100, feedbackPage(t), nil)
			want := byPageFromWalk(walked)
			var p struct {
				Feedback []pageFeedbackRow `json:"feedback"`
				HasMore  bool              `json:"hasMore"`
			}
			c.ok("feedback/by-page", "feedback-by-page", "limit=100"+w.query()+f.query(), &p)
			require.Equal(t, orEmpty(want[:min(100, len(want))]), orEmpty(p.Feedback), "window %d, filter %+v", wi, f)
			require.Equal(t, len(want) > 100, p.HasMore, "window %d, filter %+v", wi, f)
		}
	}
}
