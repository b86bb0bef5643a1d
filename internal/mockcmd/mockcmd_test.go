package mockcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/internal/syncbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// standalone is Run serving in the background, as a user starts it.
type standalone struct {
	url            string
	stdout, stderr syncbuf.Buffer
	hc             *http.Client
	stopOnce       sync.Once
	cancel         context.CancelFunc
	done           chan error
	err            error
}

// startRun runs the program with args until the test ends (or stop), and
// waits until its banner has printed ready.
func startRun(t *testing.T, ready string, args ...string) *standalone {
	t.Helper()
	s := &standalone{done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() { s.done <- Run(ctx, args, &s.stdout, &s.stderr) }()
	t.Cleanup(func() { require.NoError(t, s.stop()) })
	require.Eventually(t, func() bool {
		m := regexp.MustCompile(`URL:\s+(\S+)`).FindStringSubmatch(s.stdout.String())
		if m != nil {
			s.url = m[1]
		}
		return m != nil && strings.Contains(s.stdout.String(), ready)
	}, 10*time.Second, 10*time.Millisecond)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	s.hc = &http.Client{Transport: tr, Timeout: 5 * time.Second}
	return s
}

// stop cancels Run and returns its error; it may be called more than once.
func (s *standalone) stop() error {
	s.stopOnce.Do(func() {
		s.cancel()
		select {
		case s.err = <-s.done:
		case <-time.After(10 * time.Second):
			s.err = errors.New("run did not stop")
		}
	})
	return s.err
}

// call sends one request with key and decodes the JSON answer.
func (s *standalone) call(t *testing.T, key, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := s.hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	require.NoError(t, json.Unmarshal(b, &v), string(b))
	return resp.StatusCode, v
}

func TestRunServesUntilCancelled(t *testing.T) {
	s := startRun(t, "seeded:", "-addr", "127.0.0.1:0", "-seed", "5000", "-job-duration", "50ms",
		"-api-key", "mint_cmd_test_key", "-project", "docs")
	stdout, stderr := &s.stdout, &s.stderr
	assert.Contains(t, stdout.String(), "API key:  mint_cmd_test_key")
	assert.Contains(t, stdout.String(), "project:  docs")
	call := func(method, path, body string) (int, map[string]any) {
		return s.call(t, "mint_cmd_test_key", method, path, body)
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

	require.NoError(t, s.stop())
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
		{"-assistant-key", "mint_abc"},
		{"-index-key", "mint_dsc_abc"},
		{"-api-key", "mint_us_abc"},
		{"-domain", "not a domain"},
		{"-stream-delay", "-1s"},
		{"-index-limit", "10"},
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
	s := startRun(t, "control:", "-addr", "127.0.0.1:0", "-quiet", "-api-key", "mint_limits", "-project", "p",
		"-analytics-limit", "3/1h")
	var statuses []int
	for _, route := range []string{"visitors", "views", "searches", "feedback"} {
		status, _ := s.call(t, "mint_limits", "GET", "/v1/analytics/p/"+route, "")
		statuses = append(statuses, status)
	}
	assert.Equal(t, []int{200, 200, 200, 429}, statuses, "one quota of 3 across the analytics routes")
}

// The fifth round's flags: both keys and the domain in the banner, a
// message streamed with the stream delay between frames, the Index limit
// from its flag, and Index access switched off.
func TestRunServesTheAssistantAndTheIndex(t *testing.T) {
	s := startRun(t, "control:", "-addr", "127.0.0.1:0", "-quiet", "-assistant-key", "mint_dsc_cmd",
		"-index-key", "mint_us_cmd", "-domain", "acme.example", "-stream-delay", "5ms", "-index-limit", "2/1h")
	out := s.stdout.String()
	assert.Regexp(t, `assistant key:\s+mint_dsc_cmd\n`, out)
	assert.Regexp(t, `domain:\s+acme\.example `, out)
	assert.Regexp(t, `index key:\s+mint_us_cmd `, out)

	req, err := http.NewRequest("POST", s.url+"/discovery/v2/assistant/acme.example/message",
		strings.NewReader(`{"fp":"a","messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"rate limits"}]}]}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer mint_dsc_cmd")
	start := time.Now()
	resp, err := s.hc.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	frames := strings.Count(string(body), "\n\n")
	assert.Greater(t, frames, 10)
	assert.GreaterOrEqual(t, time.Since(start), time.Duration(frames-1)*5*time.Millisecond, "the stream delay between frames")
	assert.True(t, strings.HasSuffix(string(body), "data: [DONE]\n\n"))

	var statuses []int
	for range 3 {
		status, _ := s.call(t, "mint_us_cmd", "POST", "/api/universal-search/v1/search", `{"query":"caching","numResults":1}`)
		statuses = append(statuses, status)
	}
	assert.Equal(t, []int{200, 200, 429}, statuses)

	off := startRun(t, "control:", "-addr", "127.0.0.1:0", "-quiet", "-index-key", "mint_us_off", "-index-access=false")
	status, body2 := off.call(t, "mint_us_off", "POST", "/api/universal-search/v1/search", `{"query":"caching","numResults":1}`)
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, map[string]any{"error": "Unauthorized"}, body2)
}
