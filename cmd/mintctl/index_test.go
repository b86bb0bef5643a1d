package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

func TestIsIndexURL(t *testing.T) {
	t.Parallel()
	for arg, want := range map[string]bool{
		"https://docs.example.com/a":  true,
		"http://127.0.0.1:8080":       true,
		"HTTPS://Docs.Example.com/a":  true,
		"https://a.example/a b":       true, // a URL, which the SDK refuses (white space)
		"example:/guides/caching":     false,
		"nextjs:/docs/app":            false,
		"docs.example.com/guides":     false,
		"/guides/caching":             false,
		"ftp://example.com/a":         false,
		"https:///a":                  false,
		"mailto:a@example.com":        false,
		"https://[::1/a":              false,
		"":                            false,
		"site:/path?with=query#frag":  false,
		"https://user@example.com/ok": true,
	} {
		assert.Equal(t, want, isIndexURL(arg), "%q", arg)
	}
}

// hostileIndex is an Index API whose every string carries the hostile
// text (workflow commands, terminal escapes, HTML) of actions_test.go:
// titles, URLs, IDs, sources, site names, breadcrumbs, texts, the
// context's Markdown, the contents' statuses, and in "error" mode the
// error body.
func hostileIndex(t *testing.T, mode string) string {
	t.Helper()
	result := func(label string) map[string]any {
		return map[string]any{"id": hv(label + " id"), "url": hv(label + " url"), "title": hv(label + " title"),
			"text": hv(label + " text"), "truncated": true, "totalCharacters": 10000, "score": 0.5, "source": hv("source"),
			"siteName": hv("site"), "breadcrumbs": []string{hv("crumb 1"), hv("crumb 2")}, "publishedDate": hv("date")}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Format string `json:"format"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		if mode == "error" {
			sendJSON(w, http.StatusBadRequest, map[string]any{"error": hv("error")})
			return
		}
		switch r.URL.Path {
		case "/v1/search":
			sendJSON(w, http.StatusOK, map[string]any{"requestId": hv("request"), "results": []any{result("first"), result("second")}})
		case "/v1/context":
			response := hv("markdown") + "\n\n## " + hv("section")
			if body.Format == "json" {
				b, _ := json.Marshal(map[string]any{"results": []any{map[string]any{"title": hv("json title"), "text": hv("json text")}}})
				response = string(b)
			}
			sendJSON(w, http.StatusOK, map[string]any{"requestId": hv("request"), "query": hv("query"), "response": response,
				"resultsCount": 2, "outputTokens": 99})
		case "/v1/contents":
			results := []any{result("fetched")}
			if mode == "none" {
				results = []any{}
			}
			sendJSON(w, http.StatusOK, map[string]any{"requestId": hv("request"), "results": results, "statuses": []any{
				map[string]any{"id": hv("status id 1"), "status": "success"},
				map[string]any{"id": hv("status id 2"), "status": "error", "error": map[string]any{"tag": hv("tag"), "httpStatusCode": 503}},
			}})
		default:
			sendJSON(w, http.StatusNotFound, map[string]any{"error": "no such route"})
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestIndexCommandsAsAnActionsStep runs the index commands as a GitHub
// Actions step against an Index whose every string is hostile: nothing
// on stdout or stderr runs as a workflow command that mintctl did not
// write (its warnings about items not fetched are its own), no raw
// control character reaches the log, --json decodes to the server's own
// strings, and the exit codes are the documented ones.
func TestIndexCommandsAsAnActionsStep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode string
		args []string
		code int
		json bool
	}{
		{"ok", []string{"index", "search", "--text", "q"}, 0, false},
		{"ok", []string{"index", "search", "--max-characters", "5", "q"}, 0, false},
		{"ok", []string{"index", "search", "--json", "q"}, 0, true},
		{"ok", []string{"index", "context", "q"}, 0, false},
		{"ok", []string{"index", "context", "--format", "json", "q"}, 0, false},
		{"ok", []string{"index", "context", "--json", "q"}, 0, true},
		{"ok", []string{"index", "contents", "a:/1", "https://b.example/2"}, 0, false},
		{"ok", []string{"index", "contents", "--json", "a:/1", "https://b.example/2"}, 0, true},
		{"none", []string{"index", "contents", "a:/1", "https://b.example/2"}, 1, false},
		{"none", []string{"index", "contents", "--json", "a:/1", "https://b.example/2"}, 1, true},
		{"error", []string{"index", "search", "q"}, 1, false},
		{"error", []string{"index", "context", "--json", "q"}, 1, false},
		{"error", []string{"index", "contents", "a:/1"}, 1, false},
	} {
		t.Run(tc.mode+" "+strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			env := map[string]string{mintlify.EnvIndexAPIKey: "mint_us_actions0123456789", mintlify.EnvIndexBaseURL: hostileIndex(t, tc.mode)}
			stdout, stderr, code := runStep(t, env, tc.args...)
			what := fmt.Sprintf("%s: mintctl %q", tc.mode, tc.args)
			require.Equal(t, tc.code, code, "%s\nstdout: %s\nstderr: %s", what, stdout.String(), stderr.String())
			checkRunnerLog(t, what+" stdout", stdout.String())
			errors := 0
			for _, c := range checkRunnerLog(t, what+" stderr", stderr.String()) {
				if c.name == "error" {
					errors++
					continue
				}
				assert.Equal(t, "warning", c.name, "%s: warnings for items not fetched, and the failure", what)
				assert.True(t, strings.HasPrefix(c.data, "not fetched: "), c.data)
			}
			assert.Equal(t, min(tc.code, 1), errors, "%s: one error annotation for a failure, none for a success", what)
			if tc.mode == "ok" || tc.json && tc.mode != "error" {
				assert.NotEmpty(t, stdout.String(), what)
			}
			if tc.json {
				var v map[string]any
				require.NoError(t, json.Unmarshal(stdout.Bytes(), &v), "%s: %s", what, stdout.String())
				assert.Equal(t, hv("request"), v["requestId"], "%s: the server's own string", what)
			}
		})
	}
}

// TestIndexCredentialsFromTheEnvironmentOnly: without
// MINTLIFY_INDEX_API_KEY (the admin key set or not), or with it empty or
// another API's key, every index command exits 2 naming what to set, and
// sends nothing; no flag takes a key.
func TestIndexCredentialsFromTheEnvironmentOnly(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	for _, env := range []map[string]string{
		{mintlify.EnvIndexBaseURL: srv.URL},
		{mintlify.EnvIndexBaseURL: srv.URL, mintlify.EnvAPIKey: "mint_admin0123456789", mintlify.EnvBaseURL: srv.URL},
		{mintlify.EnvIndexBaseURL: srv.URL, mintlify.EnvIndexAPIKey: " "},
		{mintlify.EnvIndexBaseURL: srv.URL, mintlify.EnvIndexAPIKey: "mint_admin0123456789"},
		{mintlify.EnvIndexBaseURL: srv.URL, mintlify.EnvIndexAPIKey: "mint_dsc_assistant0123456789"},
	} {
		for _, args := range [][]string{{"index", "search", "q"}, {"index", "context", "q"}, {"index", "contents", "a:/b"}} {
			stdout, stderr, code := runEnv(t, env, args...)
			assert.Equal(t, exitUsage, code, "%v %v: %s", env, args, stderr.String())
			assert.Contains(t, stderr.String(), "mint_us_", "%v: says which key to set", env)
			assert.Empty(t, stdout.String())
		}
	}
	for _, flag := range []string{"--api-key", "--key", "--index-api-key"} {
		code := run(context.Background(), []string{"index", "search", flag, "mint_us_x0123456789", "q"}, strings.NewReader(""),
			io.Discard, io.Discard, func(string) (string, bool) { return "", false })
		assert.Equal(t, exitUsage, code, "%s is no flag", flag)
	}
	assert.Zero(t, hits.Load(), "nothing was sent")
}
