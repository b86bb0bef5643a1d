package main

import (
	"bytes"
	"context"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func TestFollowUpRunsTheJobAgain(t *testing.T) {
	demo.UnsetKey(t)
	s, err := demo.Connect(&bytes.Buffer{})
	require.NoError(t, err)
	defer s.Close()
	ctx := context.Background()
	job, err := s.Client.CreateJob(ctx, "Write a page about webhooks")
	require.NoError(t, err)
	_, err = s.Client.PollJob(ctx, job.ID, mintlify.WithPollInterval(s.PollInterval))
	require.NoError(t, err)

	out, err := demo.CaptureStdout(t, func() error { return followUp(ctx, s, job.ID, "Also cover Go") })
	require.NoError(t, err)
	assert.Regexp(t, `^after the follow-up: completed https://github\.com/\S+/pull/\d+\n$`, out)
}

func TestAnUnknownJobIsNotFound(t *testing.T) {
	_, err := demo.RunOnMock(t, func(ctx context.Context) error { return run(ctx, "job_unknown", "Also cover Go") })
	assert.ErrorIs(t, err, mintlify.ErrNotFound)
}

func TestArguments(t *testing.T) {
	var help bytes.Buffer
	_, _, err := parse([]string{"--help"}, &help)
	assert.ErrorIs(t, err, flag.ErrHelp)
	assert.Contains(t, help.String(), "usage: follow-up -job ID PROMPT")

	_, _, err = parse([]string{"Also cover Go"}, &bytes.Buffer{})
	assert.ErrorContains(t, err, "-job is required", "no made-up job")
	_, _, err = parse([]string{"-job", "job_1"}, &bytes.Buffer{})
	assert.ErrorContains(t, err, "a prompt is required", "no made-up prompt")

	id, prompt, err := parse([]string{"-job", "job_1", "Also", "cover Go"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, "job_1", id)
	assert.Equal(t, "Also cover Go", prompt)
}
