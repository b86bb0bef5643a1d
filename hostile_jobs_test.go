package mintlify

// Hostile content: answers that are well-formed HTTP but not what the API
// documents, answers that never end, and proxies that echo the key back.
// Each class is checked on every job method; the analytics and deployment
// files check their own routes the same way.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jobMethod is one public job method, called the way a user would.
type jobMethod struct {
	name string
	post bool // creates something: a lost answer is ErrOutcomeUnknown
	call func(ctx context.Context, c *Client) (*Job, error)
}

var jobMethods = []jobMethod{
	{"GetJob", false, func(ctx context.Context, c *Client) (*Job, error) { return c.GetJob(ctx, "job_1") }},
	{"CreateJob", true, func(ctx context.Context, c *Client) (*Job, error) { return c.CreateJob(ctx, "Write a guide") }},
	{"SendMessage", true, func(ctx context.Context, c *Client) (*Job, error) { return c.SendMessage(ctx, "job_1", "And a test") }},
	{"PollJob", false, func(ctx context.Context, c *Client) (*Job, error) {
		return c.PollJob(ctx, "job_1", WithPollInterval(time.Millisecond), WithMaxPollInterval(2*time.Millisecond))
	}},
}

// TestSuccessThatIsNotAJobIsAnError: a 2xx is a success only when its body
// is the documented object. Before the fix, {} or null gave a job with an
// empty ID and a nil error.
func TestSuccessThatIsNotAJobIsAnError(t *testing.T) {
	t.Parallel()
	bodies := map[string]string{
		"empty object":      `{}`,
		"null":              `null`,
		"status only":       `{"status":"completed"}`,
		"id only":           `{"id":"job_1"}`,
		"null id":           `{"id":null,"status":"active"}`,
		"id of wrong type":  `{"id":7,"status":"active"}`,
		"status wrong type": `{"id":"job_1","status":["active"]}`,
		"array":             `[]`,
		"string":            `"job_1"`,
		"not JSON":          `<html>ok</html>`,
		"two objects":       jobJSON("job_1", JobActive) + jobJSON("job_1", JobActive),
		"bad createdAt":     strings.Replace(jobJSON("job_1", JobActive), "2025-03-04T05:06:07Z", "yesterday", 1),
		"another job":       jobJSON("job_someone_else", JobCompleted),
	}
	for _, m := range jobMethods {
		for name, body := range bodies {
			if name == "another job" && m.name == "CreateJob" {
				continue // a new job's ID is not known in advance
			}
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				c, mt := newCoreClient(t, WithMaxRetries(1))
				status := http.StatusOK
				if m.name == "CreateJob" {
					status = http.StatusCreated
				}
				mt.RegisterNoResponder(respond(status, body))
				job, err := m.call(context.Background(), c)
				assert.Nil(t, job)
				require.ErrorIs(t, err, ErrMalformedResponse)
				if m.post {
					assert.ErrorIs(t, err, ErrOutcomeUnknown, "the server may have acted")
					assert.Equal(t, 1, mt.GetTotalCallCount(), "never resent")
				}
				assertNoKey(t, err.Error(), "error")
			})
		}
	}
}

// rawServer accepts connections on 127.0.0.1, reads each request's headers
// and hands the connection to answer, which owns it from there.
func rawServer(t *testing.T, answer func(conn net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				if _, err := http.ReadRequest(bufio.NewReader(conn)); err != nil {
					return
				}
				answer(conn)
				select { // hold the connection open until the test ends
				case <-done:
				case <-time.After(30 * time.Second):
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// timingSlots bounds how many timing-sensitive subtests run at once: the
// bound they check is generous, but hundreds of parallel subtests under
// the race detector on two cores can starve a goroutine for longer.
var timingSlots = make(chan struct{}, 4)

// holdTimingSlot waits for a slot and gives it back when t ends.
func holdTimingSlot(t *testing.T) {
	t.Helper()
	timingSlots <- struct{}{}
	t.Cleanup(func() { <-timingSlots })
}

// TestPollJobRefusesAnotherJob: an answer about another job is not the
// job asked for. Before the fix, PollJob returned the stranger's job.
func TestPollJobRefusesAnotherJob(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_mine"), respondJob(http.StatusOK, "job_someone_else", JobCompleted))
	job, err := c.PollJob(context.Background(), "job_mine", WithPollInterval(time.Millisecond), WithMaxPollInterval(time.Millisecond))
	assert.Nil(t, job)
	require.ErrorIs(t, err, ErrMalformedResponse)
	assert.Contains(t, err.Error(), "job_someone_else")
}

// echoForms are the shapes in which a proxy might echo the key.
func echoForms(key string) map[string]string {
	return map[string]string{
		"as sent":         key,
		"percent-encoded": url.QueryEscape(key),
		"Bearer header":   "Bearer " + key,
		"Basic auth":      base64.StdEncoding.EncodeToString([]byte("user:" + key)),
		"key prefix":      key[:len(key)-3],
	}
}

// TestEchoedKeyNeverShows: a proxy that copies the key into any string
// field or header of an answer cannot get it into an error, a log line or
// the observer's headers. Before the fix, a key in createdAt came back in
// the time-parse error of every job method.
func TestEchoedKeyNeverShows(t *testing.T) {
	t.Parallel()
	key := "mint_sk_<live>&9vLr4+TzW/8mN3bKc5yJ=" // characters that every encoding changes
	fields := []string{"id", "status", "model", "prLink", "createdAt", "archivedAt", "source.repository", "source.ref"}
	for _, m := range jobMethods {
		for _, field := range fields {
			for form, echo := range echoForms(key) {
				t.Run(m.name+"/"+field+"/"+form, func(t *testing.T) {
					t.Parallel()
					var logs bytes.Buffer
					var seen http.Header
					mt := httpmock.NewMockTransport()
					c, err := NewClient(WithAPIKey(key), WithProjectID(coreProjectID), WithBaseURL(coreBaseURL),
						WithHTTPClient(&http.Client{Transport: mt}), WithMaxRetries(1),
						WithRetryWait(time.Millisecond, time.Millisecond),
						WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
						WithResponseObserver(func(_ context.Context, r *Response) { seen = r.Header }))
					require.NoError(t, err)
					body := echoedJob(field, echo)
					status := http.StatusOK
					if m.name == "CreateJob" {
						status = http.StatusCreated
					}
					mt.RegisterNoResponder(respond(status, body,
						"X-Request-Id", echo, "X-Echo", echo, "Retry-After", echo))
					// A status that is the key is no known status: PollJob would
					// poll on, so its deadline ends it.
					ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
					defer cancel()
					_, err = m.call(ctx, c)
					if err != nil {
						assertNoSecret(t, key, err.Error(), "error")
						assertNoSecret(t, key, fmt.Sprintf("%+v %#v", err, err), "formatted error")
					}
					assertNoSecret(t, key, logs.String(), "logs")
					for name, values := range seen {
						assertNoSecret(t, key, name+": "+strings.Join(values, ","), "observed headers")
					}
				})
			}
		}
	}
}

// echoedJob is a job answer with one field replaced by echo.
func echoedJob(field, echo string) string {
	fields := map[string]string{
		"id": "job_1", "status": "active", "model": "m", "prLink": "https://github.com/acme/docs/pull/1",
		"createdAt": "2025-03-04T05:06:07Z", "archivedAt": "2025-03-05T05:06:07Z",
		"source.repository": "https://github.com/acme/docs", "source.ref": "main",
	}
	fields[field] = echo
	q := func(s string) string { b, _ := jsonMarshal(s); return b }
	return `{"id":` + q(fields["id"]) + `,"status":` + q(fields["status"]) +
		`,"source":{"repository":` + q(fields["source.repository"]) + `,"ref":` + q(fields["source.ref"]) +
		`},"model":` + q(fields["model"]) + `,"prLink":` + q(fields["prLink"]) +
		`,"createdAt":` + q(fields["createdAt"]) + `,"archivedAt":` + q(fields["archivedAt"]) + `}`
}

// assertNoSecret fails if s holds the key in any recognisable form, or a
// long piece of it.
func assertNoSecret(t *testing.T, key, s, what string) {
	t.Helper()
	for form, echo := range echoForms(key) {
		if form == "key prefix" {
			continue // checked through the pieces below
		}
		if strings.Contains(s, strings.TrimPrefix(echo, "Bearer ")) {
			t.Errorf("%s holds the key (%s): %s", what, form, s)
		}
	}
	for i := 0; i+8 <= len(key); i++ {
		if piece := key[i : i+8]; piece != "mint_sk_" && strings.Contains(s, piece) {
			t.Errorf("%s holds a piece of the key %q: %s", what, piece, s)
			return
		}
	}
}

// TestKeyInBaseURLIsRefused: a key pasted into the base URL (as a path
// segment or a user name) would show in every network error and debug log.
func TestKeyInBaseURLIsRefused(t *testing.T) {
	t.Parallel()
	for _, base := range []string{
		"https://api.example.test/" + coreAPIKey,
		"https://api.example.test/x?" + coreAPIKey,
		"https://" + coreAPIKey + "@api.example.test",
		"https://user:" + coreAPIKey + "@api.example.test",
		"https://user@api.example.test",
		"https://api.example.test/" + url.PathEscape(coreAPIKey) + "/v1",
	} {
		_, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(base))
		require.ErrorIs(t, err, ErrInvalidInput, base)
		assertNoKey(t, err.Error(), "NewClient error")
	}
}

// TestFormattedClientHidesKey: every verb prints the project and base URL,
// nothing else.
func TestFormattedClientHidesKey(t *testing.T) {
	t.Parallel()
	c, _ := newCoreClient(t)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		s := fmt.Sprintf(verb, c)
		assertNoKey(t, s, verb)
		if verb != "%x" {
			assert.Contains(t, s, coreProjectID, verb)
		}
	}
	var nilClient *Client
	assert.Equal(t, "<nil>", fmt.Sprint(nilClient))
}

// TestBadUserAgentRefusedUpFront: a suffix net/http would refuse to send
// failed every later call as ErrOutcomeUnknown; NewClient refuses it now.
func TestBadUserAgentRefusedUpFront(t *testing.T) {
	t.Parallel()
	for _, suffix := range []string{"app\r\nX-Evil: 1", "app\n", "tab\there", "caf\u00e9"} {
		_, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithUserAgent(suffix))
		require.ErrorIs(t, err, ErrInvalidInput, "%q", suffix)
	}
}

// TestPollJobOwnsRetryAfter: a 429 with Retry-After is weighed by the
// poller against its maximum interval, never slept on inside one read.
// Before the fix, WithMaxPollInterval(100ms) and Retry-After: 1 took 3 s.
func TestPollJobOwnsRetryAfter(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t, WithRetryWait(time.Millisecond, time.Minute)) // the client would sleep a minute
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"),
		respond(http.StatusTooManyRequests, `{"error":"slow down"}`, "Retry-After", "1"))
	started := time.Now()
	job, err := c.PollJob(context.Background(), "job_1",
		WithPollInterval(50*time.Millisecond), WithMaxPollInterval(100*time.Millisecond))
	assert.Nil(t, job)
	require.ErrorIs(t, err, ErrRateLimited)
	assert.Less(t, time.Since(started), 900*time.Millisecond, "the second of Retry-After was not slept")
	assert.Equal(t, 1, mt.GetTotalCallCount(), "one read, then the poller decided")
	assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)

	// Within the maximum, the poller waits as asked, then reads again.
	c, mt = newCoreClient(t, WithRetryWait(time.Millisecond, time.Minute))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(
		respond(http.StatusTooManyRequests, `{"error":"slow down"}`, "Retry-After", "1"),
		respondJob(http.StatusOK, "job_1", JobCompleted)))
	var waits []time.Duration
	job, err = c.PollJob(context.Background(), "job_1", WithPollInterval(time.Millisecond),
		WithMaxPollInterval(2*time.Second), recordWaits(&waits))
	require.NoError(t, err)
	assert.Equal(t, JobCompleted, job.Status)
	require.Len(t, waits, 1)
	assert.GreaterOrEqual(t, waits[0], time.Second, "the poller waited the Retry-After")
	assert.Equal(t, 2, mt.GetTotalCallCount())
}

// recordWaits replaces the poller's sleep: the waits are recorded, none is
// slept.
func recordWaits(waits *[]time.Duration) PollOption {
	return func(p *pollConfig) {
		p.sleep = func(ctx context.Context, d time.Duration) bool {
			*waits = append(*waits, d)
			return ctx.Err() == nil
		}
	}
}

// TestPollScheduleGrowsWithJitter checks the documented schedule without
// sleeping: the first wait about the interval, each next one half as long
// again, every one jittered within 20%, capped at the maximum.
func TestPollScheduleGrowsWithJitter(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	const reads = 40
	responders := make([]httpmock.Responder, reads)
	for i := range responders {
		responders[i] = respondJob(http.StatusOK, "job_1", JobActive)
	}
	responders[reads-1] = respondJob(http.StatusOK, "job_1", JobCompleted)
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), inOrder(responders...))

	var waits []time.Duration
	_, err := c.PollJob(context.Background(), "job_1", recordWaits(&waits)) // the defaults: 5s to 30s
	require.NoError(t, err)
	require.Len(t, waits, reads-1)

	nominal := 5 * time.Second
	distinct := map[time.Duration]bool{}
	for i, w := range waits {
		lo, hi := nominal*8/10, nominal*12/10
		assert.True(t, w >= lo && w <= min(hi, 30*time.Second), "wait %d = %s, want %s..%s", i, w, lo, hi)
		if nominal < 30*time.Second {
			distinct[w-nominal] = true // the jitter of the growing waits
		}
		nominal = min(nominal+nominal/2, 30*time.Second)
	}
	assert.Greater(t, len(distinct), 2, "the waits are jittered, not fixed: %v", waits)
	assert.Equal(t, 30*time.Second, nominal)
	assert.Greater(t, waits[3], waits[0]*2, "the waits grow: %v", waits[:4])
}

// TestNothingPanics: a nil context, a nil *Client and a zero Client{} are
// input errors on every method, never a panic.
func TestNothingPanics(t *testing.T) {
	t.Parallel()
	var nilClient *Client
	clients := map[string]*Client{"nil Client": nilClient, "zero Client": {}}
	good, _ := newCoreClient(t)
	for name, c := range clients {
		for _, m := range jobMethods {
			_, err := m.call(context.Background(), c)
			require.ErrorIs(t, err, ErrInvalidInput, "%s %s", name, m.name)
		}
		assert.Empty(t, c.ProjectID())
	}
	for _, m := range jobMethods {
		var nilCtx context.Context
		_, err := m.call(nilCtx, good)
		require.ErrorIs(t, err, ErrInvalidInput, "nil context, %s", m.name)
	}
	_, err := good.Do(nil, http.MethodGet, "/v2/agent/{projectId}/job/job_1", nil, nil) //nolint:staticcheck // the point
	require.ErrorIs(t, err, ErrInvalidInput)
	_, err = nilClient.Do(context.Background(), http.MethodGet, "/x", nil, nil)
	require.ErrorIs(t, err, ErrInvalidInput)
}

func jsonMarshal(s string) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}
