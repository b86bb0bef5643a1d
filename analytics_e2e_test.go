package mintlify_test

import (
	"context"
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
	c := mockClient(t, srv)

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
	c := mockClient(t, srv)
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
