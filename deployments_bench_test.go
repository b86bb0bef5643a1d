package mintlify

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// depBenchPolls is how many reads one PollDeployment makes in the
// benchmark: in_progress answers, then success.
const depBenchPolls = 10

// depBenchTransport answers the status route in memory, the deployment
// running for depBenchPolls-1 reads and succeeding on the next, so that
// the benchmark measures the SDK and not the network.
type depBenchTransport struct {
	n                atomic.Int64
	running, success string
}

func (t *depBenchTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body := t.running
	if t.n.Add(1)%depBenchPolls == 0 {
		body = t.success
	}
	return &http.Response{
		StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r,
	}, nil
}

// BenchmarkPollDeployment reports the SDK's CPU time and allocations per
// read of PollDeployment, with a realistic status answer (commit, changed
// files, logs, author, screenshots) and the waits between reads taken out
// (BENCHMARKS.md gives the median of three runs):
//
//	go test -run '^$' -bench '^BenchmarkPollDeployment$' -benchmem -count 3 .
func BenchmarkPollDeployment(b *testing.B) {
	running := strings.Replace(depFull, `"status": "failure"`, `"status": "in_progress"`, 1)
	success := strings.Replace(depFull, `"status": "failure"`, `"status": "success"`, 1)
	tr := &depBenchTransport{running: running, success: success}
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(coreBaseURL),
		WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		b.Fatal(err)
	}
	noWait := PollOption(func(p *pollConfig) { p.sleep = func(context.Context, time.Duration) bool { return true } })
	ctx := context.Background()

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	polls := 0
	for b.Loop() {
		d, err := c.PollDeployment(ctx, "st_1", noWait)
		if err != nil || d.Status != DeploymentSucceeded {
			b.Fatal(d, err)
		}
		polls += depBenchPolls
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(polls), "ns/poll")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(polls), "allocs/poll")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(polls), "B/poll")
}
