package mockserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// asst sends a POST to the assistant API (path after /discovery) with the
// server's assistant key unless headers say otherwise.
func (h *harness) asst(path, body string, headers ...string) *response {
	h.t.Helper()
	return h.do("POST", "/discovery"+path, body, append([]string{"Authorization", "Bearer " + h.s.AssistantKey()}, headers...)...)
}

func (h *harness) domainPath(route string) string { return route + "/" + h.s.Domain() }

// ask is a v2 message body with one user message.
func ask(question string, extra ...string) string {
	b := `{"fp":"anonymous","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":` + quote(question) + `}]}]`
	for _, e := range extra {
		b += "," + e
	}
	return b + "}"
}

// The five headers of an AI SDK v5 UI message stream, as its server
// helpers send them.
var uiStreamHeaders = map[string]string{
	"Content-Type":                  "text/event-stream",
	"Cache-Control":                 "no-cache",
	"Connection":                    "keep-alive",
	"X-Vercel-Ai-Ui-Message-Stream": "v1",
	"X-Accel-Buffering":             "no",
}

// uiStream is what a client following the AI SDK v5 protocol reads from a
// stream: the chunks in order, the text of each text part, the cited URLs
// and the finish chunk.
type uiStream struct {
	chunks  []map[string]any
	text    string
	sources []string
	finish  map[string]any
}

// The chunk types of the v5 UI message stream, and the members each must
// carry, from the protocol (data-<name> chunks carry data).
var uiChunkMembers = map[string][]string{
	"start": nil, "finish": nil, "abort": nil, "message-metadata": {"messageMetadata"},
	"error":      {"errorText"},
	"start-step": nil, "finish-step": nil,
	"text-start": {"id"}, "text-delta": {"id", "delta"}, "text-end": {"id"},
	"reasoning-start": {"id"}, "reasoning-delta": {"id", "delta"}, "reasoning-end": {"id"},
	"source-url":       {"sourceId", "url"},
	"source-document":  {"sourceId", "mediaType", "title"},
	"file":             {"url", "mediaType"},
	"tool-input-start": {"toolCallId", "toolName"}, "tool-input-delta": {"toolCallId", "inputTextDelta"},
	"tool-input-available": {"toolCallId", "toolName", "input"}, "tool-input-error": {"toolCallId", "toolName", "input", "errorText"},
	"tool-output-available": {"toolCallId", "output"}, "tool-output-error": {"toolCallId", "errorText"},
}

// checkUIStream reads an answer as an AI SDK v5 client would and fails the
// test where the protocol is broken: the five headers; every event a
// "data: " line followed by a blank line; every chunk a JSON object of a
// known type with its members; a text or reasoning delta only between the
// start and end of its id; tool input deltas after their start, outputs
// after their input; steps that open and close in turn; one finish, then
// [DONE], then nothing.
func checkUIStream(t testing.TB, header http.Header, body []byte) uiStream {
	t.Helper()
	for name, want := range uiStreamHeaders {
		require.Equal(t, want, header.Get(name), "header %s", name)
	}
	require.True(t, bytes.HasSuffix(body, []byte("\n\n")), "the stream ends with a blank line: %q", tail(body))
	events := strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n")
	require.NotEmpty(t, events)
	require.Equal(t, "data: [DONE]", events[len(events)-1], "[DONE] ends the stream")
	var out uiStream
	open := map[string]string{} // text/reasoning id -> its kind, while open
	closed := map[string]bool{}
	tools := map[string]string{} // toolCallId -> the last state
	inStep := false
	texts := map[string]*strings.Builder{}
	for i, ev := range events[:len(events)-1] {
		data, ok := strings.CutPrefix(ev, "data: ")
		require.True(t, ok, "event %d is not a data line: %q", i, ev)
		require.NotContains(t, data, "\n", "event %d spans lines", i)
		var c map[string]any
		require.NoError(t, json.Unmarshal([]byte(data), &c), "event %d is not a JSON object: %q", i, data)
		typ, _ := c["type"].(string)
		if strings.HasPrefix(typ, "data-") {
			require.Contains(t, c, "data", "event %d", i)
		} else {
			members, known := uiChunkMembers[typ]
			require.True(t, known, "event %d has an unknown chunk type %q", i, typ)
			for _, m := range members {
				require.Contains(t, c, m, "event %d (%s) lacks %s", i, typ, m)
			}
		}
		require.Nil(t, out.finish, "chunk %s after finish", typ)
		id, _ := c["id"].(string)
		call, _ := c["toolCallId"].(string)
		switch kind, _, _ := strings.Cut(typ, "-"); typ {
		case "start-step":
			require.False(t, inStep, "a step starts inside a step")
			inStep = true
		case "finish-step":
			require.True(t, inStep, "finish-step without start-step")
			inStep = false
		case "text-start", "reasoning-start":
			require.NotContains(t, open, id, "%s of an open id", typ)
			require.False(t, closed[id], "%s of an ended id", typ)
			open[id] = kind
			texts[id] = &strings.Builder{}
		case "text-delta", "reasoning-delta":
			require.Equal(t, kind, open[id], "%s of id %q outside its start and end", typ, id)
			texts[id].WriteString(c["delta"].(string))
		case "text-end", "reasoning-end":
			require.Equal(t, kind, open[id], "%s of id %q that is not open", typ, id)
			delete(open, id)
			closed[id] = true
			if kind == "text" {
				out.text += texts[id].String()
			}
		case "tool-input-start":
			require.NotContains(t, tools, call)
			tools[call] = "input"
		case "tool-input-delta":
			require.Equal(t, "input", tools[call], "tool-input-delta before tool-input-start")
		case "tool-input-available":
			require.Contains(t, []string{"", "input"}, tools[call])
			tools[call] = "available"
		case "tool-output-available", "tool-output-error":
			require.Equal(t, "available", tools[call], "%s before the tool's input", typ)
			tools[call] = "done"
		case "source-url":
			out.sources = append(out.sources, c["url"].(string))
		case "finish":
			out.finish = c
		}
		out.chunks = append(out.chunks, c)
	}
	require.Empty(t, open, "text or reasoning parts never ended")
	require.False(t, inStep, "a step never finished")
	require.NotNil(t, out.finish, "no finish before [DONE]")
	require.Equal(t, "start", out.chunks[0]["type"], "a stream begins with start")
	return out
}

func tail(b []byte) []byte { return b[max(0, len(b)-80):] }

var ulid = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)

// A message streams a v5 UI message stream a client accepts: a search
// step, the answer's text, the pages it cites, finish with the thread,
// [DONE]; and the thread headers.
func TestMessageStreamFollowsTheUIMessageStreamProtocol(t *testing.T) {
	t.Parallel()
	h := setup(t)
	for _, q := range []string{"How do rate limits work?", "What are preview deployments?", "capital of France", "ünïcödé — 日本語 <script>&"} {
		r := h.asst(h.domainPath("/v2/assistant")+"/message", ask(q))
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", q, r.Body)
		st := checkUIStream(t, r.Header, r.Body)
		require.Regexp(t, ulid, r.Header.Get("X-Thread-Id"), q)
		assert.Regexp(t, `^[0-9a-f]{32}$`, r.Header.Get("X-Thread-Key"), q)
		assert.Equal(t, r.Header.Get("X-Thread-Id"), st.finish["threadId"], "finish carries the thread")
		assert.Equal(t, "stop", st.finish["finishReason"])
		assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
		assert.Contains(t, r.Header.Get("Access-Control-Expose-Headers"), "X-Thread-Key")
		require.NotEmpty(t, st.text, q)
		if q == "capital of France" || strings.HasPrefix(q, "ünïcödé") {
			assert.Empty(t, st.sources, "nothing to cite")
			assert.Contains(t, st.text, "do not seem to cover it")
			continue
		}
		require.NotEmpty(t, st.sources, q)
		for _, u := range st.sources {
			assert.True(t, strings.HasPrefix(u, "https://"+h.s.Domain()+"/"), u)
			assert.Contains(t, st.text, "("+u+")", "the text links each cited page")
		}
	}
	assert.EqualValues(t, 4, h.s.Credits(), "one credit per answered message")
}

// The deprecated v1 route streams the same answer as an AI SDK v4 data
// stream: <code>:<JSON> lines of known codes, the same text, ending with d.
func TestV1MessageIsADataStreamOfTheSameAnswer(t *testing.T) {
	t.Parallel()
	h := setup(t)
	first := h.asst(h.domainPath("/v2/assistant")+"/message", ask("deployments and previews"))
	v2 := checkUIStream(t, first.Header, first.Body)
	r := h.asst(h.domainPath("/v1/assistant")+"/message", `{"fp":"x","messages":[{"id":"1","role":"user","content":"deployments and previews"}]}`)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.Equal(t, "v1", r.Header.Get("X-Vercel-Ai-Data-Stream"))
	assert.Regexp(t, ulid, r.Header.Get("X-Thread-Id"))
	lines := strings.Split(strings.TrimSuffix(string(r.Body), "\n"), "\n")
	var text strings.Builder
	var sources int
	for i, line := range lines {
		code, payload, ok := strings.Cut(line, ":")
		require.True(t, ok && len(code) == 1 && strings.Contains("0239aefdh", code), "line %d: %q", i, line)
		var v any
		require.NoError(t, json.Unmarshal([]byte(payload), &v), "line %d", i)
		switch code {
		case "0":
			text.WriteString(v.(string))
		case "h":
			sources++
		case "3":
			t.Fatalf("an error part: %s", line)
		}
		if i == len(lines)-1 {
			require.Equal(t, "d", code, "a v4 stream ends with its finish part")
			assert.Equal(t, r.Header.Get("X-Thread-Id"), v.(map[string]any)["threadId"])
		}
	}
	assert.Equal(t, v2.text, text.String(), "the same answer in both formats")
	assert.Equal(t, len(v2.sources), sources)
}

// A thread continues only with its key; the follow-up's answer names the
// thread but never its key again. A wrong or missing key, an unknown
// thread and another domain's thread are one 404.
func TestThreadsContinueOnlyWithTheirKey(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithKey("mint_dsc_other_site", mockserver.KeySpec{Domain: "other.example.com"}))
	_, err := h.s.AddPages("other.example.com", mockserver.Page{Path: "a", Title: "A", Content: "Rate limits elsewhere."})
	require.NoError(t, err)
	msg := h.domainPath("/v2/assistant") + "/message"
	first := h.asst(msg, ask("rate limits"))
	require.Equal(t, http.StatusOK, first.Status)
	id, key := first.Header.Get("X-Thread-Id"), first.Header.Get("X-Thread-Key")
	require.NotEmpty(t, key)

	follow := h.asst(msg, ask("and previews?", `"threadId":`+quote(id), `"threadKey":`+quote(key)))
	require.Equal(t, http.StatusOK, follow.Status, "%s", follow.Body)
	assert.Equal(t, id, follow.Header.Get("X-Thread-Id"))
	assert.Empty(t, follow.Header.Values("X-Thread-Key"), "the key is sent once, with the new thread")
	assert.Equal(t, id, checkUIStream(t, follow.Header, follow.Body).finish["threadId"])
	assert.Len(t, h.s.Journal(), 2)

	for name, r := range map[string]*response{
		"wrong key":       h.asst(msg, ask("x", `"threadId":`+quote(id), `"threadKey":"00000000000000000000000000000000"`)),
		"no key":          h.asst(msg, ask("x", `"threadId":`+quote(id))),
		"unknown thread":  h.asst(msg, ask("x", `"threadId":"01JN1JSWJN9BZ6R1S1D798A6XW"`, `"threadKey":`+quote(key))),
		"another domain":  h.do("POST", "/discovery/v2/assistant/other.example.com/message", ask("x", `"threadId":`+quote(id), `"threadKey":`+quote(key)), "Authorization", "Bearer mint_dsc_other_site"),
		"another v1 form": h.asst(h.domainPath("/v1/assistant")+"/message", ask("x", `"threadId":`+quote(id), `"threadKey":"nope"`)),
	} {
		require.Equal(t, http.StatusNotFound, r.Status, "%s: %s", name, r.Body)
		validate(t, "discovery-error", r.Body)
		assert.Equal(t, `{"message":"Thread not found"}`, string(r.Body), name)
	}
	assert.EqualValues(t, 2, h.s.Credits(), "refused messages cost nothing")
}

// A page added over the control API is found by a word only it holds,
// read back whole, and cited by the answer.
func TestAPageAddedOverTheControlAPIIsFoundAndCited(t *testing.T) {
	t.Parallel()
	h := setup(t)
	r := h.do("POST", "/_mock/pages", `{"pages":[
		{"path":"/guides/wombats/","title":"Wombat mode","content":"Wombat mode batches every zyxquokka request.\n\nIt is off by default."},
		{"path":"staff/zyx","title":"Secret","content":"zyxquokka staff notes","groups":["staff"]}]}`)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	assert.JSONEq(t, `{"added":2}`, string(r.Body))
	assert.Len(t, h.s.Pages(""), len(h.s.Pages(h.s.Domain())))

	found := h.asst(h.domainPath("/v1/search"), `{"query":"zyxquokka"}`)
	require.Equal(t, http.StatusOK, found.Status, "%s", found.Body)
	validate(t, "docs-search", found.Body)
	var results []struct {
		Path, Content string
	}
	found.decode(t, &results)
	require.Len(t, results, 1, "the staff page stays hidden without its group")
	assert.Equal(t, "guides/wombats", results[0].Path)
	assert.Contains(t, results[0].Content, "zyxquokka")

	withGroup := h.asst(h.domainPath("/v1/search"), `{"query":"zyxquokka","filter":{"groups":["staff"]}}`)
	found.decode(t, &results)
	withGroup.decode(t, &results)
	assert.Len(t, results, 2)

	for _, path := range []string{"guides/wombats", "/guides/wombats"} {
		page := h.asst(h.domainPath("/v1/page"), `{"path":`+quote(path)+`}`)
		require.Equal(t, http.StatusOK, page.Status, "%s", page.Body)
		validate(t, "page-content", page.Body)
		assert.JSONEq(t, `{"path":"guides/wombats","content":"Wombat mode batches every zyxquokka request.\n\nIt is off by default."}`, string(page.Body))
	}
	hidden := h.asst(h.domainPath("/v1/page"), `{"path":"staff/zyx"}`)
	assert.Equal(t, http.StatusNotFound, hidden.Status, "a protected page is not found without its group")
	assert.Equal(t, http.StatusOK, h.asst(h.domainPath("/v1/page"), `{"path":"staff/zyx","groups":["staff"]}`).Status)

	answer := h.asst(h.domainPath("/v2/assistant")+"/message", ask("What does zyxquokka do?"))
	st := checkUIStream(t, answer.Header, answer.Body)
	assert.Equal(t, []string{"https://" + h.s.Domain() + "/guides/wombats"}, st.sources)
	assert.Contains(t, st.text, "zyxquokka")

	bad := h.do("POST", "/_mock/pages", `{"pages":[{"path":"x","title":"","content":"c"}]}`)
	assert.Equal(t, http.StatusBadRequest, bad.Status)
	validate(t, "error", bad.Body)
	assert.Equal(t, http.StatusBadRequest, h.do("POST", "/_mock/pages", `{"pages":[{"path":"x","title":"t","content":"c","Groups":[]}]}`).Status, "control bodies read keys exactly")
	_, err := h.s.AddPages("", mockserver.Page{Path: "../x", Title: "t", Content: "c"})
	assert.Error(t, err)

	h.s.Reset()
	assert.Equal(t, http.StatusNotFound, h.asst(h.domainPath("/v1/page"), `{"path":"guides/wombats"}`).Status, "Reset returns to the default pages")
}

// Every answer of search and page content, whatever the request, is valid
// against the project's schema; refusals are {"message"}.
func TestSearchAndPageContentAnswersMatchTheSchema(t *testing.T) {
	t.Parallel()
	h := setup(t)
	search := h.domainPath("/v1/search")
	var paths []string
	for _, body := range []string{
		`{"query":"deployment"}`,
		`{"query":"deployment","pageSize":1}`,
		`{"query":"keys limits deployments previews","pageSize":50,"scoreThreshold":0}`,
		`{"query":"keys limits deployments previews","scoreThreshold":1}`,
		`{"query":"keys","scoreThreshold":0.5,"filter":{"language":"en","tag":"api"}}`,
		`{"query":"keys","filter":{"version":"v9"}}`,
		`{"query":"the of and"}`,
		`{"query":"` + strings.Repeat("deployment ", 500) + `"}`,
		`{"query":"incident","filter":{"groups":["staff","other"]}}`,
		`{"query":"deploy","QUERY":"x","unknown":{"a":[1]},"pageSize":3}`,
		"{\"query\":\"deploy\xff\"}",
	} {
		r := h.asst(search, body)
		require.Equal(t, http.StatusOK, r.Status, "%.80s: %s", body, r.Body)
		validate(t, "docs-search", r.Body)
		var results []struct{ Path string }
		r.decode(t, &results)
		for _, res := range results {
			paths = append(paths, res.Path)
		}
	}
	require.NotEmpty(t, paths)
	for _, p := range paths {
		r := h.asst(h.domainPath("/v1/page"), `{"path":`+quote(p)+`,"groups":["staff"]}`)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", p, r.Body)
		validate(t, "page-content", r.Body)
	}
	r := h.asst(h.domainPath("/v1/page"), `{"path":"nowhere"}`)
	require.Equal(t, http.StatusNotFound, r.Status)
	validate(t, "discovery-error", r.Body)
	assert.Equal(t, `{"message":"Page not found"}`, string(r.Body))
	unknown := h.asst("/v1/nowhere/"+h.s.Domain(), `{}`)
	require.Equal(t, http.StatusNotFound, unknown.Status)
	validate(t, "discovery-error", unknown.Body)
	assert.Equal(t, "*", unknown.Header.Get("Access-Control-Allow-Origin"))
}

// Validation of the assistant's requests: each refusal a 400 {"message"}
// naming the problem, and nothing spent.
func TestAssistantValidation(t *testing.T) {
	t.Parallel()
	h := setup(t)
	msg, search, page := h.domainPath("/v2/assistant")+"/message", h.domainPath("/v1/search"), h.domainPath("/v1/page")
	user := `{"id":"u","role":"user","parts":[{"type":"text","text":"hi"}]}`
	cases := []struct{ path, body, want string }{
		{msg, `{"messages":[` + user + `]}`, "fp is required"},
		{msg, `{"fp":"","messages":[` + user + `]}`, "fp is required"},
		{msg, `{"fp":"a"}`, "at least one message"},
		{msg, `{"fp":"a","messages":[]}`, "at least one message"},
		{msg, `{"fp":"a","messages":[` + user + `,{"id":"b","role":"assistant","parts":[{"type":"text","text":"yo"}]}]}`, "the last message must be the user's"},
		{msg, `{"fp":"a","messages":[{"id":"s","role":"robot","parts":[]},` + user + `]}`, `robot`},
		{msg, `{"fp":"a","messages":[{"id":"u","role":"user","parts":[{"type":"text","text":"  "}]}]}`, "has no text"},
		{msg, `{"fp":"a","messages":[{"id":"u","role":"user","parts":[{"text":"x"}]}]}`, "type is required"},
		{msg, `{"fp":"a","messages":[` + user + `],"retrievalPageSize":0}`, "retrievalPageSize must be between 1 and 50"},
		{msg, `{"fp":"a","messages":[` + user + `],"retrievalPageSize":51}`, "retrievalPageSize must be between 1 and 50"},
		{msg, `{"fp":"a","messages":[` + user + `],"currentPath":"` + strings.Repeat("é", 201) + `"}`, "currentPath: at most 200 characters"},
		{msg, `{"fp":"a","messages":[` + user + `],"context":[{"type":"image","value":"x"}]}`, "not code or textSelection"},
		{msg, `{"fp":1,"messages":[` + user + `]}`, "fp: must be a JSON string"},
		{msg, `[]`, "must be a JSON object"},
		{msg, ``, "must be a JSON object"},
		{msg, `{"fp":"a","fp":"b","messages":[` + user + `]}`, "given more than once"},
		{search, `{}`, "query is required"},
		{search, `{"query":"x","pageSize":0}`, "pageSize must be between 1 and 50"},
		{search, `{"query":"x","pageSize":51}`, "pageSize must be between 1 and 50"},
		{search, `{"query":"x","scoreThreshold":1.5}`, "scoreThreshold must be between 0 and 1"},
		{search, `{"query":"x","scoreThreshold":-0.1}`, "scoreThreshold must be between 0 and 1"},
		{search, `{"query":"x","pageSize":2.5}`, "pageSize"},
		{page, `{}`, "path is required"},
		{page, `{"path":"/"}`, "path is required"},
	}
	for _, c := range cases {
		r := h.asst(c.path, c.body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s %s: %s", c.path, c.body, r.Body)
		validate(t, "discovery-error", r.Body)
		assert.Contains(t, string(r.Body), c.want, c.body)
	}
	huge := h.asst(msg, `{"fp":"a","pad":"`+strings.Repeat("x", 2<<20)+`"}`)
	assert.Equal(t, http.StatusRequestEntityTooLarge, huge.Status)
	validate(t, "discovery-error", huge.Body)
	assert.Zero(t, h.s.Credits())
	// Members the schema does not name are ignored, case variants too.
	ok := h.asst(msg, `{"fp":"a","FP":"","messages":[`+user+`],"Messages":[],"extra":{"x":1},"currentPath":"/quickstart"}`)
	require.Equal(t, http.StatusOK, ok.Status, "%s", ok.Body)
	checkUIStream(t, ok.Header, ok.Body)
}

// Keys: only an assistant key of the path's domain passes; an admin or
// Index key is 401, another domain's key 403, an expired key 401, a key
// from outside its allowlist 403; assistant and Index keys open no admin
// route.
func TestAssistantKeys(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock),
		mockserver.WithKey("mint_dsc_other", mockserver.KeySpec{Domain: "other.example.com"}),
		mockserver.WithKey("mint_dsc_expiring", mockserver.KeySpec{ExpiresAt: epoch.Add(time.Hour)}),
		mockserver.WithKey("mint_dsc_faraway", mockserver.KeySpec{AllowIPs: []string{"10.0.0.0/8"}}))
	assistant := routes(t, func(rt mockserver.RouteRow) bool { return rt.API == "assistant" })
	clock.Advance(2 * time.Hour)
	cases := []struct {
		auth   string
		status int
	}{
		{"Bearer " + h.s.AssistantKey(), http.StatusOK},
		{"bearer " + h.s.AssistantKey(), http.StatusOK},
		{"", http.StatusUnauthorized},
		{"Basic " + h.s.AssistantKey(), http.StatusUnauthorized},
		{"Bearer " + h.s.APIKey(), http.StatusUnauthorized},
		{"Bearer " + h.s.IndexKey(), http.StatusUnauthorized},
		{"Bearer mint_dsc_unknown", http.StatusUnauthorized},
		{"Bearer mint_dsc_expiring", http.StatusUnauthorized},
		{"Bearer mint_dsc_other", http.StatusForbidden},
		{"Bearer mint_dsc_faraway", http.StatusForbidden},
	}
	for _, rt := range assistant {
		req := mockserver.Sample(t, h.s, rt.Name)
		for _, c := range cases {
			r := h.do(req.Method, req.Path, req.Body, "Authorization", c.auth)
			require.Equal(t, c.status, r.Status, "%s with %q: %s", req.Path, c.auth, r.Body)
			assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
			if c.status >= 400 {
				validate(t, "discovery-error", r.Body)
				assert.NotContains(t, string(r.Body), "mint_dsc_", "no key echoed")
			}
		}
	}
	// Another domain's key is 403 whether that domain exists or not, and
	// the primary key is 403 on another domain.
	for _, domain := range []string{"other.example.com", "nowhere.example.com"} {
		r := h.do("POST", "/discovery/v1/search/"+domain, `{"query":"x"}`, "Authorization", "Bearer "+h.s.AssistantKey())
		assert.Equal(t, http.StatusForbidden, r.Status, domain)
		assert.Equal(t, `{"message":"Forbidden: this assistant key belongs to another domain"}`, string(r.Body))
	}
	// The domain is a hostname: case does not matter.
	assert.Equal(t, http.StatusOK, h.do("POST", "/discovery/v1/search/DOCS.Example.com", `{"query":"x"}`, "Authorization", "Bearer "+h.s.AssistantKey()).Status)
	for _, key := range []string{h.s.AssistantKey(), h.s.IndexKey()} {
		r := h.do("GET", "/v1/analytics/"+h.s.ProjectID()+"/visitors", "", "Authorization", "Bearer "+key)
		assert.Equal(t, http.StatusUnauthorized, r.Status, "%s", r.Body)
		validate(t, "error", r.Body)
	}
	// New keys over the control API, of each kind.
	var k struct{ Key string }
	h.do("POST", "/_mock/keys", `{"type":"assistant","domain":"other.example.com"}`).decode(t, &k)
	require.True(t, strings.HasPrefix(k.Key, "mint_dsc_"), k.Key)
	assert.Equal(t, http.StatusOK, h.do("POST", "/discovery/v1/search/other.example.com", `{"query":"x"}`, "Authorization", "Bearer "+k.Key).Status)
	h.do("POST", "/_mock/keys", `{"type":"assistant"}`).decode(t, &k)
	assert.Equal(t, http.StatusOK, h.asst(h.domainPath("/v1/search"), `{"query":"x"}`, "Authorization", "Bearer "+k.Key).Status, "an assistant key defaults to the mock's domain")
	for _, body := range []string{`{"type":"robot"}`, `{"type":"index","domain":"d.io"}`, `{"type":"assistant","scopes":["read"]}`, `{"domain":"d.io"}`} {
		assert.Equal(t, http.StatusBadRequest, h.do("POST", "/_mock/keys", body).Status, body)
	}
}

// The turn shows in the primary project's analytics export, caller api,
// and its transcript reads back; credits count answered messages.
func TestTurnsShowInTheAnalyticsExportAndCostCredits(t *testing.T) {
	t.Parallel()
	h := setup(t)
	first := h.asst(h.domainPath("/v2/assistant")+"/message", ask("Which API keys are there?", `"currentPath":"/quickstart"`))
	require.Equal(t, http.StatusOK, first.Status)
	id, key := first.Header.Get("X-Thread-Id"), first.Header.Get("X-Thread-Key")
	h.asst(h.domainPath("/v2/assistant")+"/message", ask("teach me astrophysics", `"threadId":`+quote(id), `"threadKey":`+quote(key)))

	a := "/v1/analytics/" + h.s.ProjectID() + "/assistant"
	var page struct {
		Conversations []struct {
			ID, Query, ResolutionStatus string
			PageURL                     *string
			Sources                     []struct{ Title, URL string }
		} `json:"conversations"`
	}
	r := h.do("GET", a, "")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	validate(t, "assistant", r.Body)
	r.decode(t, &page)
	require.Len(t, page.Conversations, 2)
	latest, earliest := page.Conversations[0], page.Conversations[1]
	assert.Equal(t, id, earliest.ID)
	assert.Equal(t, "Which API keys are there?", earliest.Query)
	assert.Equal(t, "answered", earliest.ResolutionStatus)
	assert.NotEmpty(t, earliest.Sources)
	require.NotNil(t, earliest.PageURL)
	assert.Equal(t, "https://"+h.s.Domain()+"/quickstart", *earliest.PageURL)
	assert.Equal(t, "unanswered", latest.ResolutionStatus, "the docs hold nothing on astrophysics")

	thread := h.do("GET", a+"/threads/"+id, "")
	require.Equal(t, http.StatusOK, thread.Status)
	validate(t, "thread", thread.Body)
	var tr struct {
		Messages []struct{ Role, Content string }
	}
	thread.decode(t, &tr)
	require.Len(t, tr.Messages, 4)
	assert.Equal(t, "teach me astrophysics", tr.Messages[2].Content)
	var stats struct{ API, Web int }
	h.do("GET", a+"/caller-stats", "").decode(t, &stats)
	assert.Equal(t, 2, stats.API)

	var credits struct{ Credits int64 }
	h.do("GET", "/_mock/credits", "").decode(t, &credits)
	assert.EqualValues(t, 2, credits.Credits)
	h.asst(h.domainPath("/v1/search"), `{"query":"keys"}`)
	h.asst(h.domainPath("/v1/page"), `{"path":"quickstart"}`)
	h.asst(h.domainPath("/v2/assistant")+"/message", `{"fp":"a"}`)
	assert.EqualValues(t, 2, h.s.Credits(), "search, page content and refusals are free")
	h.s.Reset()
	assert.Zero(t, h.s.Credits())
}

// The limits: messages per organization and per address, search and page
// content each apart; every 429 has Retry-After in seconds and the
// {"message"} body; WithoutRateLimits turns them all off.
func TestAssistantRateLimits(t *testing.T) {
	t.Parallel()
	v2, v1 := mockserver.RouteAssistantMessage, mockserver.RouteAssistantMessageV1
	search, page := mockserver.RouteDocsSearch, mockserver.RoutePageContent
	cases := []struct {
		opt    mockserver.Option
		routes []string // the last is refused
	}{
		{mockserver.WithAssistantRateLimit(2, time.Hour), []string{v2, v1, v2}},
		{mockserver.WithAssistantIPRateLimit(1, mockserver.DailyWindow), []string{v1, v2}},
		{mockserver.WithDocsRateLimit(1, time.Hour), []string{search, page, search}},
		{mockserver.WithDocsRateLimit(1, time.Hour), []string{page, search, page}},
	}
	for _, c := range cases {
		h := setup(t, c.opt)
		for i, name := range c.routes {
			r := h.sendSample(routeNamed(t, name), mockserver.Sample(t, h.s, name))
			if i < len(c.routes)-1 {
				require.Equal(t, http.StatusOK, r.Status, "%s: %s", name, r.Body)
				continue
			}
			require.Equal(t, http.StatusTooManyRequests, r.Status, "%v: %s", c.routes, r.Body)
			validate(t, "discovery-error", r.Body)
			assert.Regexp(t, `^[1-9][0-9]*$`, r.Header.Get("Retry-After"))
		}
	}
	h := setup(t, mockserver.WithAssistantRateLimit(1, time.Hour), mockserver.WithDocsRateLimit(1, time.Hour), mockserver.WithoutRateLimits())
	for range 3 {
		require.Equal(t, http.StatusOK, h.asst(h.domainPath("/v2/assistant")+"/message", ask("keys")).Status)
		require.Equal(t, http.StatusOK, h.asst(h.domainPath("/v1/search"), `{"query":"keys"}`).Status)
	}
}

// CORS: a preflight is answered without a key; every assistant answer
// allows any origin and exposes the thread headers.
func TestAssistantAnswersCORS(t *testing.T) {
	t.Parallel()
	h := setup(t)
	r := h.do("OPTIONS", h.domainPath("/discovery/v2/assistant")+"/message", "", "Authorization", "", "Origin", "https://app.example", "Access-Control-Request-Method", "POST")
	require.Equal(t, http.StatusNoContent, r.Status)
	assert.Equal(t, "*", r.Header.Get("Access-Control-Allow-Origin"))
	assert.Contains(t, r.Header.Get("Access-Control-Allow-Methods"), "POST")
	assert.Contains(t, r.Header.Get("Access-Control-Allow-Headers"), "Authorization")
	assert.Equal(t, "X-Thread-Id, X-Thread-Key", r.Header.Get("Access-Control-Expose-Headers"))
	assert.Empty(t, h.s.Journal(), "a preflight is no API call")
}

// Faults reach a stream: stream-error ends it with an error chunk and
// [DONE] (no finish); truncate cuts the connection mid-stream; reset
// answers nothing although the turn was recorded; status answers the
// discovery error body; slow spreads the frames over its delay.
func TestFaultsReachTheStream(t *testing.T) {
	t.Parallel()
	h := setup(t)
	msg := h.domainPath("/v2/assistant") + "/message"
	raw := func(fault string) (*http.Response, []byte, error) {
		req, _ := http.NewRequest("POST", h.s.URL()+"/discovery"+msg, strings.NewReader(ask("rate limits")))
		req.Header.Set("Authorization", "Bearer "+h.s.AssistantKey())
		req.Header.Set(mockserver.FaultHeader, fault)
		resp, err := h.hc.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, b, err
	}

	resp, body, err := raw("stream-error")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	events := strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n")
	require.GreaterOrEqual(t, len(events), 3)
	assert.Equal(t, "data: [DONE]", events[len(events)-1])
	assert.Contains(t, events[len(events)-2], `"type":"error","errorText":`)
	assert.NotContains(t, string(body), `"type":"finish"`)

	resp, body, err = raw("truncate")
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "the stream is cut")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.NotContains(t, string(body), "[DONE]")
	assert.Contains(t, string(body), `"type":"start"`)

	before := h.s.Credits()
	_, _, err = raw("reset")
	require.Error(t, err)
	assert.Equal(t, before+1, h.s.Credits(), "processed: the turn was answered and counted")

	resp, body, err = raw("status=503")
	require.NoError(t, err)
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	validate(t, "discovery-error", body)

	start := time.Now()
	resp, body, err = raw("slow=300ms")
	require.NoError(t, err)
	checkUIStream(t, resp.Header, body)
	assert.GreaterOrEqual(t, time.Since(start), 250*time.Millisecond)

	v1 := h.do("POST", "/discovery"+h.domainPath("/v1/assistant")+"/message", ask("rate limits"), "Authorization", "Bearer "+h.s.AssistantKey(), mockserver.FaultHeader, "stream-error")
	lines := strings.Split(strings.TrimSuffix(string(v1.Body), "\n"), "\n")
	assert.True(t, strings.HasPrefix(lines[len(lines)-1], "3:"), "a v4 stream ends with its error part: %q", lines[len(lines)-1])

	// A rule, and its validation.
	_, err = mockserver.ParseFault("route=" + mockserver.RouteDocsSearch + ",stream-error")
	assert.Error(t, err, "search does not stream")
	rule, err := mockserver.ParseFault("route=" + mockserver.RouteAssistantMessage + ",stream-error,times=1")
	require.NoError(t, err)
	require.NoError(t, h.s.InjectFault(rule))
	r := h.asst(msg, ask("keys"))
	assert.Contains(t, string(r.Body), `"type":"error"`)
	assert.Equal(t, string(mockserver.FaultStreamError), h.s.Journal()[len(h.s.Journal())-1].Fault)
	// On a route that does not stream it changes nothing.
	assert.Equal(t, http.StatusOK, h.asst(h.domainPath("/v1/search"), `{"query":"x"}`, mockserver.FaultHeader, "stream-error").Status)

	// In memory, the same faults.
	mem := &harness{t: t, s: h.s, hc: h.s.Client()}
	cut := mem.asst(msg, ask("keys"), mockserver.FaultHeader, "stream-error")
	assert.Contains(t, string(cut.Body), `"type":"error"`)
	req, _ := http.NewRequest("POST", h.s.URL()+"/discovery"+msg, strings.NewReader(ask("keys")))
	req.Header.Set("Authorization", "Bearer "+h.s.AssistantKey())
	req.Header.Set(mockserver.FaultHeader, "truncate")
	memResp, err := h.s.Client().Do(req)
	require.NoError(t, err)
	_, err = io.ReadAll(memResp.Body)
	memResp.Body.Close()
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

// Frames are written and flushed one by one with the stream delay between
// them: the first arrives long before the last would; a client that goes
// away, or Close, ends the stream at once.
func TestStreamIsWrittenFrameByFrameAndStopsPromptly(t *testing.T) {
	t.Parallel()
	for _, end := range []string{"client leaves", "server closes"} {
		t.Run(end, func(t *testing.T) {
			t.Parallel()
			const delay = 300 * time.Millisecond // dozens of frames: the whole answer would take many seconds
			s := mockserver.Start(t, mockserver.WithStreamDelay(delay))
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", s.URL()+"/discovery/v2/assistant/"+s.Domain()+"/message", strings.NewReader(ask("deployments previews keys")))
			req.Header.Set("Authorization", "Bearer "+s.AssistantKey())
			start := time.Now()
			resp, err := (&http.Client{Transport: tr}).Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			rd := bufio.NewReader(resp.Body)
			line, err := rd.ReadString('\n')
			require.NoError(t, err)
			assert.Contains(t, line, `"type":"start"`)
			second, err := rd.ReadString('\n')
			require.NoError(t, err)
			require.Equal(t, "\n", second)
			assert.Less(t, time.Since(start), 3*delay, "the first frame came before the rest")
			third, err := rd.ReadString('\n')
			require.NoError(t, err)
			assert.GreaterOrEqual(t, time.Since(start), delay-50*time.Millisecond, "the next frame waited for the delay: %q", third)

			stopped := time.Now()
			if end == "client leaves" {
				cancel()
				_ = resp.Body.Close()
			}
			done := make(chan struct{})
			go func() { s.Close(); close(done) }() // waits for every handler, the stream's too
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the stream outlived its client or Close")
			}
			assert.Less(t, time.Since(stopped), 2*time.Second)
			if end == "server closes" {
				_, err := io.ReadAll(rd)
				assert.Error(t, err, "a stream cut by Close never ends cleanly")
			}
		})
	}
}

// Hostile bodies and paths get the discovery error body, never a 5xx, and
// short.
func TestAssistantHostileRequests(t *testing.T) {
	t.Parallel()
	h := setup(t)
	long := strings.Repeat("x", 10<<10)
	for _, c := range []struct{ path, body string }{
		{h.domainPath("/v2/assistant") + "/message", strings.Repeat("[", 100) + strings.Repeat("]", 100)},
		{h.domainPath("/v2/assistant") + "/message", `{"fp":"a","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}],"threadId":"` + long + `","threadKey":"k"}`},
		{h.domainPath("/v2/assistant") + "/message", `{"fp":"a","messages":` + strings.Repeat(`[`, 70) + `}`},
		{"/v2/assistant/" + long + "/message", ask("x")},
		{"/v1/search/" + h.s.Domain() + "%2Fx", `{"query":"x"}`},
		{h.domainPath("/v1/page"), `{"path":"` + long + `"}`},
		{h.domainPath("/v1/page"), `{"path":"../../etc/passwd"}`},
	} {
		r := h.asst(c.path, c.body)
		require.GreaterOrEqual(t, r.Status, 400, "%.80s: %s", c.path, r.Body)
		require.Less(t, r.Status, 500, "%.80s: %s", c.path, r.Body)
		validate(t, "discovery-error", r.Body)
		assert.Less(t, len(r.Body), 4<<10)
	}
}

// FuzzAssistantBody: whatever the body, a message answers a valid stream or
// a discovery error, never a 5xx.
func FuzzAssistantBody(f *testing.F) {
	for _, b := range []string{ask("keys"), `{"fp":"a"}`, `{"fp":"a","messages":[{"role":"user","content":"x"}]}`, "", "{", `{"fp":"a","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}],"retrievalPageSize":50}`} {
		f.Add(b)
	}
	s := mockserver.New(mockserver.WithoutRateLimits(), mockserver.WithJournalSize(16))
	f.Cleanup(s.Close)
	f.Fuzz(func(t *testing.T, body string) {
		req, _ := http.NewRequest("POST", "http://mock/discovery/v2/assistant/"+s.Domain()+"/message", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.AssistantKey())
		resp, err := s.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusOK:
			checkUIStream(t, resp.Header, b)
		case resp.StatusCode >= 500:
			t.Fatalf("%d for %q: %s", resp.StatusCode, body, b)
		default:
			validate(t, "discovery-error", b)
		}
	})
}

// Run with -race: messages, follow-ups, searches, page content, Index
// calls, pages added and analytics read, all at once with resets. No
// answer is a 5xx or breaks its connection, and every stream that starts
// is whole.
func TestAssistantAndIndexAtOnceWithResets(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	errs := make(chan string, 1000)
	do := func(key, path, body string) (http.Header, []byte) {
		method := "POST"
		if body == "" {
			method = "GET"
		}
		req, _ := http.NewRequest(method, h.s.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := h.hc.Do(req)
		if err != nil {
			errs <- fmt.Sprintf("%s: %v", path, err)
			return nil, nil
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode >= 500 {
			errs <- fmt.Sprintf("%s: %d %v %.200s", path, resp.StatusCode, err, b)
		}
		if resp.StatusCode == http.StatusOK && resp.Header.Get("Content-Type") == "text/event-stream" && !bytes.HasSuffix(b, []byte("data: [DONE]\n\n")) {
			errs <- fmt.Sprintf("%s: a stream cut short: %q", path, tail(b))
		}
		return resp.Header, b
	}
	table := routes(t, func(rt mockserver.RouteRow) bool { return rt.API != "admin" })
	samples := make([]mockserver.SampleRequest, len(table))
	for i, rt := range table {
		samples[i] = mockserver.Sample(t, h.s, rt.Name)
	}
	asst, d := h.s.AssistantKey(), h.s.Domain()
	workers := []func(i int){
		func(i int) {
			hd, _ := do(asst, "/discovery/v2/assistant/"+d+"/message", ask(fmt.Sprintf("rate limits %d", i)))
			if hd != nil {
				do(asst, "/discovery/v2/assistant/"+d+"/message", ask("and keys?", `"threadId":`+quote(hd.Get("X-Thread-Id")), `"threadKey":`+quote(hd.Get("X-Thread-Key"))))
			}
			do(asst, "/discovery/v1/assistant/"+d+"/message", ask("previews"))
		},
		func(int) { // every assistant and Index route of the table
			for i, rt := range table {
				do(keyOf(h.s, rt.API), samples[i].Path, samples[i].Body)
			}
		},
		func(i int) {
			do(h.s.APIKey(), "/_mock/pages", fmt.Sprintf(`{"pages":[{"path":"p%d","title":"P","content":"rate limits %d"}]}`, i, i))
			do(h.s.APIKey(), "/_mock/credits", "")
			do(h.s.APIKey(), "/v1/analytics/"+h.s.ProjectID()+"/assistant", "")
		},
		func(i int) {
			if i%2 == 1 {
				do(h.s.APIKey(), "/_mock/reset", "{}")
			}
		},
	}
	atOnce(t, 8, workers, errs)
}
