package main

// Red-team tests of mintctl doctor --spend against a hostile stream.

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	mintlify "github.com/docsagent/mintlify-go"
)

// streamReport judges body, a streamed answer with header h, and returns
// the check and its Markdown report.
func streamReport(body string, h http.Header) (*checkReport, string) {
	d := &doctor{scrub: func(s string, _ bool) string { return s }}
	chk := &checkReport{Result: resultMatches}
	d.judgeStream(chk, h, readStream([]byte(body)))
	r := doctorReport{APIs: []*apiReport{{Name: "assistant API", Checks: []*checkReport{chk}}}}
	return chk, r.markdown()
}

// TestDoctorBoundsAStreamOfManyChunkTypes: a stream of 1 MiB (the most
// doctor keeps of an answer) in which each frame has a type of its own
// is reported within a bound: a few dozen types named, the number of the
// others said, a report that fits a step summary (1 MiB at most). Each
// type once cost a scan of every type before it (seconds of CPU) and a
// line of the report.
func TestDoctorBoundsAStreamOfManyChunkTypes(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	n := 0
	for ; b.Len() < maxCaptured-64; n++ {
		fmt.Fprintf(&b, "data: {\"type\":\"t%d\"}\n\n", n)
	}
	b.WriteString("data: [DONE]\n\n")
	chk, md := streamReport(b.String(), http.Header{"Content-Type": {"text/event-stream"}})
	if len(md) > 64<<10 {
		t.Errorf("the report of %d chunk types is %d bytes", n, len(md))
	}
	if len(chk.Differences) > 100 {
		t.Errorf("%d differences for %d chunk types", len(chk.Differences), n)
	}
	m := regexp.MustCompile(`(\d+) more`).FindStringSubmatch(md)
	if m == nil {
		t.Fatalf("the report does not say how many types it left out:\n%.2000s", md)
	}
	named := 0
	for _, f := range chk.Differences {
		if f.Kind == "chunk type" {
			named++
		}
	}
	if left, _ := strconv.Atoi(m[1]); named+left != n {
		t.Errorf("%d types named and %d more, of %d", named, left, n)
	}
}

// TestDoctorReadsTheThreadAsTheSDKDoes: a finish chunk whose thread
// member is named "ThreadId" carries no thread for the SDK or a browser
// (JSON.parse reads exact names): doctor reports the member missing, not
// a thread that travels in finish.threadId.
func TestDoctorReadsTheThreadAsTheSDKDoes(t *testing.T) {
	t.Parallel()
	body := "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\",\"ThreadId\":\"t1\",\"TYPE\":\"x\"}\n\ndata: [DONE]\n\n"
	h := http.Header{"Content-Type": {"text/event-stream"}, "X-Vercel-Ai-Ui-Message-Stream": {"v1"},
		"X-Thread-Id": {"t1"}, "X-Thread-Key": {"k"}}
	chk, md := streamReport(body, h)
	found := false
	for _, f := range chk.Differences {
		found = found || f.Member == "finish.threadId" && strings.HasPrefix(f.Detail, "missing")
	}
	if !found || strings.Contains(md, "finish.threadId and") {
		t.Errorf("a finish chunk with ThreadId reported as carrying the thread:\n%s", md)
	}
}

// TestDoctorReportOfHugeServerTextIsSmall: a service that answers every
// request with a member whose name is 900 KiB (of bytes that are not
// UTF-8, each shown as three) gets a report, and a step summary, that a
// reader and the runner take (a step summary holds 1 MiB at most): each
// text of the server's is quoted cut short.
func TestDoctorReportOfHugeServerTextIsSmall(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("\xff", 900<<10)
	base := garbageServer(t, http.StatusOK, `{"`+name+`":1,"`+strings.Repeat("\x7f", 1000)+`":2}`)
	env := map[string]string{
		mintlify.EnvAPIKey: "mint_hugehugehuge0123456789", mintlify.EnvProjectID: "proj_1", mintlify.EnvBaseURL: base,
		mintlify.EnvAssistantAPIKey: "mint_dsc_hugehugehuge0123456", mintlify.EnvDomain: "docs.example.com",
		mintlify.EnvAssistantBaseURL: base + "/discovery",
		mintlify.EnvIndexAPIKey:      "mint_us_hugehugehuge01234567", mintlify.EnvIndexBaseURL: base + "/api/universal-search",
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	env["GITHUB_STEP_SUMMARY"] = summary
	stdout, stderr, code := runEnv(t, env, "doctor", "--timeout", "20s", "--max-retry-wait", "10ms")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (differs); stderr: %.500s", code, stderr)
	}
	written, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for what, n := range map[string]int{"stdout": stdout.Len(), "step summary": len(written), "stderr": stderr.Len()} {
		if n > 64<<10 {
			t.Errorf("%s holds %d bytes", what, n)
		}
	}
	if !strings.Contains(stdout.String(), "unknown member") || !strings.Contains(stdout.String(), "\ufffd\ufffd...") {
		t.Errorf("the unknown member is not reported, cut short:\n%.3000s", stdout)
	}
}
