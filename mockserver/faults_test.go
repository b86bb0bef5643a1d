package mockserver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// outcome is what a client observed for one request.
type outcome struct {
	resp    *http.Response
	body    []byte
	doErr   error // no response at all
	readErr error // response, but the body failed
	elapsed time.Duration
}

// transports returns the two ways of reaching a server: a fresh loopback
// connection per request (so Go's transport never retries on a reused
// one) and the in-memory client.
func transports(t *testing.T, s *mockserver.Server) map[string]*http.Client {
	tr := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	return map[string]*http.Client{"loopback": {Transport: tr}, "memory": s.Client()}
}

func call(t *testing.T, hc *http.Client, s *mockserver.Server, method, path, body string, headers ...string) outcome {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.URL()+path, rd)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	start := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		return outcome{doErr: err, elapsed: time.Since(start)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return outcome{resp: resp, body: b, readErr: err, elapsed: time.Since(start)}
}

func createPath(s *mockserver.Server) string { return "/v2/agent/" + s.ProjectID() + "/job" }

func TestScriptedStatusFaultsAreNotProcessed(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFaults(mockserver.FaultRule{
		Route: mockserver.RouteCreateJob, Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 503}, Times: 2,
	}))
	hc := s.Client()
	for range 2 {
		o := call(t, hc, s, "POST", createPath(s), `{"prompt":"x"}`)
		require.NoError(t, o.doErr)
		assert.Equal(t, http.StatusServiceUnavailable, o.resp.StatusCode)
		assert.Contains(t, string(o.body), `"error":"Service unavailable"`)
	}
	o := call(t, hc, s, "POST", createPath(s), `{"prompt":"x"}`)
	assert.Equal(t, http.StatusCreated, o.resp.StatusCode, "the script is used up")
	assert.Len(t, s.Jobs(), 1)

	j := s.Journal()
	require.Len(t, j, 3)
	for i, want := range []struct {
		status    int
		processed bool
		fault     string
	}{{503, false, "status"}, {503, false, "status"}, {201, true, ""}} {
		assert.Equal(t, want.status, j[i].Status, i)
		assert.Equal(t, want.processed, j[i].Processed, i)
		assert.Equal(t, want.fault, j[i].Fault, i)
	}
	assert.Empty(t, s.Faults())
}

func TestRateLimitFaultSendsRetryAfter(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	hc := s.Client()
	o := call(t, hc, s, "GET", "/v1/analytics/"+s.ProjectID()+"/visitors", "", mockserver.FaultHeader, "status=429")
	assert.Equal(t, http.StatusTooManyRequests, o.resp.StatusCode)
	assert.Equal(t, "1", o.resp.Header.Get("Retry-After"))
	o = call(t, hc, s, "GET", "/v1/analytics/"+s.ProjectID()+"/visitors", "", mockserver.FaultHeader, "status=503,retry-after=30")
	assert.Equal(t, "30", o.resp.Header.Get("Retry-After"))
}

func TestStatusAfterProcessingCreatesTheJob(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	o := call(t, s.Client(), s, "POST", createPath(s), `{"prompt":"x"}`, mockserver.FaultHeader, "status=504,processed")
	assert.Equal(t, http.StatusGatewayTimeout, o.resp.StatusCode)
	assert.Len(t, s.Jobs(), 1, "the server acted although the client saw 504")
	e := s.Journal()[0]
	assert.True(t, e.Processed)
	assert.Equal(t, 504, e.Status, "what the client got")
	assert.Equal(t, 201, e.EndpointStatus, "what the endpoint did: the job was created")
}

// TestJournalTellsWhetherAProcessedStatusFaultCreatedTheJob: under a
// "processed" status fault the client always sees the injected status, so
// only EndpointStatus tells a created job (201) from a refused request (429
// from the rate limiter) that the endpoint also "processed".
func TestJournalTellsWhetherAProcessedStatusFaultCreatedTheJob(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobRateLimit(1, time.Hour))
	for range 2 {
		r := h.do("POST", h.jobsPath(""), `{"prompt":"x"}`, mockserver.FaultHeader, "status=504,processed")
		require.Equal(t, http.StatusGatewayTimeout, r.Status)
	}
	require.Len(t, h.s.Jobs(), 1, "the second request was over the limit")

	// Over the control API too, for tests in other languages.
	var journal struct {
		Entries []struct {
			Status         int  `json:"status"`
			Processed      bool `json:"processed"`
			EndpointStatus int  `json:"endpointStatus"`
		} `json:"entries"`
	}
	h.do("GET", "/_mock/journal", "").decode(t, &journal)
	require.Len(t, journal.Entries, 2)
	for i, want := range []int{http.StatusCreated, http.StatusTooManyRequests} {
		e := journal.Entries[i]
		assert.Equal(t, http.StatusGatewayTimeout, e.Status, i)
		assert.True(t, e.Processed, i)
		assert.Equal(t, want, e.EndpointStatus, i)
	}
	for i, e := range h.s.Journal() {
		assert.Equal(t, journal.Entries[i].EndpointStatus, e.EndpointStatus)
	}
}

func TestConnectionFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fault     string
		processed bool
		check     func(t *testing.T, o outcome)
	}{
		{"close", false, func(t *testing.T, o outcome) {
			require.Error(t, o.doErr)
			assert.ErrorIs(t, o.doErr, io.EOF)
		}},
		{"reset", true, func(t *testing.T, o outcome) {
			require.Error(t, o.doErr)
			assert.True(t, errors.Is(o.doErr, syscall.ECONNRESET) || errors.Is(o.doErr, io.EOF), "%v", o.doErr)
		}},
		{"truncate", true, func(t *testing.T, o outcome) {
			require.NoError(t, o.doErr)
			assert.Equal(t, http.StatusCreated, o.resp.StatusCode)
			assert.ErrorIs(t, o.readErr, io.ErrUnexpectedEOF)
			assert.Less(t, int64(len(o.body)), o.resp.ContentLength)
			assert.NotEmpty(t, o.body)
		}},
		{"html", true, func(t *testing.T, o outcome) {
			require.NoError(t, o.doErr)
			assert.Equal(t, http.StatusCreated, o.resp.StatusCode, "the real status")
			assert.Equal(t, "text/html; charset=utf-8", o.resp.Header.Get("Content-Type"))
			assert.True(t, strings.HasPrefix(string(o.body), "<!DOCTYPE html>"))
		}},
		{"slow=300ms", true, func(t *testing.T, o outcome) {
			require.NoError(t, o.doErr)
			require.NoError(t, o.readErr)
			assert.Equal(t, http.StatusCreated, o.resp.StatusCode)
			assert.Contains(t, string(o.body), `"status":"active"`)
			assert.GreaterOrEqual(t, o.elapsed, 250*time.Millisecond)
		}},
		{"latency=200ms", true, func(t *testing.T, o outcome) {
			require.NoError(t, o.doErr)
			assert.Equal(t, http.StatusCreated, o.resp.StatusCode)
			assert.GreaterOrEqual(t, o.elapsed, 200*time.Millisecond)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			for name, hc := range transports(t, s) {
				t.Run(name, func(t *testing.T) {
					s.Reset()
					// The rule fires once; the request after it is served normally.
					spec := "route=create-job,times=1," + tc.fault
					rule, err := mockserver.ParseFault(spec)
					require.NoError(t, err)
					require.NoError(t, s.InjectFault(rule))

					tc.check(t, call(t, hc, s, "POST", createPath(s), `{"prompt":"x"}`))
					wantJobs := 0
					if tc.processed {
						wantJobs = 1
					}
					assert.Len(t, s.Jobs(), wantJobs, "processed means the job exists")
					e := s.Journal()
					require.Len(t, e, 1)
					assert.Equal(t, tc.processed, e[0].Processed)
					assert.Equal(t, string(rule.Kind), e[0].Fault)
					if tc.processed {
						assert.Equal(t, http.StatusCreated, e[0].EndpointStatus)
					} else {
						assert.Zero(t, e[0].EndpointStatus)
					}

					after := call(t, hc, s, "POST", createPath(s), `{"prompt":"y"}`)
					require.NoError(t, after.doErr)
					assert.Equal(t, http.StatusCreated, after.resp.StatusCode)
				})
			}
		})
	}
}

func TestProbabilisticFaultsReplayWithTheSeed(t *testing.T) {
	t.Parallel()
	pattern := func(seed uint64) string {
		s := mockserver.Start(t, mockserver.WithFaultSeed(seed), mockserver.WithoutRateLimits(),
			mockserver.WithFaults(mockserver.FaultRule{
				Route: mockserver.RouteVisitors, Probability: 0.3,
				Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 500},
			}))
		hc := s.Client()
		var b strings.Builder
		for range 200 {
			o := call(t, hc, s, "GET", "/v1/analytics/"+s.ProjectID()+"/visitors", "")
			if o.resp.StatusCode == 500 {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		return b.String()
	}
	a, b, c := pattern(7), pattern(7), pattern(8)
	assert.Equal(t, a, b, "same seed, same faults")
	assert.NotEqual(t, a, c)
	n := strings.Count(a, "x")
	assert.InDelta(t, 60, n, 30, "about 30%% of 200: %d", n)
}

func TestFaultsApplyPerRoute(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithFaults(mockserver.FaultRule{
		Route: mockserver.RouteGetJob, Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 502},
	}))
	hc := s.Client()
	o := call(t, hc, s, "POST", createPath(s), `{"prompt":"x"}`)
	require.Equal(t, http.StatusCreated, o.resp.StatusCode)
	id := s.Jobs()[0].ID
	for range 3 {
		assert.Equal(t, http.StatusBadGateway, call(t, hc, s, "GET", createPath(s)+"/"+id, "").resp.StatusCode)
	}
	s.ClearFaults()
	assert.Equal(t, http.StatusOK, call(t, hc, s, "GET", createPath(s)+"/"+id, "").resp.StatusCode)
	s.Reset()
	assert.Len(t, s.Faults(), 1, "Reset brings back the faults given as options")
}

func TestFaultHeaderValidation(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	for _, bad := range []string{"explode", "status=200", "status=503,times=2", "route=get-job,reset", "latency=-1s", "latency"} {
		o := call(t, s.Client(), s, "GET", "/v1/analytics/"+s.ProjectID()+"/visitors", "", mockserver.FaultHeader, bad)
		require.NoError(t, o.doErr)
		assert.Equal(t, http.StatusBadRequest, o.resp.StatusCode, bad)
		assert.Contains(t, string(o.body), `"error":"Invalid X-Mock-Fault header"`, bad)
	}
}

func TestParseFault(t *testing.T) {
	t.Parallel()
	cases := []struct {
		spec string
		want mockserver.FaultRule
	}{
		{"status=503", mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 503}}},
		{"503", mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 503}}},
		{"route=create-job, status=429, retry-after=30s, times=2",
			mockserver.FaultRule{Route: "create-job", Times: 2, Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 429, RetryAfter: 30 * time.Second}}},
		{"status=504,processed", mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 504, AfterProcessing: true}}},
		{"route=*,reset,p=0.25", mockserver.FaultRule{Route: "*", Probability: 0.25, Fault: mockserver.Fault{Kind: mockserver.FaultReset}}},
		{"latency=250ms", mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultLatency, Delay: 250 * time.Millisecond}}},
		{"kind=slow,delay=2s", mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultSlowBody, Delay: 2 * time.Second}}},
		{"close", mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultClose}}},
		{"truncate", mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultTruncate}}},
		{"html", mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultHTML}}},
		{"route=get-job,status-value=queued,times=3",
			mockserver.FaultRule{Route: "get-job", Times: 3, Fault: mockserver.Fault{Kind: mockserver.FaultStatusValue, Value: "queued"}}},
	}
	for _, tc := range cases {
		got, err := mockserver.ParseFault(tc.spec)
		require.NoError(t, err, tc.spec)
		assert.Equal(t, tc.want, got, tc.spec)
		again, err := mockserver.ParseFault(got.String())
		require.NoError(t, err, got.String())
		assert.Equal(t, got, again, "String round-trips: %s", got.String())
	}
	for _, bad := range []string{"", "route=nowhere,reset", "status=abc", "p=2,reset", "times=-1,reset", "reset,processed", "what=ever",
		"status-value=", "kind=status-value", "status-value=" + strings.Repeat("x", 1025)} {
		_, err := mockserver.ParseFault(bad)
		assert.Error(t, err, bad)
	}
}

// TestStatusValueFault: a job, a deployment and a static export report
// the status the fault names for as many reads as it says, the answer
// otherwise unchanged, then their real status again; the journal marks
// those reads processed under the fault. Answers without a status (a
// trigger's, an error) pass unchanged.
func TestStatusValueFault(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(time.Minute), mockserver.WithoutRateLimits())
	j := h.createJob("Document webhooks")
	dep := h.trigger()
	exp := h.startExport(`{"domain":"docs.example.com"}`)
	for _, path := range []string{h.jobsPath("/" + j.ID), "/v1/project/update-status/" + dep, "/v1/static-export/jobs/" + exp.JobID} {
		before := h.do("GET", path, "")
		require.Equal(t, http.StatusOK, before.Status, "body: %s", before.Body)
		require.NoError(t, h.s.InjectFault(mockserver.FaultRule{Route: "*", Times: 2,
			Fault: mockserver.Fault{Kind: mockserver.FaultStatusValue, Value: "queued\n::error::x"}}))
		var was, got map[string]any
		before.decode(t, &was)
		for range 2 {
			r := h.do("GET", path, "")
			require.Equal(t, http.StatusOK, r.Status)
			r.decode(t, &got)
			assert.Equal(t, "queued\n::error::x", got["status"], path)
			got["status"] = was["status"]
			assert.Equal(t, was, got, "%s: only the status changes", path)
		}
		h.do("GET", path, "").decode(t, &got)
		assert.Equal(t, was["status"], got["status"], "%s: the real status again", path)
	}
	var faulted int
	for _, e := range h.s.Journal() {
		if e.Fault == string(mockserver.FaultStatusValue) {
			faulted++
			assert.True(t, e.Processed)
		}
	}
	assert.Equal(t, 6, faulted)

	r := h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "", mockserver.FaultHeader, "status-value=building")
	require.Equal(t, http.StatusAccepted, r.Status)
	assert.NotContains(t, string(r.Body), "building", "a trigger's answer has no status")
	r = h.do("GET", "/v1/project/update-status/nope", "", mockserver.FaultHeader, "status-value=building")
	assert.Equal(t, http.StatusNotFound, r.Status)
	validate(t, "error", r.Body)
}

func TestFaultsOverControlAPI(t *testing.T) {
	t.Parallel()
	h := setup(t)
	r := h.do("POST", "/_mock/faults", `{"faults":["route=create-job,status=500,times=2","route=get-job,latency=1ms"]}`)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var list struct {
		Faults []string `json:"faults"`
	}
	r.decode(t, &list)
	assert.Equal(t, []string{"route=create-job,status=500,times=2", "route=get-job,latency=1ms"}, list.Faults)

	assert.Equal(t, http.StatusInternalServerError, h.do("POST", h.jobsPath(""), `{"prompt":"x"}`).Status)
	h.do("GET", "/_mock/faults", "").decode(t, &list)
	assert.Equal(t, "route=create-job,status=500,times=1", list.Faults[0], "one left")

	assert.Equal(t, http.StatusBadRequest, h.do("POST", "/_mock/faults", `{"faults":["route=x,boom"]}`).Status)
	assert.Equal(t, http.StatusNoContent, h.do("DELETE", "/_mock/faults", "").Status)
	assert.Empty(t, h.s.Faults())
}

func TestCloseCutsInjectedDelaysShort(t *testing.T) {
	t.Parallel()
	s := mockserver.New(mockserver.WithFaults(mockserver.FaultRule{
		Fault: mockserver.Fault{Kind: mockserver.FaultLatency, Delay: time.Hour},
	}))
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	errs := make(chan error, 2)
	for _, hc := range []*http.Client{{Transport: tr}, s.Client()} {
		go func() {
			req, _ := http.NewRequest("GET", s.URL()+"/v1/analytics/"+s.ProjectID()+"/visitors", nil)
			req.Header.Set("Authorization", "Bearer "+s.APIKey())
			resp, err := hc.Do(req)
			if err == nil {
				resp.Body.Close()
			}
			errs <- err
		}()
	}
	// Give both requests time to reach the delay; nothing observable marks
	// that moment (the journal is written after it), and if they are late,
	// the test still passes, just proving less.
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	s.Close()
	assert.Less(t, time.Since(start), 5*time.Second)
	for range 2 {
		select {
		case err := <-errs:
			assert.Error(t, err)
		case <-time.After(5 * time.Second):
			t.Fatal("a request outlived Close")
		}
	}
}

func TestSlowBodyStopsWhenTheClientGivesUp(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL()+"/v1/analytics/"+s.ProjectID()+"/visitors", nil)
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	req.Header.Set(mockserver.FaultHeader, "slow=1h")
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = io.ReadAll(resp.Body)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestDepartingClientCutsLatencyShort: net/http notices a client that hung
// up only once the handler has read the request body, so the pipeline reads
// it first: every route, body or not, drops a request under an injected
// delay as soon as its client leaves, and processes nothing.
func TestDepartingClientCutsLatencyShort(t *testing.T) {
	t.Parallel()
	for _, rt := range routes(t, nil) {
		t.Run(rt.Name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t, mockserver.WithoutRateLimits())
			sample := mockserver.Sample(t, s, rt.Name)
			prompts := func() (n int) { // jobs and their follow-ups
				for _, j := range s.Jobs() {
					n += 1 + len(j.FollowUps)
				}
				return n
			}
			for name, hc := range transports(t, s) {
				s.ClearJournal()
				before := prompts()
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				req, err := http.NewRequestWithContext(ctx, sample.Method, s.URL()+sample.Path, strings.NewReader(sample.Body))
				require.NoError(t, err)
				req.Header.Set("Authorization", "Bearer "+keyOf(s, rt.API))
				req.Header.Set(mockserver.FaultHeader, "latency=1h")
				_, err = hc.Do(req)
				cancel()
				require.ErrorIs(t, err, context.DeadlineExceeded, name)

				// The server drops the request as soon as it notices, not
				// after the hour (the test's Close would end it before).
				require.Eventually(t, func() bool { return len(s.Journal()) == 1 }, 5*time.Second, 5*time.Millisecond,
					"%s: the delay was not cut short", name)
				e := s.Journal()[0]
				assert.Equal(t, rt.Name, e.Route, name)
				assert.Equal(t, string(mockserver.FaultLatency), e.Fault, name)
				assert.False(t, e.Processed, "%s: a request whose client left is not processed", name)
				assert.Zero(t, e.Status, name)
				assert.Equal(t, before, prompts(), "%s: no job created, no follow-up accepted", name)
			}
		})
	}
}

// TestLatencyKeepsTheRequestBody: the body read before the delay still
// reaches the endpoint whole, and the size limit still holds.
func TestLatencyKeepsTheRequestBody(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	for name, hc := range transports(t, s) {
		t.Run(name, func(t *testing.T) {
			s.Reset()
			o := call(t, hc, s, "POST", createPath(s), `{"prompt":"kept"}`, mockserver.FaultHeader, "latency=1ms")
			require.NoError(t, o.doErr)
			require.Equal(t, http.StatusCreated, o.resp.StatusCode, "body: %s", o.body)
			require.Len(t, s.Jobs(), 1)
			assert.Equal(t, "kept", s.Jobs()[0].Prompt)

			// Chunked, so that only reading tells it is too large.
			big := `{"prompt":"` + strings.Repeat("a", 1<<20) + `"}`
			req, err := http.NewRequest("POST", s.URL()+createPath(s), io.MultiReader(strings.NewReader(big)))
			require.NoError(t, err)
			req.Header.Set("Authorization", "Bearer "+s.APIKey())
			req.Header.Set(mockserver.FaultHeader, "latency=1ms")
			resp, err := hc.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
			assert.Len(t, s.Jobs(), 1)
		})
	}
}

// TestRetryAfterZero: a 429 may say "retry at once", so that a client test
// honouring Retry-After does not wait a second; 0 must not fall back to the
// 1s default. The spec, the Go rule and the control API all express it.
func TestRetryAfterZero(t *testing.T) {
	t.Parallel()
	rule, err := mockserver.ParseFault("route=visitors,status=429,retry-after=0,times=1")
	require.NoError(t, err)
	assert.Equal(t, mockserver.FaultRule{Route: mockserver.RouteVisitors, Times: 1,
		Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 429, RetryAfterZero: true}}, rule)
	assert.Equal(t, "route=visitors,status=429,retry-after=0,times=1", rule.String())
	for _, spec := range []string{"status=429,retry-after=0s", "status=429,retry-after=30,retry-after=0"} {
		r, err := mockserver.ParseFault(spec)
		require.NoError(t, err, spec)
		assert.True(t, r.RetryAfterZero, spec)
		assert.Zero(t, r.RetryAfter, spec)
	}
	r, err := mockserver.ParseFault("status=429,retry-after=0,retry-after=2")
	require.NoError(t, err)
	assert.False(t, r.RetryAfterZero, "the last value wins")

	h := setup(t)
	visitors := h.visitorsPath("")
	check := func(how string, headers ...string) {
		t.Helper()
		res := h.do("GET", visitors, "", headers...)
		assert.Equal(t, http.StatusTooManyRequests, res.Status, how)
		assert.Equal(t, []string{"0"}, res.Header.Values("Retry-After"), how)
	}
	check("header", mockserver.FaultHeader, "status=429,retry-after=0")

	require.NoError(t, h.s.InjectFault(mockserver.FaultRule{Route: mockserver.RouteVisitors, Times: 1,
		Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 429, RetryAfterZero: true}}))
	check("Go rule")
	assert.Error(t, h.s.InjectFault(mockserver.FaultRule{
		Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 429, RetryAfter: time.Second, RetryAfterZero: true}}))

	res := h.do("POST", "/_mock/faults", `{"faults":["route=visitors,status=429,retry-after=0,times=1"]}`)
	require.Equal(t, http.StatusOK, res.Status, "body: %s", res.Body)
	var list struct {
		Faults []string `json:"faults"`
	}
	res.decode(t, &list)
	assert.Equal(t, []string{"route=visitors,status=429,retry-after=0,times=1"}, list.Faults, "listed as given")
	check("control API")

	assert.Equal(t, "1", h.do("GET", visitors, "", mockserver.FaultHeader, "status=429").Header.Get("Retry-After"),
		"unset still means 1s")
}

// A HEAD answer has no body to cut: a truncate fault on it ends the answer
// where its headers end, in memory as over a socket (in memory it read
// past the empty body and panicked).
func TestTruncatedHeadAnswerIsEmpty(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	for name, hc := range map[string]*http.Client{"in memory": s.Client(), "socket": http.DefaultClient} {
		req, err := http.NewRequest(http.MethodHead, s.URL()+"/v2/agent/"+s.ProjectID()+"/job/job_1", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+s.APIKey())
		req.Header.Set(mockserver.FaultHeader, "truncate")
		resp, err := hc.Do(req)
		require.NoError(t, err, name)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Empty(t, body, name)
	}
}
