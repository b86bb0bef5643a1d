package mockserver_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/mockserver"
)

// discard is a ResponseWriter that keeps nothing, so the benchmarks
// measure the server and not a recorder.
type discard struct {
	h      http.Header
	status int
	n      int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(status int)      { d.status = status }
func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }

func (d *discard) serve(b *testing.B, h http.Handler, r *http.Request) {
	clear(d.h)
	d.status, d.n = 0, 0
	h.ServeHTTP(d, r)
	if d.status != http.StatusOK {
		b.Fatalf("status %d", d.status)
	}
}

func heapBytes() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// exportServer stores a million visits over 2,000 paths and 90 days and
// reports how much heap they take.
func exportServer(b *testing.B) (*mockserver.Server, float64) {
	b.Helper()
	before := heapBytes()
	s := mockserver.New(mockserver.WithoutRateLimits(), mockserver.WithClock(mockserver.NewFakeClock(epoch)))
	b.Cleanup(s.Close)
	visits := mockserver.SyntheticVisits(1_000_000, epoch)
	if err := s.AddVisits(s.ProjectID(), visits...); err != nil {
		b.Fatal(err)
	}
	visits = nil
	return s, float64(heapBytes()-before) / (1 << 20)
}

func visitorsRequest(s *mockserver.Server, query string) *http.Request {
	r := httptest.NewRequest("GET", "/v1/analytics/"+s.ProjectID()+"/visitors?"+query, nil)
	r.Header.Set("Authorization", "Bearer "+s.APIKey())
	return r
}

// BenchmarkVisitorsExport measures the export over 1M stored visits:
// first-page computes a window not seen before (each iteration shifts
// dateFrom by a nanosecond, so nothing is cached); next-page is every later
// page of a 250-row walk over the whole export.
func BenchmarkVisitorsExport(b *testing.B) {
	s, mb := exportServer(b)
	h := s.Handler()
	d := &discard{h: http.Header{}}

	b.Run("first-page", func(b *testing.B) {
		from := epoch.Add(-91 * 24 * time.Hour)
		for i := range b.N {
			q := "limit=250&dateFrom=" + from.Add(time.Duration(i)).Format(time.RFC3339Nano)
			d.serve(b, h, visitorsRequest(s, q))
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/page")
		b.ReportMetric(mb, "MB-visits") // after the loop: ResetTimer would drop it
	})

	b.Run("next-page", func(b *testing.B) {
		var pages []*http.Request
		for offset := 250; offset < mockserver.SyntheticPaths; offset += 250 {
			pages = append(pages, visitorsRequest(s, "limit=250&offset="+strconv.Itoa(offset)))
		}
		d.serve(b, h, visitorsRequest(s, "limit=250")) // the first page fills the cache
		b.ResetTimer()
		for i := range b.N {
			d.serve(b, h, pages[i%len(pages)])
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/page")
	})
}

// BenchmarkLoad drives the server over loopback from 8 keep-alive
// connections, one request in flight on each, and reports requests per
// second, and the CPU time (server plus generator) per request. The
// generator writes a prepared request and parses the response with bufio +
// http.ReadResponse, to cost as little as possible.
func BenchmarkLoad(b *testing.B) {
	s := mockserver.New(mockserver.WithoutRateLimits(), mockserver.WithSyntheticVisits(100_000))
	defer s.Close()
	job := createJobOver(b, s)
	auth := "Authorization: Bearer " + s.APIKey() + "\r\n"
	targets := []struct{ name, path string }{
		{"get-job", "/v2/agent/" + s.ProjectID() + "/job/" + job},
		{"visitors-250", "/v1/analytics/" + s.ProjectID() + "/visitors?limit=250"},
	}
	for _, tc := range targets {
		b.Run(tc.name, func(b *testing.B) {
			req := []byte("GET " + tc.path + " HTTP/1.1\r\nHost: mock\r\n" + auth + "\r\n")
			load(b, s, req, 8)
		})
	}
}

func load(b *testing.B, s *mockserver.Server, req []byte, conns int) {
	loadAddr(b, strings.TrimPrefix(s.URL(), "http://"), req, conns)
}

// loadAddr is load against any HTTP/1.1 server, the comparison mocks too.
func loadAddr(b *testing.B, addr string, req []byte, conns int) {
	clients := make([]net.Conn, conns)
	for i := range clients {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		clients[i] = c
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	cpu := processCPU()
	b.ResetTimer()
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			br := bufio.NewReaderSize(c, 64<<10)
			for left.Add(-1) >= 0 {
				if _, err := c.Write(req); err != nil {
					errs <- err
					return
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					errs <- err
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					errs <- fmt.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	cpu = processCPU() - cpu
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	if cpu > 0 {
		// Server and generator together; 2 cores / this = req/s on an idle machine.
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/req")
	}
}

func createJobOver(b *testing.B, s *mockserver.Server) string {
	req, _ := http.NewRequest("POST", s.URL()+"/v2/agent/"+s.ProjectID()+"/job", strings.NewReader(`{"prompt":"bench"}`))
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	resp, err := s.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	return s.Jobs()[0].ID
}

// BenchmarkStorageDownload streams a padded 256 MiB bundle from the storage
// host over loopback. The bytes are computed from their offset, so the
// server's heap must not grow with the bundle: heap-MiB reports the growth
// seen after the download.
//
//	go test -run '^$' -bench StorageDownload -benchtime 5x ./mockserver
func BenchmarkStorageDownload(b *testing.B) {
	const size = 256 << 20
	h := setup(b, mockserver.WithJobDuration(0), mockserver.WithBundleSize(size))
	link := h.bundle(h.startExport(`{"domain":"docs.example.com"}`).JobID).BundleURL
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		resp, err := http.Get(link)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || n != size {
			b.Fatalf("read %d bytes, %v", n, err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "heap-MiB")
}

// rssMB is this process's resident set size as top shows it (VmRSS), after
// handing freed memory back to the system; 0 where /proc is missing.
func rssMB() float64 {
	debug.FreeOSMemory()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
