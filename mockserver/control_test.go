package mockserver_test

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/internal/syncbuf"
	"github.com/docsagent/mintlify-go/mockserver"
)

func TestControlIndexListsRoutes(t *testing.T) {
	t.Parallel()
	h := setup(t)
	r := h.do("GET", "/_mock/", "", "Authorization", "")
	require.Equal(t, http.StatusOK, r.Status)
	var index struct {
		Version string `json:"version"`
		Routes  []struct {
			Route, Doc string
		} `json:"routes"`
	}
	r.decode(t, &index)
	assert.Equal(t, mockserver.Version, index.Version)
	assert.GreaterOrEqual(t, len(index.Routes), 10)

	miss := h.do("POST", "/_mock/job/x/archive", "")
	require.Equal(t, http.StatusNotFound, miss.Status)
	assert.Contains(t, miss.apiError(t).details(), "closest route: POST /_mock/jobs/{id}/archive")
}

func TestControlDrivesJobs(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(time.Hour))
	j := h.createJob("via http")

	r := h.do("POST", "/_mock/jobs/"+j.ID+"/outcome", `{"outcome":"no-change"}`)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var stored mockserver.Job
	r.decode(t, &stored)
	assert.Equal(t, mockserver.OutcomeNoChange, stored.Outcome)
	assert.Equal(t, "via http", stored.Prompt)

	require.Equal(t, http.StatusOK, h.do("POST", "/_mock/jobs/"+j.ID+"/finish", "").Status)
	got := h.getJob(j.ID)
	assert.Equal(t, "completed", got.Status)
	assert.Nil(t, got.PRLink)

	require.Equal(t, http.StatusOK, h.do("POST", "/_mock/jobs/"+j.ID+"/archive", "").Status)
	assert.Equal(t, "archived", h.getJob(j.ID).Status)

	assert.Equal(t, http.StatusNotFound, h.do("POST", "/_mock/jobs/job_nope/archive", "").Status)
	assert.Equal(t, http.StatusBadRequest, h.do("POST", "/_mock/jobs/"+j.ID+"/outcome", `{"outcome":"meh"}`).Status)
	assert.Equal(t, http.StatusBadRequest, h.do("POST", "/_mock/jobs/"+j.ID+"/outcome", `{`).Status)

	var list struct {
		Jobs []mockserver.Job `json:"jobs"`
	}
	h.do("GET", "/_mock/jobs?project="+h.s.ProjectID(), "").decode(t, &list)
	require.Len(t, list.Jobs, 1)
	assert.Equal(t, j.ID, list.Jobs[0].ID)
	h.do("GET", "/_mock/jobs?project=elsewhere", "").decode(t, &list)
	assert.Empty(t, list.Jobs)
}

func TestControlForcesOutcomeOfNewRuns(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock))
	require.Equal(t, http.StatusOK, h.do("PUT", "/_mock/outcome", `{"outcome":"failed"}`).Status)
	failed := h.createJob("x")
	require.Equal(t, http.StatusOK, h.do("PUT", "/_mock/outcome", `{"outcome":""}`).Status)
	fine := h.createJob("y")
	clock.Advance(time.Hour)
	assert.Equal(t, "failed", h.getJob(failed.ID).Status)
	assert.Equal(t, "completed", h.getJob(fine.ID).Status)
	assert.Equal(t, http.StatusBadRequest, h.do("PUT", "/_mock/outcome", `{"outcome":"maybe"}`).Status)
}

func TestControlClockAdvanceFinishesJobs(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(time.Hour)) // real clock
	j := h.createJob("x")
	r := h.do("POST", "/_mock/clock", `{"advance":"1h"}`)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Equal(t, "completed", h.getJob(j.ID).Status)
	assert.Equal(t, http.StatusBadRequest, h.do("POST", "/_mock/clock", `{"advance":"-1h"}`).Status)
	assert.Equal(t, http.StatusOK, h.do("GET", "/_mock/clock", "").Status)
}

func TestControlAddsVisits(t *testing.T) {
	t.Parallel()
	h := setup(t)
	r := h.do("POST", "/_mock/visits", `{"visits":[
		{"visitorId":"v1","path":"/a","ai":false,"timestamp":"2020-03-01T00:00:00Z"},
		{"visitorId":"v1","path":"/a","ai":true,"timestamp":"2020-03-01T01:00:00Z"}],
		"synthetic": 100}`)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	p := h.visitors("dateTo=2020-03-02") // synthetic visits start in 2025
	assert.Equal(t, counts{Human: 1, AI: 1, Total: 1}, p.Totals)

	assert.Equal(t, http.StatusNotFound, h.do("POST", "/_mock/visits", `{"project":"nope","visits":[]}`).Status)
	bad := h.do("POST", "/_mock/visits", `{"visits":[{"path":"/a","timestamp":"2025-03-01T00:00:00Z"}]}`)
	require.Equal(t, http.StatusBadRequest, bad.Status)
	assert.Contains(t, bad.apiError(t).details()[0], "visitor ID is empty")
}

func TestControlJournalAndReset(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithVisits(handMade...), mockserver.WithJobRateLimit(1, time.Hour))
	h.createJob("x")
	require.Equal(t, http.StatusTooManyRequests, h.do("POST", h.jobsPath(""), `{"prompt":"y"}`).Status)
	require.NoError(t, h.s.AddVisits(h.s.ProjectID(), mockserver.Visit{VisitorID: "z", Path: "/z", Time: epoch}))

	var journal struct {
		Entries []mockserver.JournalEntry `json:"entries"`
	}
	h.do("GET", "/_mock/journal", "").decode(t, &journal)
	require.Len(t, journal.Entries, 2)
	assert.Equal(t, http.StatusTooManyRequests, journal.Entries[1].Status)

	require.Equal(t, http.StatusNoContent, h.do("POST", "/_mock/reset", "").Status)
	assert.Empty(t, h.s.Jobs())
	assert.Empty(t, h.s.Journal())
	assert.Equal(t, counts{Human: 3, AI: 3, Total: 5}, h.visitors("").Totals, "back to the initial visits")
	assert.Equal(t, http.StatusCreated, h.do("POST", h.jobsPath(""), `{"prompt":"y"}`).Status, "fresh quota")

	require.Equal(t, http.StatusNoContent, h.do("DELETE", "/_mock/journal", "").Status)
	assert.Empty(t, h.s.Journal())
}

// A 16 MiB control body of empty objects is refused at a bounded peak heap
// (at most 64 MiB per 16 MiB body): each route's arrays are counted before
// they are decoded, and nothing is stored.
func TestControlBodiesOfEmptyObjectsCostBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 16 MiB bodies")
	}
	s := mockserver.Start(t, mockserver.WithoutRateLimits())
	mem := s.Client()
	for _, c := range []struct {
		path, open, item, close string
		chunked                 bool // no Content-Length: the buffer grows as the body comes
	}{
		{"/_mock/visits", `{"visits":[`, `{},`, `{}]}`, false},
		{"/_mock/searches", `{"searches":[`, `{},`, `{}]}`, false},
		{"/_mock/feedback", `{"feedback":[`, `{},`, `{}]}`, false},
		{"/_mock/feedback", `{"feedback":[`, `{},`, `{}]}`, true},
		{"/_mock/threads", `{"threads":[`, `{},`, `{}]}`, false},
		{"/_mock/threads", `{"threads":[{"turns":[`, `{},`, `{}]}]}`, false},
		{"/_mock/threads", `{"threads":[{"turns":[`, `{},`, `{}]}]}`, true},
		{"/_mock/threads", `{"threads":[{"turns":[{"sources":[`, `{},`, `{}]}]}]}`, false},
		{"/_mock/faults", `{"faults":[`, `"",`, `""]}`, false},
		{"/_mock/keys", `{"allowIPs":[`, `"",`, `""]}`, false},
		{"/_mock/keys", `{"scopes":[`, `"",`, `""]}`, false},
	} {
		n := (16<<20 - len(c.open) - len(c.close)) / len(c.item)
		body := []byte(c.open + strings.Repeat(c.item, n) + c.close)
		name := c.open + c.item + "…"
		if c.chunked {
			name += " (chunked)"
		}
		var status int
		var answer []byte
		peak := peakHeap(func() {
			var rd io.Reader = bytes.NewReader(body)
			if c.chunked {
				rd = io.MultiReader(rd) // a length net/http cannot see
			}
			req, err := http.NewRequest("POST", s.URL()+c.path, rd)
			require.NoError(t, err)
			resp, err := mem.Do(req)
			require.NoError(t, err)
			answer, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			status = resp.StatusCode
		})
		t.Logf("%s %s (%.1f MiB, %d items): %d, peak heap %.1f MiB", c.path, name, float64(len(body))/(1<<20), n+1, status, float64(peak)/(1<<20))
		assert.Equal(t, http.StatusRequestEntityTooLarge, status, "%s %s: %s", c.path, name, answer)
		assert.Contains(t, string(answer), "smaller batches", "%s %s", c.path, name)
		assert.LessOrEqual(t, peak, uint64(64<<20), "%s %s: peak heap %d MiB", c.path, name, peak>>20)
	}
	counts, err := s.EventCounts(s.ProjectID())
	require.NoError(t, err)
	assert.Equal(t, mockserver.EventCounts{}, counts, "all or none: nothing stored")
	assert.Empty(t, s.Faults())
}

// peakHeap runs f and returns the largest heap (live and not yet collected
// objects) seen while it ran, less the heap before it: sampled every
// 100µs, so a figure for a request that takes tens of milliseconds.
func peakHeap(f func()) uint64 {
	runtime.GC()
	read := func(s []metrics.Sample) uint64 {
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	base := read([]metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}})
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		tick := time.NewTicker(100 * time.Microsecond)
		defer tick.Stop()
		for {
			peak = max(peak, read(sample))
			select {
			case <-stop:
				done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	peak := <-done
	if peak < base {
		return 0
	}
	return peak - base
}

// A web page cannot drive a developer's mock: a cross-site POST (it
// carries Origin) or a DNS-rebinding page (its requests name the page's
// host) moved the clock and read the journal. A request to /_mock/ with an
// Origin header, a browser's cross-site mark, or a Host that is neither an
// IP address nor localhost is 403 and changes nothing; the API routes,
// which need a key, answer as before.
func TestControlRefusesOtherOriginsAndHosts(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithClock(mockserver.NewFakeClock(epoch)))
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(h.s.URL(), "http://"))
	send := func(method, path, body string, headers ...string) *response {
		req, err := http.NewRequest(method, h.s.URL()+path, strings.NewReader(body))
		require.NoError(t, err)
		for i := 0; i+1 < len(headers); i += 2 {
			if headers[i] == "Host" {
				req.Host = headers[i+1]
			} else {
				req.Header.Set(headers[i], headers[i+1])
			}
		}
		resp, err := h.hc.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return &response{Status: resp.StatusCode, Header: resp.Header, Body: b}
	}
	for _, c := range [][]string{
		{"Origin", "https://evil.example"},
		{"Origin", "null"},
		{"Origin", "http://127.0.0.1:" + port}, // even a page of the mock's own origin: it serves none
		{"Host", "rebind.attacker.net"},
		{"Host", "rebind.attacker.net:" + port},
		{"Host", "localhost.attacker.net:" + port},
		{"Host", "127.0.0.1.nip.io:" + port},
		{"Host", "example.com.attacker.net"},
		{"Sec-Fetch-Site", "cross-site"},
		{"Host", "rebind.attacker.net", "Origin", "http://rebind.attacker.net"},
	} {
		r := send("POST", "/_mock/clock", `{"advance":"1h"}`, c...)
		assert.Equal(t, http.StatusForbidden, r.Status, "%q: %s", c, r.Body)
		validate(t, "error", r.Body)
		assert.Equal(t, http.StatusForbidden, send("GET", "/_mock/journal", "", c...).Status, "%q", c)
	}
	assert.Equal(t, epoch, h.s.Now(), "no refused request moved the clock")

	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "[::1]:" + port, "localhost", "10.1.2.3:8080",
		"example.com", "mock.test:" + port, "app.localhost", "api.invalid"} {
		assert.Equal(t, http.StatusOK, send("GET", "/_mock/clock", "", "Host", host).Status, host)
	}
	assert.Equal(t, http.StatusOK, send("GET", "/_mock/clock", "", "Sec-Fetch-Site", "none").Status, "a page typed in the address bar")
	assert.Equal(t, http.StatusOK, send("GET", h.visitorsPath(""), "", "Authorization", "Bearer "+h.s.APIKey(), "Host", "api.example.com", "Origin", "https://evil.example").Status,
		"the API needs its key, not a host")
}

// Browser-based tests name the origins of their pages
// (WithControlOrigins, -control-origin): those get CORS answers, preflight
// included; other origins stay refused. Hosts other than an IP address or
// localhost are named with WithControlHosts (-control-host), say a
// container's service name. The in-memory client reaches the control API
// whatever host its URL names, and the handler mounted in another server
// answers requests addressed to that server.
func TestControlOriginsAndHostsCanBeAllowed(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithControlOrigins("http://localhost:5173", "HTTPS://Tests.Example.com/"),
		mockserver.WithControlHosts("mock"))
	do := func(hc *http.Client, method, url string, headers ...string) *http.Response {
		req, err := http.NewRequest(method, url, strings.NewReader(`{"advance":"1m"}`))
		require.NoError(t, err)
		for i := 0; i+1 < len(headers); i += 2 {
			if headers[i] == "Host" {
				req.Host = headers[i+1]
			} else {
				req.Header.Set(headers[i], headers[i+1])
			}
		}
		resp, err := hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	hc := &http.Client{Timeout: 10 * time.Second}
	t.Cleanup(hc.CloseIdleConnections)
	for _, origin := range []string{"http://localhost:5173", "https://tests.example.com"} {
		resp := do(hc, "POST", s.URL()+"/_mock/clock", "Origin", origin, "Sec-Fetch-Site", "cross-site")
		assert.Equal(t, http.StatusOK, resp.StatusCode, origin)
		assert.Equal(t, origin, resp.Header.Get("Access-Control-Allow-Origin"), origin)
		assert.Contains(t, resp.Header.Values("Vary"), "Origin")

		pre := do(hc, "OPTIONS", s.URL()+"/_mock/clock", "Origin", origin, "Access-Control-Request-Method", "POST",
			"Access-Control-Request-Headers", "content-type", "Access-Control-Request-Private-Network", "true")
		assert.Equal(t, http.StatusNoContent, pre.StatusCode, origin)
		assert.Equal(t, origin, pre.Header.Get("Access-Control-Allow-Origin"))
		assert.Contains(t, pre.Header.Get("Access-Control-Allow-Methods"), "POST")
		assert.Equal(t, "Content-Type", pre.Header.Get("Access-Control-Allow-Headers"))
		assert.Equal(t, "true", pre.Header.Get("Access-Control-Allow-Private-Network"))
	}
	for _, origin := range []string{"http://localhost:5174", "https://tests.example.com.evil.example", "null"} {
		assert.Equal(t, http.StatusForbidden, do(hc, "POST", s.URL()+"/_mock/clock", "Origin", origin).StatusCode, origin)
		assert.Equal(t, http.StatusForbidden, do(hc, "OPTIONS", s.URL()+"/_mock/clock", "Origin", origin, "Access-Control-Request-Method", "POST").StatusCode, origin)
	}
	assert.Equal(t, http.StatusOK, do(hc, "GET", s.URL()+"/_mock/clock", "Host", "mock:8080").StatusCode, "a named host")
	assert.Equal(t, http.StatusForbidden, do(hc, "GET", s.URL()+"/_mock/clock", "Host", "mock.attacker.net").StatusCode)

	assert.Equal(t, http.StatusOK, do(s.Client(), "GET", "http://mock.attacker.net/_mock/clock").StatusCode, "in memory, any host")
	assert.Equal(t, http.StatusForbidden, do(s.Client(), "GET", s.URL()+"/_mock/clock", "Origin", "https://evil.example").StatusCode, "in memory, a foreign origin")

	mounted := httptest.NewServer(s.Handler())
	t.Cleanup(mounted.Close)
	assert.Equal(t, http.StatusOK, do(hc, "POST", mounted.URL+"/_mock/clock").StatusCode, "mounted elsewhere")
	assert.Equal(t, http.StatusForbidden, do(hc, "POST", mounted.URL+"/_mock/clock", "Host", "rebind.attacker.net").StatusCode)

	for _, bad := range []string{"null", "localhost:5173", "http://x.example/path", "ftp://x.example", "http://"} {
		assert.Panics(t, func() { mockserver.New(mockserver.WithControlOrigins(bad)).Close() }, bad)
	}
}

func TestJournalRecordsRequestsWithoutTheKey(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock))
	j := h.createJob("x")
	clock.Advance(5)
	h.do("GET", h.jobsPath("/"+j.ID), "")
	h.do("GET", h.visitorsPath("limit=5"), "", "Authorization", "Basic secret")
	h.do("GET", "/nowhere", "")
	h.do("GET", "/_mock/jobs", "") // control requests are not journaled

	entries := h.s.Journal()
	require.Len(t, entries, 4)
	assert.Equal(t, mockserver.JournalEntry{
		Time: epoch, Method: "POST", Path: h.jobsPath(""), Route: mockserver.RouteCreateJob,
		Status: http.StatusCreated, Processed: true, EndpointStatus: http.StatusCreated, RequestID: entries[0].RequestID,
		Auth: "Bearer mint_***", Duration: entries[0].Duration,
	}, entries[0])
	assert.Equal(t, mockserver.RouteGetJob, entries[1].Route)
	assert.Equal(t, epoch.Add(5), entries[1].Time)
	assert.Equal(t, "limit=5", entries[2].Query)
	assert.Equal(t, http.StatusUnauthorized, entries[2].Status)
	assert.Equal(t, "Basic ***", entries[2].Auth)
	assert.Equal(t, "", entries[3].Route)
	assert.Equal(t, http.StatusNotFound, entries[3].Status)

	for _, e := range entries {
		assert.NotContains(t, e.Auth, h.s.APIKey()[len("mint_"):])
		assert.NotContains(t, e.Auth, "secret")
	}

	h.s.ClearJournal()
	assert.Empty(t, h.s.Journal())
}

func TestJournalIsBounded(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJournalSize(3))
	for _, p := range []string{"/1", "/2", "/3", "/4", "/5"} {
		h.do("GET", p, "")
	}
	var paths []string
	for _, e := range h.s.Journal() {
		paths = append(paths, e.Path)
	}
	assert.Equal(t, []string{"/3", "/4", "/5"}, paths, "oldest dropped first")
}

func TestLoggerWritesOneLinePerRequestWithKeyRedacted(t *testing.T) {
	t.Parallel()
	var buf syncbuf.Buffer
	h := setup(t, mockserver.WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	h.createJob("x")
	h.do("GET", h.visitorsPath("limit=2"), "")
	lines := bytes.Split(bytes.TrimSpace([]byte(buf.String())), []byte("\n"))
	require.Len(t, lines, 2)
	assert.Contains(t, string(lines[0]), "method=POST")
	assert.Contains(t, string(lines[0]), "status=201")
	assert.Contains(t, string(lines[1]), `query="limit=2"`)
	assert.Contains(t, string(lines[1]), `auth="Bearer mint_***"`)
	assert.NotContains(t, buf.String(), h.s.APIKey())
}
