package mintlify_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go"
)

const visitorsURL = "https://api.test/v1/analytics/proj/visitors"

// newVisitorsClient returns a client whose requests go to a fresh mock
// transport (no global state, so tests can run in parallel).
func newVisitorsClient(t *testing.T, opts ...mintlify.Option) (*mintlify.Client, *httpmock.MockTransport) {
	t.Helper()
	mock := httpmock.NewMockTransport()
	opts = append([]mintlify.Option{
		mintlify.WithAPIKey("mint_test"),
		mintlify.WithProjectID("proj"),
		mintlify.WithBaseURL("https://api.test"),
		mintlify.WithHTTPClient(&http.Client{Transport: mock}),
		mintlify.WithRetryWait(time.Millisecond, time.Millisecond),
	}, opts...)
	c, err := mintlify.NewClient(opts...)
	require.NoError(t, err)
	return c, mock
}

// wireVisitorsRow and wireVisitorsPage spell the API's JSON independently of the SDK's tags.
type wireVisitorsRow struct {
	Path  string `json:"path"`
	Human int    `json:"human"`
	AI    int    `json:"ai"`
	Total int    `json:"total"`
}

type wireVisitorsPage struct {
	Totals   map[string]int    `json:"totals"`
	Visitors []wireVisitorsRow `json:"visitors"`
	HasMore  bool              `json:"hasMore"`
}

var wireVisitorsTotals = map[string]int{"human": 7, "ai": 5, "total": 9}

func visitorsPageResponse(hasMore bool, rows ...wireVisitorsRow) *http.Response {
	if rows == nil {
		rows = []wireVisitorsRow{}
	}
	return httpmock.NewJsonResponseOrPanic(200, wireVisitorsPage{Totals: wireVisitorsTotals, Visitors: rows, HasMore: hasMore})
}

// rowsNamed makes one row per path, with counts derived from the name's
// position so that every row differs.
func visitorRowsNamed(paths ...string) []wireVisitorsRow {
	rows := make([]wireVisitorsRow, len(paths))
	for i, p := range paths {
		rows[i] = wireVisitorsRow{Path: p, Human: i + 1, AI: i, Total: i + 1}
	}
	return rows
}

// fakeVisitorsExport serves rows the way the service pages them (limit rows from
// offset, 50 by default) and records each query it receives.
type fakeVisitorsExport struct {
	rows []wireVisitorsRow

	mu      sync.Mutex
	queries []url.Values
}

func (f *fakeVisitorsExport) respond(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	limit, offset := 50, 0
	if v := q.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	if v := q.Get("offset"); v != "" {
		offset, _ = strconv.Atoi(v)
	}
	start, end := min(offset, len(f.rows)), min(offset+limit, len(f.rows))
	return visitorsPageResponse(end < len(f.rows), f.rows[start:end]...), nil
}

// offsets lists the offsets requested, in order ("" when none was sent).
func (f *fakeVisitorsExport) offsets() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, q := range f.queries {
		out = append(out, q.Get("offset"))
	}
	return out
}

func visitorPaths(rows []mintlify.PathVisitors) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Path
	}
	return out
}

// collect runs a row walk to its end, and requires at most one error, as
// the last thing yielded.
func collectVisitors(t *testing.T, seq func(func(mintlify.PathVisitors, error) bool)) ([]mintlify.PathVisitors, error) {
	t.Helper()
	var rows []mintlify.PathVisitors
	var walkErr error
	for row, err := range seq {
		require.NoError(t, walkErr, "the walk went on after yielding an error")
		if err != nil {
			assert.Zero(t, row, "an error comes with the zero row")
			walkErr = err
			continue
		}
		rows = append(rows, row)
	}
	return rows, walkErr
}

func TestGetVisitorsDecodesPage(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	mock.RegisterResponder("GET", visitorsURL, func(req *http.Request) (*http.Response, error) {
		assert.Equal(t, "Bearer mint_test", req.Header.Get("Authorization"))
		return httpmock.NewStringResponse(200, `{
			"totals": {"human": 120, "ai": 45, "total": 150},
			"visitors": [
				{"path": "/quickstart", "human": 80, "ai": 30, "total": 100},
				{"path": "/api/visitors", "human": 40, "ai": 15, "total": 50}
			],
			"hasMore": true
		}`), nil
	})

	page, err := c.GetVisitors(context.Background(), mintlify.VisitorsParams{})
	require.NoError(t, err)
	assert.Equal(t, &mintlify.VisitorsPage{
		Totals: mintlify.VisitorCounts{Human: 120, AI: 45, Total: 150},
		Visitors: []mintlify.PathVisitors{
			{Path: "/quickstart", Human: 80, AI: 30, Total: 100},
			{Path: "/api/visitors", Human: 40, AI: 15, Total: 50},
		},
		HasMore: true,
	}, page)
}

func TestGetVisitorsQueryEncoding(t *testing.T) {
	t.Parallel()
	plus2 := time.FixedZone("UTC+2", 2*60*60)
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		newYork = time.FixedZone("EST", -5*60*60)
	}
	jan1 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		params mintlify.VisitorsParams
		want   string // the raw query; "" means none at all
	}{
		{"zero values send nothing", mintlify.VisitorsParams{}, ""},
		{"limit", mintlify.VisitorsParams{Limit: 25}, "limit=25"},
		{"largest limit", mintlify.VisitorsParams{Limit: 250}, "limit=250"},
		{"offset", mintlify.VisitorsParams{Offset: 500}, "offset=500"},
		{"midnight UTC is a date", mintlify.VisitorsParams{DateFrom: jan1}, "dateFrom=2024-01-01"},
		{"midnight elsewhere is that zone's date",
			mintlify.VisitorsParams{DateTo: time.Date(2024, 3, 10, 0, 0, 0, 0, newYork)}, "dateTo=2024-03-10"},
		{"an instant in UTC",
			mintlify.VisitorsParams{DateFrom: time.Date(2024, 1, 1, 12, 30, 0, 0, time.UTC)},
			"dateFrom=2024-01-01T12%3A30%3A00Z"},
		{"an instant keeps its offset",
			mintlify.VisitorsParams{DateTo: time.Date(2024, 1, 31, 8, 0, 5, 0, plus2)},
			"dateTo=2024-01-31T08%3A00%3A05%2B02%3A00"},
		{"a local midnight as UTC is an instant",
			mintlify.VisitorsParams{DateFrom: time.Date(2024, 1, 1, 0, 0, 0, 0, plus2).UTC()},
			"dateFrom=2023-12-31T22%3A00%3A00Z"},
		{"a fraction of a second past midnight is kept",
			mintlify.VisitorsParams{DateFrom: jan1.Add(500 * time.Millisecond)},
			"dateFrom=2024-01-01T00%3A00%3A00.5Z"},
		{"an offset with seconds (a local mean time) is sent in UTC",
			mintlify.VisitorsParams{DateFrom: time.Date(1900, 1, 1, 12, 0, 0, 0, time.FixedZone("LMT", 19*60+32))},
			"dateFrom=1900-01-01T11%3A40%3A28Z"},
		{"everything, in key order",
			mintlify.VisitorsParams{DateFrom: jan1, DateTo: jan1.AddDate(0, 1, 0), Limit: 100, Offset: 200},
			"dateFrom=2024-01-01&dateTo=2024-02-01&limit=100&offset=200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mock := newVisitorsClient(t)
			var got *url.URL
			mock.RegisterResponder("GET", visitorsURL, func(req *http.Request) (*http.Response, error) {
				got = req.URL
				return visitorsPageResponse(false), nil
			})
			_, err := c.GetVisitors(context.Background(), tt.params)
			require.NoError(t, err)
			require.NotNil(t, got)
			assert.Equal(t, "/v1/analytics/proj/visitors", got.Path)
			assert.Equal(t, tt.want, got.RawQuery)
			assert.False(t, got.ForceQuery, "no bare '?' without parameters")
		})
	}
}

func TestVisitorPagesSendWhatGetVisitorsSends(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	export := &fakeVisitorsExport{rows: visitorRowsNamed("/a", "/b", "/c", "/d", "/e")}
	var raw []string
	mock.RegisterResponder("GET", visitorsURL, func(req *http.Request) (*http.Response, error) {
		raw = append(raw, req.URL.RawQuery)
		return export.respond(req)
	})
	ctx := context.Background()
	p := mintlify.VisitorsParams{
		DateFrom: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		DateTo:   time.Date(2024, 1, 2, 6, 0, 0, 0, time.FixedZone("X", -3600)),
		Limit:    2,
		Offset:   1,
	}
	for _, err := range c.VisitorPages(ctx, p) {
		require.NoError(t, err)
	}
	walked := raw
	raw = nil
	for _, offset := range []int{1, 3} {
		p.Offset = offset
		_, err := c.GetVisitors(ctx, p)
		require.NoError(t, err)
	}
	assert.Equal(t, raw, walked)
	assert.Equal(t, "dateFrom=2024-01-01&dateTo=2024-01-02T06%3A00%3A00-01%3A00&limit=2&offset=3", walked[1])
}

func TestVisitorsValidationSendsNoRequest(t *testing.T) {
	t.Parallel()
	day := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		params mintlify.VisitorsParams
	}{
		{"negative limit", mintlify.VisitorsParams{Limit: -1}},
		{"limit above 250", mintlify.VisitorsParams{Limit: 251}},
		{"negative offset", mintlify.VisitorsParams{Offset: -1}},
		{"empty range", mintlify.VisitorsParams{DateFrom: day, DateTo: day}},
		{"the same instant in two zones", mintlify.VisitorsParams{DateFrom: day, DateTo: day.In(time.FixedZone("X", 3600))}},
		{"reversed range", mintlify.VisitorsParams{DateFrom: day, DateTo: day.AddDate(0, 0, -1)}},
		// Sent as "2024-05-01", which the server reads as UTC midnight: after DateTo.
		{"a local midnight sent as a later UTC day", mintlify.VisitorsParams{
			DateFrom: time.Date(2024, 5, 1, 0, 0, 0, 0, time.FixedZone("E", 5*3600)),
			DateTo:   time.Date(2024, 4, 30, 20, 0, 0, 0, time.UTC)}},
		{"a year RFC 3339 cannot write", mintlify.VisitorsParams{DateTo: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}},
		{"a year RFC 3339 cannot write in UTC", mintlify.VisitorsParams{DateTo: time.Date(9999, 12, 31, 23, 30, 0, 0, time.FixedZone("W", -3600))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mock := newVisitorsClient(t)
			mock.RegisterNoResponder(httpmock.NewStringResponder(200, `{}`))
			ctx := context.Background()

			_, err := c.GetVisitors(ctx, tt.params)
			assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "GetVisitors")

			var pageErrs int
			for page, err := range c.VisitorPages(ctx, tt.params) {
				assert.Nil(t, page)
				assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "VisitorPages")
				pageErrs++
			}
			assert.Equal(t, 1, pageErrs, "VisitorPages yields the error once")

			_, err = collectVisitors(t, c.Visitors(ctx, tt.params))
			assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "Visitors")

			assert.Zero(t, mock.GetTotalCallCount(), "no request may be sent")
		})
	}
}

func TestVisitorsValidRangeEdges(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	mock.RegisterResponder("GET", visitorsURL, httpmock.ResponderFromResponse(visitorsPageResponse(false)))
	day := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range []mintlify.VisitorsParams{
		{DateFrom: day}, // open end
		{DateTo: day},   // open start
		{DateFrom: day, DateTo: day.Add(time.Second)}, // the shortest range
		{Limit: 1}, {Limit: 250}, {Offset: 1 << 40}, // the bounds
	} {
		_, err := c.GetVisitors(context.Background(), p)
		assert.NoError(t, err, "%+v", p)
	}
}

func TestIteratorsUseLargestPageByDefault(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	export := &fakeVisitorsExport{rows: visitorRowsNamed("/a", "/b")}
	mock.RegisterResponder("GET", visitorsURL, export.respond)
	ctx := context.Background()

	_, err := c.GetVisitors(ctx, mintlify.VisitorsParams{})
	require.NoError(t, err)
	for _, err := range c.VisitorPages(ctx, mintlify.VisitorsParams{}) {
		require.NoError(t, err)
	}
	rows, err := collectVisitors(t, c.Visitors(ctx, mintlify.VisitorsParams{Limit: 1}))
	require.NoError(t, err)
	assert.Equal(t, []string{"/a", "/b"}, visitorPaths(rows))

	var limits []string
	for _, q := range export.queries {
		limits = append(limits, q.Get("limit"))
	}
	assert.Equal(t, []string{"", "250", "1", "1"}, limits,
		"GetVisitors leaves the default to the server; the iterators ask for 250 unless told")
}

func TestVisitorsFetchesLazily(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	export := &fakeVisitorsExport{rows: visitorRowsNamed("/a", "/b", "/c", "/d", "/e")}
	mock.RegisterResponder("GET", visitorsURL, export.respond)
	ctx := context.Background()
	p := mintlify.VisitorsParams{Limit: 2}

	for row, err := range c.Visitors(ctx, p) {
		require.NoError(t, err)
		assert.Equal(t, "/a", row.Path)
		break
	}
	assert.Equal(t, 1, mock.GetTotalCallCount(), "breaking after the first row")

	seq := c.Visitors(ctx, p) // building the iterator sends nothing
	assert.Equal(t, 1, mock.GetTotalCallCount(), "building an iterator")
	for row, err := range seq {
		require.NoError(t, err)
		if row.Path == "/c" { // the first row of the second page
			break
		}
	}
	assert.Equal(t, 3, mock.GetTotalCallCount(), "breaking on the second page")

	for page, err := range c.VisitorPages(ctx, p) {
		require.NoError(t, err)
		assert.Len(t, page.Visitors, 2)
		break
	}
	assert.Equal(t, 4, mock.GetTotalCallCount(), "breaking after the first page")
}

func TestVisitorsWalkAllPages(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	export := &fakeVisitorsExport{rows: visitorRowsNamed("/a", "/b", "/c", "/d", "/e")}
	mock.RegisterResponder("GET", visitorsURL, export.respond)

	rows, err := collectVisitors(t, c.Visitors(context.Background(), mintlify.VisitorsParams{Limit: 2}))
	require.NoError(t, err)
	assert.Equal(t, []string{"/a", "/b", "/c", "/d", "/e"}, visitorPaths(rows))
	assert.Equal(t, mintlify.PathVisitors{Path: "/e", Human: 5, AI: 4, Total: 5}, rows[4])
	assert.Equal(t, []string{"", "2", "4"}, export.offsets(), "offset 0 is not sent")
}

func TestVisitorPagesKeepTotals(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	export := &fakeVisitorsExport{rows: visitorRowsNamed("/a", "/b", "/c")}
	mock.RegisterResponder("GET", visitorsURL, export.respond)

	var sizes []int
	for page, err := range c.VisitorPages(context.Background(), mintlify.VisitorsParams{Limit: 2}) {
		require.NoError(t, err)
		assert.Equal(t, mintlify.VisitorCounts{Human: 7, AI: 5, Total: 9}, page.Totals)
		sizes = append(sizes, len(page.Visitors))
	}
	assert.Equal(t, []int{2, 1}, sizes)
}

func TestVisitorsNextOffsetCountsRowsReceived(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	// A server that sends fewer rows than asked while more follow: the walk
	// must continue after the rows it got, not after the limit it asked for.
	served := [][]wireVisitorsRow{visitorRowsNamed("/a"), visitorRowsNamed("/b", "/c"), visitorRowsNamed("/d")}
	export := &fakeVisitorsExport{}
	mock.RegisterResponder("GET", visitorsURL, func(req *http.Request) (*http.Response, error) {
		_, _ = export.respond(req) // records the query
		i := len(export.offsets()) - 1
		return visitorsPageResponse(i < len(served)-1, served[i]...), nil
	})

	rows, err := collectVisitors(t, c.Visitors(context.Background(), mintlify.VisitorsParams{Limit: 3, Offset: 10}))
	require.NoError(t, err)
	assert.Equal(t, []string{"/a", "/b", "/c", "/d"}, visitorPaths(rows))
	assert.Equal(t, []string{"10", "11", "13"}, export.offsets())
}

func TestVisitorsResumeFromOffset(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	export := &fakeVisitorsExport{rows: visitorRowsNamed("/a", "/b", "/c", "/d", "/e", "/f", "/g")}
	mock.RegisterResponder("GET", visitorsURL, export.respond)
	ctx := context.Background()
	p := mintlify.VisitorsParams{Limit: 2, Offset: 1}

	// An export that stops after three rows...
	var first []mintlify.PathVisitors
	for row, err := range c.Visitors(ctx, p) {
		require.NoError(t, err)
		first = append(first, row)
		if len(first) == 3 {
			break
		}
	}
	// ...resumes at the start offset plus the rows it saw.
	p.Offset += len(first)
	rest, err := collectVisitors(t, c.Visitors(ctx, p))
	require.NoError(t, err)

	assert.Equal(t, []string{"/b", "/c", "/d", "/e", "/f", "/g"}, append(visitorPaths(first), visitorPaths(rest)...))
	assert.Equal(t, []string{"1", "3", "4", "6"}, export.offsets())
}

func TestVisitorsYieldErrorOnce(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	mock.RegisterResponder("GET", visitorsURL, httpmock.ResponderFromMultipleResponses([]*http.Response{
		visitorsPageResponse(true, visitorRowsNamed("/a", "/b")...),
		httpmock.NewStringResponse(400, `{"error": "Invalid query parameters", "details": [{"message": "bad offset"}]}`),
		visitorsPageResponse(false, visitorRowsNamed("/c")...), // must never be asked for
	}))

	rows, err := collectVisitors(t, c.Visitors(context.Background(), mintlify.VisitorsParams{Limit: 2}))
	assert.Equal(t, []string{"/a", "/b"}, visitorPaths(rows))
	require.ErrorIs(t, err, mintlify.ErrBadRequest)
	var apiErr *mintlify.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, []string{"bad offset"}, apiErr.Details)
	assert.Contains(t, err.Error(), "offset 2", "the error says where the walk stopped")
	assert.Equal(t, 2, mock.GetTotalCallCount())
}

func TestVisitorPagesYieldErrorOnce(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t, mintlify.WithMaxRetries(1))
	mock.RegisterResponder("GET", visitorsURL, httpmock.ResponderFromMultipleResponses([]*http.Response{
		visitorsPageResponse(true, visitorRowsNamed("/a")...),
		httpmock.NewStringResponse(500, `{"error": "boom"}`),
		httpmock.NewStringResponse(500, `{"error": "boom"}`),
	}))

	var pages, errs int
	for page, err := range c.VisitorPages(context.Background(), mintlify.VisitorsParams{Limit: 1}) {
		if err != nil {
			assert.Nil(t, page)
			assert.ErrorIs(t, err, mintlify.ErrServer)
			errs++
			continue // the walk must end by itself
		}
		pages++
	}
	assert.Equal(t, 1, pages)
	assert.Equal(t, 1, errs)
	assert.Equal(t, 3, mock.GetTotalCallCount(), "one page, then the failing one and its retry")
}

func TestVisitorsEmptyPageWithHasMoreEndsWalk(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	mock.RegisterResponder("GET", visitorsURL, httpmock.ResponderFromMultipleResponses([]*http.Response{
		visitorsPageResponse(true, visitorRowsNamed("/a")...),
		visitorsPageResponse(true),
	}))

	rows, err := collectVisitors(t, c.Visitors(context.Background(), mintlify.VisitorsParams{}))
	assert.Equal(t, []string{"/a"}, visitorPaths(rows))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "empty")
	assert.Equal(t, 2, mock.GetTotalCallCount())
}

func TestVisitorsStopWhenContextEndsBetweenPages(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	export := &fakeVisitorsExport{rows: visitorRowsNamed("/a", "/b", "/c")}
	mock.RegisterResponder("GET", visitorsURL, export.respond)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var got []string
	var walkErr error
	for row, err := range c.Visitors(ctx, mintlify.VisitorsParams{Limit: 1}) {
		if err != nil {
			walkErr = err
			continue
		}
		got = append(got, row.Path)
		cancel()
	}
	assert.Equal(t, []string{"/a"}, got)
	assert.ErrorIs(t, walkErr, context.Canceled)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestVisitorsDropRepeatedPaths(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	// Between requests, new rows pushed older ones down: "/b" repeats at the
	// start of the next page, "/a" two pages later, "/d" within a page.
	served := [][]wireVisitorsRow{
		visitorRowsNamed("/a", "/b"),
		visitorRowsNamed("/b", "/c"),
		visitorRowsNamed("/a", "/d"),
		visitorRowsNamed("/d", "/e"),
	}
	mock.RegisterResponder("GET", visitorsURL, func(req *http.Request) (*http.Response, error) {
		i := mock.GetTotalCallCount() - 1
		return visitorsPageResponse(i < len(served)-1, served[i]...), nil
	})
	ctx := context.Background()

	rows, err := collectVisitors(t, c.Visitors(ctx, mintlify.VisitorsParams{Limit: 2}))
	require.NoError(t, err)
	assert.Equal(t, []string{"/a", "/b", "/c", "/d", "/e"}, visitorPaths(rows))

	// Pages come without the repeats too, as the same number of pages.
	mock.ZeroCallCounters()
	var pageRows [][]string
	for page, err := range c.VisitorPages(ctx, mintlify.VisitorsParams{Limit: 2}) {
		require.NoError(t, err)
		pageRows = append(pageRows, visitorPaths(page.Visitors))
	}
	assert.Equal(t, [][]string{{"/a", "/b"}, {"/c"}, {"/d"}, {"/e"}}, pageRows)

	// Each walk starts with a clean slate.
	mock.ZeroCallCounters()
	rows, err = collectVisitors(t, c.Visitors(ctx, mintlify.VisitorsParams{Limit: 2}))
	require.NoError(t, err)
	assert.Len(t, rows, 5)
}

func TestVisitorsDropRepeatsAcrossLongWalks(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	// 1,000 distinct rows, then twelve pages of them again: what a server or
	// cache that ignores offset sends. Each row comes once, then the walk
	// stops after ten pages of nothing new instead of spending the quota on
	// repeats.
	var all []string
	for i := range 1000 {
		all = append(all, fmt.Sprintf("/p%d", i))
	}
	served := append(append(append(all, all...), all...), all...)
	export := &fakeVisitorsExport{rows: visitorRowsNamed(served...)}
	mock.RegisterResponder("GET", visitorsURL, export.respond)

	rows, err := collectVisitors(t, c.Visitors(context.Background(), mintlify.VisitorsParams{}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "10 pages in a row held no new row")
	assert.Equal(t, all, visitorPaths(rows))
	assert.Equal(t, 4+10, mock.GetTotalCallCount())
}

func TestVisitorsPathEscaping(t *testing.T) {
	t.Parallel()
	mock := httpmock.NewMockTransport()
	c, err := mintlify.NewClient(
		mintlify.WithAPIKey("mint_test"),
		mintlify.WithProjectID("a/b c"),
		mintlify.WithBaseURL("https://api.test/proxy/"),
		mintlify.WithHTTPClient(&http.Client{Transport: mock}),
	)
	require.NoError(t, err)
	var got string
	mock.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		got = req.URL.EscapedPath()
		return visitorsPageResponse(false), nil
	})
	_, err = c.GetVisitors(context.Background(), mintlify.VisitorsParams{})
	require.NoError(t, err)
	assert.Equal(t, "/proxy/v1/analytics/a%2Fb%20c/visitors", got)
}

func TestVisitorsErrorsAreAPIErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		want   error
	}{
		{401, mintlify.ErrUnauthorized},
		{429, mintlify.ErrRateLimited},
	} {
		c, mock := newVisitorsClient(t)
		resp := httpmock.NewStringResponse(tc.status, `{"error": "no"}`)
		resp.Header.Set("Retry-After", "3600") // beyond the wait the client accepts
		mock.RegisterResponder("GET", visitorsURL, httpmock.ResponderFromResponse(resp))
		_, err := c.GetVisitors(context.Background(), mintlify.VisitorsParams{})
		assert.True(t, errors.Is(err, tc.want), "%d: %v", tc.status, err)
		assert.Equal(t, 1, mock.GetTotalCallCount(), "%d: no retry", tc.status)
	}
}

// visitorsRecorder answers every request with an empty last page and keeps
// its query.
type visitorsRecorder struct{ queries []string }

func (r *visitorsRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.queries = append(r.queries, req.URL.RawQuery)
	return visitorsPageResponse(false), nil
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
		rec := &visitorsRecorder{}
		c, err := mintlify.NewClient(mintlify.WithAPIKey("mint_fuzz"), mintlify.WithProjectID("p"),
			mintlify.WithBaseURL("https://api.test"), mintlify.WithHTTPClient(&http.Client{Transport: rec}))
		require.NoError(t, err)

		_, err = c.GetVisitors(context.Background(), p)
		if err != nil {
			require.ErrorIs(t, err, mintlify.ErrInvalidInput)
			require.Empty(t, rec.queries, "an invalid request was sent")
			return
		}
		require.Len(t, rec.queries, 1)
		q, err := url.ParseQuery(rec.queries[0])
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

// With a tiny Limit one row moving down one place repeats a whole page:
// that repeat is dropped and the walk goes on (only pages repeated again
// and again mean the server ignores offset).
func TestVisitorsSmallLimitSurvivesARepeatedPage(t *testing.T) {
	t.Parallel()
	c, mock := newVisitorsClient(t)
	export := &fakeVisitorsExport{rows: visitorRowsNamed("/a", "/b", "/c")}
	moved := &fakeVisitorsExport{rows: visitorRowsNamed("/b", "/a", "/c")}
	var calls atomic.Int32
	mock.RegisterResponder("GET", visitorsURL, func(req *http.Request) (*http.Response, error) {
		if calls.Add(1) == 1 {
			return export.respond(req)
		}
		return moved.respond(req) // "/b" overtook "/a" after the first page
	})

	rows, err := collectVisitors(t, c.Visitors(context.Background(), mintlify.VisitorsParams{Limit: 1}))
	require.NoError(t, err)
	assert.Equal(t, []string{"/a", "/c"}, visitorPaths(rows), "the repeat is dropped; /b moved up past the walk, as offset pagination allows")
	assert.EqualValues(t, 3, calls.Load())
}
