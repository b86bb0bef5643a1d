package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/apishape"
	"github.com/docsagent/mintlify-go/internal/redact"
)

// exitRefusedKey is doctor's exit code when a service refused a key (401
// or 403): the account, not the SDK, needs looking at.
const exitRefusedKey = 6

// missingJobID names a job no project has: its 404 is what doctor reads.
const missingJobID = "mintctl-doctor-no-such-job"

// analyticsSample is the page size of doctor's analytics requests: rows
// enough to meet each kind of member, and one request per route of the
// hourly quota of 100.
const analyticsSample = 20

func (a *app) doctorCommand() *cobra.Command {
	d := &doctor{a: a}
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "doctor [--status-id ID] [--spend] [--json]",
		Short: "Check a real account against what this SDK and its mock assume",
		Long: `doctor checks the accounts whose keys are in the environment, read-only, and
reports where the service differs from what this SDK and its mock server
assume: members the SDK does not know, required members missing, values
outside the documented enums, dates it cannot read, statuses and shapes of
errors, the framing of the assistant's stream.

For each key it finds:
  MINTLIFY_API_KEY (+ MINTLIFY_PROJECT_ID)        the admin API: a job that does
      not exist (the shape of its 404), one page of each analytics route (8 of
      the organization's 100 analytics requests an hour), the deployment of
      --status-id if given. It sends no POST to the admin API.
  MINTLIFY_ASSISTANT_API_KEY (+ MINTLIFY_DOMAIN)  the assistant API: a docs
      search and a page's content (free).
  MINTLIFY_INDEX_API_KEY                          the Index API: a search.
A key that is not set skips its API with a note. The base URL variables
(MINTLIFY_BASE_URL, MINTLIFY_ASSISTANT_BASE_URL, MINTLIFY_INDEX_BASE_URL)
point it elsewhere, such as at 'mintctl mock'.

--spend also asks the assistant one question, which costs a credit, and
reports the stream's framing and chunk types, where the thread's ID travels
(the finish chunk, the X-Thread-Id header), whether X-Thread-Key comes,
and whether a follow-up without the thread's key is refused (if the
service took it, that follow-up spent a second credit).

The report is Markdown on stdout (also appended to $GITHUB_STEP_SUMMARY
when set), or one JSON object with --json. It never holds a key, and what
the service sent is quoted only escaped. To report a difference, open an
issue with the --json report attached.

Exit codes: 0 everything matches, 1 something differs (or a check could
not run), 2 usage or configuration, 6 a key was refused (401 or 403).`,
		Example: `  mintctl doctor
  mintctl doctor --status-id 65f1c2a9e4b0a1d2c3e4f5a6 --json > doctor.json
  mintctl doctor --spend`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if timeout <= 0 {
				return usageErrorf("--timeout %s: want a positive duration, such as 2m", timeout)
			}
			if d.query = strings.TrimSpace(d.query); d.query == "" {
				return usageErrorf("--query is empty: give a few words the docs hold")
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			return d.run(ctx)
		},
	}
	cmd.Flags().StringVar(&d.statusID, "status-id", "", "also read this deployment's status (from 'mintctl deploy')")
	cmd.Flags().BoolVar(&d.spend, "spend", false, "also ask the assistant one question: it costs a credit")
	cmd.Flags().BoolVar(&d.asJSON, "json", false, "print the report as one JSON object")
	cmd.Flags().StringVar(&d.query, "query", "quickstart", "what the docs search and the Index search look for")
	cmd.Flags().StringVar(&d.question, "question", "What is this documentation about?", "the question --spend asks")
	cmd.Flags().DurationVar(&timeout, "timeout", 2*time.Minute, "give up after this long")
	return cmd
}

// doctor is one run of mintctl doctor.
type doctor struct {
	a               *app
	statusID        string
	spend, asJSON   bool
	query, question string
	wire            *wire
	scrub           redact.Scrubber
	report          doctorReport
}

func (d *doctor) run(ctx context.Context) error {
	d.scrub = redact.New(d.a.redactKeys...)
	d.wire = &wire{next: http.DefaultTransport}
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		d.wire.next = t.Clone() // its proxy settings and timeouts, in a pool of doctor's own
	}
	// One retry at most: a passing 503 is no difference, but each check
	// is meant to cost one request (the analytics quota is 100 an hour),
	// and an answer the SDK finds malformed is reported, not retried.
	d.a.clientExtras = []mintlify.Option{mintlify.WithHTTPClient(&http.Client{Transport: d.wire}), mintlify.WithMaxRetries(1)}
	d.report = doctorReport{Tool: "mintctl " + mintlify.Version}

	// Every client first, so that a configuration error (a key of the
	// wrong kind, a missing project or domain) stops before any request.
	type plan struct {
		api   *apiReport
		check func(context.Context, *apiReport)
	}
	var plans []plan
	var admin *mintlify.Client
	var assistant *mintlify.AssistantClient
	var index *mintlify.IndexClient
	var err error
	for _, k := range []struct {
		api, name, env, baseEnv, base string
	}{
		{"admin", "admin API", mintlify.EnvAPIKey, mintlify.EnvBaseURL, mintlify.DefaultBaseURL},
		{"assistant", "assistant API", mintlify.EnvAssistantAPIKey, mintlify.EnvAssistantBaseURL, mintlify.DefaultAssistantBaseURL},
		{"index", "Index API", mintlify.EnvIndexAPIKey, mintlify.EnvIndexBaseURL, mintlify.DefaultIndexBaseURL},
	} {
		r := &apiReport{API: k.api, Name: k.name, Variable: k.env, BaseURL: d.baseURL(k.baseEnv, k.base)}
		key, set := d.a.lookupEnv(k.env)
		if strings.TrimSpace(key) == "" {
			r.Result, r.Note = resultSkipped, k.env+" is not set: this API was not checked"
			if set {
				r.Note = k.env + " is empty: this API was not checked"
			}
			d.report.APIs = append(d.report.APIs, r)
			continue
		}
		r.KeyKind = keyKind(key)
		switch k.api {
		case "admin":
			if admin, err = d.a.client(); err != nil {
				return err
			}
			plans = append(plans, plan{r, func(ctx context.Context, r *apiReport) { d.checkAdmin(ctx, admin, r) }})
		case "assistant":
			if assistant, err = d.a.assistantClient(); err != nil {
				return err
			}
			plans = append(plans, plan{r, func(ctx context.Context, r *apiReport) { d.checkAssistant(ctx, assistant, r) }})
		case "index":
			if index, err = d.a.indexClient(); err != nil {
				return err
			}
			plans = append(plans, plan{r, func(ctx context.Context, r *apiReport) { d.checkIndex(ctx, index, r) }})
		}
		d.report.APIs = append(d.report.APIs, r)
	}
	if len(plans) == 0 {
		return usageErrorf("no key is set: set %s (with %s), %s (with %s) or %s to check that API",
			mintlify.EnvAPIKey, mintlify.EnvProjectID, mintlify.EnvAssistantAPIKey, mintlify.EnvDomain, mintlify.EnvIndexAPIKey)
	}
	for _, p := range plans {
		p.check(ctx, p.api)
		p.api.settle()
	}
	d.report.settle()
	if err := d.print(); err != nil {
		return err
	}
	switch d.report.Result {
	case resultRefused:
		return &codeError{exitRefusedKey, errors.New("a key was refused (see the report): check the key, its scopes, its expiry and its IP allowlist")}
	case resultDiffers:
		return &codeError{exitError, errors.New("the service differs from what this SDK assumes (see the report); to report it, open an issue with the --json report attached")}
	}
	return nil
}

// baseURL is the address an API is reached at, without anything a URL
// may hide in it besides its scheme, host and path.
func (d *doctor) baseURL(env, def string) string {
	base, _ := d.a.lookupEnv(env)
	if base == "" {
		base = def
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "(not a URL)"
	}
	return d.scrub(u.Scheme+"://"+u.Host+u.EscapedPath(), false)
}

// keyKind names a key by its prefix, the only part of it a report shows.
func keyKind(key string) string {
	switch key = strings.TrimSpace(key); {
	case strings.HasPrefix(key, "mint_dsc_"):
		return "mint_dsc_ (assistant)"
	case strings.HasPrefix(key, "mint_us_"):
		return "mint_us_ (Index)"
	case strings.HasPrefix(key, "mint_"):
		return "mint_ (admin)"
	}
	return "unknown (no mint_ prefix)"
}

// checkAdmin reads a missing job, one page of each analytics route and,
// when asked, a deployment. GETs only: nothing is created or spent.
func (d *doctor) checkAdmin(ctx context.Context, c *mintlify.Client, r *apiReport) {
	job := r.add("a job that does not exist", expectJobNotFound)
	_, err := d.get(ctx, c, "/v2/agent/{projectId}/job/"+missingJobID)
	d.judge(job, err, 404)
	if job.Result == resultRefused {
		return
	}
	var threadID string
	for _, a := range []struct {
		name, query string
		want        expectation
	}{
		{"visitors", "?limit=" + strconv.Itoa(analyticsSample), expectVisitors},
		{"views", "?limit=" + strconv.Itoa(analyticsSample), expectViews},
		{"searches", "?limit=" + strconv.Itoa(analyticsSample), expectSearches},
		{"feedback", "?limit=" + strconv.Itoa(analyticsSample), expectFeedback},
		{"feedback by page", "?limit=" + strconv.Itoa(analyticsSample), expectFeedbackByPage},
		{"conversations", "?limit=" + strconv.Itoa(analyticsSample), expectConversations},
		{"caller stats", "", expectCallerStats},
	} {
		chk := r.add(a.name, a.want)
		raw, err := d.get(ctx, c, a.want.route+a.query)
		d.judge(chk, err, 200)
		if a.want.route == expectConversations.route && err == nil {
			var page struct {
				Conversations []struct {
					ID string `json:"id"`
				} `json:"conversations"`
			}
			if json.Unmarshal(raw, &page) == nil && len(page.Conversations) > 0 {
				threadID = page.Conversations[0].ID
			}
		}
	}
	thread := r.add("thread", expectThread)
	if threadID == "" || !validThreadID(threadID) {
		thread.skip("no conversation in the default window to read the thread of")
	} else {
		_, err := d.get(ctx, c, strings.Replace(expectThread.route, "{threadId}", threadID, 1))
		d.judge(thread, err, 200)
	}
	if d.statusID != "" {
		dep := r.add("deployment status", expectDeployment)
		_, err := d.get(ctx, c, strings.Replace(expectDeployment.route, "{statusId}", url.PathEscape(d.statusID), 1))
		d.judge(dep, err, 200)
	}
}

// validThreadID reports whether id is a ULID, which is all the thread
// route takes: anything else from a server is not put in a path.
func validThreadID(id string) bool {
	if len(id) != 26 {
		return false
	}
	for _, r := range strings.ToUpper(id) {
		if !strings.ContainsRune("0123456789ABCDEFGHJKMNPQRSTVWXYZ", r) {
			return false
		}
	}
	return true
}

// get sends one GET through the SDK's request path and returns the raw
// answer (the wire keeps it too).
func (d *doctor) get(ctx context.Context, c *mintlify.Client, path string) (json.RawMessage, error) {
	d.wire.begin()
	var raw json.RawMessage
	_, err := c.Do(ctx, http.MethodGet, path, nil, &raw)
	return raw, err
}

// checkAssistant searches the docs and reads the first page found; with
// --spend it also asks a question and tries a follow-up without the
// thread's key.
func (d *doctor) checkAssistant(ctx context.Context, c *mintlify.AssistantClient, r *apiReport) {
	search := r.add("docs search", expectDocsSearch)
	d.wire.begin()
	results, err := c.SearchDocs(ctx, mintlify.DocSearchParams{Query: d.query, PageSize: 3})
	d.judge(search, err, 200)
	if search.Result == resultRefused {
		return
	}
	page := r.add("page content", expectPageContent)
	if len(results) == 0 || results[0].Path == "" {
		page.skip("the search found no page to read")
	} else {
		d.wire.begin()
		_, err := c.GetPageContent(ctx, results[0].Path)
		d.judge(page, err, 200)
	}
	if !d.spend {
		r.Note = "one message was not sent: --spend asks a question (a credit) and checks the stream"
		return
	}
	d.checkStream(ctx, c, r)
}

func (d *doctor) checkIndex(ctx context.Context, c *mintlify.IndexClient, r *apiReport) {
	chk := r.add("search", expectIndexSearch)
	d.wire.begin()
	_, err := c.Search(ctx, mintlify.IndexSearchParams{Query: d.query, NumResults: 3})
	d.judge(chk, err, 200)
}

// judge fills a check from the call's error and the answer on the wire:
// refused for a 401 or 403, else the status against want, the media type,
// and the body decoded strictly against the check's shape.
func (d *doctor) judge(chk *checkReport, err error, want int) {
	ans := d.wire.answer()
	var apiErr *mintlify.APIError
	switch {
	case ans == nil:
		chk.differ("no answer", "", "the request failed", d.text(errText(err)))
		return
	case ans.status == http.StatusUnauthorized || ans.status == http.StatusForbidden:
		chk.Status, chk.Result = ans.status, resultRefused
		msg := ""
		if errors.As(err, &apiErr) {
			msg = apiErr.Message
		}
		chk.note(fmt.Sprintf("the key was refused (%d)", ans.status), d.text(msg))
		return
	}
	chk.Status = ans.status
	if ans.status != want {
		chk.differ("status", "", fmt.Sprintf("answered %d where %d was expected", ans.status, want), "")
		return
	}
	body, cut := ans.bytes()
	if cut {
		chk.differ("body", "", fmt.Sprintf("larger than %d MiB, not checked", maxCaptured>>20), "")
		return
	}
	if ct := ans.header.Get("Content-Type"); !strings.HasPrefix(strings.ToLower(strings.TrimSpace(ct)), "application/json") {
		chk.differ("media type", "", "Content-Type is not application/json", d.text(ct))
	}
	findings, jerr := apishape.Check(body, chk.want.shape, chk.want.times...)
	if jerr != nil {
		chk.differ("body", "", "not one JSON value", d.text(jerr.Error()))
		return
	}
	for _, f := range findings {
		chk.differ(string(f.Kind), d.text(f.Path), "", d.text(f.Value))
	}
	if err != nil && !errors.As(err, &apiErr) {
		// The SDK refused an answer the shapes did not: say so.
		chk.differ("the SDK's reading", "", "the SDK refused the answer", d.text(errText(err)))
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// text is server text made safe for the report: keys removed, one
// printable line.
func (d *doctor) text(s string) string {
	return printable(d.scrub(s, true))
}

// checkStream asks one question (a credit) and reads how the answer
// travels, then sends a follow-up in its thread without the thread's key.
func (d *doctor) checkStream(ctx context.Context, c *mintlify.AssistantClient, r *apiReport) {
	chk := r.add("message", expectation{method: "POST", route: "/discovery/v2/assistant/{domain}/message", status: 200})
	d.wire.begin()
	s, err := c.Message(ctx, mintlify.MessageParams{Messages: []mintlify.ChatMessage{
		{Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: d.question}}}}})
	if err != nil {
		d.judgeStreamError(chk, err)
		return
	}
	var readErr error
	for _, err := range s.Events() {
		if err != nil {
			readErr = err
			break
		}
	}
	_ = s.Close()
	ans := d.wire.answer()
	if ans == nil {
		chk.differ("no answer", "", "the request failed", d.text(errText(readErr)))
		return
	}
	chk.Status = ans.status
	if readErr != nil {
		chk.differ("stream", "", "the SDK could not read the stream to its end", d.text(readErr.Error()))
	}
	body, _ := ans.bytes()
	st := readStream(body)
	d.judgeStream(chk, ans.header, st)

	follow := r.add("follow-up without the thread key", expectation{method: "POST", route: chk.want.route, status: 404})
	threadID := cmp.Or(ans.header.Get("X-Thread-Id"), st.finishThreadID)
	if threadID == "" {
		follow.skip("no thread ID to follow up in")
		return
	}
	d.wire.begin()
	d.wire.setDropThreadKey(true)
	fs, err := c.Message(ctx, mintlify.MessageParams{ThreadID: threadID, ThreadKey: "dropped-before-sending",
		Messages: []mintlify.ChatMessage{{Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: "And then?"}}}}})
	d.wire.setDropThreadKey(false)
	if err == nil {
		_ = fs.Close()
	}
	fa := d.wire.answer()
	switch {
	case fa == nil:
		follow.differ("no answer", "", "the request failed", d.text(errText(err)))
	case fa.status/100 == 2:
		follow.Status = fa.status
		follow.differ("thread", "", fmt.Sprintf("a follow-up without the thread's key was answered (%d): anyone with a thread's ID can write in it (and it spent a credit)", fa.status), "")
	case fa.status == http.StatusUnauthorized || fa.status == http.StatusForbidden:
		follow.Status = fa.status
		follow.note(fmt.Sprintf("refused with %d", fa.status), "")
		if fa.status != follow.want.status {
			follow.differ("status", "", fmt.Sprintf("refused with %d where the SDK and the mock expect %d", fa.status, follow.want.status), "")
		}
	default:
		follow.Status = fa.status
		if fa.status != follow.want.status {
			follow.differ("status", "", fmt.Sprintf("refused with %d where the SDK and the mock expect %d", fa.status, follow.want.status), "")
		} else {
			follow.note(fmt.Sprintf("refused with %d", fa.status), "")
		}
	}
}

func (d *doctor) judgeStreamError(chk *checkReport, err error) {
	ans := d.wire.answer()
	if ans != nil && (ans.status == http.StatusUnauthorized || ans.status == http.StatusForbidden) {
		d.judge(chk, err, 200)
		return
	}
	if ans != nil {
		chk.Status = ans.status
	}
	chk.differ("message", "", "the question was not answered", d.text(err.Error()))
}

// streamRead is what the framing of a UI message stream showed.
type streamRead struct {
	frames, badFrames int
	otherLines        []string // lines that are neither data nor comments
	done              bool     // ended with data: [DONE]
	types             []string // chunk types, in order of first appearance
	finishThreadID    string
	finished          bool
}

// readStream reads event-stream frames as the AI SDK's parser does: lines
// end at CRLF, LF or CR; an empty line ends an event; "data:" lines join.
func readStream(body []byte) streamRead {
	var st streamRead
	text := strings.ReplaceAll(strings.ReplaceAll(string(body), "\r\n", "\n"), "\r", "\n")
	text = strings.TrimPrefix(text, "\ufeff")
	for _, event := range strings.Split(text, "\n\n") {
		var data []string
		for _, line := range strings.Split(event, "\n") {
			switch {
			case line == "" || strings.HasPrefix(line, ":"):
			case strings.HasPrefix(line, "data:"):
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			default:
				if len(st.otherLines) < 3 {
					st.otherLines = append(st.otherLines, line)
				}
			}
		}
		if len(data) == 0 {
			continue
		}
		st.frames++
		payload := strings.Join(data, "\n")
		if payload == "[DONE]" {
			st.done = true
			continue
		}
		var chunk struct {
			Type     string `json:"type"`
			ThreadID string `json:"threadId"`
		}
		if json.Unmarshal([]byte(payload), &chunk) != nil || chunk.Type == "" {
			st.badFrames++
			continue
		}
		if !slices.Contains(st.types, chunk.Type) {
			st.types = append(st.types, chunk.Type)
		}
		if chunk.Type == "finish" {
			st.finished, st.finishThreadID = true, chunk.ThreadID
		}
	}
	return st
}

// judgeStream compares the stream with what the SDK, its proxy and the
// mock assume: an event stream of the AI SDK's UI message chunks, [DONE]
// last, the thread's ID in X-Thread-Id and in the finish chunk, its key
// in X-Thread-Key.
func (d *doctor) judgeStream(chk *checkReport, h http.Header, st streamRead) {
	if ct := h.Get("Content-Type"); !strings.HasPrefix(strings.ToLower(ct), "text/event-stream") {
		chk.differ("media type", "", "Content-Type is not text/event-stream", d.text(ct))
	}
	if v := h.Get("X-Vercel-AI-UI-Message-Stream"); v != "v1" {
		chk.differ("header", "X-Vercel-AI-UI-Message-Stream", "not v1", d.text(v))
	}
	chk.note(fmt.Sprintf("%d frames; chunk types", st.frames), d.text(strings.Join(st.types, ", ")))
	if st.badFrames > 0 {
		chk.differ("framing", "", fmt.Sprintf("%d frames are not a JSON chunk with a type", st.badFrames), "")
	}
	for _, l := range st.otherLines {
		chk.differ("framing", "", "a line that is not data", d.text(l))
	}
	if !st.done {
		chk.differ("framing", "", "the stream did not end with data: [DONE]", "")
	}
	if !st.finished {
		chk.differ("framing", "", "no finish chunk", "")
	}
	for _, t := range st.types {
		if !slices.Contains(streamChunkTypes, t) && !strings.HasPrefix(t, "data-") {
			chk.differ("chunk type", "", "not a chunk type of the AI SDK's UI message stream", d.text(t))
		}
	}
	id := h.Get("X-Thread-Id")
	switch {
	case id == "":
		chk.differ("header", "X-Thread-Id", "missing: the thread's ID did not come in the header", "")
	case st.finishThreadID != "" && st.finishThreadID != id:
		chk.differ("thread", "finish.threadId", "another thread than X-Thread-Id names", "")
	}
	if st.finished && st.finishThreadID == "" {
		chk.differ("member", "finish.threadId", "missing: the finish chunk does not carry the thread's ID", "")
	}
	if id != "" || st.finishThreadID != "" {
		where := []string{}
		if id != "" {
			where = append(where, "X-Thread-Id")
		}
		if st.finishThreadID != "" {
			where = append(where, "finish.threadId")
		}
		chk.note("threadId travels in "+strings.Join(where, " and "), "")
	}
	if h.Get("X-Thread-Key") == "" {
		chk.differ("header", "X-Thread-Key", "missing: a new thread's key did not come", "")
	} else {
		chk.note("X-Thread-Key came", "")
	}
}
