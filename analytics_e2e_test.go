package mintlify_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// End-to-end: the SDK against the bundled mock server over a real socket,
// with visits made by hand so that every expected count can be checked by
// reading the test.

func newMockVisitorsClient(t *testing.T, srv *mockserver.Server) *mintlify.Client {
	t.Helper()
	c, err := mintlify.NewClient(
		mintlify.WithAPIKey(srv.APIKey()),
		mintlify.WithProjectID(srv.ProjectID()),
		mintlify.WithBaseURL(srv.URL()),
	)
	require.NoError(t, err)
	return c
}

func humanVisit(who, path string, at time.Time) mockserver.Visit {
	return mockserver.Visit{VisitorID: who, Path: path, Time: at}
}

func aiVisit(who, path string, at time.Time) mockserver.Visit {
	return mockserver.Visit{VisitorID: who, Path: path, AI: true, Time: at}
}

// visitorsRequests returns the queries of the visitors requests the mock
// received, from its journal.
func visitorsRequests(srv *mockserver.Server) []url.Values {
	var out []url.Values
	for _, e := range srv.Journal() {
		if e.Route == mockserver.RouteVisitors {
			q, _ := url.ParseQuery(e.Query)
			out = append(out, q)
		}
	}
	return out
}

func TestVisitorsE2ECounts(t *testing.T) {
	t.Parallel()
	may1 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	may3 := may1.AddDate(0, 0, 2)
	at := func(h int) time.Time { return may1.Add(time.Duration(h) * time.Hour) }
	srv := mockserver.Start(t, mockserver.WithVisits(
		humanVisit("alice", "/a", at(1)),
		humanVisit("alice", "/a", at(2)), // the same visitor again: counts once
		humanVisit("alice", "/b", at(3)),
		humanVisit("bob", "/a", at(4)),
		aiVisit("bob", "/a", at(5)), // seen as human and AI: once in total
		aiVisit("crawler", "/b", at(6)),
		humanVisit("dave", "/c", at(47)),
		humanVisit("carol", "/c", may3),                  // on dateTo: excluded
		humanVisit("erin", "/d", may1.Add(-time.Second)), // before dateFrom: excluded
	))
	c := newMockVisitorsClient(t, srv)

	page, err := c.GetVisitors(context.Background(), mintlify.VisitorsParams{DateFrom: may1, DateTo: may3})
	require.NoError(t, err)
	assert.Equal(t, &mintlify.VisitorsPage{
		// human: alice, bob, dave; AI: bob, crawler; total: alice, bob,
		// crawler, dave.
		Totals: mintlify.VisitorCounts{Human: 3, AI: 2, Total: 4},
		Visitors: []mintlify.PathVisitors{
			{Path: "/a", Human: 2, AI: 1, Total: 2},
			{Path: "/b", Human: 1, AI: 1, Total: 2},
			{Path: "/c", Human: 1, AI: 0, Total: 1},
		},
		HasMore: false,
	}, page)
	require.Len(t, visitorsRequests(srv), 1)
	assert.Equal(t, "dateFrom=2024-05-01&dateTo=2024-05-03", srv.Journal()[0].Query)
}

func TestVisitorsE2EDateToIsExclusive(t *testing.T) {
	t.Parallel()
	midnight := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	noon := midnight.Add(12 * time.Hour)
	srv := mockserver.Start(t, mockserver.WithVisits(
		humanVisit("early", "/before-midnight", midnight.Add(-time.Nanosecond)),
		humanVisit("edge", "/at-midnight", midnight),
		humanVisit("late", "/at-noon", noon),
	))
	c := newMockVisitorsClient(t, srv)
	tests := []struct {
		name   string
		params mintlify.VisitorsParams
		want   []string
	}{
		{"a date ends before its midnight", mintlify.VisitorsParams{DateTo: midnight}, []string{"/before-midnight"}},
		{"a date starts at its midnight", mintlify.VisitorsParams{DateFrom: midnight}, []string{"/at-midnight", "/at-noon"}},
		{"an instant ends before itself", mintlify.VisitorsParams{DateTo: noon}, []string{"/at-midnight", "/before-midnight"}},
		{"an instant in another zone", mintlify.VisitorsParams{
			DateFrom: midnight.In(time.FixedZone("UTC-5", -5*3600)), // 19:00 the day before there
			DateTo:   noon.In(time.FixedZone("UTC+9", 9*3600)),
		}, []string{"/at-midnight"}},
		{"one nanosecond", mintlify.VisitorsParams{DateFrom: midnight.Add(-time.Nanosecond), DateTo: midnight}, []string{"/before-midnight"}},
	}
	for _, tt := range tests {
		var got []string
		for row, err := range c.Visitors(context.Background(), tt.params) {
			require.NoError(t, err, tt.name)
			got = append(got, row.Path)
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
}

// hundredPaths makes visits to 100 paths with many ties in their counts,
// so that the order within a tie (by path) matters for paging.
func hundredPaths(day time.Time) []mockserver.Visit {
	var visits []mockserver.Visit
	for p := range 100 {
		path := fmt.Sprintf("/docs/%02d", (p*37)%100) // not in count order
		for v := range p%13 + 1 {
			at := day.Add(time.Duration(p*13+v) * time.Minute)
			if v%4 == 3 {
				visits = append(visits, aiVisit(fmt.Sprintf("bot%d", v), path, at))
			} else {
				visits = append(visits, humanVisit(fmt.Sprintf("reader%d", v), path, at))
			}
		}
	}
	return visits
}

func TestVisitorsE2EWalkEqualsOneLargePage(t *testing.T) {
	t.Parallel()
	day := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	srv := mockserver.Start(t, mockserver.WithVisits(hundredPaths(day)...))
	c := newMockVisitorsClient(t, srv)
	ctx := context.Background()

	one, err := c.GetVisitors(ctx, mintlify.VisitorsParams{Limit: 250})
	require.NoError(t, err)
	require.Len(t, one.Visitors, 100)
	require.False(t, one.HasMore)

	srv.ClearJournal()
	var walked []mintlify.PathVisitors
	for row, err := range c.Visitors(ctx, mintlify.VisitorsParams{Limit: 7}) {
		require.NoError(t, err)
		walked = append(walked, row)
	}
	assert.Equal(t, one.Visitors, walked, "the same rows in the same order")

	requests := visitorsRequests(srv)
	assert.Len(t, requests, 15, "one request per page: ceil(100/7)")
	for i, q := range requests {
		assert.Equal(t, "7", q.Get("limit"))
		if i > 0 {
			assert.Equal(t, fmt.Sprint(7*i), q.Get("offset"))
		}
	}

	srv.ClearJournal()
	var pages int
	for page, err := range c.VisitorPages(ctx, mintlify.VisitorsParams{Limit: 7}) {
		require.NoError(t, err)
		assert.Equal(t, one.Totals, page.Totals, "every page carries the site-wide totals")
		pages++
	}
	assert.Equal(t, 15, pages)
	assert.Len(t, visitorsRequests(srv), 15)

	srv.ClearJournal()
	var n int
	for _, err := range c.Visitors(ctx, mintlify.VisitorsParams{}) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 100, n)
	assert.Len(t, visitorsRequests(srv), 1, "the iterators ask for 250 rows by default")
}

func TestVisitorsE2EResumeAfterQuota(t *testing.T) {
	t.Parallel()
	day := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	clock := mockserver.NewFakeClock(day.AddDate(0, 0, 7))
	srv := mockserver.Start(t,
		mockserver.WithClock(clock),
		mockserver.WithAnalyticsRateLimit(4, time.Hour),
		mockserver.WithVisits(hundredPaths(day)...),
	)
	c := newMockVisitorsClient(t, srv)
	ctx := context.Background()
	all, err := c.GetVisitors(ctx, mintlify.VisitorsParams{Limit: 250})
	require.NoError(t, err)

	// Three more requests of 10 rows fit in the quota; the fourth is refused
	// with a Retry-After far beyond what the client sleeps on.
	p := mintlify.VisitorsParams{Limit: 10}
	var got []mintlify.PathVisitors
	var walkErr error
	for row, err := range c.Visitors(ctx, p) {
		if err != nil {
			walkErr = err
			break
		}
		got = append(got, row)
	}
	require.ErrorIs(t, walkErr, mintlify.ErrRateLimited)
	var apiErr *mintlify.APIError
	require.ErrorAs(t, walkErr, &apiErr)
	assert.Greater(t, apiErr.RetryAfter, 30*time.Minute)
	assert.Len(t, got, 30)

	// An hour later the export resumes where it stopped, with the largest
	// pages this time: the remaining 70 rows take one request.
	clock.Advance(apiErr.RetryAfter)
	p.Offset += len(got)
	p.Limit = 0
	for row, err := range c.Visitors(ctx, p) {
		require.NoError(t, err)
		got = append(got, row)
	}
	assert.Equal(t, all.Visitors, got)
}
