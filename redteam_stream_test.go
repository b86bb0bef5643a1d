package mintlify

// Red-team tests of the Go stream reader: chunks whose members a browser's
// JSON.parse reads otherwise than encoding/json would.

import (
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/docsagent/mintlify-go/internal/nodetest"
)

// caseFoldedFrames are chunks with members whose names differ from the
// protocol's only in case (or by a Unicode letter Go folds to an ASCII
// one: U+017F, long s), and repeated members. JSON.parse, and so every
// browser's chat client, reads the exact names, the last value of each.
var caseFoldedFrames = []string{
	`{"type":"text-start","id":"t"}`,
	`{"type":"text-delta","id":"t","delta":"shown","DELTA":" to Go only"}`,
	`{"type":"text-delta","Id":"other","id":"t","delta":" to all","Delta":" and to Go"}`,
	`{"type":"text-delta","id":"t","delta":" twice","delta":" once"}`,
	`{"type":"text-end","id":"t"}`,
	`{"type":"source-url","sourceId":"s","url":"https://d.test/a","URL":"https://d.test/b","Title":"B","title":"A"}`,
	`{"type":"finish","finishReason":"stop","finiſhReaſon":"length","threadid":"t9","TYPE":"error","errorText":"no"}`,
}

// TestStreamReadsMembersByTheirExactNames: the Go reader reads what the
// browser reads, not the members encoding/json matches without regard to
// case.
func TestStreamReadsMembersByTheirExactNames(t *testing.T) {
	t.Parallel()
	var body strings.Builder
	for _, f := range caseFoldedFrames {
		body.WriteString("data: " + f + "\n\n")
	}
	body.WriteString("data: [DONE]\n\n")
	s := newMessageStream(nil, io.NopCloser(strings.NewReader(body.String())), http.Header{}, "d.test", func(s string, _ bool) string { return s })
	var types, deltas []string
	for ev, err := range s.Events() {
		if err != nil {
			t.Fatalf("the answer ended with %v, where a browser reads a finish", err)
		}
		types, deltas = append(types, ev.Type), append(deltas, ev.Delta)
	}
	want := []string{"text-start", "text-delta", "text-delta", "text-delta", "text-end", "source-url", "finish"}
	if strings.Join(types, ",") != strings.Join(want, ",") {
		t.Errorf("types %q, want %q", types, want)
	}
	if got := strings.Join(deltas, ""); got != "shown to all once" {
		t.Errorf("deltas %q, want the exact members' %q", got, "shown to all once")
	}
	if got := s.Text(); got != "shown to all once" {
		t.Errorf("Text %q, want %q", got, "shown to all once")
	}
	if got := s.FinishReason(); got != "stop" {
		t.Errorf("FinishReason %q, want stop", got)
	}
	if got := s.ThreadID(); got != "" {
		t.Errorf("ThreadID %q from a member named threadid, which no browser reads", got)
	}
	if got := s.Sources(); len(got) != 1 || got[0].URL != "https://d.test/a" || got[0].Title != "A" {
		t.Errorf("Sources %+v, want the one of url and title", got)
	}
}

// TestStreamMembersAsJSONParseReadsThem checks the expectations above
// against node's own JSON.parse, when node is installed.
func TestStreamMembersAsJSONParseReadsThem(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		nodetest.Missing(t, "node is not installed: install Node.js 20 or newer")
	}
	frames, _ := json.Marshal(caseFoldedFrames)
	script := `const fs = JSON.parse(process.argv[1]).map((f) => JSON.parse(f));
const text = fs.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('');
const src = fs.find((c) => c.type === 'source-url');
const fin = fs.find((c) => c.type === 'finish');
console.log(JSON.stringify([fs.map((c) => c.type).join(','), text, src.url, src.title, fin.finishReason, fin.threadId ?? '']));`
	out, err := exec.Command(node, "-e", script, string(frames)).Output()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := []string{"text-start,text-delta,text-delta,text-delta,text-end,source-url,finish", "shown to all once", "https://d.test/a", "A", "stop", ""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("JSON.parse reads %q, the Go test expects %q", got, want)
	}
}
