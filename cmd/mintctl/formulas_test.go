package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// hostilePaths are cells a spreadsheet would run as formulas, and
// harmless ones.
var hostilePaths = []string{"=HYPERLINK(\"https://evil.example\",\"x\")", "+1+1", "-2+3", "@SUM(1)", "\tTAB", "/ok", "/-dash"}

func viewsServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rows := make([]any, len(hostilePaths))
		for i, p := range hostilePaths {
			rows[i] = map[string]any{"path": p, "human": 1, "ai": 0, "total": 1}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"totals": map[string]any{"human": len(rows), "ai": 0, "total": len(rows)}, "views": rows, "hasMore": false,
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func runAgainst(t *testing.T, url string, args ...string) (string, string, int) {
	t.Helper()
	return runAgainstEnv(t, url, nil, args...)
}

// runAgainstEnv runs mintctl against the server at url with a valid
// configuration, plus env.
func runAgainstEnv(t *testing.T, url string, more map[string]string, args ...string) (string, string, int) {
	t.Helper()
	env := map[string]string{mintlify.EnvAPIKey: "mint_formulas0123456789", mintlify.EnvProjectID: "p1", mintlify.EnvBaseURL: url}
	for k, v := range more {
		env[k] = v
	}
	stdout, stderr, code := runEnv(t, env, args...)
	return stdout.String(), stderr.String(), code
}

// runEnv runs mintctl with args and exactly env as its environment, stdin
// empty and stdout and stderr pipes (buffers, not files), for at most a
// minute.
func runEnv(t *testing.T, env map[string]string, args ...string) (stdout, stderr *bytes.Buffer, code int) {
	t.Helper()
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code = run(ctx, args, strings.NewReader(""), stdout, stderr, lookup)
	return stdout, stderr, code
}

// By default a CSV holds the API's values byte for byte (a warehouse load
// must equal the export); --escape-formulas makes a text cell that a
// spreadsheet would run as a formula start with a quote instead.
func TestCSVFormulaCells(t *testing.T) {
	t.Parallel()
	srv := viewsServer(t)
	column := func(out string) []string {
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		require.NoError(t, err)
		var paths []string
		for _, r := range recs[1:] {
			paths = append(paths, r[0])
		}
		return paths
	}

	out, stderr, code := runAgainst(t, srv.URL, "analytics", "views")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, hostilePaths, column(out), "unaltered by default")

	out, stderr, code = runAgainst(t, srv.URL, "analytics", "views", "--escape-formulas")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, []string{"'=HYPERLINK(\"https://evil.example\",\"x\")", "'+1+1", "'-2+3", "'@SUM(1)", "'\tTAB", "/ok", "/-dash"}, column(out))
	assert.Contains(t, out, "\n/ok,1,0,1\n", "numbers are numbers")

	_, stderr, code = runAgainst(t, srv.URL, "analytics", "views", "--escape-formulas", "--format", "jsonl")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "csv")
}
