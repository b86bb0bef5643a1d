package mintlify

// Hostile and careless use of the escape hatch, the pollers of
// deployments and static exports, and the storage host of
// DownloadStaticExport.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostRecorder is a transport that records the host and credentials of
// every request and answers 200 {}.
type hostRecorder struct {
	mu    sync.Mutex
	calls []string // "host path auth"
}

func (h *hostRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.calls = append(h.calls, r.URL.Host+" "+r.URL.EscapedPath()+" "+r.Header.Get("Authorization"))
	h.mu.Unlock()
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: http.NoBody, Request: r, ContentLength: 0}, nil
}

// TestDoRefusesPathsThatLeaveTheAPI: only a path relative to the base URL
// is called, never another host, and never a path a server would resolve
// above the base URL (dot segments, however spelled). Nothing is sent for
// a refused path.
func TestDoRefusesPathsThatLeaveTheAPI(t *testing.T) {
	t.Parallel()
	bad := []string{
		"https://evil.test/v1/x",
		"http://evil.test",
		"//evil.test/v1/x",
		"///evil.test/x",
		"evil.test/v1/x",
		"v1/analytics",
		"",
		"?limit=5",
		"/v1/../admin",
		"/v1/./x",
		"/..",
		"/v1/%2e%2e/admin",
		"/v1/%2E%2e/admin",
		"/v1/.%2e/admin",
		"/v1/..;/admin",     // Tomcat and friends read "..;" as ".."
		"/v1/..%3b/admin",   // the same, escaped
		"/v1/..\\admin",     // servers that read \ as /
		"/v1/%5c..%5cadmin", // the same, escaped
		"/v1/x#frag",
		"/v1/x\r\nHost: evil.test",
		"/v1/\x00",
		"mailto:a@evil.test",
		"/v1/x@evil.test:443/",
	}
	rec := &hostRecorder{}
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(coreBaseURL+"/prefix"),
		WithHTTPClient(&http.Client{Transport: rec}), WithMaxRetries(0))
	require.NoError(t, err)
	for _, path := range bad {
		_, err := c.Do(context.Background(), http.MethodGet, path, nil, nil)
		if strings.Contains(path, "@evil.test") && err == nil {
			continue // checked below: still the API's host
		}
		require.ErrorIs(t, err, ErrInvalidInput, "%q", path)
		assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
	}
	rec.mu.Lock()
	for _, call := range rec.calls {
		assert.True(t, strings.HasPrefix(call, "api.example.test /prefix/"), "left the base URL: %s", call)
	}
	rec.mu.Unlock()

	// What is fine: a query, escaped characters, dots inside a segment.
	for _, path := range []string{"/v1/analytics/{projectId}/views?limit=5&cursor=../..", "/v1/a.b/..c/x..", "/v1/%2F"} {
		_, err := c.Do(context.Background(), http.MethodGet, path, nil, nil)
		require.NoError(t, err, path)
	}
}

// TestDoRefusesACarelessOut: out must be nil or a non-nil pointer; anything
// else is the caller's mistake, reported before any request, never a
// malformed answer or, for a POST, an unknown outcome.
func TestDoRefusesACarelessOut(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterNoResponder(respond(200, `{"a":1}`))
	var nilMap *map[string]any
	for name, out := range map[string]any{
		"a map value":    map[string]any{},
		"a struct value": struct{ A int }{},
		"a nil pointer":  nilMap,
		"a string":       "out",
	} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			_, err := c.Do(context.Background(), method, "/v1/x", nil, out)
			require.ErrorIs(t, err, ErrInvalidInput, "%s %s", method, name)
			assert.NotErrorIs(t, err, ErrOutcomeUnknown)
		}
	}
	assert.Zero(t, mt.GetTotalCallCount(), "nothing sent")
	var ok map[string]any
	_, err := c.Do(context.Background(), http.MethodGet, "/v1/x", nil, &ok)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": 1.0}, ok)
}

// TestDeploymentAndExportPollersOwnRetryAfter: as for jobs, a 429 with a
// Retry-After beyond the maximum poll interval ends the poll at once
// (ErrRateLimited, one read, nothing slept inside the read), and one within
// it becomes the next wait.
func TestDeploymentAndExportPollersOwnRetryAfter(t *testing.T) {
	t.Parallel()
	pollers := map[string]struct {
		url, good string
		poll      func(c *Client, opts ...PollOption) error
	}{
		"PollDeployment": {depStatusURL + "st_1", goodDeploy, func(c *Client, opts ...PollOption) error {
			_, err := c.PollDeployment(context.Background(), "st_1", opts...)
			return err
		}},
		"PollStaticExport": {coreBaseURL + "/v1/static-export/jobs/exp_1", goodExport, func(c *Client, opts ...PollOption) error {
			_, err := c.PollStaticExport(context.Background(), "exp_1", opts...)
			return err
		}},
	}
	for name, p := range pollers {
		for _, form := range []string{"seconds", "HTTP date"} {
			// The date is made in each subtest: parallel subtests may start late.
			retryAfter := func() string {
				if form == "seconds" {
					return "1"
				}
				return time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
			}
			t.Run(name+"/beyond the maximum/"+form, func(t *testing.T) {
				t.Parallel()
				c, mt := newCoreClient(t, WithRetryWait(time.Millisecond, time.Minute)) // the client alone would sleep
				mt.RegisterResponder(http.MethodGet, p.url, respond(429, `{"error":"slow down"}`, "Retry-After", retryAfter()))
				started := time.Now()
				err := p.poll(c, WithPollInterval(50*time.Millisecond), WithMaxPollInterval(100*time.Millisecond))
				require.ErrorIs(t, err, ErrRateLimited)
				assert.Less(t, time.Since(started), 900*time.Millisecond, "Retry-After was not slept")
				assert.Equal(t, 1, mt.GetTotalCallCount(), "one read, then the poller decided")
				assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
			})
			t.Run(name+"/within the maximum/"+form, func(t *testing.T) {
				t.Parallel()
				c, mt := newCoreClient(t, WithRetryWait(time.Millisecond, time.Minute))
				mt.RegisterResponder(http.MethodGet, p.url, inOrder(
					respond(429, `{"error":"slow down"}`, "Retry-After", retryAfter()),
					respond(200, p.good)))
				var waits []time.Duration
				err := p.poll(c, WithPollInterval(time.Millisecond), WithMaxPollInterval(time.Minute), recordWaits(&waits))
				require.NoError(t, err)
				require.Len(t, waits, 1)
				assert.GreaterOrEqual(t, waits[0], 900*time.Millisecond, "the poller waited as asked")
				assert.LessOrEqual(t, waits[0], 3*time.Second)
				assert.Equal(t, 2, mt.GetTotalCallCount())
			})
		}
	}
}

// TestDownloadEndsWithItsContextWhateverTheHost: a storage host that
// switches protocols, sends informational answers or a body that stalls
// cannot hold DownloadStaticExport past its context.
func TestDownloadEndsWithItsContextWhateverTheHost(t *testing.T) {
	t.Parallel()
	answers := map[string]string{
		"101 held open":        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
		"100 then nothing":     "HTTP/1.1 100 Continue\r\n\r\n",
		"headers then nothing": "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabc",
		"a 503 body stalled":   "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 1000\r\n\r\n<Error>",
		"a 403 body stalled":   "HTTP/1.1 403 Forbidden\r\nContent-Length: 1000\r\n\r\n<Error>",
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			holdTimingSlot(t)
			base := rawServer(t, func(c net.Conn) { fmt.Fprint(c, answer) })
			c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID),
				WithRetryWait(time.Millisecond, 5*time.Millisecond))
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			var out bytes.Buffer
			started := time.Now()
			_, err = c.DownloadStaticExport(ctx, &StaticExportBundle{JobID: "exp_1", URL: base + "/b.tgz?sig=1", SizeBytes: 1000}, &out)
			require.Error(t, err)
			assert.Less(t, time.Since(started), time.Second, "returned soon after the context ended")
			assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
		})
	}
}

// TestObservedHeaderNamesHideAnEchoedKey: a proxy may echo the key as a
// header's name; net/http changes its case (canonical form), which no
// exact match recognises. The observer and Client.Do never see it.
func TestObservedHeaderNamesHideAnEchoedKey(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()[coreAPIKey] = []string{"1"}
		w.Header()["X-"+coreAPIKey] = []string{"2"}
		w.Header()["X-Echo-"+coreAPIKey[:20]] = []string{"3"}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	var seen http.Header
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(srv.URL),
		WithResponseObserver(func(_ context.Context, r *Response) { seen = r.Header }))
	require.NoError(t, err)
	resp, err := c.Do(context.Background(), http.MethodGet, "/v1/x", nil, nil)
	require.NoError(t, err)
	for _, h := range []http.Header{seen, resp.Header} {
		require.NotEmpty(t, h)
		assert.Len(t, h, 6, "every header kept, the echoes under another name: %v", h)
		for name, values := range h {
			text := strings.ToLower(name + ": " + strings.Join(values, ","))
			secret := strings.ToLower(strings.TrimPrefix(coreAPIKey, "mint_"))
			for i := 0; i+8 <= len(secret); i++ {
				assert.NotContains(t, text, secret[i:i+8], "observed header, in any case")
			}
		}
	}
}

// TestCarelessOptionsDoNotPanic: a nil Option, a nil PollOption and a nil
// poll observer change nothing; before, NewClient and every poller
// panicked on them.
func TestCarelessOptionsDoNotPanic(t *testing.T) {
	t.Parallel()
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), nil)
	require.NoError(t, err)
	assert.Equal(t, coreProjectID, c.ProjectID())

	c, mt := newCoreClient(t, nil)
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), respondJob(200, "job_1", JobCompleted))
	mt.RegisterResponder(http.MethodGet, depStatusURL+"st_1", respond(200, goodDeploy))
	mt.RegisterResponder(http.MethodGet, coreBaseURL+"/v1/static-export/jobs/exp_1", respond(200, goodExport))
	ctx := context.Background()
	_, err = c.PollJob(ctx, "job_1", nil, WithPollObserver[Job](nil))
	require.NoError(t, err)
	_, err = c.PollDeployment(ctx, "st_1", nil, WithPollObserver[Deployment](nil))
	require.NoError(t, err)
	_, err = c.PollStaticExport(ctx, "exp_1", nil, WithPollObserver[StaticExport](nil))
	require.NoError(t, err)
}

// TestKeyPastedIntoAnArgumentNeverShows: a caller who pastes the key where
// an ID, a domain or the project belongs gets an error without it.
func TestKeyPastedIntoAnArgumentNeverShows(t *testing.T) {
	t.Parallel()
	_, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreAPIKey))
	require.ErrorIs(t, err, ErrInvalidInput, "the project ID is the key")
	assertNoKey(t, err.Error(), "NewClient error")

	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterNoResponder(respond(404, `{"error":"not found"}`))
	ctx := context.Background()
	calls := map[string]func() error{
		"PollJob":        func() error { _, err := c.PollJob(ctx, coreAPIKey, hostilePoll...); return err },
		"PollDeployment": func() error { _, err := c.PollDeployment(ctx, coreAPIKey, hostilePoll...); return err },
		"PollStaticExport": func() error {
			_, err := c.PollStaticExport(ctx, "x/"+coreAPIKey, hostilePoll...)
			return err
		},
		"GetThread":         func() error { _, err := c.GetThread(ctx, coreAPIKey); return err },
		"TriggerAutomation": func() error { _, err := c.TriggerAutomation(ctx, coreAPIKey+" x"); return err },
		"StartStaticExport": func() error {
			_, err := c.StartStaticExport(ctx, StaticExportParams{Domain: "https://" + coreAPIKey})
			return err
		},
		"GetDeployment": func() error { _, err := c.GetDeployment(ctx, coreAPIKey); return err },
		"Do":            func() error { _, err := c.Do(ctx, http.MethodGet, "/../"+coreAPIKey, nil, nil); return err },
	}
	for name, call := range calls {
		err := call()
		require.Error(t, err, name)
		assertNoKey(t, err.Error(), name)
		assertNoKey(t, fmt.Sprintf("%+v", err), name)
	}
}

// TestDoTakesAnAnswerWithoutContent: any 2xx is Client.Do's success; a 204
// or 205 has no body to decode, so it leaves out alone instead of being a
// malformed answer (an unknown outcome for a POST). Other 2xx with an empty
// body still cannot fill out.
func TestDoTakesAnAnswerWithoutContent(t *testing.T) {
	t.Parallel()
	for _, status := range []int{204, 205} {
		for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			c, mt := newCoreClient(t, WithMaxRetries(0))
			mt.RegisterNoResponder(respond(status, ``))
			out := map[string]any{"kept": true}
			resp, err := c.Do(context.Background(), method, "/v1/x", nil, &out)
			require.NoError(t, err, "%s %d", method, status)
			assert.Equal(t, status, resp.StatusCode)
			assert.Equal(t, map[string]any{"kept": true}, out)
		}
	}
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterNoResponder(respond(202, ``))
	var out map[string]any
	_, err := c.Do(context.Background(), http.MethodPost, "/v1/x", nil, &out)
	require.ErrorIs(t, err, ErrMalformedResponse)
	assert.ErrorIs(t, err, ErrOutcomeUnknown)
}

// oddTransport answers with a response a careless RoundTripper might
// build by hand.
type oddTransport func(r *http.Request) *http.Response

func (f oddTransport) RoundTrip(r *http.Request) (*http.Response, error) { return f(r), nil }

// TestEveryMethodSurvivesAHandMadeResponse: a RoundTripper of the
// caller's (WithHTTPClient) that answers without a body, without headers,
// with status 0 or 1000 never makes a method panic.
func TestEveryMethodSurvivesAHandMadeResponse(t *testing.T) {
	t.Parallel()
	odd := map[string]oddTransport{
		"no body":     func(r *http.Request) *http.Response { return &http.Response{StatusCode: 200, Request: r} },
		"no body 404": func(r *http.Request) *http.Response { return &http.Response{StatusCode: 404, Request: r} },
		"status 0": func(r *http.Request) *http.Response {
			return &http.Response{StatusCode: 0, Body: http.NoBody, Request: r}
		},
		"status 1000": func(r *http.Request) *http.Response {
			return &http.Response{StatusCode: 1000, Body: http.NoBody, Request: r}
		},
		"no request": func(r *http.Request) *http.Response {
			return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"0"}}, Body: http.NoBody}
		},
	}
	for name, tr := range odd {
		for _, m := range anyMethods {
			t.Run(name+"/"+m.name, func(t *testing.T) {
				t.Parallel()
				c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(coreBaseURL),
					WithHTTPClient(&http.Client{Transport: tr}), WithRetryWait(time.Millisecond, time.Millisecond),
					WithResponseObserver(func(context.Context, *Response) {}))
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
				defer cancel()
				assert.NotPanics(t, func() { _, err = m.call(ctx, c) })
				require.Error(t, err)
			})
		}
	}
}

// TestBundleLinkHoldingTheKeyIsNeverFollowed: a proxy that echoes the key
// into bundleUrl would have DownloadStaticExport hand it to the storage
// host. BundleStaticExport refuses such a link, and DownloadStaticExport
// refuses a bundle holding one, before any request.
func TestBundleLinkHoldingTheKeyIsNeverFollowed(t *testing.T) {
	t.Parallel()
	var storage atomic.Int32
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { storage.Add(1) }))
	t.Cleanup(host.Close)
	for form, echo := range keyEchoes(coreAPIKey) {
		link := host.URL + "/b.tgz?sig=" + url.QueryEscape(echo)
		c, mt := newCoreClient(t, WithMaxRetries(0))
		mt.RegisterNoResponder(respond(200, setLeaf(t, goodBundle, []any{"bundleUrl"}, link)))
		b, err := c.BundleStaticExport(context.Background(), "exp_1")
		require.ErrorIs(t, err, ErrMalformedResponse, form)
		assert.Nil(t, b)
		assertNoKey(t, err.Error(), form)

		_, err = c.DownloadStaticExport(context.Background(), &StaticExportBundle{JobID: "exp_1", URL: link, SizeBytes: 1}, io.Discard)
		require.ErrorIs(t, err, ErrInvalidInput, form)
		assertNoKey(t, err.Error(), form)
	}
	assert.Zero(t, storage.Load(), "nothing reached the storage host")
}

// liarWriter reports more (or fewer than zero) bytes than it was given.
type liarWriter struct{ n int }

func (w liarWriter) Write(p []byte) (int, error) { return len(p) + w.n, nil }

// TestDownloadRefusesAWriterThatMiscounts: a writer that reports more bytes
// than it was given (or a negative count) would make the byte count, and
// a resume, wrong; the download stops with an error instead.
func TestDownloadRefusesAWriterThatMiscounts(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10")
		fmt.Fprint(w, "0123456789")
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID))
	require.NoError(t, err)
	for _, extra := range []int{5, -20} {
		n, err := c.DownloadStaticExport(context.Background(), &StaticExportBundle{URL: srv.URL + "/b.tgz", SizeBytes: 10}, liarWriter{extra})
		require.Error(t, err, "extra %d", extra)
		assert.LessOrEqual(t, n, int64(10))
		assert.GreaterOrEqual(t, n, int64(0))
	}
}
