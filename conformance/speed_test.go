package conformance

// The proxy against the vendor's recommended embedding: a node route that
// only posts upstream and returns the body (node-route.mjs). Run:
//
//	go test -run '^$' -bench ProxyVsNodeRoute -benchtime 20x ./conformance

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/memtest"
	"github.com/docsagent/mintlify-go/internal/nodetest"
	"github.com/docsagent/mintlify-go/mockserver"
)

// What the proxy's server (TestProxyServerHelper) is given: the assistant
// API's base URL, its key and the site's domain, one per line.
const proxyServerEnv = "CONFORMANCE_PROXY_SERVER"

// benchOrigin is the page that asks: the only origin the proxy allows.
const benchOrigin = "http://chat.example"

// BenchmarkProxyVsNodeRoute asks 20 questions at once, a round, through
// an AssistantProxy with every check on (an allowed origin, an identity
// from the session cookie, a rate limit, the body rebuilt, each event
// parsed and written anew, the key scrubbed) and through the node route,
// both in processes of their own in front of the same mock, rounds
// interleaved (which side goes first alternates). Each answer is read
// whole. It reports the median question's time on each side, the
// median, lowest and highest of the per-pair ratios (proxy / node, the
// medians of the two rounds of a pair), and each server's peak RSS
// (VmHWM: the proxy's process serves nothing else, as node's). The mock
// pauses between frames as its program does by default (20ms), or not
// at all.
func BenchmarkProxyVsNodeRoute(b *testing.B) {
	node, dir := nodetest.Setup(b)
	for _, delay := range []time.Duration{20 * time.Millisecond, 0} {
		b.Run("stream-delay="+delay.String(), func(b *testing.B) {
			mock := mockserver.Start(b, mockserver.WithoutRateLimits(), mockserver.WithStreamDelay(delay))
			base := mock.URL() + "/discovery"
			route := exec.Command(node, "node-route.mjs")
			route.Dir = dir
			route.Env = append(os.Environ(), "UPSTREAM_URL="+base+"/v2/assistant/"+mock.Domain()+"/message",
				"UPSTREAM_KEY="+mock.AssistantKey())
			proxy := exec.Command(os.Args[0], "-test.run=^TestProxyServerHelper$")
			proxy.Env = append(os.Environ(), proxyServerEnv+"="+base+"\n"+mock.AssistantKey()+"\n"+mock.Domain())
			sides := [2]*benchSide{{name: "proxy"}, {name: "node"}}
			sides[0].url, sides[0].pid = nodetest.Start(b, proxy)
			sides[1].url, sides[1].pid = nodetest.Start(b, route)
			for _, s := range sides {
				s.client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 20}}
				defer s.client.CloseIdleConnections()
				s.round(b) // warm the connections and the code
				s.times = s.times[:0]
			}
			var ratios []float64
			b.ResetTimer()
			for i := range b.N {
				first, second := sides[i%2], sides[1-i%2]
				m1, m2 := first.round(b), second.round(b)
				if first.name == "node" {
					m1, m2 = m2, m1
				}
				ratios = append(ratios, float64(m1)/float64(m2))
			}
			b.StopTimer()
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "proxy/node-median")
			b.ReportMetric(ratios[0], "proxy/node-low")
			b.ReportMetric(ratios[len(ratios)-1], "proxy/node-high")
			for _, s := range sides {
				b.ReportMetric(float64(median(s.times).Microseconds())/1e3, s.name+"-ms/question")
				peak, ok := memtest.PeakRSS(s.pid)
				if !ok {
					b.Skip("no peak RSS: it is read from /proc/PID/status, on Linux only")
				}
				b.ReportMetric(float64(peak)/(1<<20), s.name+"-peak-RSS-MiB")
			}
		})
	}
}

// benchSide is one of the two routes under test.
type benchSide struct {
	name   string
	url    string
	pid    int
	client *http.Client
	times  []time.Duration // every question's, over the rounds
}

// round asks 20 questions at once, each from a session of its own, and
// returns the median question's time.
func (s *benchSide) round(b *testing.B) time.Duration {
	const together = 20
	ds := make([]time.Duration, together)
	var wg sync.WaitGroup
	for i := range together {
		wg.Go(func() { ds[i] = s.ask(b, i) })
	}
	wg.Wait()
	s.times = append(s.times, ds...)
	return median(ds)
}

// ask posts a question as a page of benchOrigin would (the body carries
// the fp the mock wants, which the node route passes on and the proxy
// sets itself) and reads the answer to its end.
func (s *benchSide) ask(b *testing.B, session int) time.Duration {
	const question = `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}],"fp":"anonymous"}`
	start := time.Now()
	req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(question))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", benchOrigin)
	req.Header.Set("Cookie", "session=s"+strconv.Itoa(session))
	resp, err := s.client.Do(req)
	if err != nil {
		b.Error(s.name, err)
		return 0
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(`"type":"finish"`)) ||
		!bytes.HasSuffix(body, []byte("data: [DONE]\n\n")) {
		b.Errorf("%s: %d, %v, a whole answer? %.300q", s.name, resp.StatusCode, err, body)
	}
	return time.Since(start)
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// TestProxyServerHelper is a helper process, not a test: started by
// BenchmarkProxyVsNodeRoute with $CONFORMANCE_PROXY_SERVER set, it serves
// an AssistantProxy as a backend would, with every check on, prints its
// URL, and serves until killed.
func TestProxyServerHelper(t *testing.T) {
	settings := strings.Split(os.Getenv(proxyServerEnv), "\n")
	if len(settings) != 3 {
		t.Skip("run by BenchmarkProxyVsNodeRoute")
	}
	a, err := mintlify.NewAssistantClient(mintlify.WithBaseURL(settings[0]), mintlify.WithAPIKey(settings[1]),
		mintlify.WithDomain(settings[2]))
	if err != nil {
		t.Fatal(err)
	}
	p, err := mintlify.NewAssistantProxy(a,
		mintlify.WithAllowedOrigins(benchOrigin),
		mintlify.WithProxyIdentity(func(r *http.Request) (mintlify.ProxyIdentity, error) {
			c, err := r.Cookie("session")
			if err != nil {
				return mintlify.ProxyIdentity{}, err
			}
			return mintlify.ProxyIdentity{FP: c.Value, RateKey: c.Value}, nil
		}),
		mintlify.WithProxyRateLimit(1_000_000, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	t.Fatal(srv.Serve(ln))
}
