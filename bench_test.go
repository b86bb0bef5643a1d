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
	"strconv"
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
