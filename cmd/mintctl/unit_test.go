package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/syncbuf"
)

func TestExitCodes(t *testing.T) {
	t.Parallel()
	apiErr := &mintlify.APIError{StatusCode: 404, Message: "not found"}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("boom"), 1},
		{fmt.Errorf("polling: %w", apiErr), 1},
		{fmt.Errorf("creating: %w", mintlify.ErrOutcomeUnknown), 5},
		{&codeError{exitFailed, fmt.Errorf("wrapping: %w", mintlify.ErrOutcomeUnknown)}, 5},
		{fmt.Errorf("x: %w", mintlify.ErrInvalidInput), 2},
		{usageErrorf("bad flag"), 2},
		{&codeError{exitFailed, errors.New("job failed")}, 3},
		{&codeError{exitArchived, errors.New("job archived")}, 4},
		{fmt.Errorf("waiting: %w", context.DeadlineExceeded), 1},
		{&codeError{exitTimeout, fmt.Errorf("gave up: %w", context.DeadlineExceeded)}, 7},
		{&pickUpError{err: &codeError{exitTimeout, context.DeadlineExceeded}, again: "mintctl job wait j"}, 7},
		{fmt.Errorf("creating: %w", &mintlify.APIError{StatusCode: 401}), 6},
		{fmt.Errorf("deploying: %w", &mintlify.APIError{StatusCode: 403}), 6},
		{&storageHostError{fmt.Errorf("download: %w", &mintlify.APIError{StatusCode: 403})}, 1},
		{fmt.Errorf("x: %w", &mintlify.APIError{StatusCode: 500}), 1},
	} {
		assert.Equal(t, tc.want, exitCode(tc.err), "%v", tc.err)
	}
}

func TestStepOutputs(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.WriteFile(path, []byte("earlier=1\n"), 0o644))
	a := &app{lookupEnv: func(k string) (string, bool) { return path, k == "GITHUB_OUTPUT" }}
	a.writeOutputs(output{"job_id", "job_1"}, output{"pr_link", ""}, output{"summary", "line 1\nline 2"})
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(string(data), "\n")
	require.Len(t, lines, 8, "%q", data)
	assert.Equal(t, []string{"earlier=1", "job_id=job_1", "pr_link="}, lines[:3], "appended, one key a line")
	delim, ok := strings.CutPrefix(lines[3], "summary<<")
	require.True(t, ok, "a multi-line value uses a delimiter: %q", lines[3])
	assert.Equal(t, []string{"line 1", "line 2", delim, ""}, lines[4:])

	unset := &app{lookupEnv: func(string) (string, bool) { return "", false }}
	unset.writeOutputs(output{"job_id", "x"}) // outside GitHub Actions: nothing, and no panic
}

// On a terminal the spinner and the bar redraw one line in place with
// the status, the elapsed time and the request count.
func TestTerminalProgress(t *testing.T) {
	t.Parallel()
	var buf syncbuf.Buffer
	a := &app{stderr: &buf, term: true}
	sp := a.newSpinner("job job_1")
	sp.update("active")
	time.Sleep(250 * time.Millisecond) // the spinner turns on its own
	sp.done()
	out := buf.String()
	assert.Contains(t, out, "job job_1 active")
	assert.Contains(t, out, "\r", "redrawn in place")
	assert.Regexp(t, `\[\d+s\]`, out, "elapsed time")

	buf.Reset()
	bar := a.newExportBar("views")
	bar.addRequests(3)
	bar.addPage()
	bar.addRows(250)
	bar.addPage()
	bar.done()
	out = buf.String()
	assert.Contains(t, out, "views: 0 rows, 1 page, requests of the hourly 100:")
	assert.Contains(t, out, "(3/100)")
	assert.Contains(t, out, "views: 250 rows, 2 pages, 3 of 100 hourly requests", "a summary line stays")

	// --quiet: nothing at all.
	buf.Reset()
	q := &app{stderr: &buf, term: true, quiet: true}
	sp = q.newSpinner("job job_1")
	sp.update("active")
	sp.done()
	bar = q.newExportBar("views")
	bar.addRequests(1)
	bar.done()
	assert.Empty(t, buf.String())
}

func TestShellJoinQuotes(t *testing.T) {
	t.Parallel()
	assert.Equal(t, `mintctl --cursor '' --output 'my file.csv' --status pending,resolved 'it'\''s'`,
		shellJoin([]string{"mintctl", "--cursor", "", "--output", "my file.csv", "--status", "pending,resolved", "it's"}))
}

// The resume command quotes a server's cursor for the shell and shows its
// control characters visibly: it cannot drive the terminal it is printed on.
func TestResumeCommandIsPrintable(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	a := &app{stderr: &stderr}
	var searches analyticsRoute
	for _, r := range analyticsRoutes() {
		if r.name == "searches" {
			searches = r
		}
	}
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	err := a.exportStopped(searches, &exportFlags{output: "s.csv"}, exportParams{from: from, to: from.AddDate(0, 1, 0)}, "csv", 7, false,
		&mintlify.WalkError{Cursor: "abc'\x1b[2J", Err: errors.New("HTTP 429")})
	require.Error(t, err)
	assert.NotContains(t, stderr.String(), "\x1b")
	assert.Contains(t, stderr.String(), `--cursor 'abc'\''^[[2J' --output s.csv`)
}

// A status the API added is reported once per run, as a warning (an
// annotation in Actions), with its text made printable.
func TestUnknownStatusSaidOnce(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	a := &app{stderr: &stderr, lookupEnv: func(string) (string, bool) { return "", false }}
	a.unknownStatus("job job_1", "under_review")
	a.unknownStatus("job job_1", "under_review")
	a.unknownStatus("job job_1", "paused\n::error::x")
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	require.Len(t, lines, 2, stderr.String())
	assert.Contains(t, lines[0], `job job_1 has the status "under_review", which this version of mintctl does not know`)
	assert.Contains(t, lines[0], "the wait goes on")
	assert.Contains(t, lines[1], `"paused^J::error::x"`, "one line, its line break shown")

	stderr.Reset()
	a = &app{stderr: &stderr, actions: true, lookupEnv: func(string) (string, bool) { return "", false }}
	a.unknownStatus("deployment d_1", "rolling_back")
	assert.True(t, strings.HasPrefix(stderr.String(), "::warning title=mintctl::deployment d_1 has the status"), stderr.String())
}
