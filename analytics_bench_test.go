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
)

// The benchmarks walk a visitors export of benchRows rows in pages of 250,
// through the SDK's row iterator and through a hand-written net/http +
// encoding/json loop over the same bodies, so the difference is the SDK's
// own cost: go-querystring, retryablehttp, the iterators, and the repeat
// filter. See BENCHMARKS.md for figures and how to reproduce them.

const (
	benchPageSize = 250
	benchRows     = 100_000
)

// appendBenchPage appends the body the service would send for the page at
// offset of an export of total rows: distinct paths, realistic lengths.
func appendBenchPage(buf []byte, offset, total int) []byte {
	end := min(offset+benchPageSize, total)
	buf = append(buf, `{"totals":{"human":91234,"ai":40321,"total":120007},"visitors":[`...)
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
		buf = strconv.AppendInt(buf, int64(total-i+(total-i)/5), 10)
		buf = append(buf, '}')
	}
	buf = append(buf, `],"hasMore":`...)
	buf = strconv.AppendBool(buf, end < total)
	return append(buf, "}\n"...)
}

// benchPages are the prepared bodies of an export, by page index.
func benchPages(total int) [][]byte {
	var pages [][]byte
	for off := 0; off < total; off += benchPageSize {
		pages = append(pages, appendBenchPage(nil, off, total))
	}
	return pages
}

// pageIndex reads the page a request asks for from its offset.
func pageIndex(r *http.Request) int {
	off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	return off / benchPageSize
}

// preparedTransport answers every request in memory with a prepared page.
type preparedTransport struct{ pages [][]byte }

func (t preparedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return benchResponse(r, t.pages[pageIndex(r)]), nil
}

// generatingTransport builds each page when it is asked for, into one
// reused buffer, so that it holds no memory that grows with the export:
// the peak-memory benchmarks measure the walk, not the fixture.
type generatingTransport struct {
	total int
	buf   []byte
}

func (t *generatingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	off, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	t.buf = appendBenchPage(t.buf[:0], off, t.total)
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
	)
	if err != nil {
		panic(err) // the arguments are constants
	}
	return c
}

// benchSink keeps the compiler from dropping the work done on each row.
var benchSink int

// benchRange is the date range of every walk: a month, as an export would
// ask for.
var benchRange = mintlify.VisitorsParams{
	DateFrom: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
	DateTo:   time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC),
}

// sdkWalk reads every row through Visitors; each calls back every 250 rows.
func sdkWalk(c *mintlify.Client, each func()) (rows int, err error) {
	for row, err := range c.Visitors(context.Background(), benchRange) {
		if err != nil {
			return rows, err
		}
		benchSink += row.Total
		if rows++; rows%benchPageSize == 0 && each != nil {
			each()
		}
	}
	return rows, nil
}

// rawWalk is what a careful user would write without the SDK: one request
// per page, decode, drain the body so the connection is reused, add limit
// to offset while hasMore.
func rawWalk(hc *http.Client, base string, each func()) (rows int, err error) {
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
		Visitors []rawRow `json:"visitors"`
		HasMore  bool     `json:"hasMore"`
	}
	for offset := 0; ; {
		u := base + "/v1/analytics/proj/visitors?dateFrom=2025-01-01&dateTo=2025-02-01&limit=250&offset=" + strconv.Itoa(offset)
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
		if err != nil {
			return rows, err
		}
		req.Header.Set("Authorization", "Bearer mint_bench")
		resp, err := hc.Do(req)
		if err != nil {
			return rows, err
		}
		var page rawPage
		err = json.NewDecoder(resp.Body).Decode(&page)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return rows, err
		}
		if resp.StatusCode != http.StatusOK {
			return rows, fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		for _, row := range page.Visitors {
			benchSink += row.Total
			if rows++; rows%benchPageSize == 0 && each != nil {
				each()
			}
		}
		if !page.HasMore {
			return rows, nil
		}
		offset += len(page.Visitors)
	}
}

// benchTransport is where a benchmark walk reads the prepared pages from.
type benchTransport struct {
	name string
	base string
	hc   *http.Client
}

// benchTransports serves the 100,000-row export from a local HTTP server
// and from memory; the server is closed when the benchmark ends.
func benchTransports(b *testing.B) []benchTransport {
	pages := benchPages(benchRows)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(pages[pageIndex(r)])
	}))
	b.Cleanup(srv.Close)
	return []benchTransport{
		{"local", srv.URL, srv.Client()},
		{"memory", "http://bench.invalid", &http.Client{Transport: preparedTransport{pages}}},
	}
}

// BenchmarkVisitorsWalk walks 100,000 rows (400 pages of 250) per op, from
// a local HTTP server and from memory, with the SDK and with the raw loop.
// Compare ns/row and allocs/row of sdk and raw within each transport.
func BenchmarkVisitorsWalk(b *testing.B) {
	for _, tr := range benchTransports(b) {
		c := newBenchClient(tr.base, tr.hc)
		walks := []struct {
			name string
			walk func() (int, error)
		}{
			{"sdk", func() (int, error) { return sdkWalk(c, nil) }},
			{"raw", func() (int, error) { return rawWalk(tr.hc, tr.base, nil) }},
		}
		for _, w := range walks {
			b.Run(tr.name+"/"+w.name, func(b *testing.B) {
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

// BenchmarkVisitorsWalkPaired times an SDK walk and a raw walk of 100,000
// rows back to back in each op (alternating which goes first) and reports
// the median of their ratios: on a shared machine, where separate runs vary
// by 10% or more, the pairs see the same conditions.
func BenchmarkVisitorsWalkPaired(b *testing.B) {
	for _, tr := range benchTransports(b) {
		c := newBenchClient(tr.base, tr.hc)
		timed := func(walk func() (int, error)) time.Duration {
			start := time.Now()
			if n, err := walk(); err != nil || n != benchRows {
				b.Fatalf("walked %d rows: %v", n, err)
			}
			return time.Since(start)
		}
		sdk := func() (int, error) { return sdkWalk(c, nil) }
		raw := func() (int, error) { return rawWalk(tr.hc, tr.base, nil) }
		b.Run(tr.name, func(b *testing.B) {
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

// BenchmarkVisitorsPeakMemory shows that a walk's memory does not grow with
// the export: for 10,000, 100,000 and 1,000,000 rows it reports the peak live heap
// (a GC after every page: what a walk retains) and, with
// $MINTLIFY_BENCH_RSS=1, the peak RSS of a fresh process doing just that
// walk (see TestVisitorsPeakRSSHelper) and of one doing nothing.
func BenchmarkVisitorsPeakMemory(b *testing.B) {
	for _, total := range []int{10_000, 100_000, 1_000_000} {
		for _, kind := range []string{"sdk", "raw"} {
			b.Run(fmt.Sprintf("rows=%d/%s", total, kind), func(b *testing.B) {
				for range b.N {
					peak, rows, err := peakLiveHeap(kind, total)
					if err != nil || rows != total {
						b.Fatalf("walked %d rows: %v", rows, err)
					}
					b.ReportMetric(float64(peak)/(1<<10), "peak-live-KiB")
				}
				if os.Getenv("MINTLIFY_BENCH_RSS") == "1" {
					b.ReportMetric(peakRSSInFreshProcess(b, kind, total)/(1<<10), "peak-RSS-MiB")
					b.ReportMetric(peakRSSInFreshProcess(b, "none", 0)/(1<<10), "runtime-RSS-MiB")
				}
			})
		}
	}
}

// peakLiveHeap walks total rows from memory and returns the largest live
// heap seen after a GC at each page boundary, less the heap before the walk.
func peakLiveHeap(kind string, total int) (peak uint64, rows int, err error) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := func() uint64 {
		runtime.GC()
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := live()
	each := func() {
		if l := live(); l > base {
			peak = max(peak, l-base)
		}
	}
	rows, err = walkKind(kind, total, each)
	return peak, rows, err
}

// walkKind walks total generated rows in memory with the SDK ("sdk") or the
// raw loop ("raw"); "none" walks nothing.
func walkKind(kind string, total int, each func()) (int, error) {
	hc := &http.Client{Transport: &generatingTransport{total: total}}
	switch kind {
	case "sdk":
		return sdkWalk(newBenchClient("http://bench.invalid", hc), each)
	case "raw":
		return rawWalk(hc, "http://bench.invalid", each)
	}
	return 0, nil
}

// peakRSSInFreshProcess runs this test binary again to do one walk and
// returns that process's peak RSS in KiB.
func peakRSSInFreshProcess(b *testing.B, kind string, total int) float64 {
	cmd := exec.Command(os.Args[0], "-test.run=^TestVisitorsPeakRSSHelper$", "-test.v")
	cmd.Env = append(os.Environ(), fmt.Sprintf("MINTLIFY_PEAK_WALK=%s:%d", kind, total))
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

// TestVisitorsPeakRSSHelper is a helper process, not a test: started by
// BenchmarkVisitorsPeakMemory with $MINTLIFY_PEAK_WALK=kind:rows, it does
// that one walk and prints the process's peak RSS (VmHWM, Linux only).
func TestVisitorsPeakRSSHelper(t *testing.T) {
	spec := os.Getenv("MINTLIFY_PEAK_WALK")
	if spec == "" {
		t.Skip("run by BenchmarkVisitorsPeakMemory")
	}
	kind, n, _ := strings.Cut(spec, ":")
	total, _ := strconv.Atoi(n)
	rows, err := walkKind(kind, total, nil)
	if err != nil || rows != total {
		t.Fatalf("walked %d rows: %v", rows, err)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			fmt.Println("peak-rss-kib", strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
}
