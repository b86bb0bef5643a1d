package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func TestPrintsThePullRequest(t *testing.T) {
	out, err := demo.RunOnMock(t, func(ctx context.Context) error { return run(ctx, "Fix the links") })
	require.NoError(t, err)
	assert.Regexp(t, `^https://github\.com/\S+/pull/\d+\n$`, out)
}
