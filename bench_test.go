package mintlify

// BenchmarkGetJob measures what the SDK costs over a hand-written request
// that does the same work: net/http plus encoding/json, decoding the same
// bytes into a struct with the same JSON fields. Two transports:
//
//   - memory: a RoundTripper that returns the canned answer, so the figures
//     are the client's own CPU time and allocations;
//   - loopback: a local httptest server on 127.0.0.1 with keep-alive, what a
//     call costs once the network is as fast as it gets.
//
// Run: go test -run '^$' -bench BenchmarkGetJob -benchmem -count 6 .

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// benchJobBody is a job as the API sends it once completed.
var benchJobBody = []byte(`{"id":"job_01HV6Z3K8Q","status":"completed",` +
	`"source":{"repository":"https://github.com/acme/docs","ref":"main"},` +
	`"model":"claude-sonnet-4","prLink":"https://github.com/acme/docs/pull/1234",` +
	`"createdAt":"2025-03-04T05:06:07.123Z","archivedAt":null}`)

// rawJob has the JSON fields of Job, as a user would write it by hand.
type rawJob struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Source struct {
		Repository string `json:"repository"`
		Ref        string `json:"ref"`
	} `json:"source"`
	Model      string     `json:"model"`
	PRLink     string     `json:"prLink"`
	CreatedAt  time.Time  `json:"createdAt"`
	ArchivedAt *time.Time `json:"archivedAt"`
}

// cannedTransport answers every request with benchJobBody, a fresh body
// each time.
type cannedTransport struct{ header http.Header }

func newCannedTransport() *cannedTransport {
	return &cannedTransport{header: http.Header{
		"Content-Type":   {"application/json"},
		"Content-Length": {strconv.Itoa(len(benchJobBody))},
	}}
}

func (ct *cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        ct.header,
		Body:          io.NopCloser(bytes.NewReader(benchJobBody)),
		ContentLength: int64(len(benchJobBody)),
		Request:       req,
	}, nil
}

// rawGetJob is the hand-written equivalent of Client.GetJob.
func rawGetJob(ctx context.Context, hc *http.Client, baseURL, key, jobID string) (*rawJob, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+"/v2/agent/proj_42/job/"+jobID, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "raw-client/1.0")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var job rawJob
	if err := json.NewDecoder(resp.Body).Decode(&job); err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return &job, nil
}

func BenchmarkGetJob(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(benchJobBody)))
		_, _ = w.Write(benchJobBody)
	}))
	defer srv.Close()

	modes := []struct {
		name    string
		baseURL string
		raw     *http.Client
		sdk     []Option
	}{
		{
			name:    "memory",
			baseURL: "https://api.example.test",
			raw:     &http.Client{Transport: newCannedTransport()},
		},
		{
			name:    "loopback",
			baseURL: srv.URL,
			raw:     &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()},
		},
	}
	modes[0].sdk = []Option{WithHTTPClient(modes[0].raw)} // the same RoundTripper
	modes[1].sdk = nil                                    // the SDK's own default transport

	ctx := context.Background()
	for _, m := range modes {
		b.Run(m.name+"/raw", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				job, err := rawGetJob(ctx, m.raw, m.baseURL, coreAPIKey, "job_01HV6Z3K8Q")
				if err != nil || job.Status != "completed" {
					b.Fatal(job, err)
				}
			}
		})
		b.Run(m.name+"/sdk", func(b *testing.B) {
			c, err := NewClient(append([]Option{WithAPIKey(coreAPIKey), WithProjectID("proj_42"), WithBaseURL(m.baseURL)}, m.sdk...)...)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				job, err := c.GetJob(ctx, "job_01HV6Z3K8Q")
				if err != nil || job.Status != JobCompleted {
					b.Fatal(job, err)
				}
			}
		})
	}
}

// TestBenchmarkDecodesTheSame keeps the comparison honest: both sides read
// the same fields from the same bytes.
func TestBenchmarkDecodesTheSame(t *testing.T) {
	t.Parallel()
	hc := &http.Client{Transport: newCannedTransport()}
	raw, err := rawGetJob(context.Background(), hc, "https://api.example.test", coreAPIKey, "job_01HV6Z3K8Q")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID("proj_42"), WithBaseURL("https://api.example.test"), WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.GetJob(context.Background(), "job_01HV6Z3K8Q")
	if err != nil {
		t.Fatal(err)
	}
	if raw.ID != job.ID || raw.Status != string(job.Status) || raw.Source.Repository != job.Source.Repository ||
		raw.Source.Ref != job.Source.Ref || raw.Model != job.Model || raw.PRLink != job.PRLink ||
		!raw.CreatedAt.Equal(job.CreatedAt) || (raw.ArchivedAt == nil) != (job.ArchivedAt == nil) {
		t.Fatalf("raw %+v and SDK %+v decode differently", raw, job)
	}
}

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
