package mintlify_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/memtest"
)

// The benchmarks walk an export of benchRows rows through the SDK's row
// iterator and through a hand-written net/http + encoding/json loop over the
// same bodies, so the difference is the SDK's own cost: go-querystring,
// retryablehttp, the checked decoding, the pager and its repeat filter.
// Two routes, one per kind of paging: views (offset, 250 rows a page) and
// searches (cursor, 100 rows a page). See BENCHMARKS.md for figures and how
// to reproduce them.

const benchRows = 100_000

// benchRoute is one route as the benchmarks serve and walk it.
type benchRoute struct {
	name     string
	pageSize int
	// appendPage appends the body of page index of an export of total rows.
	appendPage func(buf []byte, index, total int) []byte
	// pageOf reads which page a request asks for.
	pageOf func(r *http.Request) int
	sdk    func(c *mintlify.Client, each func()) (int, error)
	raw    func(hc *http.Client, base string, each func()) (int, error)
}

var benchRoutes = []benchRoute{
	{
		name: "views", pageSize: 250,
		appendPage: appendViewsPage,
		pageOf: func(r *http.Request) int {
			off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
			return off / 250
		},
		sdk: sdkViewsWalk,
		raw: rawViewsWalk,
	},
	{
		name: "searches", pageSize: 100,
		appendPage: appendSearchesPage,
		pageOf: func(r *http.Request) int {
			n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Query().Get("cursor"), "page-"))
			return n
		},
		sdk: sdkSearchesWalk,
		raw: rawSearchesWalk,
	},
}

func benchRouteNamed(name string) benchRoute {
	for _, r := range benchRoutes {
		if r.name == name {
			return r
		}
	}
	panic("no bench route " + name)
}

// appendViewsPage writes a views page of distinct paths of realistic
// lengths.
func appendViewsPage(buf []byte, index, total int) []byte {
	offset := index * 250
	end := min(offset+250, total)
	buf = append(buf, `{"totals":{"human":91234,"ai":40321,"total":131555},"views":[`...)
	for i := offset; i < end; i++ {
		if i > offset {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"path":"/docs/guides/section-`...)
		buf = strconv.AppendInt(buf, int64(i%97), 10)
		buf = append(buf, `/page-`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `","human":`...)
		buf = strconv.AppendInt(buf, int64(total-i), 10)
		buf = append(buf, `,"ai":`...)
		buf = strconv.AppendInt(buf, int64((total-i)/3), 10)
		buf = append(buf, `,"total":`...)
		buf = strconv.AppendInt(buf, int64(total-i+(total-i)/3), 10)
		buf = append(buf, '}')
	}
	buf = append(buf, `],"hasMore":`...)
	buf = strconv.AppendBool(buf, end < total)
	return append(buf, "}\n"...)
}

// appendSearchesPage writes a searches page: distinct terms, half with a
// clicked page, half null; the cursor names the next page.
func appendSearchesPage(buf []byte, index, total int) []byte {
	offset := index * 100
	end := min(offset+100, total)
	buf = append(buf, `{"searches":[`...)
	for i := offset; i < end; i++ {
		if i > offset {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"searchQuery":"how to configure term `...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `","hits":`...)
		buf = strconv.AppendInt(buf, int64(total-i), 10)
		buf = append(buf, `,"ctr":0.`...)
		buf = strconv.AppendInt(buf, int64(10+i%89), 10)
		if i%2 == 0 {
			buf = append(buf, `,"topClickedPage":"/docs/guides/page-`...)
			buf = strconv.AppendInt(buf, int64(i%500), 10)
			buf = append(buf, '"')
		} else {
			buf = append(buf, `,"topClickedPage":null`...)
		}
		buf = append(buf, `,"lastSearchedAt":"2025-01-`...)
		buf = strconv.AppendInt(buf, int64(10+i%19), 10)
		buf = append(buf, `T08:15:30.123Z"}`...)
	}
	buf = append(buf, `],"totalSearches":5000000,"nextCursor":`...)
	if end < total {
		buf = append(buf, `"page-`...)
		buf = strconv.AppendInt(buf, int64(index+1), 10)
		buf = append(buf, '"')
	} else {
		buf = append(buf, "null"...)
	}
	return append(buf, "}\n"...)
}

// benchPages are the prepared bodies of an export, by page index.
func benchPages(r benchRoute, total int) [][]byte {
	var pages [][]byte
	for i := 0; i*r.pageSize < total; i++ {
		pages = append(pages, r.appendPage(nil, i, total))
	}
	return pages
}

// preparedTransport answers every request in memory with a prepared page.
type preparedTransport struct {
	route benchRoute
	pages [][]byte
}

func (t preparedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return benchResponse(r, t.pages[t.route.pageOf(r)]), nil
}

// generatingTransport builds each page when it is asked for, into one
// reused buffer, so that it holds no memory that grows with the export:
// the peak-memory benchmarks measure the walk, not the fixture.
type generatingTransport struct {
	route benchRoute
	total int
	buf   []byte
}

func (t *generatingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.buf = t.route.appendPage(t.buf[:0], t.route.pageOf(r), t.total)
	return benchResponse(r, t.buf), nil
}

func benchResponse(r *http.Request, body []byte) *http.Response {
	return &http.Response{
		StatusCode:    http.StatusOK,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       r,
	}
}

func newBenchClient(base string, hc *http.Client) *mintlify.Client {
	c, err := mintlify.NewClient(
		mintlify.WithAPIKey("mint_bench"),
		mintlify.WithProjectID("proj"),
		mintlify.WithBaseURL(base),
		mintlify.WithHTTPClient(hc),
		mintlify.WithMaxWalkRequests(20_000), // 1,000,000 rows of 100
	)
	if err != nil {
		panic(err) // the arguments are constants
	}
	return c
}

// benchSink keeps the compiler from dropping the work done on each row.
var benchSink int

var benchFrom, benchTo = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)

// counted calls each every 100 rows.
func counted(rows *int, each func()) {
	if *rows++; *rows%100 == 0 && each != nil {
		each()
	}
}

func sdkViewsWalk(c *mintlify.Client, each func()) (rows int, err error) {
	for row, err := range c.Views(context.Background(), mintlify.ViewsParams{DateFrom: benchFrom, DateTo: benchTo}) {
		if err != nil {
			return rows, err
		}
		benchSink += row.Total
		counted(&rows, each)
	}
	return rows, nil
}

func sdkSearchesWalk(c *mintlify.Client, each func()) (rows int, err error) {
	for term, err := range c.Searches(context.Background(), mintlify.SearchesParams{DateFrom: benchFrom, DateTo: benchTo}) {
		if err != nil {
			return rows, err
		}
		benchSink += term.Hits + term.LastSearchedAt.Second()
		counted(&rows, each)
	}
	return rows, nil
}

// rawGet is what a careful user would write without the SDK: one request,
// decode, drain the body so the connection is reused.
func rawGet(hc *http.Client, u string, page any) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer mint_bench")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	err = json.NewDecoder(resp.Body).Decode(page)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return err
}

// rawViewsWalk adds the rows received to offset while hasMore.
func rawViewsWalk(hc *http.Client, base string, each func()) (rows int, err error) {
	type rawRow struct {
		Path  string `json:"path"`
		Human int    `json:"human"`
		AI    int    `json:"ai"`
		Total int    `json:"total"`
	}
	type rawPage struct {
		Totals struct {
			Human int `json:"human"`
			AI    int `json:"ai"`
			Total int `json:"total"`
		} `json:"totals"`
		Views   []rawRow `json:"views"`
		HasMore bool     `json:"hasMore"`
	}
	for offset := 0; ; {
		var page rawPage
		u := base + "/v1/analytics/proj/views?dateFrom=2025-01-01&dateTo=2025-02-01&limit=250&offset=" + strconv.Itoa(offset)
		if err := rawGet(hc, u, &page); err != nil {
			return rows, err
		}
		for _, row := range page.Views {
			benchSink += row.Total
			counted(&rows, each)
		}
		if !page.HasMore {
			return rows, nil
		}
		offset += len(page.Views)
	}
}

// rawSearchesWalk follows nextCursor until it is null.
func rawSearchesWalk(hc *http.Client, base string, each func()) (rows int, err error) {
	type rawTerm struct {
		SearchQuery    string    `json:"searchQuery"`
		Hits           int       `json:"hits"`
		CTR            float64   `json:"ctr"`
		TopClickedPage *string   `json:"topClickedPage"`
		LastSearchedAt time.Time `json:"lastSearchedAt"`
	}
	type rawPage struct {
		Searches      []rawTerm `json:"searches"`
		TotalSearches int       `json:"totalSearches"`
		NextCursor    *string   `json:"nextCursor"`
	}
	for cursor := ""; ; {
		var page rawPage
		u := base + "/v1/analytics/proj/searches?dateFrom=2025-01-01&dateTo=2025-02-01&limit=100"
		if cursor != "" {
			u += "&cursor=" + url.QueryEscape(cursor)
		}
		if err := rawGet(hc, u, &page); err != nil {
			return rows, err
		}
		for _, term := range page.Searches {
			benchSink += term.Hits + term.LastSearchedAt.Second()
			counted(&rows, each)
		}
		if page.NextCursor == nil {
			return rows, nil
		}
		cursor = *page.NextCursor
	}
}

// benchTransport is where a benchmark walk reads the prepared pages from.
type benchTransport struct {
	name string
	base string
	hc   *http.Client
}

// benchTransports serves route's 100,000-row export from a local HTTP
// server and from memory; the server is closed when the benchmark ends.
func benchTransports(b *testing.B, route benchRoute) []benchTransport {
	pages := benchPages(route, benchRows)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(pages[route.pageOf(r)])
	}))
	b.Cleanup(srv.Close)
	return []benchTransport{
		{"local", srv.URL, srv.Client()},
		{"memory", "https://bench.invalid", &http.Client{Transport: preparedTransport{route, pages}}},
	}
}

// BenchmarkAnalyticsWalk walks 100,000 rows per op for each route, from a
// local HTTP server and from memory, with the SDK and with the raw loop.
// Compare ns/row and allocs/row of sdk and raw within each transport.
func BenchmarkAnalyticsWalk(b *testing.B) {
	for _, route := range benchRoutes {
		for _, tr := range benchTransports(b, route) {
			c := newBenchClient(tr.base, tr.hc)
			walks := []struct {
				name string
				walk func() (int, error)
			}{
				{"sdk", func() (int, error) { return route.sdk(c, nil) }},
				{"raw", func() (int, error) { return route.raw(tr.hc, tr.base, nil) }},
			}
			for _, w := range walks {
				b.Run(route.name+"/"+tr.name+"/"+w.name, func(b *testing.B) {
					b.ReportAllocs()
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					cpu := processCPU()
					b.ResetTimer()
					for range b.N {
						n, err := w.walk()
						if err != nil || n != benchRows {
							b.Fatalf("walked %d rows: %v", n, err)
						}
					}
					b.StopTimer()
					cpu = processCPU() - cpu
					runtime.ReadMemStats(&after)
					rows := float64(b.N) * benchRows
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/rows, "ns/row")
					if !math.IsNaN(cpu) {
						b.ReportMetric(cpu*1e9/rows, "cpu-ns/row")
					}
					b.ReportMetric(float64(after.Mallocs-before.Mallocs)/rows, "allocs/row")
				})
			}
		}
	}
}

// BenchmarkAnalyticsWalkPaired times an SDK walk and a raw walk of 100,000
// rows back to back in each op (alternating which goes first) and reports
// the median of their ratios: on a shared machine, where separate runs vary
// by 10% or more, the pairs see the same conditions.
func BenchmarkAnalyticsWalkPaired(b *testing.B) {
	for _, route := range benchRoutes {
		for _, tr := range benchTransports(b, route) {
			c := newBenchClient(tr.base, tr.hc)
			timed := func(walk func() (int, error)) time.Duration {
				start := time.Now()
				if n, err := walk(); err != nil || n != benchRows {
					b.Fatalf("walked %d rows: %v", n, err)
				}
				return time.Since(start)
			}
			sdk := func() (int, error) { return route.sdk(c, nil) }
			raw := func() (int, error) { return route.raw(tr.hc, tr.base, nil) }
			b.Run(route.name+"/"+tr.name, func(b *testing.B) {
				var ratios []float64
				var sdkTime, rawTime time.Duration
				for i := range b.N {
					var s, r time.Duration
					if i%2 == 0 {
						s, r = timed(sdk), timed(raw)
					} else {
						r, s = timed(raw), timed(sdk)
					}
					sdkTime, rawTime = sdkTime+s, rawTime+r
					ratios = append(ratios, float64(s)/float64(r))
				}
				slices.Sort(ratios)
				rows := float64(b.N) * benchRows
				b.ReportMetric(ratios[len(ratios)/2], "sdk/raw")
				b.ReportMetric(float64(sdkTime.Nanoseconds())/rows, "sdk-ns/row")
				b.ReportMetric(float64(rawTime.Nanoseconds())/rows, "raw-ns/row")
				b.ReportMetric(0, "ns/op") // the op is a pair: its time means little
			})
		}
	}
}

// processCPU is the CPU time (user + system) the process has used so far,
// in seconds, or NaN where /proc is missing. On a shared machine it varies
// much less than wall time. It counts the local server too, equally for
// both walks. Its resolution is 10ms: use -benchtime=10x or more.
func processCPU() float64 {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return math.NaN()
	}
	// The fields after the command name (in parentheses, maybe with spaces);
	// utime and stime are the 12th and 13th of them, in clock ticks.
	_, rest, _ := strings.Cut(string(stat), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return math.NaN()
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100 // USER_HZ is 100 on every Linux port
}

// BenchmarkAnalyticsPeakMemory shows that a walk's memory does not grow
// with the export: for 10,000, 100,000 and 1,000,000 rows of each route it
// reports the peak live heap (after a GC every 100 or 1,000 rows: what a walk
// retains)
// and, with $MINTLIFY_BENCH_RSS=1, the peak RSS of a fresh process doing
// just that walk (see TestAnalyticsPeakRSSHelper) and of one doing nothing.
func BenchmarkAnalyticsPeakMemory(b *testing.B) {
	for _, route := range benchRoutes {
		for _, total := range []int{10_000, 100_000, 1_000_000} {
			for _, kind := range []string{"sdk", "raw"} {
				b.Run(fmt.Sprintf("%s/rows=%d/%s", route.name, total, kind), func(b *testing.B) {
					for range b.N {
						peak, rows, err := peakLiveHeap(route, kind, total)
						if err != nil || rows != total {
							b.Fatalf("walked %d rows: %v", rows, err)
						}
						b.ReportMetric(float64(peak)/(1<<10), "peak-live-KiB")
					}
					if os.Getenv("MINTLIFY_BENCH_RSS") == "1" {
						b.ReportMetric(peakRSSInFreshProcess(b, route.name, kind, total)/(1<<10), "peak-RSS-MiB")
						b.ReportMetric(peakRSSInFreshProcess(b, route.name, "none", 0)/(1<<10), "runtime-RSS-MiB")
					}
				})
			}
		}
	}
}

// peakLiveHeap walks total rows from memory and returns the largest live
// heap seen after a GC every 100 rows (1,000 beyond 100,000 rows), less the heap before the walk.
func peakLiveHeap(route benchRoute, kind string, total int) (peak uint64, rows int, err error) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := func() uint64 {
		runtime.GC()
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := live()
	seen := 0
	each := func() {
		if seen += 100; total > 100_000 && seen%1000 != 0 {
			return // a GC every 1,000 rows on the long walk: the peak is the same
		}
		if l := live(); l > base {
			peak = max(peak, l-base)
		}
	}
	rows, err = walkKind(route, kind, total, each)
	return peak, rows, err
}

// walkKind walks total generated rows of route in memory with the SDK
// ("sdk") or the raw loop ("raw"); "none" walks nothing.
func walkKind(route benchRoute, kind string, total int, each func()) (int, error) {
	hc := &http.Client{Transport: &generatingTransport{route: route, total: total}}
	switch kind {
	case "sdk":
		return route.sdk(newBenchClient("https://bench.invalid", hc), each)
	case "raw":
		return route.raw(hc, "https://bench.invalid", each)
	}
	return 0, nil
}

// peakRSSInFreshProcess runs this test binary again to do one walk and
// returns that process's peak RSS in KiB.
func peakRSSInFreshProcess(b *testing.B, route, kind string, total int) float64 {
	cmd := exec.Command(os.Args[0], "-test.run=^TestAnalyticsPeakRSSHelper$", "-test.v")
	cmd.Env = append(os.Environ(), fmt.Sprintf("MINTLIFY_PEAK_WALK=%s:%s:%d", route, kind, total))
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("helper: %v\n%s", err, out)
	}
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		if kib, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "peak-rss-kib "); ok {
			v, err := strconv.ParseFloat(kib, 64)
			if err == nil {
				return v
			}
		}
	}
	b.Fatalf("helper printed no peak:\n%s", out)
	return 0
}

// TestAnalyticsPeakRSSHelper is a helper process, not a test: started by
// BenchmarkAnalyticsPeakMemory with $MINTLIFY_PEAK_WALK=route:kind:rows,
// it does that one walk and prints the process's peak RSS (VmHWM, Linux
// only).
func TestAnalyticsPeakRSSHelper(t *testing.T) {
	spec := os.Getenv("MINTLIFY_PEAK_WALK")
	if spec == "" {
		t.Skip("run by BenchmarkAnalyticsPeakMemory")
	}
	parts := strings.SplitN(spec, ":", 3)
	if len(parts) != 3 {
		t.Fatalf("MINTLIFY_PEAK_WALK=%q: want route:kind:rows", spec)
	}
	total, _ := strconv.Atoi(parts[2])
	rows, err := walkKind(benchRouteNamed(parts[0]), parts[1], total, nil)
	if err != nil || rows != total {
		t.Fatalf("walked %d rows: %v", rows, err)
	}
	peak, ok := memtest.PeakRSS(0)
	if !ok {
		t.Skip("no peak RSS: it is read from /proc/self/status, on Linux only")
	}
	fmt.Println("peak-rss-kib", peak>>10)
}
