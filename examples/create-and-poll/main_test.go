package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func TestPrintsThePullRequest(t *testing.T) {
	t.Setenv("MINTLIFY_API_KEY", "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := demo.CaptureStdout(t, func() error { return run(ctx, "Fix the links") })
	require.NoError(t, err)
	assert.Regexp(t, `^https://github\.com/\S+/pull/\d+\n$`, out)
}
