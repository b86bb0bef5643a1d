package mintlify_test

// Security from the client's side: job IDs cannot reach another route, a
// wrong or foreign key gets a typed error and no data, oversized input is
// refused, and the key never shows up anywhere a user or an operator could
// read it. Names here start with "sec".

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// secNewClient is a client of srv's primary project with the given key,
// over loopback, with millisecond retry waits.
func secNewClient(t testing.TB, srv *mockserver.Server, key, project string, opts ...mintlify.Option) *mintlify.Client {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	c, err := mintlify.NewClient(append([]mintlify.Option{
		mintlify.WithAPIKey(key),
		mintlify.WithProjectID(project),
		mintlify.WithBaseURL(srv.URL()),
		mintlify.WithHTTPClient(&http.Client{Transport: tr, Timeout: 5 * time.Second}),
		mintlify.WithRetryWait(time.Millisecond, 20*time.Millisecond),
	}, opts...)...)
	require.NoError(t, err)
	return c
}

// TestJobIDsStayOnTheJobRoute sends hostile job IDs through every method
// that takes one. Each must arrive as one path segment of the job route (the
// journal shows the route and the decoded path), be not found, and leave
// every real job untouched, including one whose ID the hostile one embeds.
func TestJobIDsStayOnTheJobRoute(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithoutRateLimits())
	c := secNewClient(t, srv, srv.APIKey(), srv.ProjectID())
	ctx := relContext(t, 20*time.Second)
	real, err := c.CreateJob(ctx, "A job hostile IDs must not reach")
	require.NoError(t, err)
	jobs := "/v2/agent/" + srv.ProjectID() + "/job/"

	ids := []string{
		"a/b", "../x", "x/..", "./x", "%2F", "a%2Fb", "%2e%2e", "a b", "a+b", "ü", "日本語",
		"x/../../v1/analytics/" + srv.ProjectID() + "/visitors",
		"../../../v1/analytics/" + srv.ProjectID() + "/visitors",
		real.ID + "/message", "../" + real.ID, real.ID + "/", real.ID + "?x=1", real.ID + "#frag",
		real.ID + ";x", real.ID + "%00", "a\x00b", "a\nb", "a\tb", `a\b`, "\u202ereversed",
	}
	type method struct {
		name, route, suffix string
		call                func(ctx context.Context, id string) (*mintlify.Job, error)
	}
	methods := []method{
		{"GetJob", mockserver.RouteGetJob, "", c.GetJob},
		{"PollJob", mockserver.RouteGetJob, "", func(ctx context.Context, id string) (*mintlify.Job, error) {
			return c.PollJob(ctx, id, mintlify.WithPollInterval(time.Millisecond))
		}},
		{"SendMessage", mockserver.RouteFollowUp, "/message", func(ctx context.Context, id string) (*mintlify.Job, error) {
			return c.SendMessage(ctx, id, "A follow-up that must not land anywhere")
		}},
	}
	for _, m := range methods {
		for _, id := range ids {
			srv.ClearJournal()
			job, err := m.call(ctx, id)
			assert.Nil(t, job, "%s(%q)", m.name, id)
			assert.ErrorIs(t, err, mintlify.ErrNotFound, "%s(%q)", m.name, id)
			journal := srv.Journal()
			if assert.Len(t, journal, 1, "%s(%q): one request, not retried", m.name, id) {
				// The mock refuses to route a decoded path with "." or ".."
				// segments (route ""): either way, no other route.
				assert.Contains(t, []string{m.route, ""}, journal[0].Route, "%s(%q)", m.name, id)
				assert.Equal(t, jobs+id+m.suffix, journal[0].Path, "%s(%q): the ID is one path segment", m.name, id)
				assert.Equal(t, http.StatusNotFound, journal[0].Status, "%s(%q)", m.name, id)
			}
		}
		// "." and ".." cannot be one segment once a proxy normalizes the
		// path: refused before sending.
		for _, id := range []string{".", "..", ""} {
			srv.ClearJournal()
			_, err := m.call(ctx, id)
			assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "%s(%q)", m.name, id)
			assert.Empty(t, srv.Journal(), "%s(%q) sent nothing", m.name, id)
		}
	}

	stored := srv.Jobs()
	require.Len(t, stored, 1, "no job was created")
	assert.Empty(t, stored[0].FollowUps, "the real job got no follow-up")
}

// TestAnotherProjectsJobIsNotFound checks that a job is reachable only from
// its own project: another project's client gets the same 404 as for a job
// that never existed, and cannot send it a follow-up.
func TestAnotherProjectsJobIsNotFound(t *testing.T) {
	t.Parallel()
	const otherProject, otherKey = "proj_other_team", "mint_other_team_key_9f8e7d6c5b4a"
	srv := mockserver.Start(t, mockserver.WithoutRateLimits(), mockserver.WithProject(otherProject, otherKey))
	ctx := relContext(t, 20*time.Second)
	theirs, err := secNewClient(t, srv, otherKey, otherProject).CreateJob(ctx, "Their job")
	require.NoError(t, err)

	c := secNewClient(t, srv, srv.APIKey(), srv.ProjectID())
	got, err := c.GetJob(ctx, theirs.ID)
	assert.Nil(t, got)
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
	_, unknownErr := c.GetJob(ctx, "job_that_never_existed")
	var theirErr, neverErr *mintlify.APIError
	require.ErrorAs(t, err, &theirErr)
	require.ErrorAs(t, unknownErr, &neverErr)
	theirErr.RequestID, neverErr.RequestID = "", ""
	assert.Equal(t, neverErr, theirErr, "the same answer as for a job that never existed")

	got, err = c.SendMessage(ctx, theirs.ID, "Hijack it")
	assert.Nil(t, got)
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
	stored, _ := srv.Job(theirs.ID)
	assert.Empty(t, stored.FollowUps)
}

// TestAuthMatrix calls every SDK method with keys that must not work: an
// unknown key (401), a real key of another project (403), and the right key
// on a project that does not exist or is not its own (403). Each call gets
// the typed error after one request, and no data; nothing changes on the
// server.
func TestAuthMatrix(t *testing.T) {
	t.Parallel()
	const otherProject, otherKey = "proj_other_team", "mint_other_team_key_9f8e7d6c5b4a"
	srv := mockserver.Start(t, mockserver.WithoutRateLimits(), mockserver.WithVisits(relVisits()...),
		mockserver.WithProject(otherProject, otherKey))
	ctx := relContext(t, 20*time.Second)
	owner := secNewClient(t, srv, srv.APIKey(), srv.ProjectID())
	job, err := owner.CreateJob(ctx, "The project's only job")
	require.NoError(t, err)

	cases := []struct {
		name, key, project string
		want               error
		status             int
	}{
		{"unknown key", "mint_unknown_0123456789abcdef", srv.ProjectID(), mintlify.ErrUnauthorized, 401},
		{"revoked-looking key", srv.APIKey() + "x", srv.ProjectID(), mintlify.ErrUnauthorized, 401},
		{"another project's key", otherKey, srv.ProjectID(), mintlify.ErrForbidden, 403},
		{"own key, another project", srv.APIKey(), otherProject, mintlify.ErrForbidden, 403},
		{"own key, no such project", srv.APIKey(), "proj_does_not_exist", mintlify.ErrForbidden, 403},
	}
	type answer struct {
		data any
		err  error
	}
	calls := []struct {
		name string
		do   func(c *mintlify.Client) answer
	}{
		{"CreateJob", func(c *mintlify.Client) answer { j, err := c.CreateJob(ctx, "Sneak a job in"); return answer{j, err} }},
		{"GetJob", func(c *mintlify.Client) answer { j, err := c.GetJob(ctx, job.ID); return answer{j, err} }},
		{"SendMessage", func(c *mintlify.Client) answer {
			j, err := c.SendMessage(ctx, job.ID, "Sneak a follow-up in")
			return answer{j, err}
		}},
		{"PollJob", func(c *mintlify.Client) answer {
			j, err := c.PollJob(ctx, job.ID, mintlify.WithPollInterval(time.Millisecond))
			return answer{j, err}
		}},
		{"GetVisitors", func(c *mintlify.Client) answer {
			p, err := c.GetVisitors(ctx, relVisitorsParams)
			return answer{p, err}
		}},
		{"Visitors", func(c *mintlify.Client) answer {
			var rows []mintlify.PathVisitors
			for row, err := range c.Visitors(ctx, mintlify.VisitorsParams{}) {
				if err != nil {
					return answer{rows, err}
				}
				rows = append(rows, row)
			}
			return answer{rows, nil}
		}},
		{"VisitorPages", func(c *mintlify.Client) answer {
			var pages []*mintlify.VisitorsPage
			for page, err := range c.VisitorPages(ctx, mintlify.VisitorsParams{}) {
				if err != nil {
					return answer{pages, err}
				}
				pages = append(pages, page)
			}
			return answer{pages, nil}
		}},
	}
	for _, tc := range cases {
		c := secNewClient(t, srv, tc.key, tc.project)
		for _, call := range calls {
			srv.ClearJournal()
			got := call.do(c)
			what := tc.name + "/" + call.name
			assert.ErrorIs(t, got.err, tc.want, what)
			var apiErr *mintlify.APIError
			if assert.ErrorAs(t, got.err, &apiErr, what) {
				assert.Equal(t, tc.status, apiErr.StatusCode, what)
			}
			assert.Empty(t, got.data, "%s: no data", what)
			if got.err != nil {
				assert.NotContains(t, got.err.Error(), tc.key, what)
			}
			journal := srv.Journal()
			if assert.Len(t, journal, 1, "%s: one request, not retried", what) {
				assert.Equal(t, tc.status, journal[0].Status, what)
			}
		}
	}
	stored := srv.Jobs()
	require.Len(t, stored, 1, "no job was created")
	assert.Empty(t, stored[0].FollowUps, "no follow-up was accepted")
}

// TestBadKeysAreRefusedBeforeSending covers the rows of the auth matrix the
// SDK cannot even send (no key, an empty token, a key with the scheme in
// it, a key that is not an admin key): NewClient refuses them, without
// echoing the key, and nothing reaches the server.
func TestBadKeysAreRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t)
	for _, key := range []string{"", " ", "Bearer " + srv.APIKey(), "bearer " + srv.APIKey(), "Basic dXNlcjpwYXNz",
		"sk_live_not_an_admin_key", srv.APIKey() + "\n", " " + srv.APIKey(), srv.APIKey() + "\u00a0"} {
		c, err := mintlify.NewClient(mintlify.WithAPIKey(key), mintlify.WithProjectID(srv.ProjectID()),
			mintlify.WithBaseURL(srv.URL()))
		assert.Nil(t, c, "key %q", key)
		assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "key %q", key)
		if err != nil && strings.TrimSpace(key) != "" {
			assert.NotContains(t, err.Error(), strings.TrimSpace(strings.TrimPrefix(strings.ToLower(key), "bearer ")), "key %q", key)
			assert.NotContains(t, err.Error(), srv.APIKey(), "key %q", key)
		}
	}
	assert.Empty(t, srv.Journal(), "no request was sent")
}

// TestOversizedPromptIsRefused sends a prompt over the server's 1 MiB body
// limit: the call gets a typed 413 (or, if the server hangs up before the
// client hears the answer, an unknown outcome), is not retried, and no job
// is created.
func TestOversizedPromptIsRefused(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithoutRateLimits())
	c := secNewClient(t, srv, srv.APIKey(), srv.ProjectID())
	ctx := relContext(t, 20*time.Second)
	huge := strings.Repeat("Document everything. ", (1<<20)/20+1)

	job, err := c.CreateJob(ctx, huge)
	assert.Nil(t, job)
	t.Logf("answer: %v", err)
	var apiErr *mintlify.APIError
	if errors.As(err, &apiErr) {
		assert.Equal(t, http.StatusRequestEntityTooLarge, apiErr.StatusCode)
		assert.ErrorIs(t, err, mintlify.ErrBadRequest)
		assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
	} else {
		assert.ErrorIs(t, err, mintlify.ErrOutcomeUnknown)
	}
	journal := relJournal(srv, 1)
	if assert.Len(t, journal, 1, "one request, not retried") {
		assert.Equal(t, http.StatusRequestEntityTooLarge, journal[0].Status)
	}
	assert.Empty(t, srv.Jobs())

	// The client is still usable afterwards.
	_, err = c.CreateJob(ctx, "A prompt of a normal size")
	assert.NoError(t, err)
}

// secLeakProbe collects everything a user or an operator could read.
type secLeakProbe struct {
	mu   sync.Mutex
	seen []string
}

func (p *secLeakProbe) add(what string, v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, fmt.Sprintf("%s: %v | %+v | %#v | %s", what, v, v, v, v))
}

func (p *secLeakProbe) addErr(what string, err error) {
	if err == nil {
		return
	}
	p.add(what, err)
	for e := err; e != nil; e = errors.Unwrap(e) {
		p.add(what+" (unwrapped)", e)
	}
	var apiErr *mintlify.APIError
	if errors.As(err, &apiErr) {
		p.add(what+" (APIError)", *apiErr)
	}
}

// assertNoSecret fails for any text that holds the key or its secret part.
func (p *secLeakProbe) assertNoSecret(t *testing.T, key string) {
	t.Helper()
	secret := strings.TrimPrefix(key, "mint_")
	p.mu.Lock()
	defer p.mu.Unlock()
	require.NotEmpty(t, p.seen)
	for _, s := range p.seen {
		if strings.Contains(s, secret) {
			t.Errorf("the key leaked into %.300q", s)
		}
	}
}

// TestKeyNeverLeaks runs every method through every fault, error answer and
// misuse it can meet, and searches for the key in what comes out: error
// strings (every fmt verb, every wrapped error), the client's debug log,
// the server's log and journal, and the values of panics.
func TestKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	// Both logs are written from other goroutines, the server's even after
	// a call returned (a request the client gave up on is logged when the
	// server notices).
	var serverLog, clientLog bytes.Buffer
	var logMu sync.Mutex
	locked := func(buf *bytes.Buffer) secWriterFunc {
		return func(b []byte) (int, error) {
			logMu.Lock()
			defer logMu.Unlock()
			return buf.Write(b)
		}
	}
	srv := mockserver.Start(t, mockserver.WithoutRateLimits(), mockserver.WithVisits(relVisits()...),
		mockserver.WithJobDuration(0), // PollJob ends at once
		mockserver.WithLogger(slog.New(slog.NewTextHandler(locked(&serverLog), nil))),
		mockserver.WithFaultSeed(3), mockserver.WithFaults(relMix("*", 0.5, relEveryFault)...))
	key := srv.APIKey()
	logger := slog.New(slog.NewTextHandler(locked(&clientLog), &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := secNewClient(t, srv, key, srv.ProjectID(), mintlify.WithLogger(logger))
	ctx := relContext(t, 30*time.Second)
	probe := &secLeakProbe{}
	probe.add("client", c)

	var jobIDs []string
	for i := range 20 {
		job, err := c.CreateJob(ctx, fmt.Sprintf("Leak probe %d", i))
		probe.addErr("CreateJob", err)
		if err == nil {
			jobIDs = append(jobIDs, job.ID)
			probe.add("job", job)
		}
	}
	require.NotEmpty(t, jobIDs)
	for _, id := range append(jobIDs, "job_unknown", "a/b") {
		_, err := c.GetJob(ctx, id)
		probe.addErr("GetJob", err)
		_, err = c.SendMessage(ctx, id, "Leak probe follow-up")
		probe.addErr("SendMessage", err)
		_, err = c.PollJob(ctx, id, mintlify.WithPollInterval(time.Millisecond))
		probe.addErr("PollJob", err)
	}
	for range 10 {
		_, err := c.GetVisitors(ctx, relVisitorsParams)
		probe.addErr("GetVisitors", err)
		for _, err := range c.Visitors(ctx, mintlify.VisitorsParams{Limit: 3}) {
			probe.addErr("Visitors", err)
		}
	}
	// Input errors, a cancelled context, a deadline in the middle of a call.
	_, err := c.GetVisitors(ctx, mintlify.VisitorsParams{Limit: 1000})
	probe.addErr("invalid input", err)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = c.CreateJob(cancelled, "Leak probe cancelled")
	probe.addErr("cancelled", err)
	require.NoError(t, srv.InjectFault(mockserver.FaultRule{Fault: mockserver.Fault{Kind: mockserver.FaultLatency, Delay: time.Minute}, Times: 1}))
	short, cancelShort := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err = c.GetJob(short, jobIDs[0])
	cancelShort()
	probe.addErr("deadline", err)

	// A key the server does not know, and a key it knows for another
	// project: the 401 and 403 must not echo either.
	for _, bad := range []*mintlify.Client{
		secNewClient(t, srv, key+"0", srv.ProjectID()),
		secNewClient(t, srv, key, "proj_not_mine"),
	} {
		srv.ClearFaults()
		_, err := bad.CreateJob(ctx, "Leak probe bad key")
		probe.addErr("bad key", err)
	}

	// Panics in the SDK's path (from a transport), and a nil context.
	panicky := secNewClient(t, srv, key, srv.ProjectID(), mintlify.WithHTTPClient(&http.Client{
		Transport: secRoundTripFunc(func(r *http.Request) (*http.Response, error) {
			panic(fmt.Sprintf("transport exploded on %s %s", r.Method, r.URL))
		}),
	}))
	panics := 0
	for _, f := range []func(){
		func() { _, _ = panicky.GetJob(ctx, "job_x") },
		func() { _, _ = panicky.CreateJob(ctx, "Leak probe panic") },
		func() {
			var noContext context.Context // the misuse under test
			_, err := c.GetJob(noContext, "job_x")
			probe.addErr("nil context", err)
		},
	} {
		func() {
			defer func() {
				if v := recover(); v != nil {
					panics++
					probe.add("panic", v)
					probe.add("panic stack", string(debug.Stack()))
				}
			}()
			f()
		}()
	}

	require.Equal(t, 2, panics, "the transport's panics went through the SDK")

	journal, err := json.Marshal(srv.Journal())
	require.NoError(t, err)
	probe.add("journal", string(journal))
	logMu.Lock()
	clientText, serverText := clientLog.String(), serverLog.String()
	logMu.Unlock()
	require.Contains(t, clientText, "retrying", "the debug log saw the retries")
	probe.add("client log", clientText)
	probe.add("server log", serverText)
	probe.assertNoSecret(t, key)
}

type secWriterFunc func([]byte) (int, error)

func (f secWriterFunc) Write(b []byte) (int, error) { return f(b) }

type secRoundTripFunc func(*http.Request) (*http.Response, error)

func (f secRoundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestRedirectToAnotherHostDropsTheKey: should the API (or something in
// front of it) redirect to another host, the key must not follow.
func TestRedirectToAnotherHostDropsTheKey(t *testing.T) {
	t.Parallel()
	var (
		mu      sync.Mutex
		gotAuth []string
	)
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gotAuth = append(gotAuth, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, `{"error":"not here"}`, http.StatusNotFound)
	}))
	t.Cleanup(elsewhere.Close)
	target, err := url.Parse(elsewhere.URL)
	require.NoError(t, err)
	target.Host = "localhost:" + target.Port() // the same loopback server, under another host name

	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.String()+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(api.Close)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	const key = "mint_redirect_secret_5a4b3c2d1e"
	c, err := mintlify.NewClient(mintlify.WithAPIKey(key), mintlify.WithProjectID("proj"),
		mintlify.WithBaseURL(api.URL), mintlify.WithHTTPClient(&http.Client{Transport: tr}), mintlify.WithMaxRetries(0))
	require.NoError(t, err)
	ctx := relContext(t, 10*time.Second)

	_, err = c.GetJob(ctx, "job_1")
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
	_, err = c.CreateJob(ctx, "Follow me")
	assert.Error(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, gotAuth, "the redirect was followed")
	for _, a := range gotAuth {
		assert.NotContains(t, a, key)
	}
}

// TestErrorTextIsOneSafeLine: whatever a server or a proxy puts in an error
// answer, the error a user prints or logs is one line of printable text
// without the key. Over a real connection: a message with a forged log line
// and terminal escapes, a request ID that echoes the Authorization header
// (some gateways put request headers into their IDs) or holds bytes that
// are not UTF-8.
func TestErrorTextIsOneSafeLine(t *testing.T) {
	t.Parallel()
	const key = "mint_one_line_secret_8e7f6a5b4c"
	answers := map[string]func(w http.ResponseWriter, r *http.Request){
		"forged log line": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":"bad prompt\ntime=2025-01-01 level=INFO msg=\"all good\"",`+
				`"details":[{"message":"\u001b[2J\u001b[31mcleared"},{"message":"\u202eexe.txt"}]}`)
		},
		"request ID echoes the key": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Request-Id", strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			w.WriteHeader(http.StatusBadGateway)
		},
		"request ID not UTF-8": func(w http.ResponseWriter, r *http.Request) {
			w.Header()["X-Request-Id"] = []string{"req_\xff\xfe"}
			w.WriteHeader(http.StatusNotFound)
		},
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			api := httptest.NewServer(http.HandlerFunc(answer))
			t.Cleanup(api.Close)
			tr := http.DefaultTransport.(*http.Transport).Clone()
			t.Cleanup(tr.CloseIdleConnections)
			c, err := mintlify.NewClient(mintlify.WithAPIKey(key), mintlify.WithProjectID("proj"),
				mintlify.WithBaseURL(api.URL), mintlify.WithHTTPClient(&http.Client{Transport: tr}), mintlify.WithMaxRetries(0))
			require.NoError(t, err)

			_, err = c.GetJob(relContext(t, 10*time.Second), "job_1")
			var apiErr *mintlify.APIError
			require.ErrorAs(t, err, &apiErr)
			text := err.Error()
			assert.True(t, utf8.ValidString(text), "valid UTF-8: %q", text)
			assert.Equal(t, -1, strings.IndexFunc(text, func(r rune) bool { return !unicode.IsPrint(r) }),
				"only printable characters: %q", text)
			assert.NotContains(t, text, key)
			assert.NotContains(t, apiErr.RequestID, key)
		})
	}
}
