package mockcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
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

// -env-file appends the settings of the three APIs as $GITHUB_ENV wants
// them, after what the file held, and a later step's clients of each API
// reach the mock with them.
func TestEnvFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "github_env")
	require.NoError(t, os.WriteFile(path, []byte("EARLIER=1\n"), 0o644))
	s := startRun(t, "project:", "-addr", "127.0.0.1:0", "-quiet", "-api-key", "mint_env_file", "-project", "docs",
		"-assistant-key", "mint_dsc_env_file", "-domain", "docs.acme.test", "-index-key", "mint_us_env_file", "-env-file", path)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "EARLIER=1\n"+
		"MINTLIFY_BASE_URL="+s.url+"\nMINTLIFY_API_KEY=mint_env_file\nMINTLIFY_PROJECT_ID=docs\n"+
		"MINTLIFY_ASSISTANT_API_KEY=mint_dsc_env_file\nMINTLIFY_DOMAIN=docs.acme.test\nMINTLIFY_ASSISTANT_BASE_URL="+s.url+"/discovery\n"+
		"MINTLIFY_INDEX_API_KEY=mint_us_env_file\nMINTLIFY_INDEX_BASE_URL="+s.url+"/api/universal-search\n", string(data))
	assert.NotContains(t, s.stderr.String(), "warning", "a loopback address needs no warning")
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		k, v, _ := strings.Cut(line, "=")
		env[k] = v
	}
	getenv := func(k string) string { return env[k] }

	admin, err := mintlify.NewClient(mintlify.WithAPIKey(getenv(mintlify.EnvAPIKey)), mintlify.WithProjectID(getenv(mintlify.EnvProjectID)),
		mintlify.WithBaseURL(getenv(mintlify.EnvBaseURL)))
	require.NoError(t, err)
	_, err = admin.GetCallerStats(context.Background(), mintlify.CallerStatsParams{})
	assert.NoError(t, err, "the admin API with the file's settings")
	assistant, err := mintlify.NewAssistantClient(mintlify.WithAPIKey(getenv(mintlify.EnvAssistantAPIKey)),
		mintlify.WithDomain(getenv(mintlify.EnvDomain)), mintlify.WithBaseURL(getenv(mintlify.EnvAssistantBaseURL)))
	require.NoError(t, err)
	_, err = assistant.SearchDocs(context.Background(), mintlify.DocSearchParams{Query: "deploy"})
	assert.NoError(t, err, "the assistant API with the file's settings")
	index, err := mintlify.NewIndexClient(mintlify.WithAPIKey(getenv(mintlify.EnvIndexAPIKey)), mintlify.WithBaseURL(getenv(mintlify.EnvIndexBaseURL)))
	require.NoError(t, err)
	_, err = index.Search(context.Background(), mintlify.IndexSearchParams{Query: "caching", NumResults: 3})
	assert.NoError(t, err, "the Index API with the file's settings")

	var stderr bytes.Buffer
	err = Run(context.Background(), []string{"-addr", "127.0.0.1:0", "-env-file", filepath.Join(t.TempDir(), "no", "such", "folder")}, io.Discard, &stderr)
	assert.ErrorContains(t, err, "-env-file")
}

// A mock listening beyond loopback says that anyone who reaches it can
// drive its control API. (The tests listen on 127.0.0.1 only: the check is
// on the address.)
func TestNonLoopbackAddrWarns(t *testing.T) {
	for _, ip := range []string{"0.0.0.0", "::", "192.168.1.10"} {
		w := exposedWarning(":8080", &net.TCPAddr{IP: net.ParseIP(ip), Port: 8080})
		assert.Contains(t, w, "is not a loopback address", ip)
		assert.Contains(t, w, "/_mock/", ip)
	}
	for _, ip := range []string{"127.0.0.1", "127.1.2.3", "::1"} {
		assert.Empty(t, exposedWarning("localhost:8080", &net.TCPAddr{IP: net.ParseIP(ip), Port: 8080}), ip)
	}
}

// The bundle host binds to the host of -addr, so that with -addr
// 0.0.0.0:8080 a CI container reaches the links the API hands out as it
// reaches the API. 127.0.0.2 stands for "another address than 127.0.0.1"
// without leaving loopback.
func TestStorageHostListensWhereTheAPIDoes(t *testing.T) {
	if ln, err := net.Listen("tcp", "127.0.0.2:0"); err != nil {
		t.Skipf("127.0.0.2 is not configured here: %v", err)
	} else {
		ln.Close()
	}
	s := startRun(t, "storage:", "-addr", "127.0.0.2:0", "-quiet", "-api-key", "mint_storage_host", "-project", "docs")
	assert.Regexp(t, `storage:\s+http://127\.0\.0\.2:\d+`, s.stdout.String())
	link := exportLink(t, s, "mint_storage_host", "")
	assert.Regexp(t, `^http://127\.0\.0\.2:\d+/bundles/`, link)
	resp, err := s.hc.Get(link)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// On every interface (-addr 0.0.0.0:PORT) a link names the host the client
// addressed the API by, with the storage host's port: reachable from
// wherever the API was, where 0.0.0.0 would name the client's own machine.
func TestBundleLinksNameTheHostTheAPIWasAddressedBy(t *testing.T) {
	s := startRun(t, "storage:", "-addr", "0.0.0.0:0", "-quiet", "-api-key", "mint_storage_host", "-project", "docs")
	// Go names a listener on every interface [::], dual stack.
	m := regexp.MustCompile(`storage:\s+http://(?:0\.0\.0\.0|\[::\]):(\d+)`).FindStringSubmatch(s.stdout.String())
	require.NotNil(t, m, "the storage host listens on every interface: %s", s.stdout.String())
	_, apiPort, _ := net.SplitHostPort(strings.TrimPrefix(s.url, "http://"))
	s.url = "http://127.0.0.1:" + apiPort

	link := exportLink(t, s, "mint_storage_host", "mock.test:"+apiPort)
	assert.Regexp(t, `^http://mock\.test:`+m[1]+`/bundles/`, link)
	link = exportLink(t, s, "mint_storage_host", "[::1]:"+apiPort)
	assert.Regexp(t, `^http://\[::1\]:`+m[1]+`/bundles/`, link)
	link = exportLink(t, s, "mint_storage_host", "bad host,:"+apiPort)
	assert.Regexp(t, `^http://localhost:`+m[1]+`/bundles/`, link, "a Host that cannot stand in a link")
	link = exportLink(t, s, "mint_storage_host", "")
	require.Regexp(t, `^http://127\.0\.0\.1:`+m[1]+`/bundles/`, link)
	resp, err := s.hc.Get(link)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// exportLink runs a static export to its end and returns a bundle link,
// asking for it with Host host (the URL's when empty).
func exportLink(t *testing.T, s *standalone, key, host string) string {
	t.Helper()
	status, job := s.call(t, key, "POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`)
	require.Equal(t, http.StatusAccepted, status, "%v", job)
	status, _ = s.call(t, key, "POST", "/_mock/clock", `{"advance":"1h"}`)
	require.Equal(t, http.StatusOK, status)
	req, err := http.NewRequest("POST", s.url+"/v1/static-export/jobs/"+job["jobId"].(string)+"/bundle", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	if host != "" {
		req.Host = host
	}
	resp, err := s.hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var bundle struct{ BundleURL string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&bundle))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return bundle.BundleURL
}
