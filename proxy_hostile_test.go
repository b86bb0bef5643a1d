package mintlify_test

// The proxy against clients that do not behave as browsers do: a body
// that never arrives, a reader that never reads, and bodies built to cost
// memory.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/memtest"
)

// chatServer serves the proxy as the chat example does: a header timeout
// but no ReadTimeout or WriteTimeout, which would cut a long answer.
func chatServer(t *testing.T, p *mintlify.AssistantProxy) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(p)
	srv.Config.ReadHeaderTimeout = 10 * time.Second
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// A body that stops arriving must not hold the handler (and the
// connection) for ever on such a server (slowloris on the body), nor one
// after a refusal, while the server drains the rest before answering.
func TestProxyEndsABodyThatStalls(t *testing.T) {
	t.Parallel()
	a, got := assistantServer(t, streaming(wholeAnswer))
	p, err := mintlify.NewAssistantProxy(a)
	require.NoError(t, err)
	mintlify.SetProxyTimeouts(p, 200*time.Millisecond, time.Minute)
	addr := chatServer(t, p)
	for _, tt := range []struct {
		method, header string
		status         int
	}{
		{"POST", "Content-Type: application/json", http.StatusRequestTimeout},
		{"POST", "Content-Type: text/plain", http.StatusUnsupportedMediaType},
		{"POST", "Content-Type: application/json\r\nOrigin: https://evil.example", http.StatusForbidden},
		{"PUT", "Content-Type: application/json", http.StatusMethodNotAllowed},
	} {
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		fmt.Fprintf(conn, "%s /api/chat HTTP/1.1\r\nHost: x\r\n%s\r\nContent-Length: 1000\r\n\r\n{\"messages\":", tt.method, tt.header)
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
		start := time.Now()
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err, "%s %s: no answer while the body stalls", tt.method, tt.header)
		resp.Body.Close()
		assert.Equal(t, tt.status, resp.StatusCode, tt.header)
		assert.Less(t, time.Since(start), 3*time.Second)
	}
	assert.Empty(t, got(), "nothing sent upstream")

	// A body that arrives in time, slowly, is read whole; the deadline is
	// lifted once it is in, so an answer that takes longer is not cut.
	a, _ = assistantServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(600 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		streaming(wholeAnswer)(w, r)
	})
	p, err = mintlify.NewAssistantProxy(a)
	require.NoError(t, err)
	mintlify.SetProxyTimeouts(p, 300*time.Millisecond, time.Minute)
	conn, err := net.Dial("tcp", chatServer(t, p))
	require.NoError(t, err)
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(chatBody))
	for _, piece := range []string{chatBody[:10], chatBody[10:]} {
		time.Sleep(100 * time.Millisecond)
		_, _ = io.WriteString(conn, piece)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, wholeAnswer, string(body))
}

// A browser that stops reading must not hold the handler and upstream's
// answer for as long as its connection lives: each frame has a deadline,
// while a pause of upstream's between frames, however long, is no stall.
func TestProxyLetsGoOfABrowserThatStopsReading(t *testing.T) {
	t.Parallel()
	const frameTimeout = 200 * time.Millisecond
	released := make(chan struct{})
	a, _ := assistantServer(t, func(w http.ResponseWriter, r *http.Request) {
		defer close(released)
		w.Header().Set("Content-Type", "text/event-stream")
		frame := sse(`{"type":"text-delta","id":"t","delta":"` + strings.Repeat("x", 60<<10) + `"}`)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, frame); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	p, err := mintlify.NewAssistantProxy(a)
	require.NoError(t, err)
	mintlify.SetProxyTimeouts(p, time.Minute, frameTimeout)
	conn, err := net.Dial("tcp", chatServer(t, p))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.(*net.TCPConn).SetReadBuffer(4<<10))
	fmt.Fprintf(conn, "POST /api/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(chatBody), chatBody)
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("upstream's answer is still held open for a browser that reads nothing")
	}

	// Upstream pausing for longer than the frame deadline between frames
	// (the model at work) does not cut the answer.
	a, _ = assistantServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, sse(`{"type":"text-delta","id":"t","delta":"Hello"}`))
		w.(http.Flusher).Flush()
		time.Sleep(3 * frameTimeout)
		_, _ = io.WriteString(w, sse(`{"type":"finish"}`, `[DONE]`))
	})
	p, err = mintlify.NewAssistantProxy(a)
	require.NoError(t, err)
	mintlify.SetProxyTimeouts(p, time.Minute, frameTimeout)
	resp, err := http.Post("http://"+chatServer(t, p)+"/api/chat", "application/json", strings.NewReader(chatBody))
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, sse(`{"type":"text-delta","id":"t","delta":"Hello"}`, `{"type":"finish"}`, `[DONE]`), string(body))
}

// A body's arrays are read item by item, and only what is forwarded is
// kept: a body of empty objects up to the 1 MiB bound (350,000 messages,
// parts or context items, each a Go value if decoded whole) costs a few
// times its size, before any rate limit counts it.
func TestProxyBodiesOfEmptyObjectsCostLittle(t *testing.T) {
	a, got := assistantServer(t, streaming(wholeAnswer))
	p, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyRateLimit(0, 0))
	require.NoError(t, err)
	const question = `{"role":"user","parts":[{"type":"text","text":"q"}]}`
	fill := func(open, close string) string {
		n := (1<<20 - 64 - len(open) - len(close)) / 3
		return open + strings.Repeat(`{},`, n) + `{}` + close
	}
	for _, tt := range []struct {
		name, body string
		status     int
	}{
		{"messages", fill(`{"messages":[`, `]}`), 400},
		{"parts", fill(`{"messages":[{"role":"user","parts":[{"type":"text","text":"q"},`, `]}]}`), 200},
		{"context", fill(`{"messages":[`+question+`],"context":[`, `]}`), 400},
	} {
		serve := func() int {
			req := httptest.NewRequest(http.MethodPost, "/api/chat", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			p.ServeHTTP(rec, req)
			return rec.Code
		}
		assert.Equal(t, tt.status, serve(), tt.name)
		const runs = 5
		perRequest := memtest.Allocated(func() {
			for range runs {
				serve()
			}
		}) / runs
		t.Logf("%s: %d KiB allocated per request of %d KiB", tt.name, perRequest>>10, len(tt.body)>>10)
		assert.Less(t, perRequest, uint64(8<<20), "%s: a 1 MiB body cost %d KiB", tt.name, perRequest>>10)
	}
	assert.Len(t, got(), 1+5, "the parts body is a question: its empty parts are dropped")
}
