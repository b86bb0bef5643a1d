package mintlify_test

// The proxy as a long useChat session meets it: refusals passed on at
// once, long conversations trimmed rather than refused, threads carried
// in headers, and pages of other origins sending their session.

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// TestProxyPassesARefusalOnAtOnce: an upstream 429 is the browser's 429,
// with upstream's Retry-After, within a second: the proxy's call waits
// out no Retry-After (the client's own retry would hold the browser for
// it, then answer a stale 429), and the message is sent once.
func TestProxyPassesARefusalOnAtOnce(t *testing.T) {
	t.Parallel()
	// The client's default waits: a Retry-After of a few seconds is one
	// it would wait out.
	a, got := assistantServer(t, answer(http.StatusTooManyRequests, `{"message":"slow down"}`, "Retry-After", "3"),
		mintlify.WithRetryWait(time.Second, 30*time.Second))
	p, err := mintlify.NewAssistantProxy(a)
	require.NoError(t, err)
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	front := &proxied{url: srv.URL, upstream: got, proxy: p}

	start := time.Now()
	resp := front.post(t, chatBody)
	took := time.Since(start)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, readAll(t, resp))
	assert.Equal(t, "3", resp.Header.Get("Retry-After"))
	assert.Less(t, took, 2*time.Second, "the refusal waited in the proxy (upstream asked for 3 s)")
	assert.Equal(t, 1, len(got()), "sent once")
}
