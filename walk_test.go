package mintlify_test

// The pager's promises, on every page and row iterator of the table: what
// a hostile server can make a walk do and what it cannot, laziness, one
// error then the end, a resume point, no row twice; and what the
// analytics routes send.

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// walked is what one walk yielded.
type walked struct {
	items, rows int // values yielded without error, and the rows they hold
	errs        []error
}

// walkAll runs a walk to its end and requires that nothing follows an
// error.
func walkAll(t *testing.T, seq iter.Seq2[any, error]) walked {
	t.Helper()
	var w walked
	for v, err := range seq {
		require.Empty(t, w.errs, "the walk went on after yielding an error")
		if err != nil {
			w.errs = append(w.errs, err)
			continue
		}
		require.NotNil(t, v)
		w.items++
		w.rows += rowsIn(v)
	}
	return w
}

// rowsIn counts the rows of a page (its first slice field), 1 for a row.
func rowsIn(v any) int {
	p := reflect.ValueOf(v)
	if p.Kind() != reflect.Pointer || p.Elem().Kind() != reflect.Struct {
		return 1
	}
	for i := range p.Elem().NumField() {
		if f := p.Elem().Field(i); f.Kind() == reflect.Slice {
			return f.Len()
		}
	}
	return 1
}

// pageServer answers page n (from 0) of a walk with answer(n).
func pageServer(answer func(n int) string) httpmock.Responder {
	var calls atomic.Int32
	return func(req *http.Request) (*http.Response, error) {
		return respond(200, answer(int(calls.Add(1)-1)))(req)
	}
}

func rowRange(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

// TestEveryWalkGuardsAgainstHostileServers runs each hostile answer
// against every page and row iterator, with retries off so requests are
// counted exactly. Every walk ends with one *WalkError after the
// documented number of requests.
func TestEveryWalkGuardsAgainstHostileServers(t *testing.T) {
	t.Parallel()
	// either is a cursor route's value, or an offset route's.
	either := func(m method, cursor, offset any) any {
		if m.cursor {
			return cursor
		}
		return offset
	}
	scenarios := []struct {
		name string
		// answer is the body of page n; calls the requests sent; wantErr
		// a piece of the error's text.
		answer  func(m method, n int) string
		calls   func(m method) int
		wantErr func(m method) string
	}{
		// Offset routes: a server (or cache) ignoring offset. Cursor
		// routes: the same cursor on every page, which the second page
		// gives back.
		{"the same answer forever", func(m method, _ int) string { return m.page(rowRange(0, 3), "C", true) },
			func(m method) int { return either(m, 2, 1+10).(int) },
			func(m method) string {
				return either(m, "already followed", "10 pages in a row held no new row").(string)
			}},
		{"more follow but nothing leads there", func(m method, n int) string {
			switch {
			case m.cursor:
				return m.page(rowRange(0, 3), "", true)
			case n == 0:
				return m.page(rowRange(0, 1), "", true)
			}
			return m.page(nil, "", true) // an empty page saying more follow
		}, func(m method) int { return either(m, 1, 2).(int) },
			func(m method) string { return either(m, "gives no cursor", "empty").(string) }},
		{"{}", func(method, int) string { return `{}` }, func(method) int { return 1 }, func(method) string { return "required field" }},
		{"null", func(method, int) string { return `null` }, func(method) int { return 1 }, func(method) string { return "" }},
		{"pages repeating rows under new cursors", func(m method, n int) string { return m.page(rowRange(0, 3), fmt.Sprintf("c%d", n), true) },
			func(method) int { return 1 + 10 }, func(method) string { return "no new row" }},
		{"fresh rows and more pages forever", func(m method, n int) string { return m.page(rowRange(3*n, 3), fmt.Sprintf("c%d", n), true) },
			func(method) int { return 25 }, func(method) string { return "after 25 requests" }}, // WithMaxWalkRequests below
	}
	for _, m := range walks() {
		for _, sc := range scenarios {
			if m.cursor && !m.hasMore && sc.name == "more follow but nothing leads there" {
				continue // no hasMore on this route: a null cursor is its end
			}
			t.Run(m.name+"/"+sc.name, func(t *testing.T) {
				t.Parallel()
				c, mt := answering(t, pageServer(func(n int) string { return sc.answer(m, n) }),
					mintlify.WithMaxRetries(0), mintlify.WithMaxWalkRequests(25))
				res := walkAll(t, m.walk(context.Background(), c, 0, ""))
				require.Len(t, res.errs, 1, "one error ends the walk")
				var we *mintlify.WalkError
				require.ErrorAs(t, res.errs[0], &we)
				assert.Contains(t, res.errs[0].Error(), sc.wantErr(m))
				readsOnce(t, res.errs[0], 0)
				assert.Equal(t, sc.calls(m), mt.GetTotalCallCount(), "requests sent")
			})
		}
	}
}

// TestWalkRequestCapDefaultsTo1000: without WithMaxWalkRequests a walk
// stops after 1,000 requests, saying where the next one would start.
func TestWalkRequestCapDefaultsTo1000(t *testing.T) {
	t.Parallel()
	m := methodNamed(t, "Feedback") // a small page
	c, mt := answering(t, pageServer(func(n int) string { return m.page([]int{n}, fmt.Sprintf("c%d", n), true) }))
	res := walkAll(t, m.walk(context.Background(), c, 0, ""))
	assert.Equal(t, 1000, res.items)
	require.Len(t, res.errs, 1)
	var we *mintlify.WalkError
	require.ErrorAs(t, res.errs[0], &we)
	assert.Equal(t, "c999", we.Cursor, "where the next request would have started")
	assert.Equal(t, 1000, mt.GetTotalCallCount())
}

// TestEveryWalkErrorCarriesItsResumePoint fails the third page and resumes
// from the error's position: the two walks together yield every row once.
func TestEveryWalkErrorCarriesItsResumePoint(t *testing.T) {
	t.Parallel()
	const perPage, pages = 2, 4
	for _, m := range walks() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			var failed atomic.Bool
			c, mt := answering(t, func(req *http.Request) (*http.Response, error) {
				q := req.URL.Query()
				page := 0
				if m.cursor {
					_, _ = fmt.Sscanf(q.Get("cursor"), "page-%d", &page)
				} else {
					off, _ := strconv.Atoi(q.Get("offset"))
					page = off / perPage
				}
				if page == 2 && failed.CompareAndSwap(false, true) {
					return respond(429, `{"error":"quota"}`)(req)
				}
				next, more := fmt.Sprintf("page-%d", page+1), page+1 < pages
				if !more {
					next = ""
				}
				return respond(200, m.page(rowRange(perPage*page, perPage), next, more))(req)
			}, mintlify.WithMaxRetries(0))
			first := walkAll(t, m.walk(context.Background(), c, 0, ""))
			require.Len(t, first.errs, 1)
			assert.Equal(t, 2*perPage, first.rows)
			var we *mintlify.WalkError
			require.ErrorAs(t, first.errs[0], &we)
			assert.ErrorIs(t, we, mintlify.ErrRateLimited)
			readsOnce(t, we, 0)
			if m.cursor {
				assert.Equal(t, "page-2", we.Cursor)
				assert.Contains(t, we.Error(), `at cursor "page-2"`)
			} else {
				assert.Equal(t, 2*perPage, we.Offset)
				assert.Contains(t, we.Error(), "at offset 4")
			}
			assert.Equal(t, 3, mt.GetTotalCallCount())

			// Resume: the params carry the error's position.
			second := walkAll(t, m.walk(context.Background(), c, we.Offset, we.Cursor))
			assert.Empty(t, second.errs)
			assert.Equal(t, perPage*pages, first.rows+second.rows, "every row, once")
		})
	}
}

// TestEveryWalkIsLazy: building an iterator sends nothing, and breaking
// out of the loop stops the requests: the first item takes one request,
// the third row (on the second page) or the second page two.
func TestEveryWalkIsLazy(t *testing.T) {
	t.Parallel()
	for _, m := range walks() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			c, mt := answering(t, pageServer(func(n int) string { return m.page(rowRange(2*n, 2), fmt.Sprintf("c%d", n), true) }))
			seq := m.walk(context.Background(), c, 0, "")
			assert.Zero(t, mt.GetTotalCallCount(), "building an iterator")
			for _, err := range seq {
				require.NoError(t, err)
				break
			}
			assert.Equal(t, 1, mt.GetTotalCallCount(), "breaking after the first item")
			mt.ZeroCallCounters()
			rows := 0
			for v, err := range m.walk(context.Background(), c, 0, "") {
				require.NoError(t, err)
				if rows += rowsIn(v); rows >= 3 {
					break
				}
			}
			assert.Equal(t, 2, mt.GetTotalCallCount(), "the third row is on the second page; no third request")
		})
	}
}

// TestEveryWalkStopsWhenItsContextEndsBetweenPages: the context ending
// after the first item is the walk's one error, and no second request.
func TestEveryWalkStopsWhenItsContextEndsBetweenPages(t *testing.T) {
	t.Parallel()
	for _, m := range walks() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			c, mt := answering(t, pageServer(func(n int) string { return m.page(rowRange(2*n, 1), fmt.Sprintf("c%d", n), true) }))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var errs []error
			items := 0
			for _, err := range m.walk(ctx, c, 0, "") {
				if err != nil {
					errs = append(errs, err)
					continue
				}
				items++
				cancel() // after the first item
			}
			assert.Equal(t, 1, items)
			require.Len(t, errs, 1)
			assert.ErrorIs(t, errs[0], context.Canceled)
			assert.Equal(t, 1, mt.GetTotalCallCount())
		})
	}
}

// TestEveryWalkDropsRepeats: a row seen again is dropped, and pages are
// yielded without it; each walk starts with a clean slate.
func TestEveryWalkDropsRepeats(t *testing.T) {
	t.Parallel()
	for _, m := range walks() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			answers := []string{
				m.page([]int{0, 1, 2}, "a", true),
				m.page([]int{2, 3}, "b", true), // row 2 again
				m.page([]int{1, 4}, "", false), // row 1 again
			}
			for range 2 {
				c, mt := answering(t, pageServer(func(n int) string { return answers[n] }))
				res := walkAll(t, m.walk(context.Background(), c, 0, ""))
				assert.Empty(t, res.errs)
				assert.Equal(t, 5, res.rows)
				assert.Equal(t, 3, mt.GetTotalCallCount())
			}
		})
	}
}

// TestConversationWalksKeyTurnsByTimeAndText: every turn of a thread shares
// its ID. Two turns are one row when they share the ID, the instant
// (whatever offset it is written with) and the query (two turns of one
// thread at the same instant are two rows); turns of unreadable times are
// told apart by their text.
func TestConversationWalksKeyTurnsByTimeAndText(t *testing.T) {
	t.Parallel()
	turn := func(at, query string) string {
		return fmt.Sprintf(`{"id":"%s","timestamp":"%s","query":"%s","response":"r","sources":[],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}`,
			testThread, at, query)
	}
	page := `{"conversations":[` + strings.Join([]string{
		turn("2025-01-03T10:00:00Z", "q1"),
		turn("2025-01-03T10:01:00Z", "q1"),      // later: another turn
		turn("2025-01-03T12:00:00+02:00", "q1"), // the first instant again
		turn("2025-01-03T10:00:00Z", "q2"),      // the first instant, another query: another turn
		turn("garbled", "q1"),
		turn("also garbled", "q2"), // unreadable too, another text
		turn("garbled", "q1"),      // the same turn again
	}, ",") + `],"nextCursor":null,"hasMore":false}`
	c, _ := answering(t, respond(200, page))
	var queries []string
	for row, err := range c.Conversations(context.Background(), mintlify.ConversationsParams{}) {
		require.NoError(t, err)
		queries = append(queries, row.Query+"@"+row.Timestamp.UTC().Format(time.TimeOnly))
	}
	assert.Equal(t, []string{"q1@10:00:00", "q1@10:01:00", "q2@10:00:00", "q1@00:00:00", "q2@00:00:00"}, queries)
}

// TestConversationWalkKeepsTurnsAskedAtOneInstant: against the mock, a
// thread whose two turns share their timestamp (the mock allows it when
// the queries differ) is walked as two rows, with pages of one turn so
// that the second comes on a page of its own.
func TestConversationWalkKeepsTurnsAskedAtOneInstant(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC)
	srv := mockserver.Start(t)
	require.NoError(t, srv.AddThreads(srv.ProjectID(), mockserver.Thread{ID: testThread, Turns: []mockserver.Turn{
		{Time: at, Query: "How do I log in?", Response: "With a key."},
		{Time: at, Query: "And log out?", Response: "Delete the key."},
	}}))
	c := mockClient(t, srv)
	for _, limit := range []int{1, 0} {
		var queries []string
		for row, err := range c.Conversations(testContext(t), mintlify.ConversationsParams{Limit: limit}) {
			require.NoError(t, err)
			queries = append(queries, row.Query)
		}
		assert.ElementsMatch(t, []string{"How do I log in?", "And log out?"}, queries, "limit %d", limit)
	}
}

// TestOffsetWalksCountRowsReceived: a server that sends fewer rows than
// asked while more follow: the walk continues after the rows it got, not
// after the limit it asked for.
func TestOffsetWalksCountRowsReceived(t *testing.T) {
	t.Parallel()
	for _, m := range walks() {
		if m.cursor {
			continue
		}
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			served := [][]int{{0}, {1, 2}, {3}}
			rec := &recorder{}
			c, _ := answering(t, rec.wrap(pageServer(func(n int) string { return m.page(served[n], "", n < len(served)-1) })))
			res := walkAll(t, m.walk(context.Background(), c, 10, ""))
			assert.Empty(t, res.errs)
			assert.Equal(t, 4, res.rows)
			var offsets []string
			for _, r := range rec.requests() {
				offsets = append(offsets, r.URL.Query().Get("offset"))
			}
			assert.Equal(t, []string{"10", "11", "13"}, offsets)
		})
	}
}

// visitorsExport serves rows named by paths the way the service pages
// them (limit rows from offset, 50 by default), with site-wide totals.
func visitorsExport(paths ...string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		limit, offset := 50, 0
		if v := req.URL.Query().Get("limit"); v != "" {
			limit, _ = strconv.Atoi(v)
		}
		if v := req.URL.Query().Get("offset"); v != "" {
			offset, _ = strconv.Atoi(v)
		}
		start, end := min(offset, len(paths)), min(offset+limit, len(paths))
		rows := make([]string, 0, end-start)
		for i, p := range paths[start:end] {
			rows = append(rows, fmt.Sprintf(`{"path":%q,"human":%d,"ai":%d,"total":%d}`, p, start+i+1, start+i, start+i+1))
		}
		return respond(200, fmt.Sprintf(`{"totals":{"human":7,"ai":5,"total":9},"visitors":[%s],"hasMore":%t}`,
			strings.Join(rows, ","), end < len(paths)))(req)
	}
}

func visitorPaths(t *testing.T, seq iter.Seq2[mintlify.PathVisitors, error]) []string {
	t.Helper()
	var out []string
	for row, err := range seq {
		require.NoError(t, err)
		out = append(out, row.Path)
	}
	return out
}

// TestVisitorsSmallLimitSurvivesARepeatedPage: with a tiny Limit one row
// moving down one place repeats a whole page: that repeat is dropped and
// the walk goes on (only pages repeated again and again mean the server
// ignores offset).
func TestVisitorsSmallLimitSurvivesARepeatedPage(t *testing.T) {
	t.Parallel()
	c, mt := answering(t, inOrder(visitorsExport("/a", "/b", "/c"), visitorsExport("/b", "/a", "/c")))
	rows := visitorPaths(t, c.Visitors(context.Background(), mintlify.VisitorsParams{Limit: 1}))
	assert.Equal(t, []string{"/a", "/c"}, rows, "the repeat is dropped; /b moved up past the walk, as offset pagination allows")
	assert.Equal(t, 3, mt.GetTotalCallCount())
}

// TestVisitorsDropRepeatsAcrossLongWalks: 1,000 distinct rows, then twelve
// pages of them again, what a server or cache that ignores offset sends.
// Each row comes once, then the walk stops after ten pages of nothing new
// instead of spending the quota on repeats.
func TestVisitorsDropRepeatsAcrossLongWalks(t *testing.T) {
	t.Parallel()
	var all []string
	for i := range 1000 {
		all = append(all, fmt.Sprintf("/p%d", i))
	}
	c, mt := answering(t, visitorsExport(append(append(append(all, all...), all...), all...)...))
	var rows []string
	var walkErr error
	for row, err := range c.Visitors(context.Background(), mintlify.VisitorsParams{}) {
		if err != nil {
			walkErr = err
			continue
		}
		rows = append(rows, row.Path)
	}
	require.Error(t, walkErr)
	assert.Contains(t, walkErr.Error(), "10 pages in a row held no new row")
	assert.Equal(t, all, rows)
	assert.Equal(t, 4+10, mt.GetTotalCallCount())
}

// TestVisitorPagesSendWhatGetVisitorsSends: a walk's pages are the pages
// GetVisitors gets at the same offsets, and each keeps the site-wide
// totals.
func TestVisitorPagesSendWhatGetVisitorsSends(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c, _ := answering(t, rec.wrap(visitorsExport("/a", "/b", "/c", "/d", "/e")))
	ctx := context.Background()
	p := mintlify.VisitorsParams{
		DateFrom: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		DateTo:   time.Date(2024, 1, 2, 6, 0, 0, 0, time.FixedZone("X", -3600)),
		Limit:    2,
		Offset:   1,
	}
	var sizes []int
	for page, err := range c.VisitorPages(ctx, p) {
		require.NoError(t, err)
		assert.Equal(t, mintlify.VisitorCounts{Human: 7, AI: 5, Total: 9}, page.Totals)
		sizes = append(sizes, len(page.Visitors))
	}
	assert.Equal(t, []int{2, 2}, sizes)
	walkedQueries := rec.queries()
	for _, offset := range []int{1, 3} {
		p.Offset = offset
		_, err := c.GetVisitors(ctx, p)
		require.NoError(t, err)
	}
	assert.Equal(t, rec.queries()[2:], walkedQueries)
	assert.Equal(t, "dateFrom=2024-01-01&dateTo=2024-01-02T06%3A00%3A00-01%3A00&limit=2&offset=3", walkedQueries[1])
}

// TestGetVisitorsQueryEncoding: zero values send nothing, dates at
// midnight are days, other instants RFC 3339 with their offset, in key
// order.
func TestGetVisitorsQueryEncoding(t *testing.T) {
	t.Parallel()
	plus2 := time.FixedZone("UTC+2", 2*60*60)
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		newYork = time.FixedZone("EST", -5*60*60)
	}
	jan1 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, tt := range map[string]struct {
		params mintlify.VisitorsParams
		want   string // the raw query; "" means none at all
	}{
		"zero values send nothing": {mintlify.VisitorsParams{}, ""},
		"limit":                    {mintlify.VisitorsParams{Limit: 25}, "limit=25"},
		"largest limit":            {mintlify.VisitorsParams{Limit: 250}, "limit=250"},
		"offset":                   {mintlify.VisitorsParams{Offset: 500}, "offset=500"},
		"midnight UTC is a date":   {mintlify.VisitorsParams{DateFrom: jan1}, "dateFrom=2024-01-01"},
		"midnight elsewhere is that zone's date": {mintlify.VisitorsParams{DateTo: time.Date(2024, 3, 10, 0, 0, 0, 0, newYork)},
			"dateTo=2024-03-10"},
		"an instant in UTC": {mintlify.VisitorsParams{DateFrom: time.Date(2024, 1, 1, 12, 30, 0, 0, time.UTC)},
			"dateFrom=2024-01-01T12%3A30%3A00Z"},
		"an instant keeps its offset": {mintlify.VisitorsParams{DateTo: time.Date(2024, 1, 31, 8, 0, 5, 0, plus2)},
			"dateTo=2024-01-31T08%3A00%3A05%2B02%3A00"},
		"a local midnight as UTC is an instant": {mintlify.VisitorsParams{DateFrom: time.Date(2024, 1, 1, 0, 0, 0, 0, plus2).UTC()},
			"dateFrom=2023-12-31T22%3A00%3A00Z"},
		"a fraction of a second past midnight is kept": {mintlify.VisitorsParams{DateFrom: jan1.Add(500 * time.Millisecond)},
			"dateFrom=2024-01-01T00%3A00%3A00.5Z"},
		"an offset with seconds (a local mean time) is sent in UTC": {
			mintlify.VisitorsParams{DateFrom: time.Date(1900, 1, 1, 12, 0, 0, 0, time.FixedZone("LMT", 19*60+32))},
			"dateFrom=1900-01-01T11%3A40%3A28Z"},
		"everything, in key order": {mintlify.VisitorsParams{DateFrom: jan1, DateTo: jan1.AddDate(0, 1, 0), Limit: 100, Offset: 200},
			"dateFrom=2024-01-01&dateTo=2024-02-01&limit=100&offset=200"},
	} {
		rec := &recorder{}
		c, _ := answering(t, rec.wrap(visitorsExport()))
		_, err := c.GetVisitors(context.Background(), tt.params)
		require.NoError(t, err, name)
		got := rec.requests()[0].URL
		assert.Equal(t, "/v1/analytics/proj_42/visitors", got.Path, name)
		assert.Equal(t, tt.want, got.RawQuery, name)
		assert.False(t, got.ForceQuery, "%s: no bare '?' without parameters", name)
	}
}

// TestAnalyticsBoundsAreAccepted: each route's own limit range, ends
// included, open and the shortest date ranges, and a large offset are
// sent; an explicit limit reaches the iterators' requests.
func TestAnalyticsBoundsAreAccepted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rec := &recorder{}
	c, _ := answering(t, rec.wrap(respond(500, `{"error":"x"}`)), mintlify.WithMaxRetries(0))
	for _, p := range []mintlify.VisitorsParams{{DateFrom: badDay}, {DateTo: badDay}, {DateFrom: badDay, DateTo: badDay.Add(time.Second)},
		{Limit: 1}, {Limit: 250}, {Offset: 1 << 40}} {
		_, err := c.GetVisitors(ctx, p)
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "%+v", p)
	}
	for _, n := range []int{1, 250} {
		_, err := c.GetViews(ctx, mintlify.ViewsParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "views %d", n)
	}
	for _, n := range []int{1, 100} {
		_, err := c.GetSearches(ctx, mintlify.SearchesParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "searches %d", n)
		_, err = c.GetFeedback(ctx, mintlify.FeedbackParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "feedback %d", n)
		_, err = c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "by-page %d", n)
	}
	for _, n := range []int{1, 1000} {
		_, err := c.GetConversations(ctx, mintlify.ConversationsParams{Limit: n})
		assert.NotErrorIs(t, err, mintlify.ErrInvalidInput, "conversations %d", n)
	}
	assert.Len(t, rec.requests(), 6+2+6+2)
	c, _ = answering(t, rec.wrap(respond(200, fmt.Sprintf(goodTraffic, "views"))))
	for _, err := range c.Views(ctx, mintlify.ViewsParams{Limit: 7}) {
		require.NoError(t, err)
	}
	assert.Equal(t, "limit=7", rec.requests()[len(rec.requests())-1].URL.RawQuery)
}

// TestWalkErrorText: a WalkError says where the walk stopped and why, with
// one package prefix, and unwraps to its cause.
func TestWalkErrorText(t *testing.T) {
	t.Parallel()
	cause := errors.New("mintlify: HTTP 429: slow down")
	for _, tt := range []struct {
		err  mintlify.WalkError
		want string
	}{
		{mintlify.WalkError{Err: cause}, "mintlify: walk stopped at the first page: HTTP 429: slow down"},
		{mintlify.WalkError{Offset: 500, Err: cause}, "mintlify: walk stopped at offset 500: HTTP 429: slow down"},
		{mintlify.WalkError{Cursor: "01J", Err: cause}, `mintlify: walk stopped at cursor "01J": HTTP 429: slow down`},
		{mintlify.WalkError{}, "mintlify: walk stopped at the first page: unknown error"},
	} {
		assert.Equal(t, tt.want, tt.err.Error())
	}
	assert.ErrorIs(t, &mintlify.WalkError{Err: cause}, cause)
}

// FuzzVisitorsParams: any parameters either fail with ErrInvalidInput and
// send nothing, or send a query the service can read back to the same
// values: dates to the same instant (or calendar day, for a midnight).
func FuzzVisitorsParams(f *testing.F) {
	f.Add(int64(1704067200), int64(0), 0, 86400, int64(0), 0, 250, 0)
	f.Add(int64(1704067200), int64(1500), -18000, 3600, int64(5e8), 3600, 7, 1<<20)
	f.Add(int64(0), int64(0), 0, 0, int64(0), 0, 0, 0)
	f.Add(int64(253402300800), int64(0), 0, -1, int64(0), 0, 251, -1)
	f.Fuzz(func(t *testing.T, from, to int64, fromZone, span int, nanos int64, toZone, limit, offset int) {
		at := func(sec int64, zone int) time.Time {
			if sec == 0 {
				return time.Time{}
			}
			return time.Unix(sec, nanos%1e9).In(time.FixedZone("", zone%(18*3600)))
		}
		p := mintlify.VisitorsParams{DateFrom: at(from, fromZone), DateTo: at(to+int64(span), toZone), Limit: limit, Offset: offset}
		var mu sync.Mutex
		var queries []string
		mt := httpmock.NewMockTransport()
		mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
			mu.Lock()
			queries = append(queries, req.URL.RawQuery)
			mu.Unlock()
			return respond(200, fmt.Sprintf(goodTraffic, "visitors"))(req)
		})
		c, err := mintlify.NewClient(mintlify.WithAPIKey("mint_fuzz"), mintlify.WithProjectID("p"),
			mintlify.WithBaseURL("https://api.test"), mintlify.WithHTTPClient(&http.Client{Transport: mt}))
		require.NoError(t, err)

		_, err = c.GetVisitors(context.Background(), p)
		if err != nil {
			require.ErrorIs(t, err, mintlify.ErrInvalidInput)
			require.Empty(t, queries, "an invalid request was sent")
			return
		}
		require.Len(t, queries, 1)
		q, err := url.ParseQuery(queries[0])
		require.NoError(t, err)
		for key, want := range map[string]time.Time{"dateFrom": p.DateFrom, "dateTo": p.DateTo} {
			got := q.Get(key)
			if want.IsZero() {
				require.Empty(t, got, key)
				continue
			}
			if day, err := time.Parse(time.DateOnly, got); err == nil {
				y, m, d := want.Date()
				require.Equal(t, time.Date(y, m, d, 0, 0, 0, 0, time.UTC), day, key)
				require.Equal(t, want, time.Date(y, m, d, 0, 0, 0, 0, want.Location()), "%s: only midnights are sent as days", key)
				continue
			}
			instant, err := time.Parse(time.RFC3339Nano, got)
			require.NoError(t, err, key)
			require.True(t, instant.Equal(want), "%s: sent %s for %s", key, got, want)
		}
		for key, want := range map[string]int{"limit": p.Limit, "offset": p.Offset} {
			if want == 0 {
				require.False(t, q.Has(key), key)
			} else {
				require.Equal(t, strconv.Itoa(want), q.Get(key), key)
			}
		}
	})
}
