package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// TestDeployWaitLearnsTheVerdictPromptly runs `mintctl deploy --wait` with
// the SDK's default poll schedule against a deployment that takes 13s on
// the mock's real clock: the verdict is reported within 18s of the start
// (at most 5s after the deployment ended), in at most 9 status requests.
// It takes about 15s of real time, so -short skips it; BENCHMARKS.md
// quotes the figures it logs.
func TestDeployWaitLearnsTheVerdictPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a 13s deployment in real time")
	}
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithJobDuration(13*time.Second))
	start := time.Now()
	stdout, stderr, code := runMintctl(t, srv, "deploy", "--wait")
	took := time.Since(start)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	assert.Contains(t, stdout, " success\n")

	deployments := srv.Deployments()
	ended := deployments[len(deployments)-1].EndsAt
	var reads int
	var last time.Time
	for _, e := range srv.Journal() {
		if e.Route == mockserver.RouteDeploymentStatus {
			reads++
			last = e.Time
		}
	}
	late := last.Sub(ended)
	t.Logf("deploy --wait: verdict after %s (the deployment took 13s; the last read came %s after it ended), %d status requests",
		took.Round(10*time.Millisecond), late.Round(10*time.Millisecond), reads)
	assert.GreaterOrEqual(t, took, 13*time.Second, "the deployment runs 13s")
	assert.Less(t, took, 18*time.Second, "the verdict comes within 5s of the end")
	assert.LessOrEqual(t, late, 5*time.Second)
	assert.LessOrEqual(t, reads, 9, "at most 9 status requests")
}

// TestWaitNeverPrintsAStatusThatIsNoStatus: a status that is no status (a
// control sequence, a line that starts a workflow command) is a malformed
// answer: the wait gives up after five reads, exit 1, and nothing of it
// reaches the terminal raw.
func TestWaitNeverPrintsAStatusThatIsNoStatus(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithJobDuration(time.Hour))
	require.NoError(t, srv.InjectFault(mockserver.FaultRule{Route: mockserver.RouteDeploymentStatus,
		Fault: mockserver.Fault{Kind: mockserver.FaultStatusValue, Value: "\x1b[31mdone\n::error::pwned\r\x07"}}))
	stdout, stderr, code := runMintctl(t, srv, "deploy", "--wait", "--poll-interval", "5ms", "--max-retry-wait", "5ms")
	assert.Equal(t, 1, code, "stderr: %s", stderr)
	assert.Contains(t, stderr, "malformed")
	for _, out := range []string{stdout, stderr} {
		assert.NotContains(t, out, "\x1b")
		assert.NotContains(t, out, "\r")
		assert.NotContains(t, out, "\x07")
		for _, line := range strings.Split(out, "\n") {
			assert.False(t, strings.HasPrefix(strings.TrimSpace(line), "::error::pwned"), "a workflow command: %q", line)
		}
	}
}
