package mintlify

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pager's promises, checked on every list route through its public
// iterators: what a hostile server can make a walk do, and what it cannot.

// walkRoute describes one list route to these tests: how its answers look
// and how its two iterators are walked.
type walkRoute struct {
	name   string
	path   string // under the analytics prefix
	cursor bool   // pages by cursor, else by offset
	// body answers rows numbered rows, with a next cursor ("" none) and
	// hasMore.
	body  func(rows []int, next string, more bool) string
	pages func(ctx context.Context, c *Client) iter.Seq2[any, error]
	rows  func(ctx context.Context, c *Client) iter.Seq2[any, error]
}

// anySeq erases an iterator's element type.
func anySeq[T any](seq iter.Seq2[T, error]) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		for v, err := range seq {
			if !yield(v, err) {
				return
			}
		}
	}
}

func joinRows(rows []int, row func(i int) string) string {
	parts := make([]string, len(rows))
	for j, i := range rows {
		parts[j] = row(i)
	}
	return strings.Join(parts, ",")
}

func jsonCursor(next string) string {
	if next == "" {
		return "null"
	}
	return fmt.Sprintf("%q", next)
}

var walkRoutes = []walkRoute{
	{
		name: "visitors", path: "visitors",
		body: func(rows []int, _ string, more bool) string {
			return fmt.Sprintf(`{"totals":{"human":1,"ai":1,"total":2},"visitors":[%s],"hasMore":%t}`,
				joinRows(rows, func(i int) string { return fmt.Sprintf(`{"path":"/p%d","human":1,"ai":0,"total":1}`, i) }), more)
		},
		pages: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.VisitorPages(ctx, VisitorsParams{}))
		},
		rows: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.Visitors(ctx, VisitorsParams{}))
		},
	},
	{
		name: "views", path: "views",
		body: func(rows []int, _ string, more bool) string {
			return fmt.Sprintf(`{"totals":{"human":1,"ai":1,"total":2},"views":[%s],"hasMore":%t}`,
				joinRows(rows, func(i int) string { return fmt.Sprintf(`{"path":"/p%d","human":1,"ai":0,"total":1}`, i) }), more)
		},
		pages: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.ViewPages(ctx, ViewsParams{}))
		},
		rows: func(ctx context.Context, c *Client) iter.Seq2[any, error] { return anySeq(c.Views(ctx, ViewsParams{})) },
	},
	{
		name: "searches", path: "searches", cursor: true,
		body: func(rows []int, next string, _ bool) string {
			return fmt.Sprintf(`{"searches":[%s],"totalSearches":9,"nextCursor":%s}`,
				joinRows(rows, func(i int) string {
					return fmt.Sprintf(`{"searchQuery":"q%d","hits":3,"ctr":0.5,"topClickedPage":null,"lastSearchedAt":"2025-01-01T00:00:00Z"}`, i)
				}), jsonCursor(next))
		},
		pages: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.SearchPages(ctx, SearchesParams{}))
		},
		rows: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.Searches(ctx, SearchesParams{}))
		},
	},
	{
		name: "feedback", path: "feedback", cursor: true,
		body: func(rows []int, next string, more bool) string {
			return fmt.Sprintf(`{"feedback":[%s],"nextCursor":%s,"hasMore":%t}`,
				joinRows(rows, func(i int) string {
					return fmt.Sprintf(`{"id":"f%d","path":"/p","comment":null,"createdAt":null,"source":"agent","status":"pending"}`, i)
				}), jsonCursor(next), more)
		},
		pages: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.FeedbackPages(ctx, FeedbackParams{}))
		},
		rows: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.Feedback(ctx, FeedbackParams{}))
		},
	},
	{
		// Every turn belongs to one thread: the walk must tell them apart
		// by timestamp, not by ID.
		name: "conversations", path: "assistant", cursor: true,
		body: func(rows []int, next string, more bool) string {
			return fmt.Sprintf(`{"conversations":[%s],"nextCursor":%s,"hasMore":%t}`,
				joinRows(rows, func(i int) string {
					return fmt.Sprintf(`{"id":"01J0000000000000000000THRD","timestamp":"2025-01-01T00:%02d:%02dZ",`+
						`"query":"q","response":"r","sources":[],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}`, i/60, i%60)
				}), jsonCursor(next), more)
		},
		pages: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.ConversationPages(ctx, ConversationsParams{}))
		},
		rows: func(ctx context.Context, c *Client) iter.Seq2[any, error] {
			return anySeq(c.Conversations(ctx, ConversationsParams{}))
		},
	},
}

// walkResult is what one walk yielded.
type walkResult struct {
	items int // pages or rows yielded without error
	errs  []error
}

// drainWalk runs a walk to its end and requires that nothing follows an
// error.
func drainWalk(t *testing.T, seq iter.Seq2[any, error]) walkResult {
	t.Helper()
	var r walkResult
	for v, err := range seq {
		require.Empty(t, r.errs, "the walk went on after yielding an error")
		if err != nil {
			r.errs = append(r.errs, err)
			continue
		}
		require.NotNil(t, v)
		r.items++
	}
	return r
}

// hostileServer answers page n (from 0) with answer(n), counting calls.
type hostileServer struct {
	mu    sync.Mutex
	calls int
}

func (h *hostileServer) responder(answer func(n int) string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		h.mu.Lock()
		n := h.calls
		h.calls++
		h.mu.Unlock()
		return respond(http.StatusOK, answer(n))(req)
	}
}

func rowRange(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

// TestWalkGuardsAgainstHostileServers runs each hostile answer against the
// page and the row iterator of every list route, with retries off so
// requests are counted exactly. Every walk ends with one *WalkError after
// the documented number of requests.
func TestWalkGuardsAgainstHostileServers(t *testing.T) {
	t.Parallel()
	type scenario struct {
		name string
		// answer is the body of page n; wantCalls the requests sent.
		answer    func(r walkRoute, n int) string
		wantCalls func(r walkRoute) int
		wantErr   string
	}
	scenarios := []scenario{
		{
			// Offset routes: a server (or cache) ignoring offset. Cursor
			// routes: the same cursor on every page.
			name: "the same answer forever",
			answer: func(r walkRoute, _ int) string {
				return r.body(rowRange(0, 3), "C", true)
			},
			wantCalls: func(r walkRoute) int {
				if r.cursor {
					return 2 // the second page gives the cursor it was asked with
				}
				return 1 + maxStalledPages
			},
			wantErr: "",
		},
		{
			name: "more follow but nothing leads there",
			answer: func(r walkRoute, _ int) string {
				if r.cursor {
					return r.body(rowRange(0, 3), "", true)
				}
				return r.body(nil, "", true) // an empty page saying more follow
			},
			wantCalls: func(r walkRoute) int { return 1 },
		},
		{
			name:      "{}",
			answer:    func(walkRoute, int) string { return `{}` },
			wantCalls: func(walkRoute) int { return 1 },
			wantErr:   "required field",
		},
		{
			name:      "null",
			answer:    func(walkRoute, int) string { return `null` },
			wantCalls: func(walkRoute) int { return 1 },
		},
		{
			name: "pages repeating rows under new cursors",
			answer: func(r walkRoute, n int) string {
				return r.body(rowRange(0, 3), fmt.Sprintf("c%d", n), true)
			},
			wantCalls: func(walkRoute) int { return 1 + maxStalledPages },
			wantErr:   "no new row",
		},
		{
			name: "fresh rows and more pages forever",
			answer: func(r walkRoute, n int) string {
				return r.body(rowRange(3*n, 3), fmt.Sprintf("c%d", n), true)
			},
			wantCalls: func(walkRoute) int { return 25 }, // WithMaxWalkRequests below
			wantErr:   "after 25 requests",
		},
	}
	for _, route := range walkRoutes {
		for _, sc := range scenarios {
			if route.name == "searches" && sc.name == "more follow but nothing leads there" {
				continue // no hasMore on this route: a null cursor is its end
			}
			for _, kind := range []string{"pages", "rows"} {
				t.Run(route.name+"/"+kind+"/"+sc.name, func(t *testing.T) {
					t.Parallel()
					c, mt := newCoreClient(t, WithMaxRetries(0), WithMaxWalkRequests(25))
					srv := &hostileServer{}
					mt.RegisterResponder(http.MethodGet, coreBaseURL+"/v1/analytics/"+coreProjectID+"/"+route.path,
						srv.responder(func(n int) string { return sc.answer(route, n) }))
					walk := route.pages
					if kind == "rows" {
						walk = route.rows
					}
					res := drainWalk(t, walk(context.Background(), c))
					require.Len(t, res.errs, 1, "one error ends the walk")
					var we *WalkError
					require.ErrorAs(t, res.errs[0], &we)
					assert.Contains(t, res.errs[0].Error(), sc.wantErr)
					assert.NotContains(t, res.errs[0].Error(), "mintlify: mintlify:")
					assert.Equal(t, sc.wantCalls(route), mt.GetTotalCallCount(), "requests sent")
				})
			}
		}
	}
}

func TestWalkRequestCapDefaultsTo1000(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	srv := &hostileServer{}
	route := walkRoutes[3] // feedback: a small page
	mt.RegisterResponder(http.MethodGet, coreBaseURL+"/v1/analytics/"+coreProjectID+"/feedback",
		srv.responder(func(n int) string { return route.body([]int{n}, fmt.Sprintf("c%d", n), true) }))
	res := drainWalk(t, route.rows(context.Background(), c))
	assert.Equal(t, 1000, res.items)
	require.Len(t, res.errs, 1)
	var we *WalkError
	require.ErrorAs(t, res.errs[0], &we)
	assert.Equal(t, "c999", we.Cursor, "where the next request would have started")
	assert.Equal(t, 1000, mt.GetTotalCallCount())
}

// TestWalkErrorCarriesResumePoint fails the third page of every route and
// resumes from the error's position: the two walks together yield every
// row once.
func TestWalkErrorCarriesResumePoint(t *testing.T) {
	t.Parallel()
	const perPage, pages = 2, 4
	for _, route := range walkRoutes {
		t.Run(route.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t, WithMaxRetries(0))
			failed := false
			var cursors []string
			mt.RegisterResponder(http.MethodGet, coreBaseURL+"/v1/analytics/"+coreProjectID+"/"+route.path,
				func(req *http.Request) (*http.Response, error) {
					q := req.URL.Query()
					cursors = append(cursors, q.Get("cursor"))
					page := 0
					if route.cursor {
						if cur := q.Get("cursor"); cur != "" {
							_, _ = fmt.Sscanf(cur, "page-%d", &page)
						}
					} else {
						var off int
						_, _ = fmt.Sscanf(q.Get("offset"), "%d", &off)
						page = off / perPage
					}
					if page == 2 && !failed {
						failed = true
						return respond(http.StatusTooManyRequests, `{"error":"quota"}`)(req)
					}
					next, more := fmt.Sprintf("page-%d", page+1), page+1 < pages
					if !more {
						next = ""
					}
					return respond(http.StatusOK, route.body(rowRange(perPage*page, perPage), next, more))(req)
				})
			// The page iterator stops at the same point, with the same
			// resume position, as the row iterator below.
			paged := drainWalk(t, route.pages(context.Background(), c))
			require.Len(t, paged.errs, 1)
			assert.Equal(t, 2, paged.items)
			var pageErr *WalkError
			require.ErrorAs(t, paged.errs[0], &pageErr)
			failed = false
			mt.ZeroCallCounters()

			first := drainWalk(t, route.rows(context.Background(), c))
			require.Len(t, first.errs, 1)
			assert.Equal(t, 2*perPage, first.items)
			var we *WalkError
			require.ErrorAs(t, first.errs[0], &we)
			assert.ErrorIs(t, we, ErrRateLimited)
			assert.NotContains(t, we.Error(), "mintlify: mintlify:")
			if route.cursor {
				assert.Equal(t, "page-2", we.Cursor)
				assert.Contains(t, we.Error(), `at cursor "page-2"`)
			} else {
				assert.Equal(t, 2*perPage, we.Offset)
				assert.Contains(t, we.Error(), "at offset 4")
			}
			assert.Equal(t, 3, mt.GetTotalCallCount())
			assert.ErrorIs(t, pageErr, ErrRateLimited)
			assert.Equal(t, pageErr.Offset, we.Offset)
			assert.Equal(t, pageErr.Cursor, we.Cursor)

			// Resume: the params carry the error's position.
			var rest iter.Seq2[any, error]
			ctx := context.Background()
			switch route.name {
			case "visitors":
				rest = anySeq(c.Visitors(ctx, VisitorsParams{Offset: we.Offset}))
			case "views":
				rest = anySeq(c.Views(ctx, ViewsParams{Offset: we.Offset}))
			case "searches":
				rest = anySeq(c.Searches(ctx, SearchesParams{Cursor: we.Cursor}))
			case "feedback":
				rest = anySeq(c.Feedback(ctx, FeedbackParams{Cursor: we.Cursor}))
			case "conversations":
				rest = anySeq(c.Conversations(ctx, ConversationsParams{Cursor: we.Cursor}))
			}
			second := drainWalk(t, rest)
			assert.Empty(t, second.errs)
			assert.Equal(t, perPage*pages, first.items+second.items, "every row, once")
		})
	}
}

func TestWalkStopsWhenContextEndsBetweenPages(t *testing.T) {
	t.Parallel()
	for _, route := range walkRoutes {
		t.Run(route.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			srv := &hostileServer{}
			mt.RegisterResponder(http.MethodGet, coreBaseURL+"/v1/analytics/"+coreProjectID+"/"+route.path,
				srv.responder(func(n int) string { return route.body(rowRange(2*n, 2), fmt.Sprintf("c%d", n), true) }))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var errs []error
			for _, err := range route.pages(ctx, c) {
				if err != nil {
					errs = append(errs, err)
					continue
				}
				cancel() // after the first page
			}
			require.Len(t, errs, 1)
			assert.ErrorIs(t, errs[0], context.Canceled)
			assert.Equal(t, 1, mt.GetTotalCallCount())
		})
	}
}

func TestWalkBreakStopsRequests(t *testing.T) {
	t.Parallel()
	for _, route := range walkRoutes {
		t.Run(route.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			srv := &hostileServer{}
			mt.RegisterResponder(http.MethodGet, coreBaseURL+"/v1/analytics/"+coreProjectID+"/"+route.path,
				srv.responder(func(n int) string { return route.body(rowRange(2*n, 2), fmt.Sprintf("c%d", n), true) }))
			rows := 0
			for _, err := range route.rows(context.Background(), c) {
				require.NoError(t, err)
				if rows++; rows == 3 {
					break
				}
			}
			assert.Equal(t, 2, mt.GetTotalCallCount(), "the third row is on the second page; no third request")
		})
	}
}

func TestWalkNilContextOrClientIsAnError(t *testing.T) {
	t.Parallel()
	for _, route := range walkRoutes {
		t.Run(route.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			for _, walk := range []iter.Seq2[any, error]{route.pages(nil, c), route.rows(nil, c)} {
				res := drainWalk(t, walk)
				require.Len(t, res.errs, 1)
				assert.ErrorIs(t, res.errs[0], ErrInvalidInput)
			}
			assert.Zero(t, mt.GetTotalCallCount())
			for _, client := range []*Client{nil, {}} {
				for _, walk := range []iter.Seq2[any, error]{route.pages(context.Background(), client), route.rows(context.Background(), client)} {
					res := drainWalk(t, walk)
					require.Len(t, res.errs, 1)
					assert.ErrorIs(t, res.errs[0], ErrInvalidInput)
				}
			}
		})
	}
}

// TestWalkDropsRepeatsAndKeysTurnsByTime: a row seen again is dropped
// (pages are yielded without it), and turns of one thread are different
// rows.
func TestWalkDropsRepeats(t *testing.T) {
	t.Parallel()
	for _, route := range walkRoutes {
		t.Run(route.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			answers := []string{
				route.body([]int{0, 1, 2}, "a", true),
				route.body([]int{2, 3}, "b", true), // row 2 again
				route.body([]int{1, 4}, "", false), // row 1 again
			}
			srv := &hostileServer{}
			mt.RegisterResponder(http.MethodGet, coreBaseURL+"/v1/analytics/"+coreProjectID+"/"+route.path,
				srv.responder(func(n int) string { return answers[n] }))
			res := drainWalk(t, route.rows(context.Background(), c))
			assert.Empty(t, res.errs)
			assert.Equal(t, 5, res.items)
			assert.Equal(t, 3, mt.GetTotalCallCount())
		})
	}
}

func TestWalkErrorText(t *testing.T) {
	t.Parallel()
	cause := errors.New("mintlify: HTTP 429: slow down")
	for _, tt := range []struct {
		err  WalkError
		want string
	}{
		{WalkError{Err: cause}, "mintlify: walk stopped at the first page: HTTP 429: slow down"},
		{WalkError{Offset: 500, Err: cause}, "mintlify: walk stopped at offset 500: HTTP 429: slow down"},
		{WalkError{Cursor: "01J", Err: cause}, `mintlify: walk stopped at cursor "01J": HTTP 429: slow down`},
		{WalkError{}, "mintlify: walk stopped at the first page: unknown error"},
	} {
		assert.Equal(t, tt.want, tt.err.Error())
	}
	assert.ErrorIs(t, &WalkError{Err: cause}, cause)
}

func TestRecentKeysWindow(t *testing.T) {
	r := newRecentKeys(3)
	key := func(i int) uint64 { return hashString(r.seed, fmt.Sprint("/p", i)) }
	for i := range 10 {
		assert.False(t, r.check(key(i)), "first sight of %d", i)
		// The last size keys are remembered...
		for back := range min(i+1, 3) {
			assert.True(t, r.check(key(i-back)), "%d after adding %d", i-back, i)
		}
	}
	// ...and nothing older: the memory is bounded.
	assert.False(t, r.check(key(0)), "0 was forgotten")
	assert.Len(t, r.set, 3)
}

func TestRecentKeysSteadyStateDoesNotAllocate(t *testing.T) {
	r := newRecentKeys(100)
	keys := make([]uint64, 1000)
	for i := range keys {
		keys[i] = hashString(r.seed, fmt.Sprint("/p", i))
	}
	for _, k := range keys[:300] {
		r.check(k)
	}
	i := 300
	allocs := testing.AllocsPerRun(500, func() {
		r.check(keys[i%len(keys)])
		i++
	})
	assert.Zero(t, allocs)
}

func TestTurnKey(t *testing.T) {
	seed := newRecentKeys(1).seed
	at := time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC)
	turn := Conversation{ID: "01JH5Y3V2ZQ8K4M6N7P9R0S1T2", Timestamp: at, Query: "q1"}
	later := turn
	later.Timestamp = at.Add(time.Minute)
	elsewhere := turn
	elsewhere.Timestamp = at.In(time.FixedZone("UTC+2", 7200))
	assert.NotEqual(t, turnKey(seed, turn), turnKey(seed, later), "turns of one thread differ by time")
	assert.Equal(t, turnKey(seed, turn), turnKey(seed, elsewhere), "one instant, whatever its offset")

	unread, other := turn, turn
	unread.Timestamp, other.Timestamp = time.Time{}, time.Time{}
	other.Query = "q2"
	assert.NotEqual(t, turnKey(seed, unread), turnKey(seed, other), "unreadable times: the text tells turns apart")
}
