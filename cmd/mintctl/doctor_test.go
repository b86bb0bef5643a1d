package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/apishape"
	"github.com/docsagent/mintlify-go/internal/openapicheck"
	"github.com/docsagent/mintlify-go/mockserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doctorMock is a seeded mock with answers at once.
func doctorMock(t *testing.T) *mockserver.Server {
	t.Helper()
	return mockserver.Start(t, mockserver.WithSeed(2000), mockserver.WithoutRateLimits(), mockserver.WithStreamDelay(0))
}

// doctorEnv holds every key of srv, its APIs reached at base (srv's URL,
// or that of a server in front of it).
func doctorEnv(srv *mockserver.Server, base string) map[string]string {
	return map[string]string{
		mintlify.EnvAPIKey: srv.APIKey(), mintlify.EnvProjectID: srv.ProjectID(), mintlify.EnvBaseURL: base,
		mintlify.EnvAssistantAPIKey: srv.AssistantKey(), mintlify.EnvDomain: srv.Domain(), mintlify.EnvAssistantBaseURL: base + "/discovery",
		mintlify.EnvIndexAPIKey: srv.IndexKey(), mintlify.EnvIndexBaseURL: base + "/api/universal-search",
	}
}

func doctorReportOf(t *testing.T, out string) doctorReport {
	t.Helper()
	var r doctorReport
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	return r
}

func TestDoctorFindsTheMockMatches(t *testing.T) {
	t.Parallel()
	srv := doctorMock(t)
	env := doctorEnv(srv, srv.URL())
	summary := filepath.Join(t.TempDir(), "summary.md")
	env["GITHUB_STEP_SUMMARY"] = summary
	stdout, stderr, code := runEnv(t, env, "doctor", "--spend", "--query", "authentication")
	require.Equal(t, 0, code, "stdout: %s\nstderr: %s", stdout, stderr)
	out := stdout.String()
	for _, want := range []string{"# mintctl doctor: matches", "## admin API: matches", "## assistant API: matches", "## Index API: matches",
		"`mint_ (admin)`", "`mint_dsc_ (assistant)`", "`mint_us_ (Index)`", "threadId travels in X-Thread-Id and finish.threadId",
		"X-Thread-Key came", "follow-up without the thread key", "refused with 404"} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "differs")
	assert.NotContains(t, out, "skipped", "every check ran: the query finds a page")
	written, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.Equal(t, out, string(written), "the step summary holds the report")

	stdout, stderr, code = runEnv(t, doctorEnv(srv, srv.URL()), "doctor", "--json", "--status-id", deploymentOf(t, srv))
	require.Equal(t, 0, code, stderr.String())
	r := doctorReportOf(t, stdout.String())
	assert.Equal(t, resultMatches, r.Result)
	var names []string
	for _, a := range r.APIs {
		names = append(names, a.Name)
		assert.Equal(t, resultMatches, a.Result, "%s", a.Name)
		for _, c := range a.Checks {
			assert.Equal(t, resultMatches, c.Result, "%s %s: %+v", a.Name, c.Name, c.Differences)
		}
	}
	assert.Equal(t, []string{"admin API", "assistant API", "Index API"}, names)
	assert.Equal(t, "deployment status", r.APIs[0].Checks[len(r.APIs[0].Checks)-1].Name)
	assert.Equal(t, "one message was not sent: --spend asks a question (a credit) and checks the stream", r.APIs[1].Note)
}

// deploymentOf starts a deployment on srv and returns its status ID.
func deploymentOf(t *testing.T, srv *mockserver.Server) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL()+"/v1/project/update/"+srv.ProjectID(), nil)
	req.Header.Set("Authorization", "Bearer "+srv.APIKey())
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		StatusID string `json:"statusId"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return out.StatusID
}

// front is a reverse proxy in front of srv that records every request
// and may change every answer.
type front struct {
	url  string
	mu   sync.Mutex
	sent []string
}

func (f *front) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sent)
}

func newFront(t *testing.T, srv *mockserver.Server, change func(r *http.Response) error) *front {
	t.Helper()
	target, err := url.Parse(srv.URL())
	require.NoError(t, err)
	f := &front{}
	p := httputil.NewSingleHostReverseProxy(target)
	p.ModifyResponse = change
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.sent = append(f.sent, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		p.ServeHTTP(w, r)
	}))
	t.Cleanup(h.Close)
	f.url = h.URL
	return f
}

func TestDoctorNeverWritesToTheAdminAPI(t *testing.T) {
	t.Parallel()
	srv := doctorMock(t)
	for _, spend := range []bool{false, true} {
		f := newFront(t, srv, nil)
		args := []string{"doctor", "--status-id", deploymentOf(t, srv)}
		if spend {
			args = append(args, "--spend")
		}
		_, stderr, code := runEnv(t, doctorEnv(srv, f.url), args...)
		require.Equal(t, 0, code, stderr.String())
		var admin, messages int
		for _, r := range f.requests() {
			method, path, _ := strings.Cut(r, " ")
			switch {
			case strings.HasPrefix(path, "/discovery/") || strings.HasPrefix(path, "/api/universal-search/"):
				if strings.HasSuffix(path, "/message") {
					messages++
				}
			case method != http.MethodGet:
				t.Errorf("doctor sent %s to the admin API", r)
			default:
				admin++
			}
		}
		assert.Equal(t, 10, admin, "a job, eight analytics routes and a deployment, each once")
		if spend {
			assert.Equal(t, 2, messages, "the question and the follow-up without the key")
		} else {
			assert.Zero(t, messages, "no message without --spend")
		}
	}
}

// drift is a service that changed: it adds members, sends values outside
// the documented enums and IDs of another form, and leaves a header out.
func drift(r *http.Response) error {
	path := r.Request.URL.Path
	if strings.HasSuffix(path, "/message") {
		r.Header.Del("X-Thread-Id")
		return nil
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	each := func(list any, fn func(m map[string]any)) {
		items, _ := list.([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				fn(m)
			}
		}
	}
	if m, ok := v.(map[string]any); ok {
		switch {
		case strings.HasSuffix(path, "/visitors"):
			each(m["visitors"], func(row map[string]any) { row["bounceRate"] = 0.25 })
		case strings.HasSuffix(path, "/feedback"):
			each(m["feedback"], func(row map[string]any) { row["status"] = "escalated" })
		case strings.HasSuffix(path, "/caller-stats"):
			delete(m, "other")
		case strings.HasSuffix(path, "/assistant"):
			each(m["conversations"], func(row map[string]any) { row["id"] = "thread-42" })
		case strings.Contains(path, "/job/"):
			m["code"] = "job_not_found"
		case strings.HasSuffix(path, "/v1/search"):
			each(m["results"], func(row map[string]any) { row["favicon"] = "https://x.example/f.ico" })
		}
	}
	body, _ = json.Marshal(v)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

func TestDoctorNamesEachDrift(t *testing.T) {
	t.Parallel()
	srv := doctorMock(t)
	f := newFront(t, srv, drift)
	stdout, stderr, code := runEnv(t, doctorEnv(srv, f.url), "doctor", "--spend", "--json")
	require.Equal(t, 1, code, "stdout: %s\nstderr: %s", stdout, stderr)
	assert.Contains(t, stderr.String(), "open an issue with the --json report attached")
	r := doctorReportOf(t, stdout.String())
	assert.Equal(t, resultDiffers, r.Result)
	found := map[string]string{}
	for _, a := range r.APIs {
		for _, c := range a.Checks {
			for _, d := range c.Differences {
				found[c.Name+": "+d.Kind+" "+d.Member] = d.Detail + d.Value
			}
		}
	}
	for key, detail := range map[string]string{
		"visitors: unknown member visitors[].bounceRate":           "",
		"feedback: value outside the enum feedback[].status":       "escalated",
		"caller stats: required member missing other":              "",
		"a job that does not exist: unknown member code":           "",
		"search: unknown member results[].favicon":                 "",
		"message: header X-Thread-Id":                              "missing",
		"thread: thread ID conversations[].id":                     "thread-42",
		"views: unknown member views[].bounceRate (never drifted)": "-",
	} {
		got, ok := found[key]
		if detail == "-" {
			assert.False(t, ok, "%s", key)
			continue
		}
		if assert.True(t, ok, "%s not reported; found %v", key, found) {
			assert.Contains(t, got, detail)
		}
	}
	for _, a := range r.APIs {
		if a.API == "assistant" {
			assert.Equal(t, resultDiffers, a.Result)
		}
	}

	md, _, code := runEnv(t, doctorEnv(srv, f.url), "doctor")
	require.Equal(t, 1, code)
	assert.Contains(t, md.String(), "unknown member `visitors[].bounceRate`")
	assert.Contains(t, md.String(), "value outside the enum `feedback[].status`: `escalated`")
	assert.Contains(t, md.String(), "To report a difference, open an issue")
}

func TestDoctorSkipsAnAPIWithoutAKey(t *testing.T) {
	t.Parallel()
	srv := doctorMock(t)
	env := doctorEnv(srv, srv.URL())
	delete(env, mintlify.EnvAPIKey)
	env[mintlify.EnvAssistantAPIKey] = "  "
	stdout, stderr, code := runEnv(t, env, "doctor")
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "## admin API: skipped\n\nMINTLIFY_API_KEY is not set: this API was not checked")
	assert.Contains(t, stdout.String(), "## assistant API: skipped")
	assert.Contains(t, stdout.String(), "## Index API: matches")
}

func TestDoctorUsage(t *testing.T) {
	t.Parallel()
	srv := doctorMock(t)
	full := doctorEnv(srv, srv.URL())
	without := func(names ...string) map[string]string {
		env := maps.Clone(full)
		for _, n := range names {
			delete(env, n)
		}
		return env
	}
	withKey := func(name, key string) map[string]string {
		env := maps.Clone(full)
		env[name] = key
		return env
	}
	for name, c := range map[string]struct {
		env  map[string]string
		args []string
		want string
	}{
		"no key at all":                  {without(mintlify.EnvAPIKey, mintlify.EnvAssistantAPIKey, mintlify.EnvIndexAPIKey), nil, "no key is set"},
		"an argument":                    {full, []string{"extra"}, "takes no arguments"},
		"no time":                        {full, []string{"--timeout", "0s"}, "--timeout"},
		"an empty query":                 {full, []string{"--query", " "}, "--query"},
		"an admin key without a project": {without(mintlify.EnvProjectID), nil, mintlify.EnvProjectID},
		"an assistant key without site":  {without(mintlify.EnvDomain), nil, mintlify.EnvDomain},
		"an assistant key as admin key":  {withKey(mintlify.EnvAPIKey, srv.AssistantKey()), nil, "mint_dsc_"},
	} {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := runEnv(t, c.env, append([]string{"doctor"}, c.args...)...)
			assert.Equal(t, exitUsage, code, "stdout: %s\nstderr: %s", stdout, stderr)
			assert.Contains(t, stderr.String(), c.want)
			assert.Empty(t, stdout.String(), "nothing checked, nothing reported")
		})
	}
}

func TestDoctorRefusedKeyIsExit6(t *testing.T) {
	t.Parallel()
	srv := doctorMock(t)
	env := doctorEnv(srv, srv.URL())
	env[mintlify.EnvAPIKey] = "mint_nosuchkeynosuchkeynosuchkey"
	f := newFront(t, srv, nil)
	env[mintlify.EnvBaseURL] = f.url
	stdout, stderr, code := runEnv(t, env, "doctor")
	require.Equal(t, doctorExitRefused, code, "stdout: %s\nstderr: %s", stdout, stderr)
	assert.Contains(t, stdout.String(), "## admin API: refused")
	assert.Contains(t, stdout.String(), "the key was refused (401)")
	assert.Contains(t, stdout.String(), "## Index API: matches", "the other keys are still checked")
	assert.Equal(t, []string{"GET /v2/agent/" + srv.ProjectID() + "/job/" + missingJobID}, f.requests(),
		"a refused key stops its API's checks")
	assert.Contains(t, stderr.String(), "the key in MINTLIFY_API_KEY was refused")
	assert.NotContains(t, stdout.String()+stderr.String(), "nosuchkey")
}

// keyEchoServer answers every request with the key it was sent everywhere:
// member names, values, headers, error texts, stream frames.
func keyEchoServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("X-Echo", key)
		w.Header().Set("X-Thread-Id", key)
		w.Header().Set("X-Thread-Key", key)
		row := map[string]any{key: key, "path": key, "status": key, "id": key, "threadId": key, "createdAt": key, "source": key}
		switch {
		case strings.HasSuffix(r.URL.Path, "/message"):
			w.Header().Set("Content-Type", key)
			for _, frame := range []string{`{"type":"` + key + `"}`, `{"type":"finish","threadId":"` + key + `","` + key + `":1}`, key, "[DONE]"} {
				fmt.Fprintf(w, "data: %s\n\n%s\n", frame, key)
			}
		case strings.Contains(r.URL.Path, "/v1/search/"):
			sendJSON(w, http.StatusOK, []any{row})
		case strings.Contains(r.URL.Path, "/job/"):
			sendJSON(w, http.StatusNotFound, map[string]any{"error": key, key: []any{key}, "details": []any{map[string]any{"message": key, key: key}}})
		default:
			sendJSON(w, http.StatusOK, map[string]any{key: key, "visitors": []any{row}, "feedback": []any{row}, "conversations": []any{row},
				"searches": []any{row}, "results": []any{row}, "messages": []any{row}, "threadId": key, "path": key, "content": key,
				"requestId": key, "totals": row, "nextCursor": key, "hasMore": key})
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestDoctorNeverShowsAKey(t *testing.T) {
	t.Parallel()
	base := keyEchoServer(t)
	keys := []string{"mint_echoadminkey0123456789abcdef", "mint_dsc_echoassistantkey0123456789", "mint_us_echoindexkey0123456789ab"}
	env := map[string]string{
		mintlify.EnvAPIKey: keys[0], mintlify.EnvProjectID: "proj_1", mintlify.EnvBaseURL: base,
		mintlify.EnvAssistantAPIKey: keys[1], mintlify.EnvDomain: "docs.example.com", mintlify.EnvAssistantBaseURL: base + "/discovery",
		mintlify.EnvIndexAPIKey: keys[2], mintlify.EnvIndexBaseURL: base + "/api/universal-search",
	}
	for _, args := range [][]string{{"doctor", "--spend"}, {"doctor", "--spend", "--json"}} {
		summary := filepath.Join(t.TempDir(), "summary.md")
		env["GITHUB_STEP_SUMMARY"] = summary
		stdout, stderr, code := runEnv(t, env, args...)
		assert.Equal(t, 1, code, "stdout: %s\nstderr: %s", stdout, stderr)
		written, err := os.ReadFile(summary)
		require.NoError(t, err)
		all := stdout.String() + stderr.String() + string(written)
		assert.Contains(t, all, "[redacted]", "the echoes are reported, redacted")
		for _, k := range keys {
			assert.NotContains(t, all, k)
			assert.NotContains(t, all, k[len(k)-12:], "no part of a key")
		}
	}
}

// garbageServer answers every request with body, as JSON.
func garbageServer(t *testing.T, status int, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body == "stall" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte("{"))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestDoctorReportsGarbageWithoutFailing(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		status int
		body   string
	}{
		"html":                  {200, "<html><body>Bad gateway</body></html>"},
		"null":                  {200, "null"},
		"an empty object":       {200, "{}"},
		"an array":              {200, "[1,2,3]"},
		"cut short":             {200, `{"visitors":[{"path":`},
		"two values":            {200, `{}{}`},
		"an error of any shape": {500, `{"error":{"nested":true}}`},
		"a body that stalls":    {200, "stall"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			base := garbageServer(t, c.status, c.body)
			env := map[string]string{
				mintlify.EnvAPIKey: "mint_garbagegarbage01234", mintlify.EnvProjectID: "proj_1", mintlify.EnvBaseURL: base,
				mintlify.EnvAssistantAPIKey: "mint_dsc_garbagegarbage0123", mintlify.EnvDomain: "docs.example.com",
				mintlify.EnvAssistantBaseURL: base + "/discovery",
				mintlify.EnvIndexAPIKey:      "mint_us_garbagegarbage0123", mintlify.EnvIndexBaseURL: base + "/api/universal-search",
			}
			start := time.Now()
			stdout, stderr, code := runEnv(t, env, "doctor", "--spend", "--json", "--timeout", "3s", "--max-retry-wait", "10ms")
			assert.Equal(t, 1, code, "stdout: %s\nstderr: %s", stdout, stderr)
			assert.Less(t, time.Since(start), 30*time.Second)
			r := doctorReportOf(t, stdout.String())
			assert.Equal(t, resultDiffers, r.Result)
			for _, a := range r.APIs {
				assert.Equal(t, resultDiffers, a.Result, "%s", a.Name)
			}
		})
	}
}

func TestDoctorNeutralisesServerText(t *testing.T) {
	t.Parallel()
	srv := doctorMock(t)
	f := newFront(t, srv, func(r *http.Response) error {
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			return nil
		}
		r.Body.Close()
		body, _ := json.Marshal(map[string]any{hv("member"): hv("value"), "visitors": []any{map[string]any{hv("row"): 1, "path": 7}},
			"status": hv("status"), "hasMore": hv("more")})
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	})
	summary := filepath.Join(t.TempDir(), "summary.md")
	env := doctorEnv(srv, f.url)
	env["GITHUB_STEP_SUMMARY"] = summary
	stdout, stderr, code := runEnv(t, env, "doctor", "--status-id", "65f1c2a9e4b0a1d2c3e4f5a6")
	require.Equal(t, 1, code, stderr.String())
	written, err := os.ReadFile(summary)
	require.NoError(t, err)
	for what, text := range map[string]string{"stdout": stdout.String(), "summary": string(written), "stderr": stderr.String()} {
		assert.Contains(t, stdout.String(), "forged-lead", "the hostile text is reported")
		for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
			lead := strings.TrimLeftFunc(line, isRunnerSpace)
			assert.False(t, strings.HasPrefix(lead, "::"), "%s: a workflow command: %q", what, line)
			assert.NotContains(t, line, "##[", what)
			assert.False(t, strings.ContainsFunc(line, func(r rune) bool { return r != '\t' && (unicode.IsControl(r) || isControl(r)) }),
				"%s: a control character: %q", what, line)
		}
		outside := withoutCodeSpans(text)
		for _, markup := range []string{"<script", "<img", "**bold**", "[link](", "&amp;"} {
			assert.NotContains(t, outside, markup, "%s: server markup outside a code span", what)
		}
	}
	stdout, _, _ = runEnv(t, doctorEnv(srv, f.url), "doctor", "--json")
	assert.True(t, json.Valid(stdout.Bytes()))
	assert.NotContains(t, stdout.String(), "##[")
}

// withoutCodeSpans removes every Markdown code span: what is left is what
// a renderer would read as Markdown.
func withoutCodeSpans(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		fence := strings.Repeat("`", n)
		end := strings.Index(s[i+n:], fence)
		for end >= 0 && i+n+end+n < len(s) && s[i+n+end+n] == '`' { // a longer run does not close it
			next := strings.Index(s[i+n+end+n:], fence)
			if next < 0 {
				end = -1
				break
			}
			end += n + next
		}
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		i += n + end + n
	}
	return b.String()
}

// doctorExpectations lists every answer doctor reads.
var doctorExpectations = []expectation{expectJobNotFound, expectVisitors, expectViews, expectSearches, expectFeedback,
	expectFeedbackByPage, expectConversations, expectThread, expectCallerStats, expectDeployment, expectDocsSearch,
	expectPageContent, expectIndexSearch}

// The shapes doctor expects are the stored documents' shapes, line by
// line, except where the SDK reads more than the documents say.
func TestDoctorExpectationsFollowTheDocuments(t *testing.T) {
	t.Parallel()
	docs, err := openapicheck.Read("../../testdata/openapi")
	require.NoError(t, err)
	beyond := map[string]string{
		"+ GET /v2/agent/{projectId}/job/{id} 404 member details: array":                     "the SDK reads an error's details (APIError.Details), which the mock sends and the analytics document has",
		"+ GET /v2/agent/{projectId}/job/{id} 404 member details[]: object required":         "the same details",
		"+ GET /v2/agent/{projectId}/job/{id} 404 member details[].message: string required": "the same details",
		"+ GET /v1/project/update-status/{statusId} 200 member _id: string required":         "the SDK needs a deployment's _id to know which one it read",
		"- GET /v1/project/update-status/{statusId} 200 member _id: string":                  "the same _id, optional in the document",
		"+ GET /v1/project/update-status/{statusId} 200 member status: string required":      "the SDK needs a deployment's status to wait for it",
		"- GET /v1/project/update-status/{statusId} 200 member status: string":               "the same status, optional in the document",
	}
	used := map[string]bool{}
	for _, e := range doctorExpectations {
		prefix := fmt.Sprintf("%s %s %d", e.method, e.route, e.status)
		documented, ok := docs.Shape(e.method, e.route, e.status)
		if !assert.True(t, ok, "no documented JSON answer for %s", prefix) {
			continue
		}
		// The documents call counts number; the SDK reads them as whole
		// numbers, which a number that is one satisfies.
		norm := func(lines []string) []string {
			for i, l := range lines {
				lines[i] = strings.Replace(l, ": integer", ": number", 1)
			}
			slices.Sort(lines)
			return lines
		}
		want, got := norm(apishape.Facts(prefix, documented)), norm(apishape.Facts(prefix, e.shape))
		for _, l := range got {
			if _, found := slices.BinarySearch(want, l); !found {
				if _, ok := beyond["+ "+l]; ok {
					used["+ "+l] = true
					continue
				}
				t.Errorf("doctor expects what the documents do not say: %s", l)
			}
		}
		for _, l := range want {
			if _, found := slices.BinarySearch(got, l); !found {
				if _, ok := beyond["- "+l]; ok {
					used["- "+l] = true
					continue
				}
				t.Errorf("the documents say what doctor does not expect: %s", l)
			}
		}
		for _, path := range e.times {
			assert.NotContains(t, path, " ", "a member path")
			assert.True(t, slices.ContainsFunc(want, func(l string) bool { return strings.Contains(l, " member "+path+": ") }),
				"%s: the date %s is no member of the documents", prefix, path)
		}
	}
	for line, reason := range beyond {
		assert.True(t, used[line], "no longer needed: %s (%s)", line, reason)
	}
}

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
// others said, a report that fits a step summary (1 MiB at most), not a
// line of it per type.
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
