package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// hostile is what a hostile server puts in every string field, IDs
// included: each way text can become a workflow command in a GitHub
// Actions log (a line break, a Unicode space or a carriage return before
// ::, the legacy ##[ form mid-line, stop-commands), terminal escapes (ESC
// and the C1 CSI), and HTML and Markdown for the step summary.
const hostile = "\u00a0::warning::forged-lead" +
	"\n::warning::forged-lf" +
	"\n\u2003::set-output name=status::success" +
	"\n\u3000::add-mask::forged-ideographic" +
	"\r::error::forged-cr" +
	" mid-line ##[warning]forged-legacy " +
	"\n::stop-commands::forgedtoken" +
	"\n::warning::forged-while-stopped" +
	"\n::forgedtoken::" +
	"\n\u0085::warning::forged-nel" +
	"\n\u2028::warning::forged-ls" +
	" \x1b[31mred\x1b]0;title\x07 \u009b2J \x7f" +
	" <script>alert(1)</script><img src=x onerror=alert(1)> &amp; **bold** [link](javascript:alert(1)) | `code`"

// hv is the hostile text with a label, so that each field differs.
func hv(label string) string { return hostile + " " + label }

// hostileThread is a valid ULID: the SDK refuses any other thread ID
// before sending.
const hostileThread = "01JD3Z8X6N6Q7V9W2Y4T5R8K0M"

const hostileAutomation = "6650f1c0ffee0123456789ab"

// hostileAPI answers every route mintctl calls with hostile text. mode
// "ok" ends every job, deployment and export well; "failed" ends them
// badly and stops analytics walks on their second page with a 429;
// "error" answers every API call with an error whose body is hostile.
type hostileAPI struct {
	mode   string
	url    string
	bundle []byte
	// rows are the analytics rows sent, by route, as the API names them.
	rows map[string][]map[string]any
}

const hostileTime = "2025-01-02T03:04:05Z"

func newHostileAPI(t *testing.T, mode string) *hostileAPI {
	h := &hostileAPI{mode: mode, bundle: bytes.Repeat([]byte("tar.gz bytes "), 100)}
	h.rows = map[string][]map[string]any{
		"visitors": {{"path": hv("visitors path 1"), "human": 1, "ai": 2, "total": 3}, {"path": hv("visitors path 2"), "human": 0, "ai": 1, "total": 1}},
		"views":    {{"path": hv("views path 1"), "human": 4, "ai": 0, "total": 4}, {"path": hv("views path 2"), "human": 1, "ai": 1, "total": 2}},
		"searches": {
			{"searchQuery": hv("query 1"), "hits": 9, "ctr": 0.5, "topClickedPage": hv("top page 1"), "lastSearchedAt": hostileTime},
			{"searchQuery": hv("query 2"), "hits": 3, "ctr": 0.25, "topClickedPage": hv("top page 2"), "lastSearchedAt": hostileTime},
		},
		// Enum fields (status, responseType, resolutionStatus, role) hold
		// tokens: the SDK refuses any other value as malformed.
		"feedback": {
			{"id": hv("feedback 1"), "path": hv("feedback path 1"), "comment": hv("comment 1"), "createdAt": hostileTime,
				"source": "contextual", "status": "status_1", "helpful": true, "contact": hv("contact 1"),
				"code": nil, "filename": nil, "lang": nil},
			{"id": hv("feedback 2"), "path": hv("feedback path 2"), "comment": hv("comment 2"), "createdAt": hostileTime,
				"source": "code_snippet", "status": "in-review_2", "helpful": nil, "contact": nil,
				"code": hv("code 2"), "filename": hv("filename 2"), "lang": hv("lang 2")},
		},
		"feedback-by-page": {{"path": hv("by-page path"), "thumbsUp": 1, "thumbsDown": 2, "code": 3, "total": 6}},
		"conversations": {
			{"id": hv("thread 1"), "timestamp": hostileTime, "query": hv("question 1"), "response": hv("answer 1"),
				"responseType": "type_1", "sources": []any{map[string]any{"title": hv("source title"), "url": hv("source url")}},
				"resolutionStatus": "resolution_1", "queryCategory": hv("category 1"), "pageUrl": hv("page url 1")},
			{"id": hv("thread 2"), "timestamp": "2025-01-02T03:04:06Z", "query": hv("question 2"), "response": hv("answer 2"),
				"responseType": "type-2", "sources": []any{},
				"resolutionStatus": "resolution-2", "queryCategory": hv("category 2"), "pageUrl": hv("page url 2")},
		},
		"caller-stats": {{"web": 1, "api": 2, "other": 3, "total": 6}},
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

func (h *hostileAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var segs []string
	for _, s := range strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/") {
		u, _ := url.PathUnescape(s)
		segs = append(segs, u)
	}
	at := func(i int) string {
		if i < len(segs) {
			return segs[i]
		}
		return ""
	}
	if at(0) == "bundle" {
		w.Header().Set("Content-Type", "application/gzip")
		w.Header().Set("ETag", `"bundle-1"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(h.bundle)))
		_, _ = w.Write(h.bundle)
		return
	}
	if h.mode == "error" {
		status := http.StatusNotFound
		if r.Method == http.MethodPost {
			status = http.StatusBadRequest
		}
		sendJSON(w, status, map[string]any{"error": hv("error"), "details": []any{map[string]any{"message": hv("detail")}}})
		return
	}
	failed := h.mode == "failed"
	pick := func(ok, bad string) string {
		if failed {
			return bad
		}
		return ok
	}
	job := func(id string) map[string]any {
		return map[string]any{"id": id, "status": pick("completed", "failed"), "model": hv("model"),
			"prLink": hv("pr link"), "source": map[string]any{"repository": hv("repository"), "ref": hv("ref")},
			"createdAt": hostileTime, "archivedAt": nil}
	}
	export := func(id string) map[string]any {
		e := map[string]any{"jobId": id, "status": pick("completed", "failed"), "progress": 100, "pageCount": 7,
			"createdAt": hostileTime, "updatedAt": hostileTime, "error": nil}
		if failed {
			e["error"] = hv("export error")
		}
		return e
	}
	q := r.URL.Query()
	second := q.Get("cursor") != "" || (q.Get("offset") != "" && q.Get("offset") != "0")
	page := func(route string) []map[string]any {
		rows := h.rows[route]
		if second {
			return rows[1:]
		}
		return rows[:1]
	}
	if at(1) == "analytics" && second && failed {
		w.Header().Set("Retry-After", "3600")
		sendJSON(w, http.StatusTooManyRequests, map[string]any{"error": hv("rate limited")})
		return
	}
	var next any = hv("cursor")
	if second {
		next = nil
	}
	switch {
	case r.Method == http.MethodPost && at(0) == "v2" && len(segs) == 4:
		sendJSON(w, http.StatusCreated, job(hv("job")))
	case r.Method == http.MethodGet && at(0) == "v2" && len(segs) == 5:
		sendJSON(w, http.StatusOK, job(at(4)))
	case r.Method == http.MethodPost && at(0) == "v2" && at(5) == "message":
		sendJSON(w, http.StatusOK, job(at(4)))
	case r.Method == http.MethodPost && at(1) == "project" && at(2) == "update":
		sendJSON(w, http.StatusAccepted, map[string]any{"statusId": hv("deployment")})
	case r.Method == http.MethodPost && at(1) == "project" && at(2) == "preview":
		sendJSON(w, http.StatusAccepted, map[string]any{"statusId": hv("deployment"), "previewUrl": hv("preview url")})
	case at(1) == "project" && at(2) == "update-status":
		sendJSON(w, http.StatusOK, map[string]any{"_id": at(3), "projectId": hv("project"), "status": pick("success", "failure"),
			"createdAt": hostileTime, "endedAt": hostileTime, "summary": hv("summary"), "logs": []string{hv("log 1"), hv("log 2")},
			"subdomain": hv("subdomain"), "screenshot": hv("screenshot"), "screenshotLight": hv("light"), "screenshotDark": hv("dark"),
			"source": hv("source"), "author": map[string]any{"name": hv("author"), "avatarUrl": hv("avatar"), "githubUserId": 7},
			"commit": map[string]any{"sha": hv("sha"), "ref": hv("ref"), "message": hv("message"),
				"filesChanged": map[string]any{"added": []string{hv("added")}, "modified": []string{hv("modified")}, "removed": []string{}}}})
	case at(1) == "workflow" && at(4) == "webhook":
		sendJSON(w, http.StatusAccepted, map[string]any{"success": true, "runId": hv("run")})
	case at(1) == "workflow":
		sendJSON(w, http.StatusAccepted, map[string]any{"schemaId": at(3), "instanceId": hv("run"), "jobId": hv("job")})
	case at(1) == "static-export" && len(segs) == 3:
		sendJSON(w, http.StatusAccepted, export(hv("export")))
	case at(1) == "static-export" && len(segs) == 4:
		sendJSON(w, http.StatusOK, export(at(3)))
	case at(1) == "static-export" && at(4) == "bundle":
		sendJSON(w, http.StatusOK, map[string]any{"jobId": at(3), "bundleUrl": h.url + "/bundle/site.tar.gz?sig=s",
			"sizeBytes": len(h.bundle)})
	case at(1) == "analytics" && at(3) == "visitors":
		sendJSON(w, http.StatusOK, map[string]any{"totals": map[string]any{"human": 1, "ai": 3, "total": 4}, "visitors": page("visitors"), "hasMore": !second})
	case at(1) == "analytics" && at(3) == "views":
		sendJSON(w, http.StatusOK, map[string]any{"totals": map[string]any{"human": 5, "ai": 1, "total": 6}, "views": page("views"), "hasMore": !second})
	case at(1) == "analytics" && at(3) == "searches":
		sendJSON(w, http.StatusOK, map[string]any{"searches": page("searches"), "totalSearches": 12, "nextCursor": next})
	case at(1) == "analytics" && at(3) == "feedback" && at(4) == "by-page":
		sendJSON(w, http.StatusOK, map[string]any{"feedback": h.rows["feedback-by-page"], "hasMore": false})
	case at(1) == "analytics" && at(3) == "feedback":
		sendJSON(w, http.StatusOK, map[string]any{"feedback": page("feedback"), "nextCursor": next, "hasMore": !second})
	case at(1) == "analytics" && at(4) == "threads":
		sendJSON(w, http.StatusOK, map[string]any{"threadId": at(5), "createdAt": hostileTime, "messages": []any{
			map[string]any{"id": hv("message 1"), "role": "user", "content": hv("content 1"), "createdAt": hostileTime},
			map[string]any{"id": hv("message 2"), "role": "assistant", "content": hv("content 2"), "createdAt": hostileTime},
		}})
	case at(1) == "analytics" && at(4) == "caller-stats":
		sendJSON(w, http.StatusOK, h.rows["caller-stats"][0])
	case at(1) == "analytics" && at(3) == "assistant":
		sendJSON(w, http.StatusOK, map[string]any{"conversations": page("conversations"), "nextCursor": next, "hasMore": !second})
	default:
		sendJSON(w, http.StatusNotFound, map[string]any{"error": "no such route " + r.URL.Path})
	}
}

// runnerLines splits text as the runner reads a step's output: at \n, at
// \r, and at \r\n.
func runnerLines(text string) []string {
	return strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
}

// runnerCommand is a workflow command the runner would act on.
type runnerCommand struct {
	name  string
	props map[string]string
	data  string
	line  string
}

// runnerCommands reads text as the GitHub runner does: a line is a command
// when, after .NET's TrimStart (every Unicode white space, which Go's
// unicode.IsSpace matches), it starts with "::NAME...::", or when it holds
// "##[" anywhere (the legacy parser); after ::stop-commands::TOKEN no line
// is a command until ::TOKEN::.
func runnerCommands(text string) []runnerCommand {
	var cmds []runnerCommand
	stop := ""
	for _, line := range runnerLines(text) {
		trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
		if stop != "" {
			if strings.HasPrefix(trimmed, "::"+stop+"::") {
				stop = ""
			}
			continue
		}
		if rest, ok := strings.CutPrefix(trimmed, "::"); ok {
			if end := strings.Index(rest, "::"); end >= 0 {
				name, props, _ := strings.Cut(rest[:end], " ")
				c := runnerCommand{name: name, props: map[string]string{}, data: runnerUnescape(rest[end+2:], false), line: line}
				for _, p := range strings.Split(props, ",") {
					if k, v, ok := strings.Cut(p, "="); ok {
						c.props[k] = runnerUnescape(v, true)
					}
				}
				cmds = append(cmds, c)
				if name == "stop-commands" {
					stop = c.data
				}
			}
		}
		if strings.Contains(line, "##[") {
			cmds = append(cmds, runnerCommand{name: "##[", line: line})
		}
	}
	return cmds
}

func runnerUnescape(s string, property bool) string {
	s = strings.NewReplacer("%0D", "\r", "%0A", "\n").Replace(s)
	if property {
		s = strings.NewReplacer("%3A", ":", "%2C", ",").Replace(s)
	}
	return strings.ReplaceAll(s, "%25", "%")
}

// checkRunnerLog fails on anything in a step's stdout or stderr that the
// runner would run and mintctl did not write, and on raw control
// characters. It returns the commands mintctl wrote.
func checkRunnerLog(t *testing.T, what, text string) []runnerCommand {
	t.Helper()
	var own []runnerCommand
	for _, c := range runnerCommands(text) {
		ok := false
		switch c.name {
		case "group":
			ok = strings.HasPrefix(c.data, "Logs of deployment ")
		case "endgroup":
			ok = c.data == ""
		case "error", "warning":
			ok = strings.HasPrefix(c.props["title"], "mintctl")
		}
		if c.name == "error" {
			// A failure's one annotation: what failed and what to do next,
			// with nothing in it that reads as a command or breaks the line.
			assert.NotContains(t, c.data, "::", "%s: an annotation with :: in it", what)
			assert.NotContains(t, c.data, "##[", what)
			assert.False(t, strings.ContainsAny(c.data, "\r\n"), "%s: an annotation of more than one line: %q", what, c.data)
			assert.Contains(t, c.data, " Next: ", "%s: an annotation that says what to do", what)
		}
		if !ok {
			t.Errorf("%s: the runner would run %q, which mintctl did not write:\n%q", what, c.name, c.line)
			continue
		}
		own = append(own, c)
	}
	checkNoControl(t, what, text)
	return own
}

func checkNoControl(t *testing.T, what, text string) {
	t.Helper()
	for i, r := range text {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') || r == '\u2028' || r == '\u2029' {
			t.Errorf("%s: raw control character %U at byte %d: %q", what, r, i, text[max(0, i-40):min(len(text), i+40)])
			return
		}
	}
}

// stepOutputNames are the only step outputs mintctl writes.
var stepOutputNames = []string{"job_id", "status", "pr_link", "status_id", "preview_url", "run_id", "export_id", "bundle_file"}

// actionsCase is one mintctl command run as an Actions step.
type actionsCase struct {
	args []string
	// code is the exit code by mode ("ok", "failed", "error"); a missing
	// mode means 1. A run that ends otherwise must say the SDK refused a
	// hostile ID (a malformed answer, or invalid input): its text is then
	// what is printed, and must be as harmless.
	code map[string]int
	// outputs is the step outputs the command may write.
	outputs []string
	// jsonl is the analytics route whose JSON Lines are on stdout.
	jsonl string
}

func actionsCases(dir string) []actionsCase {
	poll := []string{"--poll-interval", "10ms"}
	job := []string{"job_id", "status", "pr_link"}
	deploy := []string{"status_id", "status"}
	preview := []string{"status_id", "status", "preview_url"}
	export := []string{"export_id", "status", "bundle_file"}
	cs := []actionsCase{
		{args: []string{"job", "create", "Document the webhooks"}, code: map[string]int{"ok": 0, "failed": 0}, outputs: job},
		{args: append([]string{"job", "create", "--wait"}, append(poll, "--", "--help")...), code: map[string]int{"ok": 0, "failed": 3}, outputs: job},
		{args: []string{"job", "get", hv("job")}, code: map[string]int{"ok": 0, "failed": 0}, outputs: job},
		{args: []string{"job", "get", "--json", hv("job")}, code: map[string]int{"ok": 0, "failed": 0}, outputs: job},
		{args: append([]string{"job", "wait"}, append(poll, hv("job"))...), code: map[string]int{"ok": 0, "failed": 3}, outputs: job},
		{args: append([]string{"job", "wait", "--json"}, append(poll, hv("job"))...), code: map[string]int{"ok": 0, "failed": 3}, outputs: job},
		{args: []string{"job", "message", hv("job"), "Also cover Python"}, code: map[string]int{"ok": 0, "failed": 0}, outputs: job},
		{args: append([]string{"job", "message", "--wait"}, append(poll, hv("job"), "Also cover Go")...), code: map[string]int{"ok": 0, "failed": 3}, outputs: job},
		{args: []string{"deploy"}, code: map[string]int{"ok": 0, "failed": 0}, outputs: deploy},
		{args: append([]string{"deploy", "--wait"}, poll...), code: map[string]int{"ok": 0, "failed": 3}, outputs: deploy},
		{args: []string{"deploy", "status", hv("deployment")}, code: map[string]int{"ok": 0, "failed": 0}, outputs: deploy},
		{args: append([]string{"deploy", "status", "--wait", "--json"}, append(poll, hv("deployment"))...), code: map[string]int{"ok": 0, "failed": 3}, outputs: deploy},
		{args: append([]string{"preview", "--wait"}, append(poll, "docs/new-search")...), code: map[string]int{"ok": 0, "failed": 3}, outputs: preview},
		{args: []string{"preview", "--json", "docs/new-search"}, code: map[string]int{"ok": 0, "failed": 0}, outputs: preview},
		{args: []string{"automation", "run", hostileAutomation}, code: map[string]int{"ok": 0, "failed": 0}, outputs: []string{"run_id"}},
		{args: []string{"automation", "run", "--json", hostileAutomation}, code: map[string]int{"ok": 0, "failed": 0}, outputs: []string{"run_id"}},
		{args: []string{"automation", "webhook", hostileAutomation}, code: map[string]int{"ok": 0, "failed": 0}, outputs: []string{"run_id"}},
		{args: []string{"automation", "webhook", "--json", hostileAutomation}, code: map[string]int{"ok": 0, "failed": 0}, outputs: []string{"run_id"}},
		{args: []string{"static-export", "docs.example.com"}, code: map[string]int{"ok": 0, "failed": 0}, outputs: export},
		{args: append([]string{"static-export", "--wait", "--json"}, append(poll, "docs.example.com")...), code: map[string]int{"ok": 0, "failed": 3}, outputs: export},
		{args: append([]string{"static-export", "--output", filepath.Join(dir, "site.tar.gz")}, append(poll, "docs.example.com")...), code: map[string]int{"ok": 0, "failed": 3}, outputs: export},
		{args: []string{"static-export", "status", hv("export")}, code: map[string]int{"ok": 0, "failed": 0}, outputs: export},
		{args: append([]string{"static-export", "status", "--wait"}, append(poll, hv("export"))...), code: map[string]int{"ok": 0, "failed": 3}, outputs: export},
		{args: []string{"static-export", "download", "--output", filepath.Join(dir, "again.tar.gz"), hv("export")}, code: map[string]int{"ok": 0, "failed": 0}, outputs: export},
		{args: []string{"analytics", "thread", hostileThread}, code: map[string]int{"ok": 0, "failed": 0}},
		{args: []string{"analytics", "thread", "--json", hostileThread}, code: map[string]int{"ok": 0, "failed": 0}},
	}
	for _, r := range analyticsRoutes() {
		// CSV to a pipe under Actions is refused before any request.
		cs = append(cs, actionsCase{args: []string{"analytics", r.name}, code: map[string]int{"ok": 2, "failed": 2, "error": 2}})
		paged := map[string]int{"ok": 0}
		if r.paging == noPaging {
			paged["failed"] = 0
		}
		cs = append(cs,
			actionsCase{args: []string{"analytics", r.name, "--output", filepath.Join(dir, r.name+".csv")}, code: paged},
			actionsCase{args: []string{"analytics", r.name, "--format", "jsonl"}, code: paged, jsonl: r.name},
			actionsCase{args: []string{"analytics", r.name, "--format", "json"}, code: paged},
		)
	}
	return cs
}

// TestEveryCommandAsAnActionsStep runs every mintctl command as a GitHub
// Actions step against a server whose every string carries workflow
// commands, terminal escapes and HTML, and reads stdout and stderr the way
// the runner does: nothing runs that mintctl did not write, no raw
// control character reaches the log, only the documented step outputs
// are written (none after an error), the step summary holds no raw HTML,
// and JSON Lines decode to exactly the server's strings.
func TestEveryCommandAsAnActionsStep(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"ok", "failed", "error"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newHostileAPI(t, mode)
			for _, tc := range actionsCases(t.TempDir()) {
				checkActionsStep(t, h, mode, tc)
			}
		})
	}
}

// sendJSON answers v as JSON with status: how the hostile servers of
// these tests answer.
func sendJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// runStep runs mintctl as a GitHub Actions step (GITHUB_ACTIONS set, env
// added) with short retry waits: the SDK retries a GET whose answer it
// finds malformed, and it may find a hostile server's so.
func runStep(t *testing.T, env map[string]string, args ...string) (stdout, stderr *bytes.Buffer, code int) {
	t.Helper()
	env = maps.Clone(env)
	env["GITHUB_ACTIONS"] = "true"
	return runEnv(t, env, append([]string{"--max-retry-wait", "20ms"}, args...)...)
}

func checkActionsStep(t *testing.T, h *hostileAPI, mode string, tc actionsCase) {
	t.Helper()
	dir := t.TempDir()
	outputs, summary := filepath.Join(dir, "output"), filepath.Join(dir, "summary")
	env := map[string]string{
		mintlify.EnvAPIKey: "mint_actions0123456789", mintlify.EnvProjectID: "p1", mintlify.EnvBaseURL: h.url,
		"GITHUB_OUTPUT": outputs, "GITHUB_STEP_SUMMARY": summary,
	}
	stdout, stderr, code := runStep(t, env, tc.args...)
	what := fmt.Sprintf("%s: mintctl %q", mode, tc.args)

	want, ok := tc.code[mode]
	if !ok {
		want = exitError
	}
	// The SDK may refuse a hostile ID, in an answer (malformed) or as input.
	refused := strings.Contains(stderr.String(), "malformed") || strings.Contains(stderr.String(), "invalid input")
	if code != want && !refused {
		t.Errorf("%s: exit %d, want %d\nstdout: %q\nstderr: %q", what, code, want, stdout.String(), stderr.String())
	}
	own := checkRunnerLog(t, what+" stdout", stdout.String())
	own = append(own, checkRunnerLog(t, what+" stderr", stderr.String())...)
	errors, groups := 0, 0
	for _, c := range own {
		switch c.name {
		case "error":
			errors++
		case "group":
			groups++
		case "endgroup":
			groups--
		}
	}
	assert.Zero(t, groups, "%s: every group ends", what)
	assert.Equal(t, min(code, 1), errors, "%s: one annotation for every failure, none for a success", what)

	written, err := os.ReadFile(outputs)
	if err == nil && len(written) > 0 {
		if mode == "error" {
			t.Errorf("%s: step outputs after an error:\n%s", what, written)
		}
		for name := range parseGitHubOutput(t, string(written)) {
			assert.Contains(t, stepOutputNames, name, "%s: an undocumented step output", what)
			assert.Contains(t, tc.outputs, name, "%s: an output of another command", what)
		}
	}
	reports := tc.args[0] != "analytics" && (code == 0 || code == exitFailed)
	if text, err := os.ReadFile(summary); err != nil || len(text) == 0 {
		assert.False(t, reports, "%s: no step summary", what)
	} else {
		assert.NotEqual(t, "error", mode, "%s: a step summary after an error", what)
		checkNoControl(t, what+" summary", string(text))
		assert.NotContains(t, string(text), "<", "%s: raw HTML in the step summary", what)
		assert.NotContains(t, string(text), "](javascript", "%s: a link from the server in the step summary", what)
	}
	if tc.jsonl != "" && code == 0 {
		var got []map[string]any
		for line := range strings.Lines(stdout.String()) {
			var row map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &row), "%s: %q", what, line)
			got = append(got, row)
		}
		var wantRows []map[string]any
		for _, r := range h.rows[tc.jsonl] {
			b, _ := json.Marshal(r)
			var m map[string]any
			require.NoError(t, json.Unmarshal(b, &m))
			wantRows = append(wantRows, m)
		}
		assert.Equal(t, wantRows, got, "%s: JSON Lines decode to the server's strings", what)
	}
	if t.Failed() {
		t.Logf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", what, code, stdout.String(), stderr.String())
	}
}
