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

// The README's first command must keep working on a machine with no key.
func TestQuickstartRunsAgainstTheMock(t *testing.T) {
	p, err := parse(nil, &bytes.Buffer{}, true)
	require.NoError(t, err)
	out, err := demo.RunOnMock(t, func(ctx context.Context) error { return run(ctx, p) })
	require.NoError(t, err)
	assert.Contains(t, out, "created job job_")
	assert.Regexp(t, `pull request: https://github\.com/\S+/pull/\d+`, out)
	assert.Contains(t, out, "sent a follow-up")
	assert.Contains(t, out, "top pages:")
}

func TestArguments(t *testing.T) {
	var help bytes.Buffer
	_, err := parse([]string{"--help"}, &help, false)
	assert.ErrorIs(t, err, flag.ErrHelp)
	assert.Contains(t, help.String(), "usage: quickstart")

	_, err = parse(nil, &bytes.Buffer{}, false)
	assert.ErrorContains(t, err, "-prompt is required", "no made-up prompt for a real job")
	p, err := parse([]string{"-prompt", "Fix the links"}, &bytes.Buffer{}, false)
	require.NoError(t, err)
	assert.Equal(t, prompts{first: "Fix the links"}, p, "no made-up follow-up either")
	_, err = parse([]string{"Fix the links"}, &bytes.Buffer{}, true)
	assert.ErrorContains(t, err, "unexpected arguments")
}

func TestEmptyKeyIsAnError(t *testing.T) {
	t.Setenv("MINTLIFY_API_KEY", "")
	_, err := parse(nil, &bytes.Buffer{}, demo.OnMock())
	assert.ErrorIs(t, err, demo.ErrEmptyKey, "says what is wrong before asking for -prompt")
	_, err = demo.CaptureStdout(t, func() error { return run(context.Background(), demoPrompts) })
	assert.ErrorIs(t, err, demo.ErrEmptyKey)
}
