package mockcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunServesUntilCancelled(t *testing.T) {
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"-addr", "127.0.0.1:0", "-seed", "5000", "-job-duration", "50ms",
			"-api-key", "mint_cmd_test_key", "-project", "docs"}, &stdout, &stderr)
	}()

	var url string
	require.Eventually(t, func() bool {
		m := regexp.MustCompile(`URL:\s+(\S+)`).FindStringSubmatch(stdout.String())
		if m != nil {
			url = m[1]
		}
		return m != nil
	}, 10*time.Second, 10*time.Millisecond)
	assert.Contains(t, stdout.String(), "API key:  mint_cmd_test_key")
	assert.Contains(t, stdout.String(), "project:  docs")

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	call := func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer mint_cmd_test_key")
		resp, err := hc.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var v map[string]any
		require.NoError(t, json.Unmarshal(b, &v), string(b))
		return resp.StatusCode, v
	}

	status, page := call("GET", "/v1/analytics/docs/visitors?limit=250", "")
	require.Equal(t, http.StatusOK, status)
	assert.Len(t, page["visitors"], 250)
	assert.Equal(t, true, page["hasMore"])

	assert.Regexp(t, `seeded:\s+5000 visits, 1000 searches, 100 feedback, 25 threads \(\d+ turns\)`, stdout.String())
	for _, route := range []string{"views", "searches", "feedback", "feedback/by-page", "assistant", "assistant/caller-stats"} {
		status, page := call("GET", "/v1/analytics/docs/"+route+"?dateFrom=2025-01-01&dateTo=2025-02-01", "")
		require.Equal(t, http.StatusOK, status, route)
		assert.NotEmpty(t, page, route)
	}

	status, created := call("POST", "/v2/agent/docs/job", `{"prompt":"from the command line"}`)
	require.Equal(t, http.StatusCreated, status)
	id := created["id"].(string)
	require.Eventually(t, func() bool {
		_, polled := call("GET", "/v2/agent/docs/job/"+id, "")
		return polled["status"] == "completed" && polled["prLink"] != nil
	}, 5*time.Second, 20*time.Millisecond)

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
	assert.Contains(t, stdout.String(), "shutting down")
	logs := stderr.String()
	assert.Contains(t, logs, `auth="Bearer mint_***"`)
	assert.Contains(t, logs, "path=/v2/agent/docs/job ")
	assert.NotContains(t, logs, "mint_cmd_test_key")
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-api-key", "sk_live"},
		{"-project", "a/b"},
		{"-fault", "route=nowhere,reset"},
		{"-outcome", "maybe"},
		{"-addr", "256.0.0.1:1"},
		{"extra"},
		{"-analytics-limit", "100"},
		{"-analytics-limit", "x/1h"},
		{"-job-limit", "5/0s"},
		{"-job-limit", "-1/1h"},
	} {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), args, &out, &errOut)
		assert.Error(t, err, args)
	}
	var out, errOut bytes.Buffer
	assert.ErrorIs(t, Run(context.Background(), []string{"-h"}, &out, &errOut), flag.ErrHelp)
	assert.Contains(t, errOut.String(), "-job-duration")
}

func TestRunSetsRateLimitsFromFlags(t *testing.T) {
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"-addr", "127.0.0.1:0", "-quiet", "-api-key", "mint_limits", "-project", "p",
			"-analytics-limit", "3/1h"}, &stdout, &stderr)
	}()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()
	var url string
	require.Eventually(t, func() bool {
		m := regexp.MustCompile(`URL:\s+(\S+)`).FindStringSubmatch(stdout.String())
		if m != nil {
			url = m[1]
		}
		return m != nil
	}, 10*time.Second, 10*time.Millisecond)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	var statuses []int
	for _, route := range []string{"visitors", "views", "searches", "feedback"} {
		req, _ := http.NewRequest("GET", url+"/v1/analytics/p/"+route, nil)
		req.Header.Set("Authorization", "Bearer mint_limits")
		resp, err := hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
	}
	assert.Equal(t, []int{200, 200, 200, 429}, statuses, "one quota of 3 across the analytics routes")
}
