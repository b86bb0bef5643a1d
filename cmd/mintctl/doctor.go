package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/apishape"
	"github.com/docsagent/mintlify-go/internal/redact"
)

// doctorExitRefused is doctor's exit code when a service refused a key (401
// or 403): the account, not the SDK, needs looking at.
const doctorExitRefused = 6

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
		var refused []string
		for _, a := range d.report.APIs {
			if a.Result == resultRefused {
				refused = append(refused, a.Variable)
			}
		}
		return &codeError{doctorExitRefused, fmt.Errorf("the key in %s was refused (see the report): check the key, its scopes, its expiry and its IP allowlist",
			strings.Join(refused, " and "))}
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
	page := "?limit=" + strconv.Itoa(analyticsSample)
	for _, a := range []struct {
		name, query string
		want        expectation
	}{
		{"visitors", page, expectVisitors},
		{"views", page, expectViews},
		{"searches", page, expectSearches},
		{"feedback", page, expectFeedback},
		{"feedback by page", page, expectFeedbackByPage},
		{"conversations", page, expectConversations},
		{"caller stats", "", expectCallerStats},
	} {
		chk := r.add(a.name, a.want)
		raw, err := d.get(ctx, c, a.want.route+a.query)
		d.judge(chk, err, 200)
		if a.want.route == expectConversations.route && err == nil {
			var turns struct {
				Conversations []struct {
					ID string `json:"id"`
				} `json:"conversations"`
			}
			if json.Unmarshal(raw, &turns) == nil && len(turns.Conversations) > 0 {
				threadID = turns.Conversations[0].ID
			}
		}
	}
	thread := r.add("thread", expectThread)
	if threadID == "" {
		thread.skip("no conversation in the default window to read the thread of")
	} else {
		// Through GetThread, which sends only a ULID, the form the route
		// takes: an ID of another form is never put in a path, and it is
		// a difference, as the SDK cannot read that thread.
		d.wire.begin()
		_, err := c.GetThread(ctx, threadID)
		if errors.Is(err, mintlify.ErrInvalidInput) {
			thread.differ("thread ID", "conversations[].id", "not a ULID, the only form GetThread and the thread route take", d.text(threadID))
		} else {
			d.judge(thread, err, 200)
		}
	}
	if d.statusID != "" {
		dep := r.add("deployment status", expectDeployment)
		_, err := d.get(ctx, c, strings.Replace(expectDeployment.route, "{statusId}", url.PathEscape(d.statusID), 1))
		d.judge(dep, err, 200)
	}
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

// maxReportText bounds one text of a server's in the report, in bytes:
// a member's name, a value, an error. Enough to recognise it; a service
// that sends megabytes of it still gets a report a reader and a step
// summary (1 MiB at most) take.
const maxReportText = 200

// text is server text made safe for the report: keys removed, one
// printable line, cut short ("...") past maxReportText bytes.
func (d *doctor) text(s string) string {
	if len(s) <= maxReportText {
		return printable(d.scrub(s, true))
	}
	cut := maxReportText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return printable(d.scrub(s[:cut], true)) + "..."
}
