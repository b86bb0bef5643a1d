package mockcmd

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -bundle-size past the bound (2^63-1 would panic the storage host's
// first range read) is refused with an error, as is any option
// mockserver.New refuses, never a panic.
func TestRunRefusesBundleSizesPastTheBound(t *testing.T) {
	for _, size := range []string{"9223372036854775807", "1099511627777", "-5"} {
		var out, errOut bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		var err error
		require.NotPanics(t, func() {
			err = Run(ctx, []string{"-addr", "127.0.0.1:0", "-quiet", "-bundle-size", size}, &out, &errOut)
		}, size)
		cancel()
		require.Error(t, err, size)
		assert.Contains(t, err.Error(), "1 TiB", size)
		assert.NotContains(t, out.String(), "listening", size)
	}
}

// The standalone program driven as a hostile client would: the key in the
// query, the path, the method and the Authorization scheme reaches neither
// its log nor its journal nor any answer; only the banner prints it.
func TestStandaloneNeverEchoesAKeyPutInOddPlaces(t *testing.T) {
	const key = "mint_hostile_standalone_key"
	st := startRun(t, "control:", "-addr", "127.0.0.1:0", "-api-key", key, "-project", "docs")
	url, hc, stdout, stderr := st.url, st.hc, &st.stdout, &st.stderr
	var answers []string
	send := func(method, path, auth string) {
		req, err := http.NewRequest(method, url+path, nil)
		require.NoError(t, err)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := hc.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answers = append(answers, fmt.Sprint(resp.Header)+string(b))
	}
	send("GET", "/v1/analytics/docs/views?api_key="+key+"&dateFrom="+key, "Bearer "+key)
	send("GET", "/v1/analytics/docs/assistant/threads/"+key, "Bearer "+key)
	send("GET", "/v1/"+key+"/x?token=%6D"+key[1:], "Bearer "+key)
	send("GET", "/v1/analytics/docs/views", "Basic "+key)
	send("GET", "/v1/analytics/docs/views", key+" x")
	send("GET", "/_mock/"+key, "")

	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	require.NoError(t, err)
	fmt.Fprintf(conn, "%s /v1/analytics/docs/views HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", key)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	conn.Close()
	answers = append(answers, string(b))

	send("GET", "/_mock/journal", "")
	require.NoError(t, st.stop())
	secret := key[len("mint_"):]
	for i, a := range answers {
		assert.NotContains(t, a, secret, "answer %d: %.300s", i, a)
	}
	assert.NotContains(t, stderr.String(), secret, "the log")
	assert.Contains(t, stderr.String(), "mint_***")
	assert.Equal(t, 1, strings.Count(stdout.String(), key), "the banner prints the key once")
}

// -seed outside 0 to the bound is refused with an error: -5 would be no
// seed at all, 4000000000 would exhaust memory, 9223372036854775807 a
// slice's length.
func TestRunRefusesSeedsPastTheBound(t *testing.T) {
	for _, seed := range []string{"-5", "100000001", "4000000000", "9223372036854775807"} {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), []string{"-addr", "127.0.0.1:0", "-quiet", "-seed", seed}, &out, &errOut)
		require.Error(t, err, seed)
		assert.Contains(t, err.Error(), "want 0 to 100000000 visits", seed)
		assert.NotContains(t, out.String(), "listening", seed)
	}
}

func TestRunRefusesAKeyThatIsNotOneToken(t *testing.T) {
	for _, key := range []string{"mint_a b", "mint_", "mint_x&y"} {
		var out, errOut bytes.Buffer
		var err error
		require.NotPanics(t, func() {
			err = Run(context.Background(), []string{"-addr", "127.0.0.1:0", "-quiet", "-api-key", key}, &out, &errOut)
		}, key)
		assert.Error(t, err, key)
	}
}

// Any limit starts and serves: -analytics-limit 100000000000/1h costs no
// more memory than a small one.
func TestRunServesUnderAHugeRateLimit(t *testing.T) {
	s := startRun(t, "control:", "-addr", "127.0.0.1:0", "-quiet", "-api-key", "mint_huge_limit", "-project", "docs",
		"-analytics-limit", "100000000000/1h", "-job-limit", "100000000000/1h",
		"-deploy-limit", "100000000000/10s", "-preview-limit", "100000000000/1m")
	for _, c := range [][3]string{
		{"GET", "/v1/analytics/docs/visitors", ""},
		{"POST", "/v2/agent/docs/job", `{"prompt":"x"}`},
		{"POST", "/v1/project/update/docs", ""},
	} {
		status, body := s.call(t, "mint_huge_limit", c[0], c[1], c[2])
		assert.Less(t, status, 300, "%s %s: %v", c[0], c[1], body)
	}
}

// The control API of the standalone program answers no web page and no
// foreign host; -control-origin and -control-host name those that may, and
// the host -addr names is one. A bad origin ends the program with an error.
func TestRunGuardsTheControlAPI(t *testing.T) {
	s := startRun(t, "control:", "-addr", "127.0.0.1:0", "-quiet", "-control-origin", "http://localhost:5173",
		"-control-host", "mock")
	send := func(host, origin string) *http.Response {
		req, err := http.NewRequest("POST", s.url+"/_mock/clock", strings.NewReader(`{"advance":"1m"}`))
		require.NoError(t, err)
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := s.hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	assert.Equal(t, http.StatusOK, send("", "").StatusCode, "mintctl and curl: no Origin, an IP host")
	assert.Equal(t, http.StatusOK, send("localhost:8080", "").StatusCode)
	assert.Equal(t, http.StatusOK, send("mock:8080", "").StatusCode, "-control-host")
	assert.Equal(t, http.StatusForbidden, send("rebind.attacker.net", "").StatusCode)
	resp := send("", "http://localhost:5173")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "-control-origin")
	assert.Equal(t, "http://localhost:5173", resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, http.StatusForbidden, send("", "https://attacker.net").StatusCode)

	var out, errOut bytes.Buffer
	err := Run(context.Background(), []string{"-addr", "127.0.0.1:0", "-quiet", "-control-origin", "localhost:5173"}, &out, &errOut)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "origin")

	name, err := os.Hostname()
	if addrs, lerr := net.LookupHost(name); err != nil || lerr != nil || len(addrs) == 0 {
		t.Skipf("this machine's name %q does not resolve", name)
	}
	named := startRun(t, "control:", "-addr", name+":0", "-quiet")
	req, err := http.NewRequest("GET", named.url+"/_mock/clock", nil)
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(named.url, "http://"))
	req.Host = name + ":" + port
	r, err := named.hc.Do(req)
	require.NoError(t, err)
	r.Body.Close()
	assert.Equal(t, http.StatusOK, r.StatusCode, "-addr %s: its own name", name)
}
