package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

// The README's first command must keep working on a machine with no key.
func TestQuickstartRunsAgainstTheMock(t *testing.T) {

	out, err := demo.RunOnMock(t, run)
	require.NoError(t, err)
	assert.Contains(t, out, "created job job_")
	assert.Regexp(t, `pull request: https://github\.com/\S+/pull/\d+`, out)
	assert.Contains(t, out, "sent a follow-up")
	assert.Contains(t, out, "top pages:")
}
