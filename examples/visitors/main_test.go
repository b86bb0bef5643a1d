package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func TestExportsCSVFromTheMock(t *testing.T) {
	p, err := params("", time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly), 0)
	require.NoError(t, err)

	out, err := demo.RunOnMock(t, func(ctx context.Context) error { return run(ctx, p) })
	require.NoError(t, err)
	records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Greater(t, len(records), 250, "more than one page of rows")
	assert.Equal(t, []string{"path", "human", "ai", "total"}, records[0])
	seen := map[string]bool{}
	for _, r := range records[1:] {
		assert.False(t, seen[r[0]], "path %s twice", r[0])
		seen[r[0]] = true
	}
}

func TestRejectsBadFlags(t *testing.T) {
	_, err := params("2025-02-01", "2025-01-01", 0)
	assert.ErrorContains(t, err, "not before")
	_, err = params("", "2025-13-01", 0)
	assert.ErrorContains(t, err, "-to")
	_, err = params("", "2025-01-01", -1)
	assert.ErrorContains(t, err, "negative")
}

func TestHelpAndArguments(t *testing.T) {
	var help bytes.Buffer
	_, err := parse([]string{"--help"}, &help)
	assert.ErrorIs(t, err, flag.ErrHelp)
	assert.Contains(t, help.String(), "usage: visitors")
	_, err = parse([]string{"january"}, &bytes.Buffer{})
	assert.ErrorContains(t, err, "unexpected arguments")
	p, err := parse([]string{"-from", "2025-01-01", "-to", "2025-02-01", "-offset", "250"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, 250, p.Offset)
}

func TestEmptyKeyIsAnError(t *testing.T) {
	t.Setenv("MINTLIFY_API_KEY", "")
	p, err := params("", "2025-02-01", 0)
	require.NoError(t, err)
	_, err = demo.CaptureStdout(t, func() error { return run(context.Background(), p) })
	assert.ErrorIs(t, err, demo.ErrEmptyKey)
}
