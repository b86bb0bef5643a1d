package mockcmd

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The third-round flags reach the server: previews and static export off,
// every run failing, the storage host on its own address.
func TestThirdRoundFlags(t *testing.T) {
	s := startRun(t, "storage:", "-addr", "127.0.0.1:0", "-storage-addr", "127.0.0.1:0", "-quiet",
		"-api-key", "mint_ci_flags", "-project", "docs", "-previews=false", "-static-export=false",
		"-outcome", "failed", "-job-duration", "1h", "-deploy-limit", "1/1h")
	stdout := &s.stdout
	assert.Regexp(t, `storage:\s+http://127\.0\.0\.1:\d+`, stdout.String())
	call := func(method, path, body string) (int, map[string]any) {
		return s.call(t, "mint_ci_flags", method, path, body)
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
