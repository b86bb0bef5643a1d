package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func TestFollowUpRunsTheJobAgain(t *testing.T) {
	out, err := demo.RunOnMock(t, func(ctx context.Context) error { return run(ctx, "", "Also cover Go") })
	require.NoError(t, err)
	assert.Contains(t, out, "first run: completed")
	assert.Contains(t, out, "after the follow-up: completed")
}
