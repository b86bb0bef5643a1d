package mintlify_test

// The vendor's answers, decoded: every optional and nullable field null,
// absent and present, times in the forms the service sends (and ones it
// should not, which stay zero where the schema promises no format), and
// what each call sends for its parameters.

import (
	"context"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// decodeCase is one answer to one call and what the call must make of it.
type decodeCase struct {
	name    string
	status  int // 200 unless set
	body    string
	call    call
	want    any        // compared with every time in UTC
	query   url.Values // the request's query, when set
	reqBody string     // the request's JSON body, when set
}

var (
	jan1 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	feb1 = time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func getJob(ctx context.Context, c *mintlify.Client) (any, error) { return c.GetJob(ctx, "job_1") }

func getDeployment(ctx context.Context, c *mintlify.Client) (any, error) {
	return c.GetDeployment(ctx, "st_1")
}

func getExport(ctx context.Context, c *mintlify.Client) (any, error) {
	return c.GetStaticExport(ctx, "se_1")
}

func bundle(ctx context.Context, c *mintlify.Client) (any, error) {
	return c.BundleStaticExport(ctx, "se_1")
}

func startExport(p mintlify.StaticExportParams) call {
	return func(ctx context.Context, c *mintlify.Client) (any, error) { return c.StartStaticExport(ctx, p) }
}

// depFull is a status answer with every field present.
const depFull = mintlify.DeploymentAnswer

const seLink = "https://exports.storage.test/se_1/bundle.tar.gz?X-Amz-Expires=3600&X-Amz-Signature=9f86d081884c7d659a2feaa0c55ad015"

var decodeCases = []decodeCase{
	{name: "job completed with a pull request", call: getJob,
		body: `{"id":"job_1","status":"completed","source":{"repository":"https://github.com/acme/docs","ref":"docs/update"},
			"model":"claude-sonnet-4","prLink":"https://github.com/acme/docs/pull/7","createdAt":"2025-03-04T05:06:07Z","archivedAt":null}`,
		want: &mintlify.Job{ID: "job_1", Status: mintlify.JobCompleted, Source: mintlify.JobSource{Repository: "https://github.com/acme/docs", Ref: "docs/update"},
			Model: "claude-sonnet-4", PRLink: "https://github.com/acme/docs/pull/7", CreatedAt: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)}},
	{name: "job active: nulls become zero values", call: getJob,
		body: `{"id":"job_1","status":"active","source":{"repository":"https://github.com/acme/docs","ref":null},
			"model":"m","prLink":null,"createdAt":"2025-03-04T05:06:07Z","archivedAt":null}`,
		want: &mintlify.Job{ID: "job_1", Status: mintlify.JobActive, Source: mintlify.JobSource{Repository: "https://github.com/acme/docs"},
			Model: "m", CreatedAt: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)}},
	{name: "job archived", call: getJob,
		body: `{"id":"job_1","status":"archived","source":{"repository":"https://github.com/acme/docs","ref":"main"},
			"model":"m","prLink":null,"createdAt":"2025-03-04T05:06:07Z","archivedAt":"2025-03-05T08:00:00Z"}`,
		want: &mintlify.Job{ID: "job_1", Status: mintlify.JobArchived, Source: mintlify.JobSource{Repository: "https://github.com/acme/docs", Ref: "main"},
			Model: "m", CreatedAt: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC), ArchivedAt: ptr(time.Date(2025, 3, 5, 8, 0, 0, 0, time.UTC))}},
	{name: "job with unknown fields", call: getJob,
		body: `{"id":"job_1","status":"active","priority":3,"owner":{"name":"x"},"tags":["a"],
			"source":{"repository":"https://github.com/acme/docs","ref":"main","commit":"abc"},"model":"m","createdAt":"2025-03-04T05:06:07Z"}`,
		want: &mintlify.Job{ID: "job_1", Status: mintlify.JobActive, Source: mintlify.JobSource{Repository: "https://github.com/acme/docs", Ref: "main"},
			Model: "m", CreatedAt: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)}},
	{name: "a new job", status: 201, body: `{"id":"job_new","status":"active","prLink":null}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.CreateJob(ctx, "Document the CLI")
		},
		want: &mintlify.Job{ID: "job_new", Status: mintlify.JobActive}, reqBody: `{"prompt":"Document the CLI"}`},
	{name: "a follow-up sends the job back to active", body: `{"id":"job_1","status":"active"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.SendMessage(ctx, "job_1", "Also cover errors")
		},
		want: &mintlify.Job{ID: "job_1", Status: mintlify.JobActive}, reqBody: `{"prompt":"Also cover errors"}`},

	{name: "visitors", body: `{"totals": {"human": 120, "ai": 45, "total": 150}, "visitors": [
			{"path": "/quickstart", "human": 80, "ai": 30, "total": 100}, {"path": "/api/visitors", "human": 40, "ai": 15, "total": 50}],
			"hasMore": true}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetVisitors(ctx, mintlify.VisitorsParams{})
		},
		want: &mintlify.VisitorsPage{Totals: mintlify.VisitorCounts{Human: 120, AI: 45, Total: 150}, HasMore: true,
			Visitors: []mintlify.PathVisitors{{Path: "/quickstart", Human: 80, AI: 30, Total: 100}, {Path: "/api/visitors", Human: 40, AI: 15, Total: 50}}},
		query: url.Values{}},
	// Counts are the schema's "number": whole values, one written 45.0.
	{name: "views", body: `{"totals": {"human": 120, "ai": 45.0, "total": 165}, "views": [
			{"path": "/quickstart", "human": 80, "ai": 30, "total": 110}, {"path": "/api/views", "human": 40, "ai": 15, "total": 55}],
			"hasMore": true}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetViews(ctx, mintlify.ViewsParams{DateFrom: jan1, DateTo: feb1, Limit: 2, Offset: 4})
		},
		want: &mintlify.ViewsPage{Totals: mintlify.ViewCounts{Human: 120, AI: 45, Total: 165}, HasMore: true,
			Views: []mintlify.PathViews{{Path: "/quickstart", Human: 80, AI: 30, Total: 110}, {Path: "/api/views", Human: 40, AI: 15, Total: 55}}},
		query: url.Values{"dateFrom": {"2025-01-01"}, "dateTo": {"2025-02-01"}, "limit": {"2"}, "offset": {"4"}}},
	// Every nullable field null once and set once; times in the forms the
	// SDK reads, and one it cannot (zero, not an error); the cursor is
	// query-escaped.
	{name: "searches", body: `{"searches": [
			{"searchQuery": "install", "hits": 12, "ctr": 0.25, "topClickedPage": "/quickstart", "lastSearchedAt": "2025-01-30T10:00:00.5+02:00"},
			{"searchQuery": "rate limit", "hits": 3.0, "ctr": 0, "topClickedPage": null, "lastSearchedAt": "2025-01-29"},
			{"searchQuery": "caf\u00e9", "hits": 1, "ctr": 1, "topClickedPage": null, "lastSearchedAt": "yesterday"}],
			"totalSearches": 16, "nextCursor": "c/2+x"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetSearches(ctx, mintlify.SearchesParams{DateFrom: jan1, DateTo: feb1, Limit: 3, Cursor: "c/1 x"})
		},
		want: &mintlify.SearchesPage{TotalSearches: 16, NextCursor: "c/2+x", Searches: []mintlify.SearchTerm{
			{Query: "install", Hits: 12, CTR: 0.25, TopClickedPage: "/quickstart", LastSearchedAt: time.Date(2025, 1, 30, 8, 0, 0, 5e8, time.UTC)},
			{Query: "rate limit", Hits: 3, CTR: 0, LastSearchedAt: day(2025, 1, 29)},
			{Query: "café", Hits: 1, CTR: 1}}},
		query: url.Values{"dateFrom": {"2025-01-01"}, "dateTo": {"2025-02-01"}, "limit": {"3"}, "cursor": {"c/1 x"}}},
	// One entry per source. Nullable fields null or set; fields another
	// source has are ignored whatever their type (the agent entry's
	// "helpful": "yes", the contextual entry's "code": 7).
	{name: "feedback", body: `{"feedback": [
			{"id": "fb1", "path": "/quickstart", "comment": "Unclear step 3", "createdAt": "2025-01-05T09:00:00Z",
			 "source": "contextual", "status": "pending", "helpful": false, "contact": "ann@example.com", "code": 7},
			{"id": "fb2", "path": "/quickstart", "comment": null, "createdAt": null, "source": "contextual", "status": "resolved", "helpful": true, "contact": null},
			{"id": "fb3", "path": "/api", "comment": "Typo", "createdAt": "2025-01-06",
			 "source": "code_snippet", "status": "in_progress", "code": "curl -X GET", "filename": null, "lang": "bash", "helpful": true},
			{"id": "fb4", "path": "/api", "comment": null, "createdAt": "not a time",
			 "source": "code_snippet", "status": "dismissed", "code": "x", "filename": "main.go", "lang": null},
			{"id": "fb5", "path": "/faq", "comment": "Needs an example", "createdAt": "2025-01-07T00:00:00Z",
			 "source": "agent", "status": "pending", "helpful": "yes", "contact": 1, "code": null},
			{"id": "fb6", "path": "/faq", "comment": null, "createdAt": "2025-01-08T00:00:00Z", "source": "thumbs_only", "status": "pending"}],
			"nextCursor": "next+1", "hasMore": true}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetFeedback(ctx, mintlify.FeedbackParams{DateFrom: jan1, DateTo: feb1, Source: mintlify.FeedbackContextual,
				Statuses: []mintlify.FeedbackStatus{mintlify.FeedbackPending, mintlify.FeedbackInProgress}, Limit: 6, Cursor: "c1"})
		},
		want: &mintlify.FeedbackPage{NextCursor: "next+1", HasMore: true, Feedback: []mintlify.Feedback{
			{ID: "fb1", Path: "/quickstart", Comment: "Unclear step 3", CreatedAt: day(2025, 1, 5).Add(9 * time.Hour),
				Source: mintlify.FeedbackContextual, Status: mintlify.FeedbackPending, Helpful: ptr(false), Contact: "ann@example.com"},
			{ID: "fb2", Path: "/quickstart", Source: mintlify.FeedbackContextual, Status: mintlify.FeedbackResolved, Helpful: ptr(true)},
			{ID: "fb3", Path: "/api", Comment: "Typo", CreatedAt: day(2025, 1, 6), Source: mintlify.FeedbackCodeSnippet,
				Status: mintlify.FeedbackInProgress, Code: "curl -X GET", Lang: "bash"},
			{ID: "fb4", Path: "/api", Source: mintlify.FeedbackCodeSnippet, Status: mintlify.FeedbackDismissed, Code: "x", Filename: "main.go"},
			{ID: "fb5", Path: "/faq", Comment: "Needs an example", CreatedAt: day(2025, 1, 7), Source: mintlify.FeedbackAgent, Status: mintlify.FeedbackPending},
			{ID: "fb6", Path: "/faq", CreatedAt: day(2025, 1, 8), Source: mintlify.FeedbackThumbsOnly, Status: mintlify.FeedbackPending}}},
		query: url.Values{"dateFrom": {"2025-01-01"}, "dateTo": {"2025-02-01"}, "limit": {"6"}, "cursor": {"c1"},
			"source": {"contextual"}, "status": {"pending,in_progress"}}},
	{name: "feedback by page", body: `{"feedback": [{"path": "/quickstart", "thumbsUp": 4, "thumbsDown": 1, "code": 0, "total": 5},
			{"path": "/api", "thumbsUp": 0, "thumbsDown": 0, "code": 2.0, "total": 2}], "hasMore": false}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{Source: mintlify.FeedbackCodeSnippet,
				Statuses: []mintlify.FeedbackStatus{mintlify.FeedbackDismissed}, Limit: 100})
		},
		want:  &mintlify.FeedbackByPage{Pages: []mintlify.PageFeedback{{Path: "/quickstart", ThumbsUp: 4, ThumbsDown: 1, Total: 5}, {Path: "/api", Code: 2, Total: 2}}},
		query: url.Values{"limit": {"100"}, "source": {"code_snippet"}, "status": {"dismissed"}}},
	{name: "feedback by page: Limit 0 sends none (the server's default is 10)", body: goodByPage,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{})
		},
		want: &mintlify.FeedbackByPage{Pages: []mintlify.PageFeedback{{Path: "/a", ThumbsUp: 1, Total: 1}}}, query: url.Values{}},
	// Two turns of one thread; responseType present, absent; nullable
	// fields set and null.
	{name: "conversations", body: `{"conversations": [
			{"id": "` + testThread + `", "timestamp": "2025-01-03T10:00:00Z", "query": "How do I log in?", "response": "Which SDK?",
			 "responseType": "clarifying_question", "sources": [], "resolutionStatus": "answered", "queryCategory": null, "pageUrl": null},
			{"id": "` + testThread + `", "timestamp": "2025-01-03T10:01:00Z", "query": "Go", "response": "Use NewClient.",
			 "sources": [{"title": "Quickstart", "url": "https://docs.example.com/quickstart"}],
			 "resolutionStatus": "unanswered", "queryCategory": "auth", "pageUrl": "https://docs.example.com/"}],
			"nextCursor": "01HZY6J0V7Q4N2M8K3D5F9G1B1", "hasMore": true}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetConversations(ctx, mintlify.ConversationsParams{DateFrom: jan1, Limit: 1000, Cursor: "01HZY6J0V7Q4N2M8K3D5F9G1AZ"})
		},
		want: &mintlify.ConversationsPage{NextCursor: "01HZY6J0V7Q4N2M8K3D5F9G1B1", HasMore: true, Conversations: []mintlify.Conversation{
			{ID: testThread, Timestamp: time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC), Query: "How do I log in?", Response: "Which SDK?",
				ResponseType: "clarifying_question", Sources: []mintlify.ConversationSource{}, ResolutionStatus: "answered"},
			{ID: testThread, Timestamp: time.Date(2025, 1, 3, 10, 1, 0, 0, time.UTC), Query: "Go", Response: "Use NewClient.", ResponseType: "answer",
				Sources:          []mintlify.ConversationSource{{Title: "Quickstart", URL: "https://docs.example.com/quickstart"}},
				ResolutionStatus: "unanswered", QueryCategory: "auth", PageURL: "https://docs.example.com/"}}},
		query: url.Values{"dateFrom": {"2025-01-01"}, "limit": {"1000"}, "cursor": {"01HZY6J0V7Q4N2M8K3D5F9G1AZ"}}},
	{name: "thread", body: `{"threadId": "` + testThread + `", "createdAt": "2025-01-03T10:00:00Z", "messages": [
			{"id": "m1", "role": "user", "content": "How do I log in?", "createdAt": "2025-01-03T10:00:00Z"},
			{"id": "m2", "role": "assistant", "content": "Which SDK?", "createdAt": "garbled"}]}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) { return c.GetThread(ctx, testThread) },
		want: &mintlify.Thread{ID: testThread, CreatedAt: time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC), Messages: []mintlify.ThreadMessage{
			{ID: "m1", Role: "user", Content: "How do I log in?", CreatedAt: time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC)},
			{ID: "m2", Role: "assistant", Content: "Which SDK?"}}},
		query: url.Values{}},
	{name: "thread asked in lower case: a ULID too", body: goodThread,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetThread(ctx, "01hzy6j0v7q4n2m8k3d5f9g1b0")
		},
		want: &mintlify.Thread{ID: testThread, CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Messages: []mintlify.ThreadMessage{
			{ID: "01HZY6J0V7Q4N2M8K3D5F9G1B1", Role: "user", Content: "how?", CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)},
			{ID: "01HZY6J0V7Q4N2M8K3D5F9G1B2", Role: "assistant", Content: "so", CreatedAt: time.Date(2025, 1, 2, 3, 4, 6, 0, time.UTC)}}}},
	{name: "caller stats", body: `{"web": 10, "api": 4.0, "other": 1, "total": 15}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.GetCallerStats(ctx, mintlify.CallerStatsParams{DateFrom: jan1, DateTo: feb1})
		},
		want:  &mintlify.CallerStats{Web: 10, API: 4, Other: 1, Total: 15},
		query: url.Values{"dateFrom": {"2025-01-01"}, "dateTo": {"2025-02-01"}}},

	{name: "deployment: every field present", body: depFull, call: getDeployment,
		want: &mintlify.Deployment{ID: "st_1", ProjectID: "proj_42", Status: mintlify.DeploymentFailed, Source: "api",
			Summary: "Build failed: 2 broken links", Subdomain: "acme", Logs: []string{"cloning", "building", "error: broken link /a"},
			CreatedAt: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), EndedAt: time.Date(2026, 3, 4, 4, 8, 9, 5e8, time.UTC),
			Author: &mintlify.DeploymentAuthor{Name: "Ada", AvatarURL: "https://a/ada.png", GitHubUserID: 583231},
			Commit: mintlify.DeploymentCommit{SHA: "abc123", Ref: "main", Message: "docs: fix links",
				Added: []string{"new.mdx"}, Modified: []string{"a.mdx", "b.mdx"}, Removed: []string{"old.mdx"}},
			Screenshot: "https://s/1.png", ScreenshotLight: "https://s/l.png", ScreenshotDark: "https://s/d.png"}},
	{name: "deployment: only the required fields", body: `{"_id":"st_1","status":"queued"}`, call: getDeployment,
		want: &mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentQueued}},
	{name: "deployment: every optional field null", call: getDeployment,
		body: `{"_id":"st_1","status":"in_progress","projectId":null,"createdAt":null,"endedAt":null,"summary":null,"logs":null,"subdomain":null,
			"screenshot":null,"screenshotLight":null,"screenshotDark":null,"author":null,"commit":null,"source":null}`,
		want: &mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentInProgress}},
	{name: "deployment: nested fields null or absent", call: getDeployment,
		body: `{"_id":"st_1","status":"success","author":{"name":null,"githubUserId":null},"commit":{"sha":"abc","filesChanged":{"added":null,"removed":[]}}}`,
		want: &mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentSucceeded, Author: &mintlify.DeploymentAuthor{},
			Commit: mintlify.DeploymentCommit{SHA: "abc", Removed: []string{}}}},
	{name: "deployment: a commit without filesChanged", call: getDeployment,
		body: `{"_id":"st_1","status":"success","commit":{"ref":"docs","filesChanged":null}}`,
		want: &mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentSucceeded, Commit: mintlify.DeploymentCommit{Ref: "docs"}}},
	{name: "deployment: times that are not RFC 3339 stay zero", call: getDeployment,
		body: `{"_id":"st_1","status":"queued","createdAt":"yesterday","endedAt":""}`,
		want: &mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentQueued}},
	{name: "deployment: a GitHub user ID written as a float", call: getDeployment,
		body: `{"_id":"st_1","status":"queued","author":{"githubUserId":1.2e3}}`,
		want: &mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentQueued, Author: &mintlify.DeploymentAuthor{GitHubUserID: 1200}}},
	{name: "deployment: a fractional GitHub user ID stays zero", call: getDeployment,
		body: `{"_id":"st_1","status":"queued","author":{"githubUserId":1.5}}`,
		want: &mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentQueued, Author: &mintlify.DeploymentAuthor{}}},
	{name: "deployment: unknown fields are ignored", call: getDeployment,
		body: `{"_id":"st_1","status":"queued","branch":"main","extra":{"a":1}}`,
		want: &mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentQueued}},
	{name: "trigger deployment", status: 202, body: `{"statusId":"st_9"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) { return c.TriggerDeployment(ctx) }, want: "st_9"},
	{name: "preview: both fields", status: 202, body: `{"statusId":"st_3","previewUrl":"https://acme-feat.mintlify.app"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) {
			return c.TriggerPreview(ctx, "feature/new-nav")
		},
		want:    &mintlify.Preview{StatusID: "st_3", URL: "https://acme-feat.mintlify.app"},
		reqBody: `{"branch":"feature/new-nav"}`},
	{name: "preview: previewUrl null", status: 202, body: `{"statusId":"st_3","previewUrl":null}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) { return c.TriggerPreview(ctx, "main") },
		want: &mintlify.Preview{StatusID: "st_3"}},
	{name: "preview: previewUrl absent", status: 202, body: `{"statusId":"st_3"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) { return c.TriggerPreview(ctx, "main") },
		want: &mintlify.Preview{StatusID: "st_3"}},
	{name: "automation: every field", status: 202, body: `{"schemaId":"wf_1","instanceId":"run_7","jobId":"job_3"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) { return c.TriggerAutomation(ctx, "wf_1") },
		want: &mintlify.AutomationRun{AutomationID: "wf_1", RunID: "run_7", JobID: "job_3"}},
	{name: "automation: optional fields null", status: 202, body: `{"schemaId":null,"instanceId":"run_7","jobId":null}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) { return c.TriggerAutomation(ctx, "wf_1") },
		want: &mintlify.AutomationRun{RunID: "run_7"}},
	{name: "automation: optional fields absent", status: 202, body: `{"instanceId":"run_7"}`,
		call: func(ctx context.Context, c *mintlify.Client) (any, error) { return c.TriggerAutomation(ctx, "wf_1") },
		want: &mintlify.AutomationRun{RunID: "run_7"}},
	{name: "static export: domain only", status: 202, body: `{"jobId":"se_1","status":"queued","progress":0,"pageCount":0,` +
		`"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z","error":null}`,
		call: startExport(mintlify.StaticExportParams{Domain: "docs.acme.com"}), reqBody: `{"domain":"docs.acme.com"}`,
		want: &mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportQueued, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
	{name: "static export: empty paths are left out", status: 202, body: `{"jobId":"se_1","status":"queued"}`,
		call:    startExport(mintlify.StaticExportParams{Domain: "acme.mintlify.app", Paths: []string{}}),
		reqBody: `{"domain":"acme.mintlify.app"}`, want: &mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportQueued}},
	{name: "static export: every field", status: 202, body: `{"jobId":"se_1","status":"queued"}`,
		call:    startExport(mintlify.StaticExportParams{Domain: "docs.acme.com", Version: "2024-06-01", Paths: []string{"index", "guides/start"}}),
		reqBody: `{"domain":"docs.acme.com","version":"2024-06-01","paths":["index","guides/start"]}`,
		want:    &mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportQueued}},
	{name: "static export running, error absent", call: getExport,
		body: `{"jobId":"se_1","status":"running","progress":42.5,"pageCount":128,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"}`,
		want: &mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportRunning, Progress: 42.5, PageCount: 128,
			CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
	{name: "static export completed, error null", call: getExport,
		body: `{"jobId":"se_1","status":"completed","progress":100,"pageCount":300,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z","error":null}`,
		want: &mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportCompleted, Progress: 100, PageCount: 300,
			CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
	{name: "static export failed, error present", call: getExport,
		body: `{"jobId":"se_1","status":"failed","progress":10,"pageCount":3,"createdAt":"2026-01-02T03:04:05Z",` +
			`"updatedAt":"2026-01-02T03:04:05Z","error":"page guides/x did not render"}`,
		want: &mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportFailed, Progress: 10, PageCount: 3, Error: "page guides/x did not render",
			CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
	{name: "static export: only the required fields", call: getExport, body: `{"jobId":"se_1","status":"queued"}`,
		want: &mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportQueued}},
	{name: "static export: optional fields null", call: getExport,
		body: `{"jobId":"se_1","status":"queued","progress":null,"pageCount":null,"createdAt":null,"updatedAt":null,"error":null}`,
		want: &mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportQueued}},
	{name: "bundle: every field", call: bundle,
		body: `{"jobId":"se_1","bundleUrl":"` + seLink + `","sizeBytes":18432000,"expiresAt":"2026-01-02T04:04:05Z"}`,
		want: &mintlify.StaticExportBundle{JobID: "se_1", URL: seLink, SizeBytes: 18432000, ExpiresAt: time.Date(2026, 1, 2, 4, 4, 5, 0, time.UTC)}},
	{name: "bundle: jobId and expiresAt absent", call: bundle, body: `{"bundleUrl":"` + seLink + `","sizeBytes":0}`,
		want: &mintlify.StaticExportBundle{JobID: "se_1", URL: seLink}},
	{name: "bundle: jobId and expiresAt null", call: bundle, body: `{"jobId":null,"bundleUrl":"` + seLink + `","sizeBytes":5,"expiresAt":null}`,
		want: &mintlify.StaticExportBundle{JobID: "se_1", URL: seLink, SizeBytes: 5}},
}

func ptr[T any](v T) *T { return &v }

// inUTC is a copy of v with every non-zero time in UTC, so that equal
// instants compare equal whatever offset they were written with, and only
// the exported fields: a row keeps the API's text of its time unexported,
// which a value built by hand has not.
func inUTC(v any) any {
	if v == nil {
		return nil
	}
	return exportedInUTC(reflect.ValueOf(v)).Interface()
}

func exportedInUTC(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(exportedInUTC(v.Elem()))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(exportedInUTC(v.Index(i)))
		}
		return out
	case reflect.Struct:
		if t, ok := v.Interface().(time.Time); ok {
			if !t.IsZero() {
				t = t.UTC()
			}
			return reflect.ValueOf(t)
		}
		out := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out.Field(i).Set(exportedInUTC(v.Field(i)))
			}
		}
		return out
	}
	return v
}

// TestEveryMethodDecodesTheVendorsAnswers: each answer above decodes to
// what it says, and the call sends its parameters as the API reads them.
func TestEveryMethodDecodesTheVendorsAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range decodeCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			status := tc.status
			if status == 0 {
				status = 200
			}
			rec := &recorder{}
			c, _ := answering(t, rec.wrap(respond(status, tc.body)), mintlify.WithMaxRetries(0))
			got, err := tc.call(context.Background(), c)
			require.NoError(t, err)
			assert.Equal(t, inUTC(tc.want), inUTC(got))
			reqs := rec.requests()
			require.Len(t, reqs, 1)
			if tc.query != nil {
				assert.Equal(t, tc.query, reqs[0].URL.Query())
			}
			if tc.reqBody != "" {
				assert.JSONEq(t, tc.reqBody, string(reqs[0].Body))
			}
		})
	}
}

// TestJobStatusTerminal: completed, archived and failed end a job; active,
// statuses added later and other spellings do not.
func TestJobStatusTerminal(t *testing.T) {
	t.Parallel()
	for status, want := range map[mintlify.JobStatus]bool{mintlify.JobActive: false, mintlify.JobCompleted: true,
		mintlify.JobArchived: true, mintlify.JobFailed: true, "queued": false, "": false, "Completed": false} {
		assert.Equal(t, want, status.Terminal(), "%q", status)
	}
}

// TestStatusesKnown: Known tells the statuses this SDK documents from ones
// the vendor may add, which a poller waits through.
func TestStatusesKnown(t *testing.T) {
	t.Parallel()
	for _, s := range []mintlify.JobStatus{mintlify.JobActive, mintlify.JobCompleted, mintlify.JobArchived, mintlify.JobFailed} {
		assert.True(t, s.Known(), s)
	}
	for _, s := range []mintlify.DeploymentStatus{mintlify.DeploymentQueued, mintlify.DeploymentInProgress, mintlify.DeploymentSucceeded, mintlify.DeploymentFailed} {
		assert.True(t, s.Known(), s)
	}
	for _, s := range []mintlify.StaticExportStatus{mintlify.StaticExportQueued, mintlify.StaticExportRunning, mintlify.StaticExportCompleted, mintlify.StaticExportFailed} {
		assert.True(t, s.Known(), s)
	}
	for _, s := range []string{"queued", "paused", "", "Active", "success"} {
		assert.False(t, mintlify.JobStatus(s).Known() || mintlify.JobStatus(s).Terminal(), s)
	}
	for _, s := range []string{"building", "", "Success", "completed"} {
		assert.False(t, mintlify.DeploymentStatus(s).Known() || mintlify.DeploymentStatus(s).Terminal(), s)
	}
	for _, s := range []string{"paused", "", "Completed", "success"} {
		assert.False(t, mintlify.StaticExportStatus(s).Known() || mintlify.StaticExportStatus(s).Terminal(), s)
	}
}

// TestAnalyticsEnumsTheVendorMayAdd: an enum value of an analytics row
// that the SDK does not know (a feedback source or status, a response
// type, a resolution status, a message role) is kept as sent when it is a
// token of lower-case letters, digits, _ and -, 1 to 64 bytes; any other
// value is ErrMalformedResponse, so none reaches a terminal or a CI log.
func TestAnalyticsEnumsTheVendorMayAdd(t *testing.T) {
	t.Parallel()
	fields := []struct {
		body, path string
		call       func(context.Context, *mintlify.Client) (string, error)
	}{
		{goodFB, "feedback.0.source", func(ctx context.Context, c *mintlify.Client) (string, error) {
			p, err := c.GetFeedback(ctx, mintlify.FeedbackParams{})
			if err != nil {
				return "", err
			}
			return string(p.Feedback[0].Source), nil
		}},
		{goodFB, "feedback.0.status", func(ctx context.Context, c *mintlify.Client) (string, error) {
			p, err := c.GetFeedback(ctx, mintlify.FeedbackParams{})
			if err != nil {
				return "", err
			}
			return string(p.Feedback[0].Status), nil
		}},
		{goodConv, "conversations.0.responseType", func(ctx context.Context, c *mintlify.Client) (string, error) {
			p, err := c.GetConversations(ctx, mintlify.ConversationsParams{})
			if err != nil {
				return "", err
			}
			return p.Conversations[0].ResponseType, nil
		}},
		{goodConv, "conversations.0.resolutionStatus", func(ctx context.Context, c *mintlify.Client) (string, error) {
			p, err := c.GetConversations(ctx, mintlify.ConversationsParams{})
			if err != nil {
				return "", err
			}
			return p.Conversations[0].ResolutionStatus, nil
		}},
		{goodThread, "messages.1.role", func(ctx context.Context, c *mintlify.Client) (string, error) {
			th, err := c.GetThread(ctx, testThread)
			if err != nil {
				return "", err
			}
			return th.Messages[1].Role, nil
		}},
	}
	for _, f := range fields {
		t.Run(f.path, func(t *testing.T) {
			t.Parallel()
			for _, v := range []string{"escalated", "needs-review_2", strings.Repeat("z", 64)} {
				c, _ := answering(t, respond(200, setPath(t, f.body, f.path, `"`+v+`"`)), mintlify.WithMaxRetries(0))
				got, err := f.call(context.Background(), c)
				require.NoError(t, err, v)
				assert.Equal(t, v, got)
			}
			for _, v := range hostileStatuses {
				if v == "null" && strings.HasSuffix(f.path, "responseType") {
					continue // a null responseType is a missing field: the required-field check's
				}
				c, _ := answering(t, respond(200, setPath(t, f.body, f.path, v)), mintlify.WithMaxRetries(0))
				_, err := f.call(context.Background(), c)
				require.ErrorIs(t, err, mintlify.ErrMalformedResponse, v)
				// Quoted, never raw: no line of it can start a workflow command.
				assert.NotContains(t, err.Error(), "\n")
				assert.NotContains(t, err.Error(), "\x1b")
				assert.NotContains(t, err.Error(), "\x00")
			}
		})
	}
}
