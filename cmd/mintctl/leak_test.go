package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// echoKey is the key the echoing server is sent and puts back in every
// field of its answers, as a hostile or broken proxy might.
const echoKey = "mint_echoed0123456789abcdefSECRET"

// echoServer answers every route mintctl reads with the key in every
// string field it can hold.
func echoServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		k := echoKey
		switch {
		case strings.Contains(r.URL.Path, "/v2/agent/"):
			id := "job_1"
			if r.Method == http.MethodPost && !strings.HasSuffix(r.URL.Path, "/message") {
				w.WriteHeader(http.StatusCreated)
			}
			_ = json.NewEncoder(w).Encode(map[string]any{
				"id": id, "status": "completed", "model": "m " + k,
				"prLink":    "https://github.com/o/r/pull/1?" + k,
				"source":    map[string]any{"repository": "https://github.com/o/" + k, "ref": k},
				"createdAt": "2025-01-01T00:00:00Z", "archivedAt": nil,
			})
		case strings.Contains(r.URL.Path, "/project/update-status/"):
			_ = json.NewEncoder(w).Encode(map[string]any{
				"_id": "65f1c0ffee0123456789abcd", "projectId": "p1", "status": "failure",
				"summary": "summary " + k, "logs": []string{"log " + k, "line\n" + k},
				"subdomain": k, "source": k, "createdAt": "2025-01-01T00:00:00Z",
				"commit": map[string]any{"sha": k, "ref": k, "message": k,
					"filesChanged": map[string]any{"added": []string{k}, "modified": []string{}, "removed": []string{}}},
			})
		case strings.Contains(r.URL.Path, "/project/preview/"):
			w.WriteHeader(http.StatusAccepted)
			_ = json.NewEncoder(w).Encode(map[string]any{"statusId": "65f1c0ffee0123456789abcd", "previewUrl": "https://p.example.com/" + k})
		case strings.HasSuffix(r.URL.Path, "/views"):
			_ = json.NewEncoder(w).Encode(map[string]any{
				"totals": map[string]any{"human": 2, "ai": 0, "total": 2},
				"views": []any{
					map[string]any{"path": "/a/" + k, "human": 1, "ai": 0, "total": 1},
					map[string]any{"path": "/b", "human": 1, "ai": 0, "total": 1},
				},
				"hasMore": false,
			})
		default:
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": "bad key " + k})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestEchoedKeyIsNeverShown: whatever the server sends back, the key
// reaches neither stdout, stderr nor the step outputs.
func TestEchoedKeyIsNeverShown(t *testing.T) {
	t.Parallel()
	srv := echoServer(t)
	for _, args := range [][]string{
		{"job", "get", "job_1"},
		{"job", "get", "--json", "job_1"},
		{"job", "create", "--wait", "--poll-interval", "10ms", "Document it"},
		{"deploy", "status", "65f1c0ffee0123456789abcd"},
		{"deploy", "status", "--wait", "--json", "65f1c0ffee0123456789abcd"},
		{"deploy", "status", "--wait", "65f1c0ffee0123456789abcd"},
		{"preview", "--wait", "--poll-interval", "10ms", "docs/x"},
		{"preview", "--json", "docs/x"},
		{"automation", "run", "6650f1c0ffee0123456789ab"},
		{"analytics", "views", "--format", "jsonl"},
		{"analytics", "views", "--output", filepath.Join(t.TempDir(), "views.csv")},
	} {
		outputs, summary := filepath.Join(t.TempDir(), "out"), filepath.Join(t.TempDir(), "summary")
		env := map[string]string{
			mintlify.EnvAPIKey: echoKey, mintlify.EnvProjectID: "p1", mintlify.EnvBaseURL: srv.URL,
			"GITHUB_OUTPUT": outputs, "GITHUB_STEP_SUMMARY": summary,
		}
		stdout, stderr, code := runEnv(t, env, args...)
		written, _ := os.ReadFile(outputs)
		t.Logf("%v: exit %d\n%s%s%s", args, code, stdout.String(), stderr.String(), written)
		assert.NotContains(t, stdout.String(), echoKey[:12], "%v: stdout", args)
		assert.NotContains(t, stderr.String(), echoKey[:12], "%v: stderr", args)
		assert.NotContains(t, string(written), echoKey[:12], "%v: step outputs", args)
		// The summary is Markdown: "mint\_echoed" renders as the key.
		reported, _ := os.ReadFile(summary)
		assert.NotContains(t, strings.ReplaceAll(string(reported), `\`, ""), echoKey[:12], "%v: step summary", args)
		require.NotEqual(t, 2, code, "%v: %s", args, stderr.String())
		if i := slices.Index(args, "--output"); i >= 0 {
			data, err := os.ReadFile(args[i+1])
			require.NoError(t, err)
			assert.NotContains(t, string(data), echoKey[:12], "%v: the export file", args)
			assert.Contains(t, string(data), "/a/[redacted]", "%v: the row is kept", args)
		}
	}
}

// A key too short to be an admin key is not looked for: hunting for a few
// common letters would garble every message. (How the key is redacted,
// also across writes, is tested in internal/redact.)
func TestShortKeyIsNotRedacted(t *testing.T) {
	t.Parallel()
	env := func(string) (string, bool) { return " short ", true }
	assert.Empty(t, outputKeys(env))
	env = func(name string) (string, bool) { return " " + echoKey + name + "\n", true }
	assert.Equal(t, []string{echoKey + mintlify.EnvAPIKey, echoKey + mintlify.EnvAssistantAPIKey, echoKey + mintlify.EnvIndexAPIKey}, outputKeys(env),
		"every API's key is kept out of the output")
}

// Text from the server reaches the terminal with its control characters
// visible: no escape sequence, no forged line.
func TestServerTextIsPrintable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"_id": "65f1c0ffee0123456789abcd", "projectId": "p1", "status": "failure", "createdAt": "2025-01-01T00:00:00Z",
			"summary": "done\x1b]0;pwned\x07\x1b[2J", "logs": []string{"step 1\r\nstep 2", "\x1b[31mred\x1b[0m\u202eevil",
				"::add-mask::x", "ok\n  ::set-output name=status::success"},
		})
	}))
	defer srv.Close()
	out, stderr, code := runAgainst(t, srv.URL, "deploy", "status", "65f1c0ffee0123456789abcd")
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, out+stderr, "\x1b")
	assert.NotContains(t, out+stderr, "\r")
	assert.NotContains(t, out, "\u202e")
	assert.Contains(t, out, "summary: done^[]0;pwned^G^[[2J\n")
	assert.Contains(t, out, "\n  step 1\n  step 2\n  ^[[31mred^[[0m\\u202eevil\n", "a log entry's lines stay indented under logs:")
	// No line is a GitHub Actions workflow command.
	for line := range strings.Lines(out + stderr) {
		assert.False(t, strings.HasPrefix(strings.TrimSpace(line), "::"), "%q", line)
	}
	assert.Contains(t, out, "\n  \\::add-mask::x\n  ok\n    \\::set-output name=status::success\n")
}

// secretLink is a presigned bundle link: whoever reads it can download
// the site until it expires.
const secretLink = "https://storage.example.com/bundles/se_1.tar.gz?sig=PRESIGNEDsecret0123456789&exp=1"

// TestBundleLinkIsNeverShown: however the bundle answer goes wrong
// (malformed, an error body quoting the link, a storage host that does
// not answer), the presigned link is in no output.
func TestBundleLinkIsNeverShown(t *testing.T) {
	t.Parallel()
	for name, bundle := range map[string]func(w http.ResponseWriter){
		"malformed size": func(w http.ResponseWriter) {
			_, _ = w.Write([]byte(`{"bundleUrl":"` + secretLink + `","sizeBytes":"many"}`))
		},
		"error quoting the link": func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"error":"already bundled at ` + secretLink + `"}`))
		},
		"text body": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("bundle: " + secretLink))
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each waits out the client's retries
			checkBundleLink(t, name, bundle)
		})
	}
}

func checkBundleLink(t *testing.T, name string, bundle func(w http.ResponseWriter)) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		job := map[string]any{"jobId": "se_1", "status": "completed", "progress": 100, "pageCount": 3,
			"createdAt": "2025-01-01T00:00:00Z", "updatedAt": "2025-01-01T00:00:00Z"}
		switch {
		case strings.HasSuffix(r.URL.Path, "/bundle"):
			bundle(w)
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusAccepted)
			_ = json.NewEncoder(w).Encode(job)
		default:
			_ = json.NewEncoder(w).Encode(job)
		}
	}))
	out, errOut, code := runAgainst(t, srv.URL, "static-export", "--output", t.TempDir()+"/site.tar.gz", "--poll-interval", "10ms", "docs.example.com")
	srv.Close()
	t.Logf("%s: exit %d\n%s%s", name, code, out, errOut)
	assert.Equal(t, exitError, code, name)
	for _, piece := range []string{"PRESIGNEDsecret", "storage.example.com/bundles"} {
		assert.NotContains(t, out+errOut, piece, "%s: the link is shown", name)
	}
}
