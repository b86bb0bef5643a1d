package mockserver_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// handMade is small enough to count by hand; the expectations below were.
var handMade = []mockserver.Visit{
	{VisitorID: "alice", Path: "/a", Time: at("2025-03-01T10:00:00Z")},
	{VisitorID: "alice", Path: "/a", Time: at("2025-03-01T11:00:00Z")}, // repeat view
	{VisitorID: "alice", Path: "/a", AI: true, Time: at("2025-03-02T00:00:00Z")},
	{VisitorID: "bob", Path: "/a", AI: true, Time: at("2025-03-01T12:00:00Z")},
	{VisitorID: "bob", Path: "/b", AI: true, Time: at("2025-03-02T08:00:00Z")},
	{VisitorID: "carol", Path: "/b", Time: at("2025-03-03T00:00:00Z")}, // on a dateTo boundary
	{VisitorID: "dave", Path: "/c", Time: at("2025-03-02T23:59:59.999Z")},
	{VisitorID: "erin", Path: "/c", AI: true, Time: at("2025-02-28T23:59:59Z")},
}

func TestVisitorsCountsDistinctVisitorsExactly(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithVisits(handMade...))
	cases := []struct {
		name, query string
		want        page
	}{
		{"all time", "", page{
			Totals: counts{Human: 3, AI: 3, Total: 5},
			Visitors: []row{
				{"/a", 1, 2, 2}, // alice as human and AI counts once in total
				{"/b", 1, 1, 2},
				{"/c", 1, 1, 2},
			},
		}},
		{"dates: dateTo exclusive", "dateFrom=2025-03-01&dateTo=2025-03-03", page{
			Totals: counts{Human: 2, AI: 2, Total: 3},
			Visitors: []row{
				{"/a", 1, 2, 2},
				{"/b", 0, 1, 1},
				{"/c", 1, 0, 1},
			},
		}},
		{"dates: dateFrom inclusive", "dateFrom=2025-03-03", page{
			Totals:   counts{Human: 1, AI: 0, Total: 1},
			Visitors: []row{{"/b", 1, 0, 1}},
		}},
		{"date-times with offsets", "dateFrom=" + url.QueryEscape("2025-03-01T11:30:00+01:00") + "&dateTo=2025-03-01T12:00:00.001Z", page{
			Totals:   counts{Human: 1, AI: 1, Total: 2},
			Visitors: []row{{"/a", 1, 1, 2}},
		}},
		{"date-time without zone is UTC", "dateFrom=2025-03-02T23:59:59.999&dateTo=2025-03-03T00:00", page{
			Totals:   counts{Human: 1, AI: 0, Total: 1},
			Visitors: []row{{"/c", 1, 0, 1}},
		}},
		{"empty window", "dateFrom=2024-01-01&dateTo=2024-02-01", page{Visitors: []row{}}},
		{"limit and offset", "limit=1&offset=1", page{
			Totals:   counts{Human: 3, AI: 3, Total: 5},
			Visitors: []row{{"/b", 1, 1, 2}},
			HasMore:  true,
		}},
		{"offset past the end", "offset=3", page{Totals: counts{Human: 3, AI: 3, Total: 5}, Visitors: []row{}}},
		{"unknown parameters are ignored", "foo=bar", page{
			Totals:   counts{Human: 3, AI: 3, Total: 5},
			Visitors: []row{{"/a", 1, 2, 2}, {"/b", 1, 1, 2}, {"/c", 1, 1, 2}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := h.visitors(tc.query)
			if got.Visitors == nil {
				got.Visitors = []row{}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestVisitorsReflectsVisitsAddedLater(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithVisits(handMade...))
	before := h.visitors("")
	require.NoError(t, h.s.AddVisits(h.s.ProjectID(),
		mockserver.Visit{VisitorID: "frank", Path: "/d", Time: at("2025-01-01T00:00:00Z")}, // out of order
		mockserver.Visit{VisitorID: "alice", Path: "/d", AI: true, Time: at("2025-03-05T00:00:00Z")},
	))
	after := h.visitors("")
	assert.Equal(t, before.Totals.Total+1, after.Totals.Total, "alice was already counted")
	require.Len(t, after.Visitors, 4)
	assert.Equal(t, row{"/d", 1, 1, 2}, after.Visitors[3], "ties order by path: /a /b /c /d all have 2")
}

func TestAddVisitsValidates(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	assert.ErrorIs(t, s.AddVisits("nope", handMade...), mockserver.ErrUnknownProject)
	err := s.AddVisits(s.ProjectID(), mockserver.Visit{Path: "/a", Time: epoch}, mockserver.Visit{VisitorID: "v", Path: "/a"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "visit 0: visitor ID is empty")
	assert.Contains(t, err.Error(), "visit 1: time")
}

func TestVisitorsPagesNeverOverlap(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithSyntheticVisits(20_000), mockserver.WithoutRateLimits())
	all := map[string]bool{}
	var walked []row
	offset := 0
	for range 1000 {
		p := h.visitors("limit=7&offset=" + strconv.Itoa(offset))
		for _, r := range p.Visitors {
			require.False(t, all[r.Path], "path %s on two pages", r.Path)
			all[r.Path] = true
			assert.LessOrEqual(t, r.Total, r.Human+r.AI)
			assert.GreaterOrEqual(t, r.Total, max(r.Human, r.AI))
		}
		walked = append(walked, p.Visitors...)
		if !p.HasMore {
			assert.NotEmpty(t, p.Visitors, "hasMore was true on the previous page, so rows remained")
			break
		}
		require.Len(t, p.Visitors, 7, "a page with hasMore is full")
		offset += 7
	}
	for i := 1; i < len(walked); i++ {
		a, b := walked[i-1], walked[i]
		assert.True(t, a.Total > b.Total || (a.Total == b.Total && a.Path < b.Path), "order at %d: %v then %v", i, a, b)
	}
	big := h.visitors("limit=250")
	assert.Equal(t, walked[:250], big.Visitors)
	assert.Equal(t, len(walked) > 250, big.HasMore)
}

func TestVisitorsDefaultLimitIs50(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithSyntheticVisits(20_000))
	p := h.visitors("")
	assert.Len(t, p.Visitors, 50)
	assert.True(t, p.HasMore)
}

func TestSyntheticVisitsAreDeterministic(t *testing.T) {
	t.Parallel()
	end := epoch
	a := mockserver.SyntheticVisits(5000, end)
	b := mockserver.SyntheticVisits(5000, end)
	assert.Equal(t, a, b)
	require.Len(t, a, 5000)
	for i, v := range a {
		assert.False(t, v.Time.Before(end.Add(-90*24*time.Hour)) || !v.Time.Before(end), "visit %d at %s", i, v.Time)
		if i > 0 {
			require.False(t, v.Time.Before(a[i-1].Time), "in time order")
		}
	}

	h := setup(t, mockserver.WithVisits(a...))
	p := h.visitors("limit=250")
	assert.Less(t, p.Totals.Total, p.Totals.Human+p.Totals.AI, "some visitors are both human and AI")
	first, last := p.Visitors[0], p.Visitors[len(p.Visitors)-1]
	assert.Greater(t, first.Total, 10*last.Total, "popular and rare pages")
}

func TestVisitorsParameterValidation(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	cases := []struct {
		query   string
		details []string
	}{
		{"limit=0", []string{`limit: must be an integer from 1 to 250, got "0"`}},
		{"limit=251", []string{`limit: must be an integer from 1 to 250, got "251"`}},
		{"limit=abc", []string{`limit: must be an integer from 1 to 250, got "abc"`}},
		{"limit=", []string{`limit: must be an integer from 1 to 250, got ""`}},
		{"limit=1.5", []string{`limit: must be an integer from 1 to 250, got "1.5"`}},
		{"offset=-1", []string{`offset: must be an integer of 0 or more, got "-1"`}},
		{"offset=x", []string{`offset: must be an integer of 0 or more, got "x"`}},
		{"dateFrom=yesterday", []string{`dateFrom: must be an ISO 8601 date-time or YYYY-MM-DD, got "yesterday"`}},
		{"dateTo=2025-13-01", []string{`dateTo: must be an ISO 8601 date-time or YYYY-MM-DD, got "2025-13-01"`}},
		{"dateFrom=2025-03-02&dateTo=2025-03-01", []string{"dateFrom must be before dateTo (dateTo is exclusive)"}},
		{"dateFrom=2025-03-01&dateTo=2025-03-01", []string{"dateFrom must be before dateTo (dateTo is exclusive)"}},
		{"limit=1&limit=2", []string{"limit: given more than once"}},
		{"limit=%zz", []string{`malformed query string near "limit=%zz"`}},
		{"limit=0&offset=-1&dateFrom=x", []string{
			`limit: must be an integer from 1 to 250, got "0"`,
			`offset: must be an integer of 0 or more, got "-1"`,
			`dateFrom: must be an ISO 8601 date-time or YYYY-MM-DD, got "x"`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			r := h.do("GET", h.visitorsPath(tc.query), "")
			require.Equal(t, http.StatusBadRequest, r.Status, "body: %s", r.Body)
			e := r.apiError(t)
			assert.Equal(t, "Invalid query parameters", e.Error)
			assert.Equal(t, tc.details, e.details())
		})
	}
	for _, ok := range []string{"limit=1", "limit=250", "offset=0", "offset=999999999999", "dateFrom=1000-01-01", "dateTo=2999-01-01T00:00:00Z"} {
		assert.Equal(t, http.StatusOK, h.do("GET", h.visitorsPath(ok), "").Status, ok)
	}
}
