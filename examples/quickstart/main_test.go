package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

// The README's first command must keep working on a machine with no key.
func TestQuickstartRunsAgainstTheMock(t *testing.T) {
	t.Setenv("MINTLIFY_API_KEY", "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	out, err := demo.CaptureStdout(t, func() error { return run(ctx) })
	require.NoError(t, err)
	assert.Contains(t, out, "created job job_")
	assert.Regexp(t, `pull request: https://github\.com/\S+/pull/\d+`, out)
	assert.Contains(t, out, "sent a follow-up")
	assert.Contains(t, out, "top pages:")
}
