package mintlify_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// jsonKeys lists the member paths of a JSON value: "a.b" for a member of
// an object, "a[].b" for a member of the objects of an array, "a" for a
// value that is null or not an object.
func jsonKeys(t *testing.T, b []byte) []string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v), "%s", b)
	seen := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, m := range v {
				seen[prefix+k] = true
				walk(prefix+k+".", m)
			}
		case []any:
			for _, e := range v {
				walk(strings.TrimSuffix(prefix, ".")+"[].", e)
			}
		}
	}
	walk("", v)
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// nullKeys lists the member paths whose value is null.
func nullKeys(t *testing.T, b []byte) []string {
	t.Helper()
	var nulls []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if m, ok := v.(map[string]any); ok {
			for k, e := range m {
				if e == nil {
					nulls = append(nulls, prefix+k)
				}
				walk(prefix+k+".", e)
			}
		}
	}
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	walk("", v)
	sort.Strings(nulls)
	return nulls
}

// The field names below are written from the vendor's documents, not
// from the SDK's code.
var (
	when  = time.Date(2025, 1, 30, 10, 0, 0, 0, time.UTC)
	later = time.Date(2025, 1, 30, 10, 5, 0, 500, time.UTC)
	yes   = true
)

func TestPublicTypesMarshalAsTheAPI(t *testing.T) {
	tests := []struct {
		name  string
		value any    // a value with every field set
		keys  string // the API's member paths, space-separated
		// sparse is a value with its nullable fields zero; nulls are the
		// members that must then be null.
		sparse any
		nulls  string
	}{
		{name: "Job",
			value: mintlify.Job{ID: "job_1", Status: mintlify.JobCompleted, Model: "m",
				Source:    mintlify.JobSource{Repository: "https://github.com/o/r", Ref: "main"},
				PRLink:    "https://github.com/o/r/pull/1?a=1&b=<2>",
				CreatedAt: when, ArchivedAt: &later},
			keys:   "id status source source.repository source.ref model prLink createdAt archivedAt",
			sparse: mintlify.Job{ID: "job_1", Status: mintlify.JobActive, CreatedAt: when},
			nulls:  "archivedAt prLink source.ref"},
		{name: "JobSource", value: mintlify.JobSource{Repository: "https://github.com/o/r", Ref: "main"},
			keys: "repository ref", sparse: mintlify.JobSource{Repository: "r"}, nulls: "ref"},
		{name: "Deployment",
			value: mintlify.Deployment{ID: "st_1", ProjectID: "p", Status: mintlify.DeploymentFailed, Source: "api",
				Summary: "s", Subdomain: "acme", Logs: []string{"a", "b"}, CreatedAt: when, EndedAt: later,
				Author: &mintlify.DeploymentAuthor{Name: "Ada", AvatarURL: "https://a/ada.png", GitHubUserID: 583231},
				Commit: mintlify.DeploymentCommit{SHA: "abc", Ref: "main", Message: "m",
					Added: []string{"a.mdx"}, Modified: []string{}, Removed: []string{"c.mdx"}},
				Screenshot: "https://s/1.png", ScreenshotLight: "https://s/l.png", ScreenshotDark: "https://s/d.png"},
			keys: "_id projectId createdAt endedAt status summary logs subdomain screenshot screenshotLight screenshotDark " +
				"author author.name author.avatarUrl author.githubUserId commit commit.sha commit.ref commit.message " +
				"commit.filesChanged commit.filesChanged.added commit.filesChanged.modified commit.filesChanged.removed source",
			// A nil list marshals as [], as the API sends it.
			sparse: mintlify.Deployment{ID: "st_1", Status: mintlify.DeploymentInProgress, CreatedAt: when, Logs: []string{},
				Commit: mintlify.DeploymentCommit{Added: []string{}, Modified: []string{}, Removed: []string{}}},
			nulls: "author endedAt"},
		{name: "DeploymentCommit",
			value: mintlify.DeploymentCommit{SHA: "abc", Ref: "main", Message: "m", Added: []string{"a"}, Modified: []string{"b"}, Removed: []string{"c"}},
			keys:  "sha ref message filesChanged filesChanged.added filesChanged.modified filesChanged.removed"},
		{name: "Preview", value: mintlify.Preview{StatusID: "st_1", URL: "https://preview.test"}, keys: "statusId previewUrl"},
		{name: "AutomationRun", value: mintlify.AutomationRun{AutomationID: "a", RunID: "r", JobID: "j"},
			keys: "schemaId instanceId jobId"},
		{name: "StaticExport",
			value: mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportFailed, Progress: 42.5, PageCount: 3,
				CreatedAt: when, UpdatedAt: later, Error: "broken"},
			keys:   "jobId status progress pageCount createdAt updatedAt error",
			sparse: mintlify.StaticExport{ID: "se_1", Status: mintlify.StaticExportRunning, CreatedAt: when, UpdatedAt: later},
			nulls:  "error"},
		{name: "StaticExportBundle", // the presigned link is left out
			value: mintlify.StaticExportBundle{JobID: "se_1", SizeBytes: 10, ExpiresAt: later},
			keys:  "jobId sizeBytes expiresAt"},
		{name: "VisitorsPage",
			value: mintlify.VisitorsPage{Totals: mintlify.VisitorCounts{Human: 3, AI: 2, Total: 4},
				Visitors: []mintlify.PathVisitors{{Path: "/a", Human: 3, AI: 2, Total: 4}}, HasMore: true},
			keys: "totals totals.human totals.ai totals.total visitors visitors[].path visitors[].human visitors[].ai visitors[].total hasMore"},
		{name: "ViewsPage",
			value: mintlify.ViewsPage{Totals: mintlify.ViewCounts{Human: 3, AI: 2, Total: 5},
				Views: []mintlify.PathViews{{Path: "/a", Human: 3, AI: 2, Total: 5}}},
			keys: "totals totals.human totals.ai totals.total views views[].path views[].human views[].ai views[].total hasMore"},
		{name: "SearchesPage",
			value: mintlify.SearchesPage{Searches: []mintlify.SearchTerm{{Query: "q", Hits: 3, CTR: 0.5, TopClickedPage: "/a", LastSearchedAt: when}},
				TotalSearches: 9, NextCursor: "c2"},
			keys:   "searches searches[].searchQuery searches[].hits searches[].ctr searches[].topClickedPage searches[].lastSearchedAt totalSearches nextCursor",
			sparse: mintlify.SearchesPage{Searches: []mintlify.SearchTerm{}},
			nulls:  "nextCursor"},
		{name: "SearchTerm", value: mintlify.SearchTerm{Query: "q", Hits: 3, CTR: 0.5, TopClickedPage: "/a", LastSearchedAt: when},
			keys:   "searchQuery hits ctr topClickedPage lastSearchedAt",
			sparse: mintlify.SearchTerm{Query: "q", Hits: 1}, nulls: "lastSearchedAt topClickedPage"},
		{name: "FeedbackPage",
			value: mintlify.FeedbackPage{Feedback: []mintlify.Feedback{{ID: "f1", Path: "/a", Comment: "c", CreatedAt: when,
				Source: mintlify.FeedbackAgent, Status: mintlify.FeedbackPending}}, NextCursor: "c2", HasMore: true},
			keys:   "feedback feedback[].id feedback[].path feedback[].comment feedback[].createdAt feedback[].source feedback[].status nextCursor hasMore",
			sparse: mintlify.FeedbackPage{Feedback: []mintlify.Feedback{}},
			nulls:  "nextCursor"},
		{name: "Feedback, contextual",
			value: mintlify.Feedback{ID: "f1", Path: "/a", Comment: "c", CreatedAt: when, Source: mintlify.FeedbackContextual,
				Status: mintlify.FeedbackResolved, Helpful: &yes, Contact: "a@b.test"},
			keys: "id path comment createdAt source status helpful contact",
			sparse: mintlify.Feedback{ID: "f1", Path: "/a", Source: mintlify.FeedbackContextual, Status: mintlify.FeedbackPending,
				Helpful: &yes},
			nulls: "comment contact createdAt"},
		{name: "Feedback, code snippet",
			value: mintlify.Feedback{ID: "f1", Path: "/a", Comment: "c", CreatedAt: when, Source: mintlify.FeedbackCodeSnippet,
				Status: mintlify.FeedbackDismissed, Code: "x := 1", Filename: "main.go", Lang: "go"},
			keys: "id path comment createdAt source status code filename lang",
			sparse: mintlify.Feedback{ID: "f1", Path: "/a", Source: mintlify.FeedbackCodeSnippet, Status: mintlify.FeedbackPending,
				Code: "x"},
			nulls: "comment createdAt filename lang"},
		{name: "FeedbackByPage",
			value: mintlify.FeedbackByPage{Pages: []mintlify.PageFeedback{{Path: "/a", ThumbsUp: 1, ThumbsDown: 2, Code: 3, Total: 6}}, HasMore: true},
			keys:  "feedback feedback[].path feedback[].thumbsUp feedback[].thumbsDown feedback[].code feedback[].total hasMore"},
		{name: "ConversationsPage",
			value: mintlify.ConversationsPage{Conversations: []mintlify.Conversation{{ID: "01JD3Z8X6N6Q7V9W2Y4T5R8K0M",
				Timestamp: when, Query: "q", Response: "r", ResponseType: "answer",
				Sources:          []mintlify.ConversationSource{{Title: "T", URL: "https://docs.test/a"}},
				ResolutionStatus: "answered", QueryCategory: "setup", PageURL: "https://docs.test/b"}}, NextCursor: "c2", HasMore: true},
			keys: "conversations conversations[].id conversations[].timestamp conversations[].query conversations[].response " +
				"conversations[].responseType conversations[].sources conversations[].sources[].title conversations[].sources[].url " +
				"conversations[].resolutionStatus conversations[].queryCategory conversations[].pageUrl nextCursor hasMore",
			sparse: mintlify.ConversationsPage{Conversations: []mintlify.Conversation{}},
			nulls:  "nextCursor"},
		{name: "Conversation",
			value: mintlify.Conversation{ID: "t", Timestamp: when, Query: "q", Response: "r", ResponseType: "clarifying_question",
				Sources: []mintlify.ConversationSource{}, ResolutionStatus: "unanswered", QueryCategory: "c", PageURL: "https://docs.test/a"},
			keys:   "id timestamp query response responseType sources resolutionStatus queryCategory pageUrl",
			sparse: mintlify.Conversation{ID: "t", ResponseType: "answer", Sources: []mintlify.ConversationSource{}},
			nulls:  "pageUrl queryCategory timestamp"},
		{name: "Thread",
			value: mintlify.Thread{ID: "01JD3Z8X6N6Q7V9W2Y4T5R8K0M", CreatedAt: when,
				Messages: []mintlify.ThreadMessage{{ID: "m1", Role: "user", Content: "hi", CreatedAt: later}}},
			keys:   "threadId createdAt messages messages[].id messages[].role messages[].content messages[].createdAt",
			sparse: mintlify.Thread{ID: "t", Messages: []mintlify.ThreadMessage{}},
			nulls:  "createdAt"},
		{name: "CallerStats", value: mintlify.CallerStats{Web: 1, API: 2, Other: 3, Total: 6}, keys: "web api other total"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.value)
			require.NoError(t, err)
			assert.Equal(t, strings.Fields(tt.keys), sortedFields(tt.keys, jsonKeys(t, b)), "%s", b)
			assert.Empty(t, nullKeys(t, b), "a full value has no null: %s", b)
			roundTrip(t, tt.value)

			if tt.sparse == nil {
				return
			}
			b, err = json.Marshal(tt.sparse)
			require.NoError(t, err)
			assert.Equal(t, strings.Fields(tt.nulls), nullKeys(t, b), "%s", b)
			roundTrip(t, tt.sparse)
		})
	}
}

// sortedFields returns got in the order of want's fields, for a readable
// diff; members want lacks come last.
func sortedFields(want string, got []string) []string {
	order := strings.Fields(want)
	slices.SortStableFunc(got, func(a, b string) int {
		ia, ib := slices.Index(order, a), slices.Index(order, b)
		if ia < 0 {
			ia = len(order)
		}
		if ib < 0 {
			ib = len(order)
		}
		return ia - ib
	})
	return got
}

// roundTrip checks that json.Unmarshal reads back what json.Marshal wrote.
func roundTrip(t *testing.T, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	back := reflect.New(reflect.TypeOf(v))
	require.NoError(t, json.Unmarshal(b, back.Interface()), "%s", b)
	assert.Equal(t, v, back.Elem().Interface(), "%s", b)
}

// A bundle's presigned link is a credential: its JSON leaves it out.
func TestBundleJSONLeavesTheLinkOut(t *testing.T) {
	b, err := json.Marshal(mintlify.StaticExportBundle{JobID: "se_1", URL: "https://storage.test/b?sig=secret", SizeBytes: 10})
	require.NoError(t, err)
	assert.NotContains(t, string(b), "storage.test")
	assert.JSONEq(t, `{"jobId":"se_1","sizeBytes":10,"expiresAt":null}`, string(b))
}

// Fields of another feedback source are not written, whatever the value
// holds: an entry marshals as its source's schema.
func TestFeedbackJSONHasItsSourceFieldsOnly(t *testing.T) {
	b, err := json.Marshal(mintlify.Feedback{ID: "f", Source: mintlify.FeedbackThumbsOnly, Helpful: &yes, Code: "x", Contact: "c"})
	require.NoError(t, err)
	assert.Equal(t, []string{"comment", "createdAt", "id", "path", "source", "status"}, jsonKeys(t, b), "%s", b)
}

// TestAnalyticsRowsKeepTheAPIsTimeText: a row read from the API marshals
// its time as the API wrote it: milliseconds (.000Z), an offset written
// +00:00, a date, a fraction with trailing zeros, no zone; so do the
// pages, and a row read back from that JSON. A time changed since is
// written in Go's RFC 3339; one the SDK could not read stays null.
func TestAnalyticsRowsKeepTheAPIsTimeText(t *testing.T) {
	t.Parallel()
	texts := []string{"2025-01-02T03:04:05.000Z", "2025-01-02T03:04:05+00:00", "2025-01-02T03:04:05.120+02:00",
		"2025-01-02", "2025-01-02T03:04:05", "2025-01-02 03:04:05.5Z", "2025-01-02T03:04:05Z", "2025-01-02T03:04:05.123456789-07:00"}
	rows := []struct {
		body, path, field, goField string
		call                       func(*testing.T, *mintlify.Client) any // the row, or the thread
	}{
		{goodSearch, "searches.0.lastSearchedAt", "lastSearchedAt", "LastSearchedAt", func(t *testing.T, c *mintlify.Client) any {
			p, err := c.GetSearches(testContext(t), mintlify.SearchesParams{})
			require.NoError(t, err)
			return p.Searches[0]
		}},
		{goodFB, "feedback.0.createdAt", "createdAt", "CreatedAt", func(t *testing.T, c *mintlify.Client) any {
			p, err := c.GetFeedback(testContext(t), mintlify.FeedbackParams{})
			require.NoError(t, err)
			return p.Feedback[0]
		}},
		{goodConv, "conversations.0.timestamp", "timestamp", "Timestamp", func(t *testing.T, c *mintlify.Client) any {
			p, err := c.GetConversations(testContext(t), mintlify.ConversationsParams{})
			require.NoError(t, err)
			return p.Conversations[0]
		}},
		{goodThread, "createdAt", "createdAt", "CreatedAt", func(t *testing.T, c *mintlify.Client) any {
			th, err := c.GetThread(testContext(t), testThread)
			require.NoError(t, err)
			return *th
		}},
		{goodThread, "messages.1.createdAt", "createdAt", "CreatedAt", func(t *testing.T, c *mintlify.Client) any {
			th, err := c.GetThread(testContext(t), testThread)
			require.NoError(t, err)
			return th.Messages[1]
		}},
	}
	field := func(t *testing.T, v any, name string) any {
		t.Helper()
		b, err := json.Marshal(v)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m), "%s", b)
		return m[name]
	}
	for _, r := range rows {
		t.Run(r.path, func(t *testing.T) {
			t.Parallel()
			for _, text := range texts {
				c, _ := answering(t, respond(200, setPath(t, r.body, r.path, `"`+text+`"`)), mintlify.WithMaxRetries(0))
				row := r.call(t, c)
				assert.Equal(t, text, field(t, row, r.field), "as the API wrote it")

				back := reflect.New(reflect.TypeOf(row))
				b, _ := json.Marshal(row)
				require.NoError(t, json.Unmarshal(b, back.Interface()))
				assert.Equal(t, text, field(t, back.Elem().Interface(), r.field), "read back from its own JSON")

				moved := reflect.New(reflect.TypeOf(row)).Elem()
				moved.Set(reflect.ValueOf(row))
				at := moved.FieldByName(r.goField).Interface().(time.Time).Add(time.Second)
				moved.FieldByName(r.goField).Set(reflect.ValueOf(at))
				assert.Equal(t, at.Format(time.RFC3339Nano), field(t, moved.Interface(), r.field), "a time changed since is Go's RFC 3339")
			}
			c, _ := answering(t, respond(200, setPath(t, r.body, r.path, `"last tuesday"`)), mintlify.WithMaxRetries(0))
			assert.Nil(t, field(t, r.call(t, c), r.field), "a time the SDK cannot read stays null")
		})
	}

	page, err := json.Marshal(mustSearches(t, `"2025-01-02T03:04:05.000Z"`))
	require.NoError(t, err)
	assert.Contains(t, string(page), `"lastSearchedAt":"2025-01-02T03:04:05.000Z"`, "a page writes its rows' text")
}

func mustSearches(t *testing.T, when string) *mintlify.SearchesPage {
	t.Helper()
	c, _ := answering(t, respond(200, setPath(t, goodSearch, "searches.0.lastSearchedAt", when)), mintlify.WithMaxRetries(0))
	p, err := c.GetSearches(testContext(t), mintlify.SearchesParams{})
	require.NoError(t, err)
	return p
}
