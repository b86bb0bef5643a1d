package mintlify

// Shared helpers for the root package's tests. Names carry a "core" or a
// job-specific word so that they do not clash with other test files.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	// coreAPIKey is long and distinctive, so that any piece of it showing up
	// in an error or a log line is certainly a leak.
	coreAPIKey    = "mint_sk_live_7hQ2pX9vLr4TzW8mN3bKc5yJ"
	coreProjectID = "proj_42"
	coreBaseURL   = "https://api.example.test"
	coreJobsURL   = coreBaseURL + "/v2/agent/" + coreProjectID + "/job"
)

// newCoreClient returns a client for coreProjectID whose requests go to a
// fresh httpmock transport, with retry waits of a few milliseconds. opts
// come last, so they win. A request that matches no responder fails the
// test.
func newCoreClient(t testing.TB, opts ...Option) (*Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(httpmock.NewNotFoundResponder(t.Error))
	base := []Option{
		WithAPIKey(coreAPIKey),
		WithProjectID(coreProjectID),
		WithBaseURL(coreBaseURL),
		WithHTTPClient(&http.Client{Transport: mt}),
		WithRetryWait(time.Millisecond, 5*time.Millisecond),
	}
	c, err := NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c, mt
}

// coreJobURL is the URL of one job; id must already be escaped.
func coreJobURL(id string) string { return coreJobsURL + "/" + id }

// jobJSON is a job body as the API sends it while the job runs: prLink and
// archivedAt null.
func jobJSON(id string, status JobStatus) string {
	return fmt.Sprintf(`{"id":%q,"status":%q,`+
		`"source":{"repository":"https://github.com/acme/docs","ref":"main"},`+
		`"model":"claude-sonnet-4","prLink":null,"createdAt":"2025-03-04T05:06:07Z","archivedAt":null}`,
		id, status)
}

// respond answers every call with a fresh response: status, body and
// header key/value pairs. JSON bodies get a JSON Content-Type.
func respond(status int, body string, header ...string) httpmock.Responder {
	if len(header)%2 != 0 {
		panic("respond: header needs key/value pairs")
	}
	return func(req *http.Request) (*http.Response, error) {
		resp := httpmock.NewStringResponse(status, body)
		if strings.HasPrefix(body, "{") {
			resp.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i < len(header); i += 2 {
			resp.Header.Set(header[i], header[i+1])
		}
		resp.Request = req
		return resp, nil
	}
}

// respondJob answers with a job in the given status.
func respondJob(status int, id string, js JobStatus) httpmock.Responder {
	return respond(status, jobJSON(id, js))
}

// inOrder uses each responder for one call, in turn; the last one answers
// every call after that.
func inOrder(rs ...httpmock.Responder) httpmock.Responder {
	var mu sync.Mutex
	n := 0
	return func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		r := rs[min(n, len(rs)-1)]
		n++
		mu.Unlock()
		return r(req)
	}
}

// recordedRequest is what a coreRecorder saw of one request.
type recordedRequest struct {
	Method string
	URL    *url.URL
	Header http.Header
	Body   []byte
	At     time.Time
}

// coreRecorder keeps every request that goes through the responders it
// wraps.
type coreRecorder struct {
	mu   sync.Mutex
	reqs []recordedRequest
}

func (r *coreRecorder) wrap(next httpmock.Responder) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		rec := recordedRequest{Method: req.Method, URL: req.URL, Header: req.Header.Clone(), At: time.Now()}
		if req.Body != nil {
			rec.Body, _ = io.ReadAll(req.Body)
		}
		r.mu.Lock()
		r.reqs = append(r.reqs, rec)
		r.mu.Unlock()
		return next(req)
	}
}

func (r *coreRecorder) requests() []recordedRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recordedRequest(nil), r.reqs...)
}

// onCloseBody is a response body that calls onClose when the client closes
// it: a hook that runs after the client has read the answer, used to act
// (cancel a context, say) at a known point of the exchange.
type onCloseBody struct {
	io.Reader
	once    sync.Once
	onClose func()
}

func (b *onCloseBody) Close() error {
	b.once.Do(b.onClose)
	return nil
}

// respondThen answers once with status and body, and calls onClose when the
// client closes that body.
func respondThen(status int, body string, onClose func(), header ...string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		resp, _ := respond(status, body, header...)(req)
		resp.Body = &onCloseBody{Reader: strings.NewReader(body), onClose: onClose}
		return resp, nil
	}
}

// assertNoKey fails if s holds the API key or any 8-character piece of its
// secret part (after "mint_"), so that a key cut in half counts as a leak.
func assertNoKey(t testing.TB, s, what string) {
	t.Helper()
	secret := strings.TrimPrefix(coreAPIKey, "mint_")
	if !assert.NotContains(t, s, coreAPIKey, "%s holds the API key", what) {
		return
	}
	for i := 0; i+8 <= len(secret); i++ {
		if piece := secret[i : i+8]; strings.Contains(s, piece) {
			assert.Failf(t, "API key piece leaked", "%s holds %q, a piece of the API key: %s", what, piece, s)
			return
		}
	}
}

// assertPrompt checks that the request body is exactly {"prompt": want}.
func assertPrompt(t testing.TB, body []byte, want string) {
	t.Helper()
	wantJSON, err := json.Marshal(map[string]string{"prompt": want})
	require.NoError(t, err)
	assert.JSONEq(t, string(wantJSON), string(body))
}
