package mockcmd

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The third-round flags reach the server: previews and static export off,
// every run failing, the storage host on its own address.
func TestThirdRoundFlags(t *testing.T) {
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, []string{"-addr", "127.0.0.1:0", "-storage-addr", "127.0.0.1:0", "-quiet",
			"-api-key", "mint_ci_flags", "-project", "docs", "-previews=false", "-static-export=false",
			"-outcome", "failed", "-job-duration", "1h", "-deploy-limit", "1/1h"}, &stdout, &stderr)
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
		return m != nil && strings.Contains(stdout.String(), "storage:")
	}, 10*time.Second, 10*time.Millisecond)
	assert.Regexp(t, `storage:\s+http://127\.0\.0\.1:\d+`, stdout.String())

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	call := func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer mint_ci_flags")
		resp, err := hc.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var v map[string]any
		require.NoError(t, json.Unmarshal(b, &v), string(b))
		return resp.StatusCode, v
	}
	status, _ := call("POST", "/v1/project/preview/docs", `{"branch":"main"}`)
	assert.Equal(t, http.StatusForbidden, status, "-previews=false")
	status, _ = call("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`)
	assert.Equal(t, http.StatusForbidden, status, "-static-export=false")

	status, trigger := call("POST", "/v1/project/update/docs", "")
	require.Equal(t, http.StatusAccepted, status)
	status, _ = call("POST", "/v1/project/update/docs", "")
	assert.Equal(t, http.StatusTooManyRequests, status, "-deploy-limit 1/1h")
	status, d := call("GET", "/v1/project/update-status/"+trigger["statusId"].(string), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "queued", d["status"], "-job-duration 1h")
	status, _ = call("POST", "/_mock/clock", `{"advance":"1h"}`)
	require.Equal(t, http.StatusOK, status)
	_, d = call("GET", "/v1/project/update-status/"+trigger["statusId"].(string), "")
	assert.Equal(t, "failure", d["status"], "-outcome failed")
}
