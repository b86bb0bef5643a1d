package mintlify_test

// The assistant's streams over loopback (127.0.0.1), as BENCHMARKS.md
// reports them:
//
//   - BenchmarkAssistantFirstChunk: from sending a question to holding the
//     first text chunk, against the mock (stream delay 0): raw (net/http
//     and a line reader, no SDK), through the SDK's Message, and through
//     the proxy (a browser-like client posting to the proxy in front of
//     the mock). The rest of each answer is read after the clock stops, so
//     connections are reused.
//   - BenchmarkProxyChunkLatency: what the proxy adds to each chunk. An
//     upstream writes a frame and waits until the client has it (lockstep,
//     so no chunk queues behind another); the client reads it directly or
//     through the proxy. The per-chunk medians differ by the proxy's cost.
//   - BenchmarkProxyLargeAnswer: a 64 MiB answer of 16 KiB frames relayed
//     to a client that discards it, with the peak heap sampled while it
//     flows: the proxy holds a frame at a time, never the answer.
//   - BenchmarkProxyVsForwarding: 20 questions at once to the mock, each
//     read whole, through the proxy (every check, every frame parsed and
//     written anew) and through a route that only posts upstream and
//     copies the body back (the embedding the vendor recommends, with no
//     checks); the median question's time, and the proxy's peak heap.
//
// Run: go test -run '^$' -bench 'AssistantFirstChunk|ProxyChunkLatency' -benchtime 2000x .
// and  go test -run '^$' -bench 'ProxyLargeAnswer|ProxyVsForwarding' -benchtime 5x .

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

const benchQuestion = `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}]}`

// firstTextLine reads SSE lines until the first text-delta and returns the
// reader, positioned after it.
func firstTextLine(b *testing.B, r *bufio.Reader) {
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			b.Fatalf("no text chunk: %v", err)
		}
		if strings.Contains(line, `"type":"text-delta"`) {
			return
		}
	}
}

func medianOf[T cmp.Ordered](xs []T) T {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func BenchmarkAssistantFirstChunk(b *testing.B) {
	srv := mockserver.Start(b, mockserver.WithoutRateLimits())
	a := mockAssistant(b, srv, mintlify.WithMaxRetries(0))
	proxy, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyRateLimit(0, 0))
	if err != nil {
		b.Fatal(err)
	}
	front := httptest.NewServer(proxy)
	b.Cleanup(front.Close)
	tr := &http.Transport{MaxIdleConnsPerHost: 4}
	b.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: tr}

	post := func(url, auth string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(benchQuestion[:len(benchQuestion)-1]+`,"fp":"anonymous"}`))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		resp, err := hc.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("POST %s: %v %v", url, resp, err)
		}
		return resp
	}
	// firstChunk posts the question by hand and times its first text line.
	firstChunk := func(url, key string) time.Duration {
		start := time.Now()
		resp := post(url, key)
		r := bufio.NewReader(resp.Body)
		firstTextLine(b, r)
		d := time.Since(start)
		_, _ = io.Copy(io.Discard, r)
		resp.Body.Close()
		return d
	}
	raw := func() time.Duration {
		return firstChunk(srv.URL()+"/discovery/v2/assistant/"+srv.Domain()+"/message", srv.AssistantKey())
	}
	sdk := func() time.Duration {
		start := time.Now()
		s, err := a.Message(context.Background(), mintlify.MessageParams{Messages: []mintlify.ChatMessage{
			{Role: "user", Parts: []mintlify.ChatPart{{Text: "What are the rate limits?"}}}}})
		if err != nil {
			b.Fatal(err)
		}
		var d time.Duration
		for ev, err := range s.Events() {
			if err != nil {
				b.Fatal(err)
			}
			if d == 0 && ev.Type == "text-delta" {
				d = time.Since(start)
			}
		}
		return d
	}
	viaProxy := func() time.Duration { return firstChunk(front.URL, "") }
	for _, side := range []struct {
		name string
		run  func() time.Duration
	}{{"raw", raw}, {"sdk", sdk}, {"proxy", viaProxy}} {
		b.Run(side.name, func(b *testing.B) {
			side.run() // warm the connections
			ds := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				ds = append(ds, side.run())
			}
			b.ReportMetric(float64(medianOf(ds).Microseconds()), "µs-to-first-chunk")
		})
	}
}

// lockstepUpstream streams n frames, each carrying the time it was
// written, and writes the next only once ack says the client holds the
// last.
func lockstepUpstream(n int, ack chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := range n {
			// " ns" ends the delta: a digit may start a copy of the key
			// (base64's "1"), which the proxy would hold for the next delta.
			fmt.Fprintf(w, "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"%d ns\"}\n\n", time.Now().UnixNano())
			if err := rc.Flush(); err != nil {
				return
			}
			if i < n-1 {
				select {
				case <-ack:
				case <-r.Context().Done():
					return
				}
			}
		}
		fmt.Fprint(w, "data: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n")
	}
}

// chunkLatencies posts to url and returns, for each text-delta, how long
// after upstream wrote it the client held it.
func chunkLatencies(b *testing.B, url string, ack chan struct{}) []time.Duration {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(benchQuestion))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var out []time.Duration
	r := bufio.NewReader(resp.Body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return out
		}
		_, rest, ok := strings.Cut(line, `"delta":"`)
		if !ok {
			continue
		}
		digits, _, _ := strings.Cut(rest, " ns")
		ns, _ := strconv.ParseInt(digits, 10, 64)
		out = append(out, time.Since(time.Unix(0, ns)))
		select {
		case ack <- struct{}{}:
		default:
		}
	}
}

func BenchmarkProxyChunkLatency(b *testing.B) {
	for _, side := range []string{"direct", "proxy"} {
		b.Run(side, func(b *testing.B) {
			ack := make(chan struct{}, 1)
			up := httptest.NewServer(lockstepUpstream(b.N, ack))
			b.Cleanup(up.Close)
			url := up.URL
			if side == "proxy" {
				a := assistantAt(b, up.URL, assistantKey, assistantDomain, mintlify.WithMaxRetries(0))
				p, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyRateLimit(0, 0))
				if err != nil {
					b.Fatal(err)
				}
				front := httptest.NewServer(p)
				b.Cleanup(front.Close)
				url = front.URL
			}
			b.ResetTimer()
			ds := chunkLatencies(b, url, ack)
			b.StopTimer()
			if len(ds) != b.N {
				b.Fatalf("%d chunks, want %d", len(ds), b.N)
			}
			b.ReportMetric(float64(medianOf(ds).Nanoseconds())/1e3, "µs/chunk-median")
			b.ReportMetric(float64(ds[len(ds)*99/100].Nanoseconds())/1e3, "µs/chunk-p99")
		})
	}
}

// bigUpstream streams size bytes of text in frames of frame bytes.
func bigUpstream(size, frame int) http.HandlerFunc {
	delta := strings.Repeat("x", frame)
	chunk := []byte(`data: {"type":"text-delta","id":"t","delta":"` + delta + "\"}\n\n")
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for sent := 0; sent < size; sent += frame {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, "data: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n")
	}
}

// relayPeakHeap relays a size-byte answer through a proxy to a client
// that discards it, and returns the peak heap above the start (peakHeap)
// with the collector at GOGC 10, and the bytes the client read.
func relayPeakHeap(tb testing.TB, size, frame int) (peak uint64, read int64) {
	up := httptest.NewServer(bigUpstream(size, frame))
	defer up.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	a, err := mintlify.NewAssistantClient(mintlify.WithAPIKey(assistantKey), mintlify.WithDomain(assistantDomain),
		mintlify.WithBaseURL(up.URL), mintlify.WithHTTPClient(&http.Client{Transport: tr}), mintlify.WithMaxRetries(0))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyRateLimit(0, 0))
	if err != nil {
		tb.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()

	// A collector that runs often keeps the heap close to what is live,
	// rather than to twice what was live at the last collection.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	peak = peakHeap(tb, func() {
		req, _ := http.NewRequest(http.MethodPost, front.URL, strings.NewReader(benchQuestion))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		if read, err = io.Copy(io.Discard, resp.Body); err != nil {
			tb.Fatal(err)
		}
	})
	return peak, read
}

func BenchmarkProxyLargeAnswer(b *testing.B) {
	const size, frame = 64 << 20, 16 << 10
	var peaks []uint64
	for range b.N {
		peak, read := relayPeakHeap(b, size, frame)
		if read < size {
			b.Fatalf("read %d bytes of %d", read, size)
		}
		peaks = append(peaks, peak)
	}
	b.ReportMetric(float64(medianOf(peaks))/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(size)/(1<<20), "answer-MiB")
	b.SetBytes(size)
}

// The proxy holds one frame at a time: relaying a 64 MiB answer raises
// the heap by a few MiB (a frame, the read buffer, garbage the collector
// has not yet taken), never by the answer's size.
func TestProxyRelaysALargeAnswerInBoundedMemory(t *testing.T) { // not parallel: it reads the heap
	if testing.Short() {
		t.Skip("relays 64 MiB")
	}
	peak, read := relayPeakHeap(t, 64<<20, 16<<10)
	t.Logf("peak heap above the start: %.1f MiB for %d MiB relayed", float64(peak)/(1<<20), read>>20)
	if read < 64<<20 {
		t.Fatalf("read %d bytes", read)
	}
	if peak > 16<<20 {
		t.Errorf("the heap rose by %.1f MiB while relaying 64 MiB: the proxy holds more than a frame", float64(peak)/(1<<20))
	}
}

// forwarder is the route the vendor recommends: it posts the browser's
// body upstream with the key and copies the answer back as it comes,
// with no check of either.
func forwarder(upstream, key string) http.HandlerFunc {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, upstream, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := hc.Do(req)
		if err != nil {
			http.Error(w, "upstream", http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				_, _ = w.Write(buf[:n])
				w.(http.Flusher).Flush()
			}
			if err != nil {
				return
			}
		}
	}
}

func BenchmarkProxyVsForwarding(b *testing.B) {
	const together = 20
	srv := mockserver.Start(b, mockserver.WithoutRateLimits())
	proxy, err := mintlify.NewAssistantProxy(mockAssistant(b, srv, mintlify.WithMaxRetries(0)), mintlify.WithProxyRateLimit(0, 0))
	if err != nil {
		b.Fatal(err)
	}
	routes := map[string]http.Handler{
		"forward": forwarder(srv.URL()+"/discovery/v2/assistant/"+srv.Domain()+"/message", srv.AssistantKey()),
		"proxy":   proxy,
	}
	// The forwarder sends the body as it is: the mock wants an fp, which
	// the proxy adds itself.
	question := benchQuestion[:len(benchQuestion)-1] + `,"fp":"anonymous"}`
	for _, name := range []string{"forward", "proxy"} {
		b.Run(name, func(b *testing.B) {
			front := httptest.NewServer(routes[name])
			defer front.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: together}}
			defer client.CloseIdleConnections()
			ask := func() time.Duration {
				start := time.Now()
				req, _ := http.NewRequest(http.MethodPost, front.URL, strings.NewReader(question))
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return 0
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || n < 1000 {
					b.Errorf("%d, %d bytes", resp.StatusCode, n)
				}
				return time.Since(start)
			}
			var mu sync.Mutex
			var ds []time.Duration
			round := func() {
				var wg sync.WaitGroup
				for range together {
					wg.Add(1)
					go func() {
						defer wg.Done()
						d := ask()
						mu.Lock()
						ds = append(ds, d)
						mu.Unlock()
					}()
				}
				wg.Wait()
			}
			round() // warm the connections
			ds = ds[:0]
			b.ResetTimer()
			peak := peakHeap(b, func() {
				for range b.N {
					round()
				}
			})
			b.StopTimer()
			b.ReportMetric(float64(medianOf(ds).Microseconds()), "µs/question-median")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}
