package mockserver_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

func TestJobCreateAndFollowUpShareAProjectQuota(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobRateLimit(3, time.Hour),
		mockserver.WithProject("second"))

	j := h.createJob("one")
	clock.Advance(10 * time.Minute)
	h.createJob("two")
	require.Equal(t, http.StatusOK, h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"three"}`).Status)

	for _, r := range []*response{
		h.do("POST", h.jobsPath(""), `{"prompt":"four"}`),
		h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"four"}`),
	} {
		require.Equal(t, http.StatusTooManyRequests, r.Status)
		assert.Equal(t, "3000", r.Header.Get("Retry-After"), "the first use leaves the window in 50 minutes")
		e := r.apiError(t)
		assert.Equal(t, "Rate limit exceeded", e.Error)
	}
	assert.Equal(t, http.StatusOK, h.do("GET", h.jobsPath("/"+j.ID), "").Status, "polling is not limited")
	assert.Equal(t, http.StatusCreated, h.do("POST", "/v2/agent/second/job", `{"prompt":"x"}`).Status, "quotas are per project")

	clock.Advance(50*time.Minute - time.Second)
	assert.Equal(t, "1", h.do("POST", h.jobsPath(""), `{"prompt":"x"}`).Header.Get("Retry-After"))
	clock.Advance(time.Second)
	assert.Equal(t, http.StatusCreated, h.do("POST", h.jobsPath(""), `{"prompt":"x"}`).Status)
	assert.Len(t, h.s.Jobs(), 4, "refused requests create nothing")
}

func TestDefaultLimitsAreTheServices(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithClock(mockserver.NewFakeClock(epoch)))
	mem := s.Client()
	send := func(method, path, body string) *http.Response {
		req, _ := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.APIKey())
		resp, err := mem.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	for i := range 100 {
		require.Equal(t, http.StatusCreated, send("POST", "/v2/agent/"+s.ProjectID()+"/job", `{"prompt":"x"}`).StatusCode, i)
		require.Equal(t, http.StatusOK, send("GET", "/v1/analytics/"+s.ProjectID()+"/visitors", "").StatusCode, i)
	}
	resp := send("POST", "/v2/agent/"+s.ProjectID()+"/job", `{"prompt":"x"}`)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "3600", resp.Header.Get("Retry-After"))
	assert.Equal(t, http.StatusTooManyRequests, send("GET", "/v1/analytics/"+s.ProjectID()+"/visitors", "").StatusCode)
}

func TestAnalyticsQuotaIsPerOrganization(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithProjectID("docs"),
		mockserver.WithProject("docs", "mint_second_key"),
		mockserver.WithAnalyticsRateLimit(2, time.Minute))
	analytics := routes(t, func(rt mockserver.RouteRow) bool {
		return rt.Limit == routeNamed(t, mockserver.RouteVisitors).Limit && rt.Name != mockserver.RouteVisitors
	})
	samples := make([]mockserver.SampleRequest, len(analytics))
	for i, rt := range analytics {
		samples[i] = mockserver.Sample(t, h.s, rt.Name)
	}
	clock.Advance(2 * time.Minute) // the samples' setup is out of the window
	for range 2 {
		require.Equal(t, http.StatusOK, h.do("GET", h.visitorsPath(""), "").Status)
	}
	r := h.do("GET", h.visitorsPath(""), "")
	require.Equal(t, http.StatusTooManyRequests, r.Status)
	assert.Equal(t, "60", r.Header.Get("Retry-After"))
	// Every key of the organization, and every analytics route, draws on
	// the same quota.
	assert.Equal(t, http.StatusTooManyRequests, h.do("GET", h.visitorsPath(""), "", "Authorization", "Bearer mint_second_key").Status)
	for i, rt := range analytics {
		assert.Equal(t, http.StatusTooManyRequests, h.sendSample(rt, samples[i]).Status, rt.Name)
	}
	clock.Advance(time.Minute)
	assert.Equal(t, http.StatusOK, h.do("GET", h.visitorsPath(""), "").Status)
}

// WithoutRateLimits turns every limit off, whatever the order of the
// options: a limit set after it stays off too.
func TestRateLimitsCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]mockserver.Option{
		"alone":         {mockserver.WithoutRateLimits()},
		"limit after":   {mockserver.WithoutRateLimits(), mockserver.WithAnalyticsRateLimit(1, time.Hour)},
		"limit before":  {mockserver.WithAnalyticsRateLimit(1, time.Hour), mockserver.WithoutRateLimits()},
		"job limit too": {mockserver.WithoutRateLimits(), mockserver.WithJobRateLimit(1, time.Hour), mockserver.WithAnalyticsRateLimit(1, time.Hour)},
	} {
		s := mockserver.Start(t, opts...)
		mem := s.Client()
		for i := range 150 {
			req, _ := http.NewRequest("GET", s.URL()+"/v1/analytics/"+s.ProjectID()+"/visitors", nil)
			req.Header.Set("Authorization", "Bearer "+s.APIKey())
			resp, err := mem.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode, "%s: request %d", name, i)
		}
		for i := range 3 {
			req, _ := http.NewRequest("POST", s.URL()+"/v2/agent/"+s.ProjectID()+"/job", strings.NewReader(`{"prompt":"x"}`))
			req.Header.Set("Authorization", "Bearer "+s.APIKey())
			req.Header.Set("Content-Type", "application/json")
			resp, err := mem.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusCreated, resp.StatusCode, "%s: job %d", name, i)
		}
	}
}

// Any limit starts and serves: a limit of 10^11 an hour (mockserver
// -analytics-limit 100000000000/1h) must neither exhaust memory nor refuse,
// on every limited route, each kind alike.
func TestAnyLimitStartsAndServes(t *testing.T) {
	t.Parallel()
	const huge = 100_000_000_000
	h := setup(t, mockserver.WithClock(mockserver.NewFakeClock(epoch)),
		mockserver.WithAnalyticsRateLimit(huge, time.Hour), mockserver.WithJobRateLimit(huge, time.Hour),
		mockserver.WithDeployRateLimit(huge, 10*time.Second), mockserver.WithPreviewRateLimit(huge, time.Minute),
		mockserver.WithAssistantRateLimit(huge, time.Hour), mockserver.WithAssistantIPRateLimit(huge, mockserver.DailyWindow),
		mockserver.WithDocsRateLimit(huge, time.Hour), mockserver.WithIndexRateLimit(huge, time.Second),
		mockserver.WithIndexDailyRateLimit(huge, mockserver.DailyWindow))
	for _, rt := range routes(t, func(rt mockserver.RouteRow) bool { return rt.Limit != "" }) {
		req := mockserver.Sample(t, h.s, rt.Name)
		for range 3 {
			r := h.sendSample(rt, req)
			require.Less(t, r.Status, 300, "%s %s: %s", req.Method, req.Path, r.Body)
		}
	}
}
