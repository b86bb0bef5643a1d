package mockserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/mockserver"
)

// The benchmarks below run against the data set of -seed 1000000: a
// million visits, 200,000 searches, 20,000 feedback entries, 5,000 threads.
// Run them alone (RSS is the whole test process):
//
//	go test -run '^$' -bench 'Seed' -benchtime 200x ./mockserver

const benchSeed = 1_000_000

var (
	seededOnce   sync.Once
	seeded       *mockserver.Server
	seededRSS    float64
	seededMillis float64
)

// seededServer starts the shared server once and measures what it cost.
func seededServer(b *testing.B) *mockserver.Server {
	seededOnce.Do(func() {
		start := time.Now()
		seeded = mockserver.New(mockserver.WithSeed(benchSeed), mockserver.WithoutRateLimits(),
			mockserver.WithClock(mockserver.NewFakeClock(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))))
		seededMillis = float64(time.Since(start).Milliseconds())
		seededRSS = rssMB()
	})
	return seeded
}

// BenchmarkSeedStartup reports how long -seed 1000000 takes to build and
// the RSS of the process once it has.
func BenchmarkSeedStartup(b *testing.B) {
	seededServer(b)
	for range b.N {
	}
	b.ReportMetric(seededMillis, "ms-startup")
	b.ReportMetric(seededRSS, "MB-RSS")
}

type seededRoute struct {
	name, path, query, key string
	cursor                 bool
}

var seededRoutes = []seededRoute{
	{name: "visitors", path: "visitors", query: "limit=250", key: "visitors"},
	{name: "views", path: "views", query: "limit=250", key: "views"},
	{name: "searches", path: "searches", query: "limit=100", key: "searches", cursor: true},
	{name: "feedback", path: "feedback", query: "limit=100", key: "feedback", cursor: true},
	{name: "feedback-by-page", path: "feedback/by-page", query: "limit=100", key: "feedback"},
	{name: "assistant", path: "assistant", query: "limit=1000", key: "conversations", cursor: true},
	{name: "caller-stats", path: "assistant/caller-stats", key: "total"},
}

func seededRequest(s *mockserver.Server, path, query string) *http.Request {
	r := httptest.NewRequest("GET", "/v1/analytics/"+s.ProjectID()+"/"+path+"?"+query, nil)
	r.Header.Set("Authorization", "Bearer "+s.APIKey())
	return r
}

// BenchmarkSeededRoutes: first-page asks for a window never asked before
// (dateFrom moves by a millisecond each time, so no cache helps); later-page
// follows the walk (the next offset or cursor) of one window.
func BenchmarkSeededRoutes(b *testing.B) {
	s := seededServer(b)
	h := s.Handler()
	for _, rt := range seededRoutes {
		b.Run(rt.name+"/first-page", func(b *testing.B) {
			d := &discard{h: http.Header{}}
			from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			for i := range b.N {
				q := rt.query + "&dateFrom=" + from.Add(time.Duration(i+1)*time.Millisecond).Format(time.RFC3339Nano)
				d.serve(b, h, seededRequest(s, rt.path, q))
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/page")
		})
		if rt.key == "total" || rt.name == "feedback-by-page" {
			continue // one page only
		}
		b.Run(rt.name+"/later-page", func(b *testing.B) {
			next := laterPages(b, s, rt)
			b.ResetTimer()
			for range b.N {
				next()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/page")
		})
	}
}

// laterPages returns a function that serves the next page of a walk,
// starting over at the end (and then reporting true).
func laterPages(b *testing.B, s *mockserver.Server, rt seededRoute) func() bool {
	h := s.Handler()
	offset, cursor := 0, ""
	limit := 100
	if !rt.cursor {
		limit = 250
	}
	first := func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, seededRequest(s, rt.path, rt.query))
		offset, cursor = limit, nextCursor(rec.Body.Bytes())
	}
	first()
	return func() bool {
		rec := httptest.NewRecorder()
		q := rt.query
		if rt.cursor {
			q += "&cursor=" + url.QueryEscape(cursor)
		} else {
			q += "&offset=" + strconv.Itoa(offset)
		}
		h.ServeHTTP(rec, seededRequest(s, rt.path, q))
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", rt.name, rec.Code, rec.Body)
		}
		offset += limit
		body := rec.Body.Bytes()
		switch next := nextCursor(body); {
		case rt.cursor && next != "":
			cursor = next
		case rt.cursor || !bytes.HasSuffix(body, []byte(`"hasMore":true}`)):
			first()
			return true
		}
		return false
	}
}

// nextCursor finds a page's cursor without decoding the page: the
// benchmark measures the server, not a JSON decoder.
func nextCursor(body []byte) string {
	i := bytes.LastIndex(body, []byte(`"nextCursor":"`))
	if i < 0 {
		return ""
	}
	rest := body[i+len(`"nextCursor":"`):]
	var s string
	_ = json.Unmarshal(append([]byte{'"'}, rest[:bytes.IndexByte(rest, '"')+1]...), &s)
	return s
}

// BenchmarkSeededWalkRSS walks every route of the seeded server to its end
// and reports the process's RSS afterwards.
func BenchmarkSeededWalkRSS(b *testing.B) {
	s := seededServer(b)
	pages := 0
	for range b.N {
		for _, rt := range seededRoutes {
			if rt.key == "total" || rt.name == "feedback-by-page" {
				continue
			}
			next := laterPages(b, s, rt)
			for pages++; !next(); pages++ {
			}
		}
	}
	b.ReportMetric(float64(pages)/float64(b.N), "pages/walk")
	b.ReportMetric(rssMB(), "MB-RSS")
}

// BenchmarkPrismLoad is BenchmarkSeededLoad against another mock of the
// same API, for the comparison in BENCHMARKS.md: Stoplight Prism serving
// the vendor's analytics document. Skipped unless MOCK_COMPARE_ADDR names
// it (host:port), e.g.
//
//	npx @stoplight/prism-cli mock -p 4399 analytics.openapi.json &
//	MOCK_COMPARE_ADDR=127.0.0.1:4399 go test -run '^$' -bench 'SeededLoad|PrismLoad' -benchtime 20000x ./mockserver
func BenchmarkPrismLoad(b *testing.B) {
	addr := os.Getenv("MOCK_COMPARE_ADDR")
	if addr == "" {
		b.Skip("MOCK_COMPARE_ADDR is not set")
	}
	auth := "Authorization: Bearer mint_compare\r\n"
	for _, tc := range []struct{ name, path string }{
		{"views-50", "/v1/analytics/p/views"},
		{"searches-50", "/v1/analytics/p/searches"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			loadAddr(b, addr, []byte("GET "+tc.path+" HTTP/1.1\r\nHost: mock\r\n"+auth+"\r\n"), 8)
		})
	}
}

// BenchmarkSeededLoad: requests per second for a views page and a searches
// page over 8 loopback connections.
func BenchmarkSeededLoad(b *testing.B) {
	s := seededServer(b)
	auth := "Authorization: Bearer " + s.APIKey() + "\r\n"
	for _, tc := range []struct{ name, path string }{
		{"views-50", "/v1/analytics/" + s.ProjectID() + "/views"},
		{"searches-50", "/v1/analytics/" + s.ProjectID() + "/searches"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			load(b, s, []byte("GET "+tc.path+" HTTP/1.1\r\nHost: mock\r\n"+auth+"\r\n"), 8)
		})
	}
}
