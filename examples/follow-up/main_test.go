package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func TestFollowUpRunsTheJobAgain(t *testing.T) {
	t.Setenv("MINTLIFY_API_KEY", "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := demo.CaptureStdout(t, func() error { return run(ctx, "", "Also cover Go") })
	require.NoError(t, err)
	assert.Contains(t, out, "first run: completed")
	assert.Contains(t, out, "after the follow-up: completed")
}
