package mintlify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clearMintlifyEnv empties the variables NewClient reads, so that a test
// does not depend on the environment it runs in.
func clearMintlifyEnv(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvProjectID, "")
	t.Setenv(EnvBaseURL, "")
}

// firstRequest builds a client from opts, makes one GetJob through it and
// returns the client and the request it sent.
func firstRequest(t *testing.T, opts ...Option) (*Client, *http.Request) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	var got *http.Request
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		got = req
		return respondJob(http.StatusOK, "job_1", JobActive)(req)
	})
	c, err := NewClient(append(opts, WithHTTPClient(&http.Client{Transport: mt}))...)
	require.NoError(t, err)
	_, err = c.GetJob(context.Background(), "job_1")
	require.NoError(t, err)
	require.NotNil(t, got)
	return c, got
}

// firstRequestURL is the URL of firstRequest's request.
func firstRequestURL(t *testing.T, opts ...Option) string {
	t.Helper()
	_, req := firstRequest(t, opts...)
	return req.URL.String()
}

func TestNewClientReadsEnvironment(t *testing.T) {
	t.Setenv(EnvAPIKey, coreAPIKey)
	t.Setenv(EnvProjectID, "env_project")
	t.Setenv(EnvBaseURL, "http://127.0.0.1:8080")

	c, req := firstRequest(t)
	assert.Equal(t, "env_project", c.ProjectID())
	assert.Equal(t, "http://127.0.0.1:8080/v2/agent/env_project/job/job_1", req.URL.String())
	assert.Equal(t, "Bearer "+coreAPIKey, req.Header.Get("Authorization"))
}

func TestNewClientDefaultBaseURL(t *testing.T) {
	clearMintlifyEnv(t)
	got := firstRequestURL(t, WithAPIKey(coreAPIKey), WithProjectID("p"))
	assert.Equal(t, DefaultBaseURL+"/v2/agent/p/job/job_1", got)
}

func TestNewClientOptionsWinOverEnvironment(t *testing.T) {
	t.Setenv(EnvAPIKey, "mint_from_env")
	t.Setenv(EnvProjectID, "env_project")
	t.Setenv(EnvBaseURL, "http://env.example.test")

	c, req := firstRequest(t,
		WithAPIKey(coreAPIKey),
		WithProjectID("opt_project"),
		WithBaseURL("https://opt.example.test"),
	)
	assert.Equal(t, "opt_project", c.ProjectID())
	assert.Equal(t, "https://opt.example.test/v2/agent/opt_project/job/job_1", req.URL.String())
	assert.Equal(t, "Bearer "+coreAPIKey, req.Header.Get("Authorization"))
}

func TestNewClientRejectsBadConfig(t *testing.T) {
	clearMintlifyEnv(t)
	valid := []Option{WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithHTTPClient(&http.Client{Transport: httpmock.NewMockTransport()})}
	tests := []struct {
		name     string
		opts     []Option // applied after a valid key and project
		mentions string   // a word the message must hold to help the user
	}{
		{"missing key", []Option{WithAPIKey("")}, EnvAPIKey},
		{"missing project", []Option{WithProjectID("")}, EnvProjectID},
		{"key with Bearer prefix", []Option{WithAPIKey("Bearer " + coreAPIKey)}, "Bearer"},
		{"key with lower-case bearer prefix", []Option{WithAPIKey("bearer " + coreAPIKey)}, "Bearer"},
		{"key without mint_ prefix", []Option{WithAPIKey("sk_live_abcdef")}, "mint_"},
		{"key with leading space", []Option{WithAPIKey(" " + coreAPIKey)}, "API key"},
		{"key with trailing newline", []Option{WithAPIKey(coreAPIKey + "\n")}, "API key"},
		{"key with inner space", []Option{WithAPIKey("mint_abc def")}, "API key"},
		{"key with tab", []Option{WithAPIKey(coreAPIKey + "\t")}, "API key"},
		{"key with DEL", []Option{WithAPIKey(coreAPIKey + "\x7f")}, "API key"},
		// Pasting from a web page or a chat often brings a no-break space
		// or a line separator along.
		{"key with no-break space", []Option{WithAPIKey(coreAPIKey + "\u00a0")}, "API key"},
		{"key with line separator", []Option{WithAPIKey(coreAPIKey + "\u2028")}, "API key"},
		{"key with C1 control", []Option{WithAPIKey(coreAPIKey + "\u0085")}, "API key"},
		{"project .", []Option{WithProjectID(".")}, ""},
		{"project ..", []Option{WithProjectID("..")}, ""},
		{"relative base URL", []Option{WithBaseURL("api.mintlify.com")}, "base URL"},
		{"path-only base URL", []Option{WithBaseURL("/v2")}, "base URL"},
		{"ftp base URL", []Option{WithBaseURL("ftp://api.mintlify.com")}, "base URL"},
		{"base URL without host", []Option{WithBaseURL("https://")}, "base URL"},
		{"base URL with query", []Option{WithBaseURL("https://api.mintlify.com?region=eu")}, "base URL"},
		{"base URL with empty query", []Option{WithBaseURL("https://api.mintlify.com/?")}, "base URL"},
		{"base URL with fragment", []Option{WithBaseURL("https://api.mintlify.com#top")}, "base URL"},
		{"unparsable base URL", []Option{WithBaseURL("http://[::1")}, "base URL"},
		{"negative retries", []Option{WithMaxRetries(-1)}, "retries"},
		{"zero minimum wait", []Option{WithRetryWait(0, time.Second)}, "retry wait"},
		{"negative minimum wait", []Option{WithRetryWait(-time.Second, time.Second)}, "retry wait"},
		{"maximum below minimum", []Option{WithRetryWait(2*time.Second, time.Second)}, "retry wait"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewClient(slices.Concat(valid, tt.opts)...)
			require.ErrorIs(t, err, ErrInvalidInput)
			assert.Nil(t, c)
			assert.Contains(t, err.Error(), tt.mentions)
			assertNoKey(t, err.Error(), "NewClient error")
		})
	}
}

func TestNewClientAcceptsRetrySettings(t *testing.T) {
	t.Parallel()
	for _, opt := range []Option{
		WithMaxRetries(0),
		WithMaxRetries(10),
		WithRetryWait(time.Second, time.Second),
		WithRetryWait(time.Nanosecond, time.Hour),
	} {
		_, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), opt)
		assert.NoError(t, err)
	}
}

func TestNewClientBaseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		base, want string
	}{
		{"https://api.mintlify.com", "https://api.mintlify.com/v2/agent/p/job/job_1"},
		{"https://api.mintlify.com/", "https://api.mintlify.com/v2/agent/p/job/job_1"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/v2/agent/p/job/job_1"},
		{"https://proxy.example.test/mintlify", "https://proxy.example.test/mintlify/v2/agent/p/job/job_1"},
		{"https://proxy.example.test/mintlify/", "https://proxy.example.test/mintlify/v2/agent/p/job/job_1"},
		{"https://proxy.example.test/a/b//", "https://proxy.example.test/a/b/v2/agent/p/job/job_1"},
	}
	for _, tt := range tests {
		got := firstRequestURL(t, WithAPIKey(coreAPIKey), WithProjectID("p"), WithBaseURL(tt.base))
		assert.Equal(t, tt.want, got, "base URL %q", tt.base)
	}
}

func TestRequestShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		call       func(*Client) (*Job, error)
		method     string
		path       string
		status     int
		wantPrompt string // "" for no body
	}{
		{
			name:   "GetJob",
			call:   func(c *Client) (*Job, error) { return c.GetJob(context.Background(), "job_1") },
			method: http.MethodGet, path: "/v2/agent/proj_42/job/job_1", status: http.StatusOK,
		},
		{
			name: "CreateJob",
			call: func(c *Client) (*Job, error) {
				return c.CreateJob(context.Background(), `Document the "retry" <option> & more`)
			},
			method: http.MethodPost, path: "/v2/agent/proj_42/job", status: http.StatusCreated,
			wantPrompt: `Document the "retry" <option> & more`,
		},
		{
			name: "SendMessage",
			call: func(c *Client) (*Job, error) {
				return c.SendMessage(context.Background(), "job_1", "Also fix the typo\nplease ü")
			},
			method: http.MethodPost, path: "/v2/agent/proj_42/job/job_1/message", status: http.StatusOK,
			wantPrompt: "Also fix the typo\nplease ü",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t, WithUserAgent("acme-docs-bot/2.0"))
			rec := &coreRecorder{}
			mt.RegisterResponder(tt.method, coreBaseURL+tt.path, rec.wrap(respondJob(tt.status, "job_1", JobActive)))

			job, err := tt.call(c)
			require.NoError(t, err)
			assert.Equal(t, "job_1", job.ID)

			reqs := rec.requests()
			require.Len(t, reqs, 1)
			req := reqs[0]
			assert.Equal(t, tt.method, req.Method)
			assert.Equal(t, tt.path, req.URL.EscapedPath())
			assert.Empty(t, req.URL.RawQuery)
			assert.Equal(t, []string{"Bearer " + coreAPIKey}, req.Header.Values("Authorization"))
			assert.Equal(t, "application/json", req.Header.Get("Accept"))
			assert.Equal(t, "mintlify-go/"+Version+" acme-docs-bot/2.0", req.Header.Get("User-Agent"))
			if tt.wantPrompt == "" {
				assert.Empty(t, req.Header.Values("Content-Type"))
				assert.Empty(t, req.Body)
			} else {
				assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
				assertPrompt(t, req.Body, tt.wantPrompt)
			}
		})
	}
}

func TestUserAgentWithoutSuffix(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	rec := &coreRecorder{}
	mt.RegisterNoResponder(rec.wrap(respondJob(http.StatusOK, "job_1", JobActive)))
	_, err := c.GetJob(context.Background(), "job_1")
	require.NoError(t, err)
	assert.Equal(t, "mintlify-go/"+Version, rec.requests()[0].Header.Get("User-Agent"))
}

func TestIDsStayOnePathSegment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id, escaped string
	}{
		{"../x", "..%2Fx"},
		{"a/b", "a%2Fb"},
		{"a b", "a%20b"},
		{"ü", "%C3%BC"},
		{"%2F", "%252F"},
		{"a?b", "a%3Fb"},
		{"a#b", "a%23b"},
		{"a;b", "a%3Bb"},
		{"...", "..."},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			rec := &coreRecorder{}
			mt.RegisterNoResponder(rec.wrap(respondJob(http.StatusOK, tt.id, JobCompleted)))

			_, err := c.GetJob(context.Background(), tt.id)
			require.NoError(t, err)
			_, err = c.SendMessage(context.Background(), tt.id, "more")
			require.NoError(t, err)
			_, err = c.PollJob(context.Background(), tt.id, WithPollInterval(time.Millisecond))
			require.NoError(t, err)

			wantJob := "/v2/agent/proj_42/job/" + tt.escaped
			reqs := rec.requests()
			require.Len(t, reqs, 3)
			assert.Equal(t, wantJob, reqs[0].URL.EscapedPath(), "GetJob")
			assert.Equal(t, wantJob+"/message", reqs[1].URL.EscapedPath(), "SendMessage")
			assert.Equal(t, wantJob, reqs[2].URL.EscapedPath(), "PollJob")
			for _, r := range reqs {
				assert.Empty(t, r.URL.RawQuery)
				assert.Empty(t, r.URL.Fragment)
			}
		})
	}
}

func TestProjectIDStaysOnePathSegment(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithProjectID("team/docs ü"))
	rec := &coreRecorder{}
	mt.RegisterNoResponder(rec.wrap(respondJob(http.StatusCreated, "job_1", JobActive)))
	_, err := c.CreateJob(context.Background(), "p")
	require.NoError(t, err)
	assert.Equal(t, "/v2/agent/team%2Fdocs%20%C3%BC/job", rec.requests()[0].URL.EscapedPath())
}

func TestInvalidInputSendsNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		call func(*Client) (*Job, error)
	}{
		{"CreateJob empty prompt", func(c *Client) (*Job, error) { return c.CreateJob(context.Background(), "") }},
		{"GetJob empty ID", func(c *Client) (*Job, error) { return c.GetJob(context.Background(), "") }},
		{"GetJob .", func(c *Client) (*Job, error) { return c.GetJob(context.Background(), ".") }},
		{"GetJob ..", func(c *Client) (*Job, error) { return c.GetJob(context.Background(), "..") }},
		{"SendMessage empty ID", func(c *Client) (*Job, error) { return c.SendMessage(context.Background(), "", "p") }},
		{"SendMessage ..", func(c *Client) (*Job, error) { return c.SendMessage(context.Background(), "..", "p") }},
		{"SendMessage empty prompt", func(c *Client) (*Job, error) { return c.SendMessage(context.Background(), "job_1", "") }},
		{"PollJob empty ID", func(c *Client) (*Job, error) { return c.PollJob(context.Background(), "") }},
		{"PollJob .", func(c *Client) (*Job, error) { return c.PollJob(context.Background(), ".") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			job, err := tt.call(c)
			require.ErrorIs(t, err, ErrInvalidInput)
			assert.Nil(t, job)
			var apiErr *APIError
			assert.False(t, errors.As(err, &apiErr), "no API answer behind invalid input")
			assert.Zero(t, mt.GetTotalCallCount(), "requests sent")
		})
	}
}

func TestClientFormattingHidesKey(t *testing.T) {
	t.Parallel()
	c, _ := newCoreClient(t, WithLogger(slog.New(slog.DiscardHandler)))
	// %v stops at the first pointer, but other verbs (%s, %q, %d, ...) make
	// fmt print what a nested pointer points to.
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%t"} {
		assertNoKey(t, fmt.Sprintf(verb, c), "fmt "+verb+" of *Client")
		assertNoKey(t, fmt.Sprintf(verb, *c), "fmt "+verb+" of Client")
	}
}

// Retries.

func TestGetRetriesByStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status    int
		sentinel  error
		wantCalls int
	}{
		{http.StatusTooManyRequests, ErrRateLimited, 3},
		{http.StatusInternalServerError, ErrServer, 3},
		{http.StatusBadGateway, ErrServer, 3},
		{http.StatusServiceUnavailable, ErrServer, 3},
		{http.StatusGatewayTimeout, ErrServer, 3},
		{http.StatusBadRequest, ErrBadRequest, 1},
		{http.StatusUnauthorized, ErrUnauthorized, 1},
		{http.StatusForbidden, ErrForbidden, 1},
		{http.StatusNotFound, ErrNotFound, 1},
		{http.StatusConflict, ErrBadRequest, 1},
		{http.StatusNotImplemented, ErrServer, 1},
		{http.StatusHTTPVersionNotSupported, ErrServer, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t, WithMaxRetries(2))
			mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"),
				respond(tt.status, `{"error":"nope"}`, "X-Request-Id", "req_9"))

			job, err := c.GetJob(context.Background(), "job_1")
			assert.Nil(t, job)
			require.ErrorIs(t, err, tt.sentinel)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.status, apiErr.StatusCode)
			assert.Equal(t, "nope", apiErr.Message)
			assert.Equal(t, "req_9", apiErr.RequestID)
			assert.Equal(t, tt.wantCalls, mt.GetTotalCallCount())
		})
	}
}

func TestGetRetriesThenSucceeds(t *testing.T) {
	t.Parallel()
	tests := map[string]httpmock.Responder{
		"503":            respond(http.StatusServiceUnavailable, ""),
		"429":            respond(http.StatusTooManyRequests, `{"error":"slow down"}`, "Retry-After", "0"),
		"network error":  httpmock.NewErrorResponder(errors.New("connection reset by peer")),
		"truncated body": respond(http.StatusOK, `{"id":"job_1","status":"acti`),
		"HTML body":      respond(http.StatusOK, `<html><body>maintenance</body></html>`),
		"empty body":     respond(http.StatusOK, ""),
	}
	for name, failure := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t, WithMaxRetries(3))
			mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"),
				inOrder(failure, failure, respondJob(http.StatusOK, "job_1", JobCompleted)))

			job, err := c.GetJob(context.Background(), "job_1")
			require.NoError(t, err)
			assert.Equal(t, JobCompleted, job.Status)
			assert.Equal(t, "https://github.com/acme/docs", job.Source.Repository)
			assert.Equal(t, 3, mt.GetTotalCallCount())
		})
	}
}

func TestGetGivesUpOnBrokenAnswers(t *testing.T) {
	t.Parallel()
	tests := map[string]httpmock.Responder{
		"network error":  httpmock.NewErrorResponder(errors.New("connection reset by peer")),
		"truncated body": respond(http.StatusOK, `{"id":"job_1"`),
	}
	for name, failure := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t, WithMaxRetries(2))
			mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), failure)

			job, err := c.GetJob(context.Background(), "job_1")
			require.Error(t, err)
			assert.Nil(t, job)
			assert.Equal(t, 3, mt.GetTotalCallCount())
			assert.NotErrorIs(t, err, ErrOutcomeUnknown, "a GET changes nothing")
			var apiErr *APIError
			assert.False(t, errors.As(err, &apiErr))
			assert.True(t, strings.HasPrefix(err.Error(), "mintlify: "), err.Error())
		})
	}
}

func TestMaxRetriesZeroMakesOneAttempt(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), respond(http.StatusServiceUnavailable, ""))
	mt.RegisterResponder(http.MethodPost, coreJobsURL, respond(http.StatusTooManyRequests, ""))

	_, err := c.GetJob(context.Background(), "job_1")
	require.ErrorIs(t, err, ErrServer)
	_, err = c.CreateJob(context.Background(), "p")
	require.ErrorIs(t, err, ErrRateLimited)
	assert.Equal(t, 2, mt.GetTotalCallCount())
}

// postCalls are the two calls that may create or change a job.
var postCalls = []struct {
	name string
	url  string
	ok   int // the documented success status
	call func(context.Context, *Client) (*Job, error)
}{
	{"CreateJob", coreJobsURL, http.StatusCreated, func(ctx context.Context, c *Client) (*Job, error) {
		return c.CreateJob(ctx, "Write a quickstart")
	}},
	{"SendMessage", coreJobURL("job_1") + "/message", http.StatusOK, func(ctx context.Context, c *Client) (*Job, error) {
		return c.SendMessage(ctx, "job_1", "Also add examples")
	}},
}

func TestPostRetriesOnlyWhenServerDidNotAct(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status    int
		sentinel  error
		wantCalls int
	}{
		{http.StatusTooManyRequests, ErrRateLimited, 3},
		{http.StatusInternalServerError, ErrServer, 1},
		{http.StatusBadGateway, ErrServer, 1},
		{http.StatusServiceUnavailable, ErrServer, 1},
		{http.StatusGatewayTimeout, ErrServer, 1},
		{http.StatusBadRequest, ErrBadRequest, 1},
		{http.StatusUnauthorized, ErrUnauthorized, 1},
		{http.StatusNotFound, ErrNotFound, 1},
	}
	for _, pc := range postCalls {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/%d", pc.name, tt.status), func(t *testing.T) {
				t.Parallel()
				c, mt := newCoreClient(t, WithMaxRetries(2))
				rec := &coreRecorder{}
				mt.RegisterResponder(http.MethodPost, pc.url, rec.wrap(respond(tt.status, `{"error":"no"}`)))

				job, err := pc.call(context.Background(), c)
				assert.Nil(t, job)
				require.ErrorIs(t, err, tt.sentinel)
				reqs := rec.requests()
				require.Len(t, reqs, tt.wantCalls)
				for _, r := range reqs { // every attempt carries the whole body
					assert.Contains(t, string(r.Body), `"prompt":`)
				}
			})
		}
	}
}

func TestPost429ThenSuccess(t *testing.T) {
	t.Parallel()
	for _, pc := range postCalls {
		t.Run(pc.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t)
			rec := &coreRecorder{}
			mt.RegisterResponder(http.MethodPost, pc.url, rec.wrap(inOrder(
				respond(http.StatusTooManyRequests, `{"error":"rate limited"}`),
				respondJob(pc.ok, "job_1", JobActive),
			)))
			job, err := pc.call(context.Background(), c)
			require.NoError(t, err)
			assert.Equal(t, "job_1", job.ID)
			reqs := rec.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, reqs[0].Body, reqs[1].Body, "the retry resends the same body")
		})
	}
}

func TestPostAnswerLostIsOutcomeUnknown(t *testing.T) {
	t.Parallel()
	tests := map[string]httpmock.Responder{
		"connection reset": httpmock.NewErrorResponder(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}),
		"EOF":              httpmock.NewErrorResponder(io.EOF),
		"unexpected EOF":   httpmock.NewErrorResponder(io.ErrUnexpectedEOF),
		"truncated 201":    respond(http.StatusCreated, `{"id":"job_1","status":"act`),
		"HTML 200":         respond(http.StatusOK, `<html>ok</html>`),
	}
	for _, pc := range postCalls {
		for name, lost := range tests {
			t.Run(pc.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				c, mt := newCoreClient(t, WithMaxRetries(3))
				mt.RegisterResponder(http.MethodPost, pc.url, inOrder(lost, respondJob(pc.ok, "job_1", JobActive)))

				job, err := pc.call(context.Background(), c)
				assert.Nil(t, job)
				require.ErrorIs(t, err, ErrOutcomeUnknown)
				assert.Equal(t, 1, mt.GetTotalCallCount(), "a POST whose answer was lost is never retried")
			})
		}
	}
}

// countingTransport counts the requests handed to the transport below it.
type countingTransport struct {
	next http.RoundTripper
	n    atomic.Int32
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(req)
}

func TestPostRetriedOnConnectionRefused(t *testing.T) {
	t.Parallel()
	// A port that was just listened on and closed refuses connections.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())

	for _, pc := range postCalls {
		t.Run(pc.name, func(t *testing.T) {
			t.Parallel()
			ct := &countingTransport{next: &http.Transport{}}
			c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID),
				WithBaseURL("http://"+addr), WithHTTPClient(&http.Client{Transport: ct}),
				WithMaxRetries(2), WithRetryWait(time.Millisecond, 5*time.Millisecond))
			require.NoError(t, err)

			job, err := pc.call(context.Background(), c)
			assert.Nil(t, job)
			require.ErrorIs(t, err, syscall.ECONNREFUSED)
			assert.NotErrorIs(t, err, ErrOutcomeUnknown, "a refused connection sent nothing")
			assert.EqualValues(t, 3, ct.n.Load(), "attempts")
			assertNoKey(t, err.Error(), "error")
		})
	}
}

func TestPostConnectionDroppedAfterRequestIsNotRetried(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = io.Copy(io.Discard, r.Body) // the server got the whole request...
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close() // ...and the answer is lost.
		}
	}))
	t.Cleanup(srv.Close)

	for _, pc := range postCalls {
		hits.Store(0)
		c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID),
			WithBaseURL(srv.URL+"/"), WithHTTPClient(srv.Client()),
			WithRetryWait(time.Millisecond, 5*time.Millisecond))
		require.NoError(t, err)

		job, err := pc.call(context.Background(), c)
		assert.Nil(t, job)
		require.ErrorIs(t, err, ErrOutcomeUnknown, pc.name)
		assert.EqualValues(t, 1, hits.Load(), "%s: requests the server saw", pc.name)
		assertNoKey(t, err.Error(), "error")
	}
}

// Retry-After.

func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithRetryWait(time.Millisecond, 5*time.Second))
	rec := &coreRecorder{}
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), rec.wrap(inOrder(
		respond(http.StatusTooManyRequests, `{"error":"slow down"}`, "Retry-After", "1"),
		respondJob(http.StatusOK, "job_1", JobActive),
	)))

	_, err := c.GetJob(context.Background(), "job_1")
	require.NoError(t, err)
	reqs := rec.requests()
	require.Len(t, reqs, 2)
	assert.GreaterOrEqual(t, reqs[1].At.Sub(reqs[0].At), time.Second, "wait before the retry")
}

func TestRetryAfterBeyondMaxWaitFailsAtOnce(t *testing.T) {
	t.Parallel()
	inTwoHours := time.Now().Add(2 * time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		method     string
		url        string
		status     int
		retryAfter string
		want       time.Duration
		sentinel   error
	}{
		{"GET 429 seconds", http.MethodGet, coreJobURL("job_1"), 429, "3600", time.Hour, ErrRateLimited},
		{"GET 429 date", http.MethodGet, coreJobURL("job_1"), 429, inTwoHours, 2 * time.Hour, ErrRateLimited},
		{"GET 503 seconds", http.MethodGet, coreJobURL("job_1"), 503, "120", 2 * time.Minute, ErrServer},
		{"POST 429 seconds", http.MethodPost, coreJobsURL, 429, "3600", time.Hour, ErrRateLimited},
		{"POST 429 date", http.MethodPost, coreJobsURL, 429, inTwoHours, 2 * time.Hour, ErrRateLimited},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The maximum wait is 1s: every Retry-After here is longer.
			c, mt := newCoreClient(t, WithRetryWait(time.Millisecond, time.Second), WithMaxRetries(5))
			mt.RegisterResponder(tt.method, tt.url,
				respond(tt.status, `{"error":"quota exhausted"}`, "Retry-After", tt.retryAfter))

			start := time.Now()
			var err error
			if tt.method == http.MethodGet {
				_, err = c.GetJob(context.Background(), "job_1")
			} else {
				_, err = c.CreateJob(context.Background(), "p")
			}
			assert.Less(t, time.Since(start), 900*time.Millisecond, "returns without sleeping")
			require.ErrorIs(t, err, tt.sentinel)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.InDelta(t, tt.want, apiErr.RetryAfter, float64(time.Minute)) // the date was made when the table was; a loaded machine may run the case later
			assert.Equal(t, 1, mt.GetTotalCallCount())
			assert.Contains(t, err.Error(), "retry after")
		})
	}
}

func TestRetriesExhaustedReturnTheLastAnswer(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(2))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(
		respond(http.StatusServiceUnavailable, `{"error":"first"}`),
		respond(http.StatusBadGateway, `{"error":"second"}`),
		respond(http.StatusTooManyRequests, `{"error":"third"}`, "Retry-After", "0", "X-Request-Id", "req_3")))
	_, err := c.GetJob(context.Background(), "job_1")
	require.ErrorIs(t, err, ErrRateLimited)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "third", apiErr.Message)
	assert.Equal(t, "req_3", apiErr.RequestID)
	assert.Equal(t, 3, mt.GetTotalCallCount())
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	withRetryAfter := func(v string) *http.Response {
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {v}}}
	}
	t.Run("Retry-After seconds is the wait", func(t *testing.T) {
		assert.Equal(t, 2*time.Second, backoff(time.Millisecond, 10*time.Second, 0, withRetryAfter("2")))
		assert.Equal(t, time.Duration(0), backoff(time.Millisecond, 10*time.Second, 3, withRetryAfter("0")))
	})
	t.Run("Retry-After date is the wait", func(t *testing.T) {
		at := time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat)
		got := backoff(time.Millisecond, 10*time.Second, 0, withRetryAfter(at))
		assert.InDelta(t, 4500*time.Millisecond, got, float64(1100*time.Millisecond)) // the date has 1s resolution
	})
	t.Run("Retry-After is capped at the maximum", func(t *testing.T) {
		assert.Equal(t, 10*time.Second, backoff(time.Millisecond, 10*time.Second, 0, withRetryAfter("3600")))
	})
	t.Run("a bad Retry-After falls back to the backoff", func(t *testing.T) {
		got := backoff(100*time.Millisecond, 200*time.Millisecond, 0, withRetryAfter("soon"))
		assert.LessOrEqual(t, got, 200*time.Millisecond)
	})
	t.Run("waits stay within the bounds and grow", func(t *testing.T) {
		const minWait, maxWait = 100 * time.Millisecond, 3 * time.Second
		for attempt := range 8 {
			var lo, hi time.Duration = maxWait, 0
			for range 2000 {
				d := backoff(minWait, maxWait, attempt, nil)
				lo, hi = min(lo, d), max(hi, d)
			}
			// WithRetryWait documents the bounds of every wait.
			assert.GreaterOrEqual(t, lo, minWait, "attempt %d: shortest wait", attempt)
			assert.LessOrEqual(t, hi, maxWait, "attempt %d: longest wait", attempt)
			ceiling := min(maxWait, minWait<<attempt)
			assert.Greater(t, hi, ceiling/2, "attempt %d: waits grow with the attempts", attempt)
		}
	})
	t.Run("the first retry is jittered too", func(t *testing.T) {
		// Clients that fail together (one 503 for everyone) must not all
		// come back at the same instant.
		seen := map[time.Duration]bool{}
		for range 100 {
			seen[backoff(100*time.Millisecond, 3*time.Second, 0, nil)] = true
		}
		assert.Greater(t, len(seen), 1, "every first retry waits the same time")
	})
	t.Run("extreme bounds do not overflow", func(t *testing.T) {
		// WithRetryWait(time.Nanosecond, math.MaxInt64) is accepted by
		// NewClient, so backoff must not panic on it.
		for attempt := range 70 {
			assert.NotPanics(t, func() {
				d := backoff(time.Nanosecond, time.Duration(1<<63-1), attempt, nil)
				assert.GreaterOrEqual(t, d, time.Nanosecond)
			}, "attempt %d", attempt)
		}
	})
}

// Context.

func TestContextCancelledDuringRetryWait(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		method string
		url    string
		status int
		call   func(context.Context, *Client) (*Job, error)
	}{
		{"GetJob 503", http.MethodGet, coreJobURL("job_1"), 503, func(ctx context.Context, c *Client) (*Job, error) {
			return c.GetJob(ctx, "job_1")
		}},
		{"CreateJob 429", http.MethodPost, coreJobsURL, 429, func(ctx context.Context, c *Client) (*Job, error) {
			return c.CreateJob(ctx, "p")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Every wait is 10s: the call can only be quick by giving up.
			c, mt := newCoreClient(t, WithRetryWait(10*time.Second, 10*time.Second))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// The client closes the answer's body once it has decided to
			// retry: cancel from there, while it goes to sleep.
			mt.RegisterResponder(tt.method, tt.url, respondThen(tt.status, "", cancel))

			start := time.Now()
			job, err := tt.call(ctx, c)
			assert.Less(t, time.Since(start), 2*time.Second)
			assert.Nil(t, job)
			require.ErrorIs(t, err, context.Canceled)
			assert.NotErrorIs(t, err, ErrOutcomeUnknown, "the server refused the request: it is safe to resend")
			assert.Equal(t, 1, mt.GetTotalCallCount())
		})
	}
}

func TestContextCancelledDuringRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		method, url    string
		call           func(context.Context, *Client) (*Job, error)
		outcomeUnknown bool
	}{
		{"GetJob", http.MethodGet, coreJobURL("job_1"), func(ctx context.Context, c *Client) (*Job, error) {
			return c.GetJob(ctx, "job_1")
		}, false},
		// The request reached the server before the caller gave up: the job
		// may exist.
		{"CreateJob", http.MethodPost, coreJobsURL, func(ctx context.Context, c *Client) (*Job, error) {
			return c.CreateJob(ctx, "p")
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t, WithRetryWait(10*time.Second, 10*time.Second))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			mt.RegisterResponder(tt.method, tt.url, func(req *http.Request) (*http.Response, error) {
				cancel() // the caller gives up while the server works
				<-req.Context().Done()
				return nil, req.Context().Err()
			})

			start := time.Now()
			job, err := tt.call(ctx, c)
			assert.Less(t, time.Since(start), 2*time.Second)
			assert.Nil(t, job)
			require.ErrorIs(t, err, context.Canceled)
			assert.Equal(t, tt.outcomeUnknown, errors.Is(err, ErrOutcomeUnknown))
			assert.Equal(t, 1, mt.GetTotalCallCount())
		})
	}
}

func TestContextAlreadyDone(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	// A transport that, like net/http's, gives up once the context is done.
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		<-req.Context().Done()
		return nil, req.Context().Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.GetJob(ctx, "job_1")
	require.ErrorIs(t, err, context.Canceled)
	_, err = c.PollJob(ctx, "job_1")
	require.ErrorIs(t, err, context.Canceled)
}

// Logging.

func TestLogsNeverHoldKey(t *testing.T) {
	t.Parallel()
	var buf strings.Builder
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mt := newCoreClient(t, WithLogger(logger), WithMaxRetries(3))

	echo := "<html><body><pre>Authorization: Bearer " + coreAPIKey + "</pre></body></html>"
	mt.RegisterResponder(http.MethodGet, coreJobURL("flaky"), inOrder(
		respond(http.StatusServiceUnavailable, echo),
		httpmock.NewErrorResponder(errors.New("connection reset by peer")),
		respond(http.StatusOK, `{"id":"flaky","model":"`+coreAPIKey+`","status":`),
		respondJob(http.StatusOK, "flaky", JobActive)))
	mt.RegisterResponder(http.MethodGet, coreJobURL("down"), respond(http.StatusBadGateway, echo))
	mt.RegisterResponder(http.MethodGet, coreJobURL("denied"), respond(http.StatusUnauthorized, `{"error":"bad key `+coreAPIKey+`"}`))
	mt.RegisterResponder(http.MethodPost, coreJobsURL, inOrder(
		respond(http.StatusTooManyRequests, echo),
		httpmock.NewErrorResponder(io.ErrUnexpectedEOF)))

	_, err := c.GetJob(context.Background(), "flaky")
	require.NoError(t, err)
	_, err = c.GetJob(context.Background(), "down")
	require.ErrorIs(t, err, ErrServer)
	_, err = c.GetJob(context.Background(), "denied")
	require.ErrorIs(t, err, ErrUnauthorized)
	_, err = c.CreateJob(context.Background(), "p")
	require.ErrorIs(t, err, ErrOutcomeUnknown)

	logs := buf.String()
	assert.Contains(t, logs, "level=DEBUG", "the logger was used")
	assert.Contains(t, logs, "/v2/agent/proj_42/job/flaky")
	assertNoKey(t, logs, "logs")
}

// The API never redirects; following one would carry the key to wherever
// Location points (net/http keeps it for another port of the same host).
func TestDefaultClientRefusesRedirects(t *testing.T) {
	t.Parallel()
	var leaked atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		w.Write([]byte(`{"id":"job_1","status":"completed"}`))
	}))
	defer elsewhere.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer api.Close()
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID("p"), WithBaseURL(api.URL))
	require.NoError(t, err)

	_, err = c.GetJob(context.Background(), "job_1")
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTemporaryRedirect, apiErr.StatusCode)
	assert.ErrorIs(t, err, ErrBadRequest, "every answer outside 2xx has a sentinel")
	assert.Zero(t, leaked.Load(), "the key followed the redirect")
}

// An endless (or absurd) success body ends with a clear error, not with
// memory growing until the deadline.
func TestSuccessBodyIsBounded(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	huge := `{"id":"` + strings.Repeat("a", maxResponseBody) + `"}`
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), respond(http.StatusOK, huge))

	_, err := c.GetJob(context.Background(), "job_1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than 16 MiB")
}

// Only the final answer counts. Here the retry policy first sees a 429
// whose Retry-After is just beyond the maximum wait, but the slow error body
// takes long enough that, on its second look, the wait fits and the call is
// retried: the job that retry created must be returned, not the old 429
// (which would invite the caller to create a second job).
func TestOnlyTheFinalAnswerCounts(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
			w.(http.Flusher).Flush()
			time.Sleep(1500 * time.Millisecond)
			w.Write([]byte(`{"error":"slow down"}`))
			return
		}
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(jobJSON("job_1", JobActive)))
	}))
	defer srv.Close()
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID("p"), WithBaseURL(srv.URL),
		WithRetryWait(time.Millisecond, time.Second))
	require.NoError(t, err)

	job, err := c.CreateJob(context.Background(), "once")
	if calls.Load() == 2 {
		require.NoError(t, err, "the retry succeeded, so the call did")
		assert.Equal(t, "job_1", job.ID)
	} else {
		assert.ErrorIs(t, err, ErrRateLimited)
	}
}

// A call whose context has already ended sends nothing, so it cannot have
// acted: not ErrOutcomeUnknown.
func TestEndedContextSendsNothing(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	mt.RegisterResponder(http.MethodPost, coreJobsURL, respondJob(http.StatusCreated, "job_1", JobActive))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	_, err := c.CreateJob(ctx, "never sent")
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, ErrOutcomeUnknown)
	assert.Zero(t, mt.GetTotalCallCount())
}

// Keys end up in odd places; a bad base URL must not print one.
func TestBaseURLErrorsHideTheKey(t *testing.T) {
	t.Parallel()
	for _, base := range []string{
		"https://user:" + coreAPIKey + "@host:bad",
		"ftp://api.test/?k=" + coreAPIKey,
		"https://api.test/" + coreAPIKey + "?x",
		coreAPIKey,
	} {
		_, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID("p"), WithBaseURL(base))
		require.ErrorIs(t, err, ErrInvalidInput, base)
		assertNoKey(t, err.Error(), "base URL error")
	}
}
