package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseGitHubOutput reads a $GITHUB_OUTPUT file as the runner does:
// NAME=VALUE lines, and NAME<<DELIM ... DELIM blocks.
func parseGitHubOutput(t *testing.T, text string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var value []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				value = append(value, lines[i])
			}
			require.Less(t, i, len(lines), "unterminated %s", name)
			got[name] = append(got[name], strings.Join(value, "\n"))
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		require.True(t, ok, "not an output line: %q", line)
		got[name] = append(got[name], value)
	}
	return got
}

// A value from the server with a line break in it cannot add or replace
// a step output: a later step that branches on status must read the real
// one.
func TestStepOutputsCannotBeInjected(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusAccepted)
			_ = json.NewEncoder(w).Encode(map[string]any{"statusId": "65f1c0ffee0123456789abcd",
				"previewUrl": "https://preview.example.com/x\nstatus=success\nstatus_id<<EOF\nevil\nEOF"})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"_id": "65f1c0ffee0123456789abcd", "projectId": "p1",
			"status": "failure", "createdAt": "2025-01-01T00:00:00Z"})
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "out")
	env := map[string]string{"GITHUB_OUTPUT": path}
	_, stderr, code := runAgainstEnv(t, srv.URL, env, "preview", "--wait", "--poll-interval", "10ms", "docs/x")
	require.Equal(t, exitFailed, code, stderr)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	got := parseGitHubOutput(t, string(data))
	assert.Equal(t, []string{"failure"}, got["status"], "%s", data)
	assert.Equal(t, []string{"65f1c0ffee0123456789abcd"}, got["status_id"], "%s", data)
	assert.Len(t, got, 3, "%s", data)
}
