package main

import (
	"bytes"
	"context"
	"flag"
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

func TestArguments(t *testing.T) {
	var help bytes.Buffer
	_, err := parse([]string{"--help"}, &help)
	assert.ErrorIs(t, err, flag.ErrHelp, "--help is not a prompt")
	assert.Contains(t, help.String(), "usage: create-and-poll PROMPT")

	_, err = parse(nil, &bytes.Buffer{})
	assert.ErrorContains(t, err, "a prompt is required", "no made-up prompt")

	prompt, err := parse([]string{"Fix", "the links"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, "Fix the links", prompt)
}

func TestEmptyKeyIsAnError(t *testing.T) {
	t.Setenv("MINTLIFY_API_KEY", "")
	_, err := demo.CaptureStdout(t, func() error { return run(context.Background(), "Fix the links") })
	assert.ErrorIs(t, err, demo.ErrEmptyKey)
}
