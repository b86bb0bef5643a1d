package mintlify_test

// Answers a hostile or broken server streams, read through Message over
// 127.0.0.1: what each costs, and how it ends.

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	mintlify "github.com/docsagent/mintlify-go"
)

// emptyResultsFrame is a search step's output of n bytes or so: an array
// of empty objects, each of which a careless decoder turns into a Go value
// many times its three bytes.
func emptyResultsFrame(id string, n int) string {
	return `{"type":"tool-output-available","toolCallId":"` + id + `","output":[` +
		strings.TrimSuffix(strings.Repeat("{},", n/3), ",") + `]}`
}

// emptyResultsAnswer is a search step whose output is frames frames of
// [{},{},...] just under the 4 MiB frame bound, then text and finish.
func emptyResultsAnswer(frames int) string {
	chunks := []string{`{"type":"tool-input-start","toolCallId":"c1","toolName":"search"}`}
	for range frames {
		chunks = append(chunks, emptyResultsFrame("c1", 4<<20-200))
	}
	return sse(append(chunks, `{"type":"text-delta","id":"t","delta":"Hi"}`, `{"type":"finish"}`, `[DONE]`)...)
}

// TestStreamOfEmptySearchResultsCostsItsBytes: a 4 MiB frame of
// [{},{},...] in a search step's output ends the answer as malformed (no
// search answers a million pages) having cost a few times its bytes, not
// the hundreds of megabytes its decoded elements would.
func TestStreamOfEmptySearchResultsCostsItsBytes(t *testing.T) {
	body := emptyResultsAnswer(8)
	a, _ := assistantServer(t, streaming(body))
	var err error
	var events int
	peak := peakHeap(t, func() {
		s, merr := a.Message(context.Background(), question("Hi?"))
		if merr != nil {
			err = merr
			return
		}
		defer s.Close()
		for _, err = range s.Events() {
			if err != nil {
				break
			}
			events++
		}
	})
	t.Logf("eight 4 MiB frames of empty search results: peak heap %.1f MiB, %d events, %v", float64(peak)/(1<<20), events, err)
	if !errors.Is(err, mintlify.ErrMalformedResponse) || !errors.Is(err, mintlify.ErrStream) {
		t.Errorf("the answer ended with %v, want a malformed stream", err)
	}
	if peak > maxAnswerHeap {
		t.Errorf("peak heap %d MiB, want at most %d", peak>>20, maxAnswerHeap>>20)
	}
}

// BenchmarkStreamOfEmptySearchResults reads one 4 MiB frame of empty
// search results, reporting the peak heap (see BENCHMARKS.md).
func BenchmarkStreamOfEmptySearchResults(b *testing.B) {
	up := httptest.NewServer(streaming(emptyResultsAnswer(1)))
	defer up.Close()
	a := assistantAt(b, up.URL, assistantKey, assistantDomain)
	var worst uint64
	for b.Loop() {
		peak := peakHeap(b, func() {
			s, err := a.Message(context.Background(), question("Hi?"))
			if err != nil {
				b.Fatal(err)
			}
			for _, err := range s.Events() {
				if err != nil {
					break
				}
			}
			s.Close()
		})
		worst = max(worst, peak)
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-MiB")
}
