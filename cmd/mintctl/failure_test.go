package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// webhookAPI stands in for the API's webhook route: it records each
// request (method, path, body) and answers with answer.
type webhookAPI struct {
	url  string
	mu   sync.Mutex
	reqs []string // "METHOD PATH BODY"
}

func newWebhookAPI(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) *webhookAPI {
	t.Helper()
	api := &webhookAPI{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		api.mu.Lock()
		api.reqs = append(api.reqs, r.Method+" "+r.URL.EscapedPath()+" "+string(body))
		api.mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	api.url = srv.URL
	return api
}

func (api *webhookAPI) requests() []string {
	api.mu.Lock()
	defer api.mu.Unlock()
	return append([]string(nil), api.reqs...)
}

func (api *webhookAPI) env(t *testing.T) map[string]string {
	return map[string]string{mintlify.EnvAPIKey: "mint_webhook0123456789", mintlify.EnvProjectID: "docs",
		mintlify.EnvBaseURL: api.url, "GITHUB_OUTPUT": filepath.Join(t.TempDir(), "out")}
}

const webhookAutomation = "6650f1c0ffee0123456789ab"

// TestAutomationWebhook: 'automation webhook ID' posts to the webhook
// route once, with no body, prints the run and writes run_id (and nothing
// else) as a step output, for a 202 and a 200 alike; --json prints the
// SDK's value.
func TestAutomationWebhook(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusAccepted, http.StatusOK} {
		api := newWebhookAPI(t, func(w http.ResponseWriter, r *http.Request) {
			sendJSON(w, status, map[string]any{"success": true, "runId": "run_7"})
		})
		env := api.env(t)
		stdout, stderr, code := runEnv(t, env, "automation", "webhook", webhookAutomation)
		require.Equal(t, exitOK, code, stderr.String())
		assert.Equal(t, "automation "+webhookAutomation+" run run_7\n", stdout.String())
		assert.Equal(t, []string{"POST /v2/workflow/docs/" + webhookAutomation + "/webhook "}, api.requests(), "one POST, no body")
		outputs, err := os.ReadFile(env["GITHUB_OUTPUT"])
		require.NoError(t, err)
		assert.Equal(t, "run_id=run_7\n", string(outputs))

		stdout, stderr, code = runEnv(t, env, "automation", "webhook", "--json", webhookAutomation)
		require.Equal(t, exitOK, code, stderr.String())
		assert.JSONEq(t, `{"runId":"run_7"}`, stdout.String())
	}
}

// TestAutomationWebhookFailures: each way the webhook can fail ends with
// its exit code and says what to do next; a lost answer is never sent
// again, and an ID that is not one is refused before anything is sent.
func TestAutomationWebhookFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		args   []string
		answer func(w http.ResponseWriter, r *http.Request)
		code   int
		sent   int
		next   string
	}{
		{"lost answer", []string{webhookAutomation}, func(w http.ResponseWriter, r *http.Request) {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close() // the request was read; its answer never comes
			}
		}, exitUnknown, 1, "the run may have started and spent credits: look at the dashboard before running it again"},
		{"502", []string{webhookAutomation}, func(w http.ResponseWriter, r *http.Request) {
			sendJSON(w, http.StatusBadGateway, map[string]any{"error": "upstream"})
		}, exitUnknown, 1, "look at the dashboard"},
		{"another trigger: 404", []string{webhookAutomation}, func(w http.ResponseWriter, r *http.Request) {
			sendJSON(w, http.StatusNotFound, map[string]any{"error": "Automation not found"})
		}, exitError, 1, "check the ID and the project"},
		{"401", []string{webhookAutomation}, func(w http.ResponseWriter, r *http.Request) {
			sendJSON(w, http.StatusUnauthorized, map[string]any{"error": "Unauthorized"})
		}, exitKeyRefused, 1, "the key in MINTLIFY_API_KEY was refused (HTTP 401)"},
		{"read-only key: 403", []string{webhookAutomation}, func(w http.ResponseWriter, r *http.Request) {
			sendJSON(w, http.StatusForbidden, map[string]any{"error": "Forbidden"})
		}, exitKeyRefused, 1, "the key in MINTLIFY_API_KEY was refused (HTTP 403): check its scopes"},
		{"an ID with a space", []string{"a b"}, nil, exitUsage, 0, "see 'mintctl automation webhook --help'"},
		{"an ID with a slash", []string{"a/b"}, nil, exitUsage, 0, "--help"},
		{"no ID", nil, nil, exitUsage, 0, "--help"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			api := newWebhookAPI(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.answer != nil {
					tc.answer(w, r)
				}
			})
			env := api.env(t)
			env["GITHUB_ACTIONS"] = "true"
			_, stderr, code := runEnv(t, env, append([]string{"--max-retry-wait", "10ms", "automation", "webhook"}, tc.args...)...)
			assert.Equal(t, tc.code, code, stderr.String())
			assert.Len(t, api.requests(), tc.sent, "requests sent")
			assert.Contains(t, stderr.String(), tc.next)
			assert.Equal(t, 1, strings.Count(stderr.String(), "::error "), "one annotation:\n%s", stderr.String())
			outputs, _ := os.ReadFile(env["GITHUB_OUTPUT"])
			assert.Empty(t, outputs, "no output without a run")
		})
	}
}

// TestKeyRefusedNamesItsVariable: a key the API refuses (wrong, expired,
// beyond its scope) is exit 6, whichever API, and the message and the
// annotation name the variable that holds it.
func TestKeyRefusedNamesItsVariable(t *testing.T) {
	t.Parallel()
	readOnly, expired := "mint_readonly0123456789", "mint_expired0123456789"
	srv := mockserver.New(mockserver.WithJobDuration(time.Hour),
		mockserver.WithKey(readOnly, mockserver.KeySpec{Scopes: []mockserver.Scope{mockserver.ScopeRead}}),
		mockserver.WithKey(expired, mockserver.KeySpec{ExpiresAt: time.Now().Add(-time.Minute)}))
	t.Cleanup(srv.Close)
	base := map[string]string{
		mintlify.EnvAPIKey: srv.APIKey(), mintlify.EnvProjectID: srv.ProjectID(), mintlify.EnvBaseURL: srv.URL(),
		mintlify.EnvAssistantAPIKey: srv.AssistantKey(), mintlify.EnvDomain: srv.Domain(), mintlify.EnvAssistantBaseURL: srv.URL() + "/discovery",
		mintlify.EnvIndexAPIKey: srv.IndexKey(), mintlify.EnvIndexBaseURL: srv.URL() + "/api/universal-search",
		"GITHUB_ACTIONS": "true",
	}
	for _, tc := range []struct {
		name     string
		env, key string
		args     []string
		status   string
	}{
		{"a wrong admin key", mintlify.EnvAPIKey, "mint_wrong0123456789", []string{"job", "get", "job_1"}, "401"},
		{"an expired admin key", mintlify.EnvAPIKey, expired, []string{"deploy", "status", "65f1c0ffee0123456789abcd"}, "401"},
		{"a read-only key that starts work", mintlify.EnvAPIKey, readOnly, []string{"deploy"}, "403"},
		{"a wrong assistant key", mintlify.EnvAssistantAPIKey, "mint_dsc_wrong0123456789", []string{"docs", "search", "deploy"}, "401"},
		{"a wrong Index key", mintlify.EnvIndexAPIKey, "mint_us_wrong0123456789", []string{"index", "search", "cache"}, "401"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			for k, v := range base {
				env[k] = v
			}
			env[tc.env] = tc.key
			_, stderr, code := runEnv(t, env, tc.args...)
			assert.Equal(t, exitKeyRefused, code, stderr.String())
			want := "the key in " + tc.env + " was refused (HTTP " + tc.status + ")"
			assert.Contains(t, stderr.String(), "mintctl: "+want)
			assert.Regexp(t, `(?m)^::error title=mintctl [a-z -]+::.*\(exit 6\)\. Next: `+regexpQuote(want), stderr.String())
			assert.NotContains(t, stderr.String(), tc.key, "the refused key is never printed")
		})
	}
	// A missing key is still a configuration error, named before anything
	// is sent.
	env := map[string]string{}
	for k, v := range base {
		env[k] = v
	}
	delete(env, mintlify.EnvAPIKey)
	_, stderr, code := runEnv(t, env, "deploy")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr.String(), mintlify.EnvAPIKey+" is not set")
	assert.Contains(t, stderr.String(), "::error title=mintctl deploy::")
}

func regexpQuote(s string) string {
	return strings.NewReplacer(`(`, `\(`, `)`, `\)`, `.`, `\.`).Replace(s)
}

// TestStorageHostRefusalIsNotTheKey: a storage host that refuses a bundle
// link (403: expired or altered) is exit 1, not 6: the key was never sent
// there, and a new link, not a new key, is the remedy.
func TestStorageHostRefusalIsNotTheKey(t *testing.T) {
	t.Parallel()
	storage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Request has expired", http.StatusForbidden)
	}))
	t.Cleanup(storage.Close)
	api := newWebhookAPI(t, func(w http.ResponseWriter, r *http.Request) {
		sendJSON(w, http.StatusOK, map[string]any{"jobId": "se_1", "bundleUrl": storage.URL + "/b.tar.gz?sig=s", "sizeBytes": 10,
			"expiresAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	})
	env := api.env(t)
	_, stderr, code := runEnv(t, env, "static-export", "download", "--output", filepath.Join(t.TempDir(), "b.tar.gz"), "se_1")
	assert.Equal(t, exitError, code, stderr.String())
	assert.Contains(t, stderr.String(), "403")
	assert.NotContains(t, stderr.String(), "was refused (HTTP 403)")
}

// TestAnnotationText: server text in an annotation cannot act: no "::",
// no line break, no control character, no key.
func TestAnnotationText(t *testing.T) {
	t.Parallel()
	const key = "mint_annotation0123456789"
	got := annotationText("x ::warning::a\n::error::b\r:::c \x1b[31m "+key+" %0A", []string{key})
	assert.NotContains(t, got, "::")
	assert.NotContains(t, got, key)
	assert.False(t, strings.ContainsAny(got, "\n\r\x1b"), "%q", got)
	line := workflowCommand("error", "mintctl job create", got)
	cmds := runnerCommands(line)
	require.Len(t, cmds, 1, "%q", line)
	assert.Equal(t, "error", cmds[0].name)
	assert.NotContains(t, cmds[0].data, "\n")
}

// TestSignalsInProcess: a run whose context a signal ended exits 130 or
// 143 whatever its error, with the command that picks the work up where
// there is one (a real process gets real signals in signal.txtar).
func TestSignalsInProcess(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.WithJobDuration(time.Hour))
	t.Cleanup(srv.Close)
	env := map[string]string{mintlify.EnvAPIKey: srv.APIKey(), mintlify.EnvProjectID: srv.ProjectID(), mintlify.EnvBaseURL: srv.URL()}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	deployments := len(srv.Deployments()) // the seeded history
	for _, tc := range []struct {
		sig     os.Signal
		code    int
		args    []string
		started func() bool // the work exists: send the signal
		again   string
	}{
		{os.Interrupt, exitInterrupted, []string{"job", "create", "--wait", "--poll-interval", "20ms", "Document it"},
			func() bool { return len(srv.Jobs()) > 0 }, "mintctl job wait "},
		{syscall.SIGTERM, exitTerminated, []string{"deploy", "--wait", "--poll-interval", "20ms"},
			func() bool { return len(srv.Deployments()) > deployments }, "mintctl deploy status --wait "},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		var stdout, stderr bytes.Buffer
		var code atomic.Int32
		done := make(chan struct{})
		go func() {
			defer close(done)
			code.Store(int32(run(ctx, tc.args, strings.NewReader(""), &stdout, &stderr, lookup)))
		}()
		require.Eventually(t, tc.started, 10*time.Second, 5*time.Millisecond)
		time.Sleep(50 * time.Millisecond) // into the wait
		cancel(&signalError{tc.sig})
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: mintctl did not end", tc.args)
		}
		assert.Equal(t, tc.code, int(code.Load()), stderr.String())
		assert.Contains(t, stderr.String(), "to pick it up, run:\n  "+tc.again)
	}

	// A signal before anything was sent: nothing to pick up.
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&signalError{os.Interrupt})
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"deploy", "--wait"}, strings.NewReader(""), &stdout, &stderr, lookup)
	assert.Equal(t, exitInterrupted, code, stderr.String())
	assert.Contains(t, stderr.String(), "interrupted (SIGINT)")
	assert.NotContains(t, stderr.String(), "pick it up")
}
