package mintlify_test

// Red-team tests of the assistant proxy: an upstream that frames its
// events in ways browsers accept, and what the browser sees of them, and
// when.

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/internal/nodetest"
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

// stepsWithoutTextEnd is an answer whose text part has no text-end
// before its step finishes (the AI SDK's own server always sends one; a
// server written by hand, or one cut short, may not), and whose last
// delta ends in a character that could start the key ("m", as the key's
// "mint_..." does), which the proxy holds back until it knows more.
var stepsWithoutTextEnd = sse(`{"type":"start"}`, `{"type":"start-step"}`, `{"type":"text-start","id":"0"}`,
	`{"type":"text-delta","id":"0","delta":"Use the algorithm"}`, `{"type":"finish-step"}`,
	`{"type":"start-step"}`, `{"type":"text-start","id":"0"}`, `{"type":"text-delta","id":"0","delta":"Then stop"}`,
	`{"type":"finish-step"}`, `{"type":"finish"}`, `[DONE]`)

// lastStepWithoutTextEnd: the same, in one step; the held "m" once came
// after finish-step, a delta of a part the AI SDK had forgotten, which
// 5.0.216 answers with an error for the whole answer.
var lastStepWithoutTextEnd = sse(`{"type":"start"}`, `{"type":"start-step"}`, `{"type":"text-start","id":"0"}`,
	`{"type":"text-delta","id":"0","delta":"Use the algorithm"}`, `{"type":"finish-step"}`, `{"type":"finish"}`, `[DONE]`)

// TestProxyKeepsATextPartWithinItsStep: what the proxy held back of a
// part reaches the browser before the step ends. The AI SDK forgets a
// step's text parts when it finishes (5.0.216 then fails the whole
// answer on a delta of a part it forgot); the proxy sent the held "m"
// after finish-step, as a delta of a part the browser no longer had.
func TestProxyKeepsATextPartWithinItsStep(t *testing.T) {
	t.Parallel()
	frames := relayed(t, stepsWithoutTextEnd)
	var text []string
	step := 0
	for _, f := range frames {
		if f == "[DONE]" {
			continue
		}
		c := chunkOf(t, f)
		switch c["type"] {
		case "finish-step":
			step++
		case "text-delta":
			for len(text) <= step {
				text = append(text, "")
			}
			text[step] += c["delta"].(string)
		}
	}
	assert.Equal(t, []string{"Use the algorithm", "Then stop"}, text, "each step's text, within its step")
}

// TestProxyAnswerReadsAsUpstreamsInEveryAISDK reads the proxy's answer,
// and upstream's, with each AI SDK release's own UI message stream
// reader: the same message, and no error.
func TestProxyAnswerReadsAsUpstreamsInEveryAISDK(t *testing.T) {
	t.Parallel()
	node, dir := nodetest.Setup(t)
	script := `
const [upstream, proxied] = [process.env.UPSTREAM, process.env.PROXIED];
const out = {};
for (const version of ["5-0-216", "5-0-277", "6-0-326", "7-0-173"]) {
  const ai = await import("ai-" + version);
  const read = async (body) => {
    const stream = ai.parseJsonEventStream({ stream: new Response(body).body, schema: ai.uiMessageChunkSchema })
      .pipeThrough(new TransformStream({ transform(c, ctl) { if (!c.success) throw c.error; ctl.enqueue(c.value); } }));
    let last, error;
    try {
      for await (const m of ai.readUIMessageStream({ stream, terminateOnError: true })) last = m;
    } catch (e) { error = String(e?.message ?? e).slice(0, 200); }
    return { error, text: (last?.parts ?? []).filter((p) => p.type === "text").map((p) => p.text) };
  };
  out[version] = { upstream: await read(upstream), proxied: await read(proxied) };
}
console.log(JSON.stringify(out));`
	for name, upstream := range map[string]string{"two steps": stepsWithoutTextEnd, "one step": lastStepWithoutTextEnd} {
		proxied := readAll(t, newProxied(t, streaming(upstream)).post(t, chatBody))
		got := nodetest.Run(t, node, dir, time.Minute, []string{"UPSTREAM=" + upstream, "PROXIED=" + proxied},
			"--input-type=module", "-e", script)
		var byRelease map[string]struct{ Upstream, Proxied map[string]any }
		require.NoError(t, json.Unmarshal([]byte(got), &byRelease), got)
		require.Len(t, byRelease, 4)
		for release, r := range byRelease {
			assert.Nil(t, r.Upstream["error"], "%s: ai %s reads upstream's answer", name, release)
			assert.Equal(t, r.Upstream, r.Proxied, "%s: ai %s reads the proxy's answer as upstream's", name, release)
		}
	}
}
