package mintlify

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	depTriggerURL = coreBaseURL + "/v1/project/update/" + coreProjectID
	depPreviewURL = coreBaseURL + "/v1/project/preview/" + coreProjectID
	depStatusURL  = coreBaseURL + "/v1/project/update-status/"
)

// depFull is a status answer with every field present.
const depFull = `{
	"_id": "st_1", "projectId": "proj_42",
	"createdAt": "2026-03-04T05:06:07Z", "endedAt": "2026-03-04T05:08:09.5+01:00",
	"status": "failure", "summary": "Build failed: 2 broken links",
	"logs": ["cloning", "building", "error: broken link /a"],
	"subdomain": "acme", "screenshot": "https://s/1.png", "screenshotLight": "https://s/l.png", "screenshotDark": "https://s/d.png",
	"author": {"name": "Ada", "avatarUrl": "https://a/ada.png", "githubUserId": 583231},
	"commit": {"sha": "abc123", "ref": "main", "message": "docs: fix links",
		"filesChanged": {"added": ["new.mdx"], "modified": ["a.mdx", "b.mdx"], "removed": ["old.mdx"]}},
	"source": "api"
}`

func TestGetDeploymentDecodesEveryField(t *testing.T) {
	full := &Deployment{
		ID: "st_1", ProjectID: "proj_42", Status: DeploymentFailed, Source: "api",
		Summary: "Build failed: 2 broken links", Subdomain: "acme",
		Logs:      []string{"cloning", "building", "error: broken link /a"},
		CreatedAt: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC),
		EndedAt:   time.Date(2026, 3, 4, 4, 8, 9, 5e8, time.UTC),
		Author:    &DeploymentAuthor{Name: "Ada", AvatarURL: "https://a/ada.png", GitHubUserID: 583231},
		Commit: DeploymentCommit{SHA: "abc123", Ref: "main", Message: "docs: fix links",
			Added: []string{"new.mdx"}, Modified: []string{"a.mdx", "b.mdx"}, Removed: []string{"old.mdx"}},
		Screenshot: "https://s/1.png", ScreenshotLight: "https://s/l.png", ScreenshotDark: "https://s/d.png",
	}
	tests := []struct {
		name, body string
		want       *Deployment
	}{
		{"every field present", depFull, full},
		{"only the required fields", `{"_id":"st_1","status":"queued"}`,
			&Deployment{ID: "st_1", Status: DeploymentQueued}},
		{"every optional field null", `{"_id":"st_1","status":"in_progress","projectId":null,"createdAt":null,
			"endedAt":null,"summary":null,"logs":null,"subdomain":null,"screenshot":null,"screenshotLight":null,
			"screenshotDark":null,"author":null,"commit":null,"source":null}`,
			&Deployment{ID: "st_1", Status: DeploymentInProgress}},
		{"nested fields null or absent", `{"_id":"st_1","status":"success","author":{"name":null,"githubUserId":null},
			"commit":{"sha":"abc","filesChanged":{"added":null,"removed":[]}}}`,
			&Deployment{ID: "st_1", Status: DeploymentSucceeded, Author: &DeploymentAuthor{},
				Commit: DeploymentCommit{SHA: "abc", Removed: []string{}}}},
		{"a commit without filesChanged", `{"_id":"st_1","status":"success","commit":{"ref":"docs","filesChanged":null}}`,
			&Deployment{ID: "st_1", Status: DeploymentSucceeded, Commit: DeploymentCommit{Ref: "docs"}}},
		{"times that are not RFC 3339 stay zero", `{"_id":"st_1","status":"queued","createdAt":"yesterday","endedAt":""}`,
			&Deployment{ID: "st_1", Status: DeploymentQueued}},
		{"a GitHub user ID written as a float", `{"_id":"st_1","status":"queued","author":{"githubUserId":1.2e3}}`,
			&Deployment{ID: "st_1", Status: DeploymentQueued, Author: &DeploymentAuthor{GitHubUserID: 1200}}},
		{"a fractional GitHub user ID stays zero", `{"_id":"st_1","status":"queued","author":{"githubUserId":1.5}}`,
			&Deployment{ID: "st_1", Status: DeploymentQueued, Author: &DeploymentAuthor{}}},
		{"unknown fields are ignored", `{"_id":"st_1","status":"queued","branch":"main","extra":{"a":1}}`,
			&Deployment{ID: "st_1", Status: DeploymentQueued}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodGet, depStatusURL+"st_1", respond(200, tt.body))
			got, err := c.GetDeployment(context.Background(), "st_1")
			require.NoError(t, err)
			got.CreatedAt, got.EndedAt = got.CreatedAt.UTC(), got.EndedAt.UTC() // the instants count, not the zone
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestGetDeploymentRefusesMalformedAnswers(t *testing.T) {
	tests := map[string]string{
		"empty object":      `{}`,
		"null":              `null`,
		"an array":          `[]`,
		"no _id":            `{"status":"queued"}`,
		"null _id":          `{"_id":null,"status":"queued"}`,
		"_id not a string":  `{"_id":7,"status":"queued"}`,
		"another status ID": `{"_id":"st_2","status":"queued"}`,
		"no status":         `{"_id":"st_1"}`,
		"null status":       `{"_id":"st_1","status":null}`,
		"unknown status":    `{"_id":"st_1","status":"deploying"}`,
		"status case":       `{"_id":"st_1","status":"SUCCESS"}`,
		"logs not strings":  `{"_id":"st_1","status":"queued","logs":[1,2]}`,
		"not JSON":          `<html>ok</html>`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			c, mt := newCoreClient(t, WithMaxRetries(0))
			mt.RegisterResponder(http.MethodGet, depStatusURL+"st_1", respond(200, body))
			got, err := c.GetDeployment(context.Background(), "st_1")
			require.Error(t, err)
			assert.Nil(t, got)
			assert.ErrorIs(t, err, ErrMalformedResponse)
		})
	}
}

func TestTriggerDeployment(t *testing.T) {
	c, mt := newCoreClient(t)
	var rec coreRecorder
	mt.RegisterResponder(http.MethodPost, depTriggerURL, rec.wrap(respond(202, `{"statusId":"st_9"}`)))

	id, err := c.TriggerDeployment(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "st_9", id)
	reqs := rec.requests()
	require.Len(t, reqs, 1)
	assert.Empty(t, reqs[0].Body, "trigger deployment has no body")
	assert.Equal(t, "Bearer "+coreAPIKey, reqs[0].Header.Get("Authorization"))
}

func TestTriggerPreview(t *testing.T) {
	tests := []struct {
		name, body string
		want       *Preview
	}{
		{"both fields", `{"statusId":"st_3","previewUrl":"https://acme-feat.mintlify.app"}`,
			&Preview{StatusID: "st_3", URL: "https://acme-feat.mintlify.app"}},
		{"previewUrl null", `{"statusId":"st_3","previewUrl":null}`, &Preview{StatusID: "st_3"}},
		{"previewUrl absent", `{"statusId":"st_3"}`, &Preview{StatusID: "st_3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			var rec coreRecorder
			mt.RegisterResponder(http.MethodPost, depPreviewURL, rec.wrap(respond(202, tt.body)))
			got, err := c.TriggerPreview(context.Background(), "feature/new-nav")
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			reqs := rec.requests()
			require.Len(t, reqs, 1)
			assert.JSONEq(t, `{"branch":"feature/new-nav"}`, string(reqs[0].Body))
			assert.Equal(t, "application/json", reqs[0].Header.Get("Content-Type"))
		})
	}
}

// A trigger's answer that is not the documented one leaves the caller not
// knowing whether a deployment was queued: ErrOutcomeUnknown, once.
func TestTriggerMalformedAnswerIsOutcomeUnknown(t *testing.T) {
	bodies := map[string]struct {
		status int
		body   string
	}{
		"empty object":       {202, `{}`},
		"null":               {202, `null`},
		"empty statusId":     {202, `{"statusId":""}`},
		"null statusId":      {202, `{"statusId":null}`},
		"statusId a number":  {202, `{"statusId":42}`},
		"not JSON":           {202, `accepted`},
		"undocumented 200":   {200, `{"statusId":"st_1"}`},
		"body cut short":     {202, `{"statusId":"st`},
		"two values":         {202, `{"statusId":"a"}{"statusId":"b"}`},
		"an array of status": {202, `[{"statusId":"a"}]`},
	}
	triggers := map[string]func(c *Client) error{
		"deployment": func(c *Client) error { _, err := c.TriggerDeployment(context.Background()); return err },
		"preview":    func(c *Client) error { _, err := c.TriggerPreview(context.Background(), "main"); return err },
	}
	for tname, trigger := range triggers {
		for name, b := range bodies {
			t.Run(tname+"/"+name, func(t *testing.T) {
				c, mt := newCoreClient(t)
				mt.RegisterResponder(http.MethodPost, depTriggerURL, respond(b.status, b.body))
				mt.RegisterResponder(http.MethodPost, depPreviewURL, respond(b.status, b.body))
				err := trigger(c)
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrOutcomeUnknown)
				assert.ErrorIs(t, err, ErrMalformedResponse)
				assert.Equal(t, 1, mt.GetTotalCallCount(), "a trigger is never sent twice")
			})
		}
	}
}

// Triggers are retried where the server cannot have acted (429) and never
// where it may have (500, 502, 504).
func TestTriggerRetries(t *testing.T) {
	t.Run("429 then 202", func(t *testing.T) {
		c, mt := newCoreClient(t)
		mt.RegisterResponder(http.MethodPost, depTriggerURL, inOrder(
			respond(429, `{"error":"slow down"}`, "Retry-After", "0"),
			respond(202, `{"statusId":"st_1"}`)))
		id, err := c.TriggerDeployment(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "st_1", id)
		assert.Equal(t, 2, mt.GetTotalCallCount())
	})
	for _, code := range []int{500, 502, 504} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodPost, depPreviewURL, respond(code, `{"error":"oops"}`))
			_, err := c.TriggerPreview(context.Background(), "main")
			assert.ErrorIs(t, err, ErrOutcomeUnknown)
			assert.ErrorIs(t, err, ErrServer)
			assert.Equal(t, 1, mt.GetTotalCallCount())
		})
	}
	t.Run("403 plan without previews", func(t *testing.T) {
		c, mt := newCoreClient(t)
		mt.RegisterResponder(http.MethodPost, depPreviewURL, respond(403, `{"error":"Preview deployments are not available on your current plan"}`))
		_, err := c.TriggerPreview(context.Background(), "main")
		assert.ErrorIs(t, err, ErrForbidden)
		assert.NotErrorIs(t, err, ErrOutcomeUnknown)
		assert.Contains(t, err.Error(), "not available on your current plan")
	})
}

// depLostAnswerServer reads each request in full, then closes the
// connection without answering: the server got the trigger, the client
// never learns what it did. It counts the requests it read.
func depLostAnswerServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		n.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestTriggerLostAnswerIsSentOnce(t *testing.T) {
	calls := map[string]func(c *Client) error{
		"TriggerDeployment": func(c *Client) error { _, err := c.TriggerDeployment(context.Background()); return err },
		"TriggerPreview":    func(c *Client) error { _, err := c.TriggerPreview(context.Background(), "main"); return err },
		"TriggerAutomation": func(c *Client) error { _, err := c.TriggerAutomation(context.Background(), "wf_1"); return err },
		"StartStaticExport": func(c *Client) error {
			_, err := c.StartStaticExport(context.Background(), StaticExportParams{Domain: "docs.acme.com"})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			srv, n := depLostAnswerServer(t)
			c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(srv.URL),
				WithRetryWait(time.Millisecond, 5*time.Millisecond))
			require.NoError(t, err)
			err = call(c)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrOutcomeUnknown)
			assert.Equal(t, int32(1), n.Load(), "exactly one request reached the server")
		})
	}
	t.Run("BundleStaticExport is retried", func(t *testing.T) {
		srv, n := depLostAnswerServer(t)
		c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(srv.URL),
			WithRetryWait(time.Millisecond, 5*time.Millisecond), WithMaxRetries(2))
		require.NoError(t, err)
		_, err = c.BundleStaticExport(context.Background(), "se_1")
		require.Error(t, err)
		assert.NotErrorIs(t, err, ErrOutcomeUnknown, "minting a link twice does no harm")
		assert.Equal(t, int32(3), n.Load())
	})
}

// A trigger refused before anything was sent (nothing listens) is not
// ErrOutcomeUnknown: the caller may simply try again.
func TestTriggerNothingSentIsNotOutcomeUnknown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL("http://"+addr),
		WithRetryWait(time.Millisecond, 5*time.Millisecond), WithMaxRetries(1))
	require.NoError(t, err)
	_, err = c.TriggerDeployment(context.Background())
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrOutcomeUnknown)
}

func TestPollDeploymentReturnsEveryTerminalStatus(t *testing.T) {
	for _, final := range []DeploymentStatus{DeploymentSucceeded, DeploymentFailed} {
		t.Run(string(final), func(t *testing.T) {
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodGet, depStatusURL+"st_1", inOrder(
				respond(200, `{"_id":"st_1","status":"queued"}`),
				respond(503, `{"error":"busy"}`), // retried within the read
				respond(200, `{"_id":"st_1","status":"in_progress","logs":["a"]}`),
				respond(200, `{"_id":"st_1","status":"`+string(final)+`","logs":["a","b"],"summary":"done"}`),
			))
			var seen []DeploymentStatus
			d, err := c.PollDeployment(context.Background(), "st_1", WithPollInterval(time.Millisecond),
				WithMaxPollInterval(2*time.Millisecond),
				WithPollObserver(func(d *Deployment) { seen = append(seen, d.Status) }))
			require.NoError(t, err, "a failed deployment is a result, not an error")
			assert.Equal(t, final, d.Status)
			assert.Equal(t, []string{"a", "b"}, d.Logs)
			assert.Equal(t, "done", d.Summary)
			assert.Equal(t, []DeploymentStatus{DeploymentQueued, DeploymentInProgress, final}, seen)
		})
	}
}

func TestPollDeploymentStops(t *testing.T) {
	t.Run("unknown status ID", func(t *testing.T) {
		c, mt := newCoreClient(t)
		mt.RegisterResponder(http.MethodGet, depStatusURL+"st_1", respond(404, `{"error":"not found"}`))
		_, err := c.PollDeployment(context.Background(), "st_1", WithPollInterval(time.Millisecond))
		assert.ErrorIs(t, err, ErrNotFound)
		assert.Equal(t, 1, mt.GetTotalCallCount(), "waiting cannot fix a 404")
	})
	t.Run("a status the API does not document", func(t *testing.T) {
		c, mt := newCoreClient(t, WithMaxRetries(0))
		mt.RegisterResponder(http.MethodGet, depStatusURL+"st_1", respond(200, `{"_id":"st_1","status":"paused"}`))
		_, err := c.PollDeployment(context.Background(), "st_1", WithPollInterval(time.Millisecond))
		assert.ErrorIs(t, err, ErrMalformedResponse)
		assert.LessOrEqual(t, mt.GetTotalCallCount(), maxFailedPolls, "a poll never waits for ever on a state it cannot end on")
	})
	t.Run("context ends", func(t *testing.T) {
		c, mt := newCoreClient(t)
		mt.RegisterResponder(http.MethodGet, depStatusURL+"st_1", respond(200, `{"_id":"st_1","status":"queued"}`))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		_, err := c.PollDeployment(ctx, "st_1", WithPollInterval(time.Millisecond), WithMaxPollInterval(5*time.Millisecond))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})
	t.Run("an observer of another type", func(t *testing.T) {
		c, mt := newCoreClient(t)
		_, err := c.PollDeployment(context.Background(), "st_1", WithPollObserver(func(*Job) {}))
		assert.ErrorIs(t, err, ErrInvalidInput)
		assert.Zero(t, mt.GetTotalCallCount())
	})
}

// Input the API would refuse fails before any request.
func TestDeploymentInputIsValidatedBeforeSending(t *testing.T) {
	ctx := context.Background()
	calls := map[string]func(c *Client) error{
		"empty branch":            func(c *Client) error { _, err := c.TriggerPreview(ctx, ""); return err },
		"empty status ID":         func(c *Client) error { _, err := c.GetDeployment(ctx, ""); return err },
		"dot-dot status ID":       func(c *Client) error { _, err := c.GetDeployment(ctx, ".."); return err },
		"poll empty status ID":    func(c *Client) error { _, err := c.PollDeployment(ctx, ""); return err },
		"bad poll interval":       func(c *Client) error { _, err := c.PollDeployment(ctx, "st_1", WithPollInterval(0)); return err },
		"empty automation ID":     func(c *Client) error { _, err := c.TriggerAutomation(ctx, ""); return err },
		"automation ID slash":     func(c *Client) error { _, err := c.TriggerAutomation(ctx, "wf/1"); return err },
		"automation ID space":     func(c *Client) error { _, err := c.TriggerAutomation(ctx, "wf 1"); return err },
		"automation ID tab":       func(c *Client) error { _, err := c.TriggerAutomation(ctx, "wf\t1"); return err },
		"automation ID backslash": func(c *Client) error { _, err := c.TriggerAutomation(ctx, `wf\1`); return err },
		"nil context trigger": func(c *Client) error {
			_, err := c.TriggerDeployment(nil) //nolint:staticcheck // the point of the test
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			err := call(c)
			assert.ErrorIs(t, err, ErrInvalidInput)
			assert.Zero(t, mt.GetTotalCallCount())
		})
	}
}

func TestDeploymentCallsOnAZeroClientDoNotPanic(t *testing.T) {
	ctx := context.Background()
	for _, c := range []*Client{nil, {}} {
		_, err := c.TriggerDeployment(ctx)
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.TriggerPreview(ctx, "main")
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.GetDeployment(ctx, "st_1")
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.PollDeployment(ctx, "st_1")
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.TriggerAutomation(ctx, "wf_1")
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.StartStaticExport(ctx, StaticExportParams{Domain: "docs.acme.com"})
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.GetStaticExport(ctx, "se_1")
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.PollStaticExport(ctx, "se_1")
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.BundleStaticExport(ctx, "se_1")
		assert.ErrorIs(t, err, ErrInvalidInput)
		_, err = c.DownloadStaticExport(ctx, &StaticExportBundle{URL: "https://s.test/b", SizeBytes: 1}, io.Discard)
		assert.ErrorIs(t, err, ErrInvalidInput)
	}
}

// The status ID goes into the path as one escaped segment.
func TestGetDeploymentEscapesTheStatusID(t *testing.T) {
	c, mt := newCoreClient(t)
	var got string
	mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		got = r.URL.EscapedPath()
		return respond(200, `{"_id":"a/b?c","status":"queued"}`)(r)
	})
	_, err := c.GetDeployment(context.Background(), "a/b?c")
	require.NoError(t, err)
	assert.Equal(t, "/v1/project/update-status/a%2Fb%3Fc", got)
}

// The key never shows in an error, whatever the answer echoes.
func TestDeploymentErrorsNeverHoldTheKey(t *testing.T) {
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, depStatusURL+"st_1", respond(200, `{"_id":"`+coreAPIKey+`","status":"queued"}`))
	mt.RegisterResponder(http.MethodPost, depTriggerURL, respond(202, `{"statusId":"","echo":"Bearer `+coreAPIKey+`"}`))
	_, err := c.GetDeployment(context.Background(), "st_1")
	require.Error(t, err)
	assertNoKey(t, err.Error(), "GetDeployment error")
	_, err = c.TriggerDeployment(context.Background())
	require.Error(t, err)
	assertNoKey(t, err.Error(), "TriggerDeployment error")
}

// Whatever the status route answers, GetDeployment returns either an error
// or a deployment about the status ID asked, in a documented status; it
// never panics.
//
//	go test -run '^$' -fuzz '^FuzzGetDeploymentAnswer$' -fuzztime 20000x .
func FuzzGetDeploymentAnswer(f *testing.F) {
	for _, seed := range []string{depFull, `{}`, `null`, `{"_id":"st_1","status":"queued"}`,
		`{"_id":"st_1","status":"success","author":{"githubUserId":1e400}}`, `{"_id":"st_1","status":"success","commit":[]}`} {
		f.Add(seed)
	}
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(coreBaseURL), WithMaxRetries(0),
		WithHTTPClient(&http.Client{Transport: depFuzzTransport{}}))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, body string) {
		ctx := context.WithValue(context.Background(), depFuzzBody{}, body)
		d, err := c.GetDeployment(ctx, "st_1")
		if err != nil {
			assert.Nil(t, d)
			return
		}
		assert.Equal(t, "st_1", d.ID)
		assert.True(t, d.Status.documented(), d.Status)
	})
}

type depFuzzBody struct{}

// depFuzzTransport answers 200 with the body the request's context holds.
type depFuzzTransport struct{}

func (depFuzzTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, _ := r.Context().Value(depFuzzBody{}).(string)
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: r}, nil
}
