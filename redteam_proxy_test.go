package mintlify_test

// Red-team tests of the assistant proxy: an upstream that frames its
// events in ways browsers accept, and what the browser sees of them, and
// when.

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProxyStreamsEveryFramingAtOnce: an upstream that ends its lines with
// LF, CRLF (as Python's sse-starlette does) or a lone CR sends two events,
// maybe the start of a third (a keep-alive comment), flushes and waits;
// the browser gets both events while upstream waits. A frame is never
// held back for the next one.
func TestProxyStreamsEveryFramingAtOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, end, after string }{
		{"LF", "\n", ""},
		{"CRLF", "\r\n", ""},
		// A lone CR ends an event once the byte after it is known, as
		// the browser's parser reads it: the comment after it tells.
		{"lone CR", "\r", ":\r"},
		{"LF, a keep-alive comment after", "\n", ":\n"},
		{"LF, the start of the next event after", "\n", "data: {\"type\":"},
	} {
		end := c.end
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			event := func(chunk string) string { return "data: " + chunk + end + end }
			p := newProxied(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, event(`{"type":"start","messageId":"m1"}`)+event(`{"type":"tool-input-start","toolCallId":"c","toolName":"search"}`)+c.after)
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				if strings.HasPrefix(c.after, "data:") {
					_, _ = io.WriteString(w, `"finish"}`+end+end+event(`[DONE]`))
					return
				}
				_, _ = io.WriteString(w, event(`{"type":"finish"}`)+event(`[DONE]`))
			})
			defer close(release)
			resp := p.post(t, chatBody)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			lines := bufio.NewReader(resp.Body)
			got := make(chan string, 1)
			go func() {
				var b strings.Builder
				for range 4 { // two frames: a data line and an empty line each
					line, err := lines.ReadString('\n')
					b.WriteString(line)
					if err != nil {
						break
					}
				}
				got <- b.String()
			}()
			select {
			case frames := <-got:
				assert.Equal(t, "data: {\"type\":\"start\",\"messageId\":\"m1\"}\n\n"+
					"data: {\"type\":\"tool-input-start\",\"toolCallId\":\"c\",\"toolName\":\"search\"}\n\n", frames)
			case <-time.After(3 * prompt):
				t.Fatal("the events upstream sent did not reach the browser while upstream waited")
			}
		})
	}
}
