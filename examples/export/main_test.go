package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
	"github.com/docsagent/mintlify-go/mockserver"
)

func mockClient(t *testing.T, opts ...mockserver.Option) *mintlify.Client {
	t.Helper()
	// One fixed clock for every server of a test: synthetic visits are laid
	// out back from the clock, so servers started a moment apart on the wall
	// clock would hold slightly different windows.
	clock := mockserver.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv := mockserver.New(append([]mockserver.Option{mockserver.WithClock(clock), mockserver.WithSyntheticVisits(5_000)}, opts...)...)
	t.Cleanup(srv.Close)
	c, err := mintlify.NewClient(mintlify.WithBaseURL(srv.URL()), mintlify.WithAPIKey(srv.APIKey()),
		mintlify.WithProjectID(srv.ProjectID()), mintlify.WithMaxRetries(0))
	require.NoError(t, err)
	return c
}

func exportOn(t *testing.T, c *mintlify.Client, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cfg, err := parse(args, &bytes.Buffer{})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, log bytes.Buffer
	err = run(ctx, c, cfg, &out, &log)
	return out.String(), log.String(), err
}

func TestCSVAndJSONLinesHoldTheSameRows(t *testing.T) {
	c := mockClient(t)
	csvOut, log, err := exportOn(t, c, "-route", "visitors")
	require.NoError(t, err)
	records, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	require.NoError(t, err)
	require.Greater(t, len(records), 2)
	assert.Equal(t, []string{"path", "human", "ai", "total"}, records[0])
	assert.Contains(t, log, "rows")

	jsonOut, _, err := exportOn(t, c, "-route", "visitors", "-format", "jsonl")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(jsonOut), "\n")
	require.Len(t, lines, len(records)-1, "one JSON object a row, no header")
	for i, line := range lines {
		var row mintlify.PathVisitors
		require.NoError(t, json.Unmarshal([]byte(line), &row))
		assert.Equal(t, records[i+1][0], row.Path)
	}
}

// TestStopsWithTheResumeFlag: the mock's quota runs out mid-walk; the
// export prints where to resume, and resuming there (without a header)
// completes it exactly.
func TestStopsWithTheResumeFlag(t *testing.T) {
	window := []string{"-from", "2025-01-01", "-to", "2026-01-01"}
	full, _, err := exportOn(t, mockClient(t), append(window, "-route", "visitors", "-limit", "50")...)
	require.NoError(t, err)
	fullRows := strings.Split(strings.TrimSpace(full), "\n")

	c := mockClient(t, mockserver.WithAnalyticsRateLimit(2, time.Hour))
	first, log, err := exportOn(t, c, append(window, "-route", "visitors", "-limit", "50")...)
	require.ErrorIs(t, err, mintlify.ErrRateLimited)
	assert.Contains(t, log, "run again with -offset 100")
	rest, _, err := exportOn(t, mockClient(t), append(window, "-route", "visitors", "-limit", "50", "-offset", "100")...)
	require.NoError(t, err)
	assert.NotContains(t, rest, "path,human", "no header when resuming")
	assert.Equal(t, fullRows, strings.Split(strings.TrimSpace(first+rest), "\n"))
}

func TestFlags(t *testing.T) {
	var help bytes.Buffer
	_, err := parse([]string{"--help"}, &help)
	assert.ErrorIs(t, err, flag.ErrHelp)
	assert.Contains(t, help.String(), "usage: export")
	for _, bad := range [][]string{
		{},                  // no route
		{"-route", "pages"}, // unknown route
		{"-route", "views", "-format", "xml"},
		{"-route", "views", "-cursor", "x"},
		{"-route", "searches", "-offset", "5"},
		{"-route", "views", "-source", "agent"},
		{"-route", "thread"}, // no -thread
		{"-route", "views", "-from", "January"},
		{"-route", "views", "extra"},
	} {
		_, err := parse(bad, &bytes.Buffer{})
		assert.Error(t, err, "%q", bad)
	}
	cfg, err := parse([]string{"-route", "feedback", "-status", "pending, resolved", "-source", "agent", "-from", "2025-01-01"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, []mintlify.FeedbackStatus{"pending", "resolved"}, cfg.statuses)
	assert.Equal(t, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), cfg.from)
}

func TestOnlyAnUnsetKeyStartsTheMock(t *testing.T) {
	t.Setenv(mintlify.EnvAPIKey, "")
	_, _, err := connect(&bytes.Buffer{})
	assert.ErrorIs(t, err, demo.ErrEmptyKey)

	demo.UnsetKey(t)
	var log bytes.Buffer
	c, closeMock, err := connect(&log)
	require.NoError(t, err)
	defer closeMock()
	assert.Contains(t, log.String(), "bundled mock server")
	_, err = c.GetVisitors(context.Background(), mintlify.VisitorsParams{Limit: 1})
	assert.NoError(t, err)
}
