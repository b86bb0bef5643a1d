package mintlify_test

// Input the API would refuse, and careless use, fail with ErrInvalidInput
// before any request: on every method of the table, on NewClient, and on
// the escape hatch Client.Do.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// assertRefused checks an error from input refused before any request: it
// wraps ErrInvalidInput, reads once, and is neither an API answer nor a
// walk that stopped.
func assertRefused(t *testing.T, err error) {
	t.Helper()
	require.ErrorIs(t, err, mintlify.ErrInvalidInput)
	var apiErr *mintlify.APIError
	assert.False(t, errors.As(err, &apiErr), "no API answer behind invalid input: %v", err)
	var we *mintlify.WalkError
	assert.False(t, errors.As(err, &we), "refused before any request, not a walk that stopped: %v", err)
	assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
	readsOnce(t, err, 0)
}

// TestEveryMethodRefusesInvalidInput: each method's input the API would
// refuse (an empty or dot ID, a limit outside the route's range, a
// reversed date range, an unknown filter, a thread ID that is not a ULID,
// a bad domain, poll intervals out of bounds...) is ErrInvalidInput with
// no result, yielded once by an iterator, and no request.
func TestEveryMethodRefusesInvalidInput(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		for name, bad := range m.invalid {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				c, mt := answering(t, respond(200, `{}`))
				got, err := bad(context.Background(), c)
				assertRefused(t, err) // a walk that yielded anything after its error fails here
				assertNoResult(t, got)
				assert.Zero(t, mt.GetTotalCallCount(), "no request may be sent")
			})
		}
	}
}

// TestEveryMethodRefusesCarelessCallers: a nil context, a nil *Client and a
// zero Client{} are ErrInvalidInput on every method, never a panic and
// never a request; a nil or zero Client has no project.
func TestEveryMethodRefusesCarelessCallers(t *testing.T) {
	t.Parallel()
	good, mt := newClient(t)
	var nilClient *mintlify.Client
	var nilCtx context.Context
	bundle := &mintlify.StaticExportBundle{JobID: "exp_1", URL: "https://storage.test/b.tgz?sig=1", SizeBytes: 1}
	for name, c := range map[string]*mintlify.Client{"nil Client": nilClient, "zero Client": {}} {
		assert.Empty(t, c.ProjectID(), name)
		for _, m := range methods {
			_, err := m.call(context.Background(), c)
			assertRefused(t, err)
		}
		_, err := c.DownloadStaticExport(context.Background(), bundle, io.Discard)
		assertRefused(t, err)
	}
	for _, m := range methods {
		_, err := m.call(nilCtx, good)
		assertRefused(t, err)
	}
	_, err := good.DownloadStaticExport(nilCtx, bundle, io.Discard)
	assertRefused(t, err)
	assert.Zero(t, mt.GetTotalCallCount(), "nothing was sent")
}

// TestIDsStayOnePathSegment: an ID is escaped into one path segment of its
// route, whatever it holds; a query or fragment never appears. A method
// that refuses only empty and dot IDs sends every other one; one whose IDs
// have a form (a thread's ULID, an automation's) sends it so or refuses it
// before sending.
func TestIDsStayOnePathSegment(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		if !m.takesID() {
			continue
		}
		for _, tt := range []struct{ id, escaped string }{
			{"../x", "..%2Fx"}, {"a/b", "a%2Fb"}, {"a<b", "a%3Cb"}, {"ü", "%C3%BC"}, {"%2F", "%252F"},
			{"a?b", "a%3Fb"}, {"a#b", "a%23b"}, {"a;b", "a%3Bb"}, {"...", "..."},
		} {
			t.Run(m.name+"/"+tt.id, func(t *testing.T) {
				t.Parallel()
				good := m.good
				if m.idKey != "" {
					quoted, _ := json.Marshal(tt.id)
					good = withKey(t, good, m.idKey, string(quoted))
				}
				rec := &recorder{}
				c, _ := answering(t, rec.wrap(respond(m.status, good)))
				_, err := m.arg(context.Background(), c, tt.id)
				if !m.takesAnyID() && errors.Is(err, mintlify.ErrInvalidInput) {
					assert.Empty(t, rec.requests(), "refused, and nothing sent")
					return
				}
				require.NoError(t, err)
				reqs := rec.requests()
				require.Len(t, reqs, 1)
				want := routeID.ReplaceAllLiteralString(strings.ReplaceAll(m.route, "{projectId}", testProject), tt.escaped)
				assert.Equal(t, want, reqs[0].URL.EscapedPath())
				assert.Empty(t, reqs[0].URL.RawQuery)
				assert.Empty(t, reqs[0].URL.Fragment)
			})
		}
	}
	// Automation IDs the dashboard shows are one segment too: odd but
	// legal characters are escaped, not refused.
	rec := &recorder{}
	c, _ := answering(t, rec.wrap(respond(202, `{"instanceId":"run_1"}`)))
	_, err := c.TriggerAutomation(context.Background(), "wf?x=1#y")
	require.NoError(t, err)
	assert.Equal(t, "/v1/workflow/"+testProject+"/wf%3Fx=1%23y/trigger", rec.requests()[0].URL.EscapedPath())
}

// TestStartStaticExportTakesAnyBareHostname: the domain is a hostname
// alone, IDNs and localhost included.
func TestStartStaticExportTakesAnyBareHostname(t *testing.T) {
	t.Parallel()
	for _, d := range []string{"docs.acme.com", "acme.mintlify.app", "localhost", "xn--dcs-joa.example", "dökümanlar.example"} {
		c, mt := answering(t, respond(202, `{"jobId":"se_1","status":"queued"}`))
		_, err := c.StartStaticExport(context.Background(), mintlify.StaticExportParams{Domain: d})
		assert.NoError(t, err, d)
		assert.Equal(t, 1, mt.GetTotalCallCount(), d)
	}
}

// clearEnv empties the variables NewClient reads, so that a test does not
// depend on the environment it runs in.
func clearEnv(t *testing.T) {
	for _, name := range []string{mintlify.EnvAPIKey, mintlify.EnvProjectID, mintlify.EnvBaseURL,
		mintlify.EnvAssistantAPIKey, mintlify.EnvDomain, mintlify.EnvAssistantBaseURL,
		mintlify.EnvIndexAPIKey, mintlify.EnvIndexBaseURL} {
		t.Setenv(name, "")
	}
}

// Each API's constructor takes its own key type only, by prefix, and
// refuses the others with a message naming the right constructor, never
// the key.
func TestConstructorsTakeTheirOwnKeys(t *testing.T) {
	clearEnv(t)
	keys := map[string]string{"admin": "mint_admin0123456789", "assistant": "mint_dsc_assistant0123456789", "Index": "mint_us_index0123456789"}
	build := map[string]func(key string) error{
		"admin": func(key string) error {
			_, err := mintlify.NewClient(mintlify.WithAPIKey(key), mintlify.WithProjectID("p"))
			return err
		},
		"assistant": func(key string) error {
			_, err := mintlify.NewAssistantClient(mintlify.WithAPIKey(key), mintlify.WithDomain("docs.example.com"))
			return err
		},
		"Index": func(key string) error {
			_, err := mintlify.NewIndexClient(mintlify.WithAPIKey(key))
			return err
		},
	}
	for api, newClient := range build {
		for kind, key := range keys {
			err := newClient(key)
			if kind == api {
				assert.NoError(t, err, "%s client, %s key", api, kind)
				continue
			}
			require.ErrorIs(t, err, mintlify.ErrInvalidInput, "%s client, %s key", api, kind)
			assert.Contains(t, err.Error(), "is an "+kind+" key", "%s client", api)
			assert.NotContains(t, err.Error(), key[len("mint_")+2:])
		}
	}
}

// The new clients read their own environment, never the admin API's
// address, and NewAssistantClient needs a hostname-like domain.
func TestAssistantAndIndexClientsReadTheirEnvironment(t *testing.T) {
	clearEnv(t)
	t.Setenv(mintlify.EnvBaseURL, "http://admin.example.test")
	t.Setenv(mintlify.EnvAssistantAPIKey, "mint_dsc_from_env0123")
	t.Setenv(mintlify.EnvIndexAPIKey, "mint_us_from_env0123")
	_, err := mintlify.NewAssistantClient()
	require.ErrorIs(t, err, mintlify.ErrInvalidInput, "no domain")
	t.Setenv(mintlify.EnvDomain, "docs.example.com")
	a, err := mintlify.NewAssistantClient()
	require.NoError(t, err)
	assert.Equal(t, `mintlify.AssistantClient{domain: "docs.example.com", baseURL: "`+mintlify.DefaultAssistantBaseURL+`"}`, fmt.Sprint(a))
	x, err := mintlify.NewIndexClient(mintlify.WithBaseURL("http://127.0.0.1:9/api/universal-search/v1/"))
	require.NoError(t, err)
	assert.Equal(t, `mintlify.IndexClient{baseURL: "http://127.0.0.1:9/api/universal-search"}`, fmt.Sprint(x), "a trailing /v1 is dropped")
	for _, d := range []string{"https://docs.example.com", "docs.example.com/x", "docs.example.com:443", "-docs", "docs..com", "docs example"} {
		_, err := mintlify.NewAssistantClient(mintlify.WithDomain(d))
		assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "domain %q", d)
	}
}

// firstRequest builds a client from opts, makes one GetJob through it and
// returns the client and the request it sent.
func firstRequest(t *testing.T, opts ...mintlify.Option) (*mintlify.Client, recorded) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	rec := &recorder{}
	mt.RegisterNoResponder(rec.wrap(respond(200, goodJob)))
	c, err := mintlify.NewClient(append(opts, mintlify.WithHTTPClient(&http.Client{Transport: mt}))...)
	require.NoError(t, err)
	_, err = c.GetJob(context.Background(), "job_1")
	require.NoError(t, err)
	require.Len(t, rec.requests(), 1)
	return c, rec.requests()[0]
}

func TestNewClientReadsEnvironment(t *testing.T) {
	t.Setenv(mintlify.EnvAPIKey, testKey)
	t.Setenv(mintlify.EnvProjectID, "env_project")
	t.Setenv(mintlify.EnvBaseURL, "http://127.0.0.1:8080")
	c, req := firstRequest(t)
	assert.Equal(t, "env_project", c.ProjectID())
	assert.Equal(t, "http://127.0.0.1:8080/v2/agent/env_project/job/job_1", req.URL.String())
	assert.Equal(t, "Bearer "+testKey, req.Header.Get("Authorization"))
	assert.Equal(t, "mintlify-go/"+mintlify.Version, req.Header.Get("User-Agent"), "no suffix unless asked")
}

func TestNewClientDefaultBaseURL(t *testing.T) {
	clearEnv(t)
	_, req := firstRequest(t, mintlify.WithAPIKey(testKey), mintlify.WithProjectID("p"))
	assert.Equal(t, mintlify.DefaultBaseURL+"/v2/agent/p/job/job_1", req.URL.String())
}

func TestNewClientOptionsWinOverEnvironment(t *testing.T) {
	t.Setenv(mintlify.EnvAPIKey, "mint_from_env")
	t.Setenv(mintlify.EnvProjectID, "env_project")
	t.Setenv(mintlify.EnvBaseURL, "http://env.example.test")
	c, req := firstRequest(t, mintlify.WithAPIKey(testKey), mintlify.WithProjectID("opt_project"), mintlify.WithBaseURL("https://opt.example.test"))
	assert.Equal(t, "opt_project", c.ProjectID())
	assert.Equal(t, "https://opt.example.test/v2/agent/opt_project/job/job_1", req.URL.String())
	assert.Equal(t, "Bearer "+testKey, req.Header.Get("Authorization"))
}

func TestNewClientBaseURL(t *testing.T) {
	t.Parallel()
	for base, want := range map[string]string{
		"https://api.mintlify.com":             "https://api.mintlify.com/v2/agent/p/job/job_1",
		"https://api.mintlify.com/":            "https://api.mintlify.com/v2/agent/p/job/job_1",
		"http://127.0.0.1:8080":                "http://127.0.0.1:8080/v2/agent/p/job/job_1",
		"https://proxy.example.test/mintlify":  "https://proxy.example.test/mintlify/v2/agent/p/job/job_1",
		"https://proxy.example.test/mintlify/": "https://proxy.example.test/mintlify/v2/agent/p/job/job_1",
		"https://proxy.example.test/a/b//":     "https://proxy.example.test/a/b/v2/agent/p/job/job_1",
	} {
		_, req := firstRequest(t, mintlify.WithAPIKey(testKey), mintlify.WithProjectID("p"), mintlify.WithBaseURL(base))
		assert.Equal(t, want, req.URL.String(), "base URL %q", base)
	}
}

// TestNewClientRejectsBadConfig: what NewClient refuses, with a message
// that helps and never holds the key.
func TestNewClientRejectsBadConfig(t *testing.T) {
	clearEnv(t)
	valid := []mintlify.Option{mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject),
		mintlify.WithHTTPClient(&http.Client{Transport: httpmock.NewMockTransport()})}
	tests := []struct {
		name     string
		opts     []mintlify.Option // applied after a valid key and project
		mentions string            // a word the message must hold to help the user
	}{
		{"missing key", []mintlify.Option{mintlify.WithAPIKey("")}, mintlify.EnvAPIKey},
		{"blank key", []mintlify.Option{mintlify.WithAPIKey(" ")}, "API key"},
		{"missing project", []mintlify.Option{mintlify.WithProjectID("")}, mintlify.EnvProjectID},
		{"key with Bearer prefix", []mintlify.Option{mintlify.WithAPIKey("Bearer " + testKey)}, "Bearer"},
		{"key with lower-case bearer prefix", []mintlify.Option{mintlify.WithAPIKey("bearer " + testKey)}, "Bearer"},
		{"key without mint_ prefix", []mintlify.Option{mintlify.WithAPIKey("sk_live_abcdef")}, "mint_"},
		{"a Basic credential", []mintlify.Option{mintlify.WithAPIKey("Basic dXNlcjpwYXNz")}, "mint_"},
		{"key with leading space", []mintlify.Option{mintlify.WithAPIKey(" " + testKey)}, "API key"},
		{"key with trailing newline", []mintlify.Option{mintlify.WithAPIKey(testKey + "\n")}, "API key"},
		{"key with inner space", []mintlify.Option{mintlify.WithAPIKey("mint_abc def")}, "API key"},
		{"key with tab", []mintlify.Option{mintlify.WithAPIKey(testKey + "\t")}, "API key"},
		{"key with DEL", []mintlify.Option{mintlify.WithAPIKey(testKey + "\x7f")}, "API key"},
		// Pasting from a web page or a chat often brings a no-break space
		// or a line separator along.
		{"key with no-break space", []mintlify.Option{mintlify.WithAPIKey(testKey + "\u00a0")}, "API key"},
		{"key with line separator", []mintlify.Option{mintlify.WithAPIKey(testKey + "\u2028")}, "API key"},
		{"key with C1 control", []mintlify.Option{mintlify.WithAPIKey(testKey + "\u0085")}, "API key"},
		{"project .", []mintlify.Option{mintlify.WithProjectID(".")}, ""},
		{"project ..", []mintlify.Option{mintlify.WithProjectID("..")}, ""},
		{"relative base URL", []mintlify.Option{mintlify.WithBaseURL("api.mintlify.com")}, "base URL"},
		{"path-only base URL", []mintlify.Option{mintlify.WithBaseURL("/v2")}, "base URL"},
		{"ftp base URL", []mintlify.Option{mintlify.WithBaseURL("ftp://api.mintlify.com")}, "base URL"},
		{"base URL without host", []mintlify.Option{mintlify.WithBaseURL("https://")}, "base URL"},
		{"base URL with query", []mintlify.Option{mintlify.WithBaseURL("https://api.mintlify.com?region=eu")}, "base URL"},
		{"base URL with empty query", []mintlify.Option{mintlify.WithBaseURL("https://api.mintlify.com/?")}, "base URL"},
		{"base URL with fragment", []mintlify.Option{mintlify.WithBaseURL("https://api.mintlify.com#top")}, "base URL"},
		{"unparsable base URL", []mintlify.Option{mintlify.WithBaseURL("http://[::1")}, "base URL"},
		{"negative retries", []mintlify.Option{mintlify.WithMaxRetries(-1)}, "retries"},
		{"zero minimum wait", []mintlify.Option{mintlify.WithRetryWait(0, time.Second)}, "retry wait"},
		{"negative minimum wait", []mintlify.Option{mintlify.WithRetryWait(-time.Second, time.Second)}, "retry wait"},
		{"maximum below minimum", []mintlify.Option{mintlify.WithRetryWait(2*time.Second, time.Second)}, "retry wait"},
	}
	// A user agent suffix net/http would refuse to send failed every later
	// call as ErrOutcomeUnknown; NewClient refuses it now.
	for _, suffix := range []string{"app\r\nX-Evil: 1", "app\n", "tab\there", "caf\u00e9"} {
		tests = append(tests, struct {
			name     string
			opts     []mintlify.Option
			mentions string
		}{fmt.Sprintf("user agent %q", suffix), []mintlify.Option{mintlify.WithUserAgent(suffix)}, "user agent"})
	}
	// A key pasted into the base URL (a path segment, a query, a user
	// name) would show in every network error and debug log.
	for _, base := range []string{
		"https://api.example.test/" + testKey, "https://api.example.test/x?" + testKey, "https://" + testKey + "@api.example.test",
		"https://user:" + testKey + "@api.example.test", "https://user@api.example.test",
		"https://api.example.test/" + url.PathEscape(testKey) + "/v1", "https://user:" + testKey + "@host:bad",
		"ftp://api.test/?k=" + testKey, "https://api.test/" + testKey + "?x", testKey,
	} {
		tests = append(tests, struct {
			name     string
			opts     []mintlify.Option
			mentions string
		}{"base URL " + base, []mintlify.Option{mintlify.WithBaseURL(base)}, "base URL"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := mintlify.NewClient(slices.Concat(valid, tt.opts)...)
			require.ErrorIs(t, err, mintlify.ErrInvalidInput)
			assert.Nil(t, c)
			assert.Contains(t, err.Error(), tt.mentions)
			assertNoKey(t, err.Error(), "NewClient error")
			assert.NotContains(t, err.Error(), "dXNlcjpwYXNz")
		})
	}
}

// TestPlainHTTPOnlyToLoopback: the key travels in clear text over http,
// so every constructor refuses an http base URL to a host other than
// loopback (127.0.0.0/8, ::1, localhost) before anything is sent, from an
// option or the environment, unless WithInsecureHTTP allows it.
func TestPlainHTTPOnlyToLoopback(t *testing.T) {
	clearEnv(t)
	var sent []string
	hc := &http.Client{Transport: recordHosts(&sent)}
	constructors := map[string]func(opts ...mintlify.Option) (any, error){
		"NewClient": func(opts ...mintlify.Option) (any, error) {
			return mintlify.NewClient(append([]mintlify.Option{mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject)}, opts...)...)
		},
		"NewAssistantClient": func(opts ...mintlify.Option) (any, error) {
			return mintlify.NewAssistantClient(append([]mintlify.Option{mintlify.WithAPIKey("mint_dsc_0123456789abcdef"), mintlify.WithDomain("docs.example.com")}, opts...)...)
		},
		"NewIndexClient": func(opts ...mintlify.Option) (any, error) {
			return mintlify.NewIndexClient(append([]mintlify.Option{mintlify.WithAPIKey("mint_us_0123456789abcdef")}, opts...)...)
		},
	}
	envs := map[string]string{"NewClient": mintlify.EnvBaseURL, "NewAssistantClient": mintlify.EnvAssistantBaseURL, "NewIndexClient": mintlify.EnvIndexBaseURL}
	refused := []string{"http://api.example.test", "http://api.mintlify.com/", "HTTP://api.mintlify.com", "http://10.0.0.7:8080",
		"http://192.168.1.2", "http://[2001:db8::1]:80", "http://localhost.evil.test", "http://127.0.0.1.nip.io",
		"http://0.0.0.0:8080", "http://[::]:80", "http://mock.test:4010"}
	allowed := []string{"http://127.0.0.1:8080", "http://127.9.9.9", "http://localhost:4010", "http://LOCALHOST", "http://[::1]:8080",
		"https://api.example.test", "https://10.0.0.7"}
	for name, build := range constructors {
		for _, base := range refused {
			_, err := build(mintlify.WithBaseURL(base), mintlify.WithHTTPClient(hc))
			require.ErrorIs(t, err, mintlify.ErrInvalidInput, "%s, %s", name, base)
			assert.Contains(t, err.Error(), "WithInsecureHTTP", "%s: the error names the way out", name)
			_, err = build(mintlify.WithBaseURL(base), mintlify.WithHTTPClient(hc), mintlify.WithInsecureHTTP())
			assert.NoError(t, err, "%s, %s, allowed", name, base)

			t.Setenv(envs[name], base)
			_, err = build(mintlify.WithHTTPClient(hc))
			assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "%s, $%s=%s", name, envs[name], base)
			t.Setenv(envs[name], "")
		}
		for _, base := range allowed {
			_, err := build(mintlify.WithBaseURL(base), mintlify.WithHTTPClient(hc))
			assert.NoError(t, err, "%s, %s", name, base)
		}
	}
	assert.Empty(t, sent, "nothing was sent")
}

func TestNewClientAcceptsRetrySettings(t *testing.T) {
	t.Parallel()
	for _, opt := range []mintlify.Option{mintlify.WithMaxRetries(0), mintlify.WithMaxRetries(10),
		mintlify.WithRetryWait(time.Second, time.Second), mintlify.WithRetryWait(time.Nanosecond, time.Hour)} {
		_, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), opt)
		assert.NoError(t, err)
	}
}

// TestFormattedClientHidesKey: every verb prints the project and base URL,
// nothing else; %v stops at the first pointer, but other verbs make fmt
// print what a nested pointer points to.
func TestFormattedClientHidesKey(t *testing.T) {
	t.Parallel()
	c, _ := newClient(t, mintlify.WithLogger(slog.New(slog.DiscardHandler)))
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%t"} {
		assertNoKey(t, fmt.Sprintf(verb, c), "fmt "+verb+" of *Client")
		assertNoKey(t, fmt.Sprintf(verb, *c), "fmt "+verb+" of Client") //nolint:govet // the copy is the point
		if verb != "%x" && verb != "%d" && verb != "%t" {
			assert.Contains(t, fmt.Sprintf(verb, c), testProject, verb)
		}
	}
	var nilClient *mintlify.Client
	assert.Equal(t, "<nil>", fmt.Sprint(nilClient))
}

// TestCarelessOptionsDoNotPanic: a nil Option, a nil PollOption and a nil
// poll observer change nothing; before, NewClient and every poller
// panicked on them.
func TestCarelessOptionsDoNotPanic(t *testing.T) {
	t.Parallel()
	c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), nil)
	require.NoError(t, err)
	assert.Equal(t, testProject, c.ProjectID())

	c, _ = answering(t, func(r *http.Request) (*http.Response, error) {
		switch {
		case strings.Contains(r.URL.Path, "/job/"):
			return respond(200, goodJob)(r)
		case strings.Contains(r.URL.Path, "/update-status/"):
			return respond(200, goodDeploy)(r)
		}
		return respond(200, goodExport)(r)
	})
	ctx := context.Background()
	_, err = c.PollJob(ctx, "job_1", nil, mintlify.WithPollObserver[mintlify.Job](nil))
	require.NoError(t, err)
	_, err = c.PollDeployment(ctx, "st_1", nil, mintlify.WithPollObserver[mintlify.Deployment](nil))
	require.NoError(t, err)
	_, err = c.PollStaticExport(ctx, "exp_1", nil, mintlify.WithPollObserver[mintlify.StaticExport](nil))
	require.NoError(t, err)
}

// recordHosts is a transport that records the host, path and credentials
// of every request and answers 200 {}.
func recordHosts(calls *[]string) *httpmock.MockTransport {
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		*calls = append(*calls, r.URL.Host+" "+r.URL.EscapedPath()+" "+r.Header.Get("Authorization"))
		return respond(200, `{}`)(r)
	})
	return mt
}

// TestDoRefusesPathsThatLeaveTheAPI: only a path relative to the base URL
// is called, never another host, and never a path a server would resolve
// above the base URL (dot segments, however spelled). Nothing is sent for
// a refused path.
func TestDoRefusesPathsThatLeaveTheAPI(t *testing.T) {
	t.Parallel()
	var calls []string
	c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(testBase+"/prefix"),
		mintlify.WithHTTPClient(&http.Client{Transport: recordHosts(&calls)}), mintlify.WithMaxRetries(0))
	require.NoError(t, err)
	for _, path := range []string{
		"https://evil.test/v1/x", "http://evil.test", "//evil.test/v1/x", "///evil.test/x", "evil.test/v1/x", "v1/analytics", "", "?limit=5",
		"/v1/../admin", "/v1/./x", "/..", "/v1/%2e%2e/admin", "/v1/%2E%2e/admin", "/v1/.%2e/admin",
		"/v1/..;/admin",     // Tomcat and friends read "..;" as ".."
		"/v1/..%3b/admin",   // the same, escaped
		"/v1/..\\admin",     // servers that read \ as /
		"/v1/%5c..%5cadmin", // the same, escaped
		"/v1/x#frag", "/v1/x\r\nHost: evil.test", "/v1/\x00", "mailto:a@evil.test", "/v1/x@evil.test:443/",
	} {
		_, err := c.Do(context.Background(), http.MethodGet, path, nil, nil)
		if strings.Contains(path, "@evil.test") && err == nil {
			continue // checked below: still the API's host
		}
		require.ErrorIs(t, err, mintlify.ErrInvalidInput, "%q", path)
		readsOnce(t, err, 0)
	}
	for _, call := range calls {
		assert.True(t, strings.HasPrefix(call, "api.example.test /prefix/"), "left the base URL: %s", call)
	}
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
	c, mt := answering(t, respond(200, `{"a":1}`), mintlify.WithMaxRetries(0))
	var nilMap *map[string]any
	for name, out := range map[string]any{"a map value": map[string]any{}, "a struct value": struct{ A int }{}, "a nil pointer": nilMap, "a string": "out"} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			_, err := c.Do(context.Background(), method, "/v1/x", nil, out)
			require.ErrorIs(t, err, mintlify.ErrInvalidInput, "%s %s", method, name)
			assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
		}
	}
	for _, method := range []string{"", "GET POST", "G(T"} {
		_, err := c.Do(context.Background(), method, "/v1/x", nil, nil)
		assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "method %q", method)
	}
	_, err := c.Do(context.Background(), http.MethodPost, "/v1/x", func() {}, nil)
	assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "a body that is not JSON")
	assert.Zero(t, mt.GetTotalCallCount(), "nothing sent")
	var ok map[string]any
	_, err = c.Do(context.Background(), http.MethodGet, "/v1/x", nil, &ok)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": 1.0}, ok)
}

// TestDoTakesAnAnswerWithoutContent: any 2xx is Client.Do's success; a 204
// or 205 has no body to decode, so it leaves out alone instead of being a
// malformed answer (an unknown outcome for a POST). Other 2xx with an
// empty body still cannot fill out.
func TestDoTakesAnAnswerWithoutContent(t *testing.T) {
	t.Parallel()
	for _, status := range []int{204, 205} {
		for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			c, _ := answering(t, respond(status, ``), mintlify.WithMaxRetries(0))
			out := map[string]any{"kept": true}
			resp, err := c.Do(context.Background(), method, "/v1/x", nil, &out)
			require.NoError(t, err, "%s %d", method, status)
			assert.Equal(t, status, resp.StatusCode)
			assert.Equal(t, map[string]any{"kept": true}, out)
		}
	}
	c, _ := answering(t, respond(202, ``), mintlify.WithMaxRetries(0))
	var out map[string]any
	_, err := c.Do(context.Background(), http.MethodPost, "/v1/x", nil, &out)
	require.ErrorIs(t, err, mintlify.ErrMalformedResponse)
	assert.ErrorIs(t, err, mintlify.ErrOutcomeUnknown)
}
