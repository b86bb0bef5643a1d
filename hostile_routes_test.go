package mintlify

// Hostile content on every public method, not only the job methods of
// hostile_test.go: every route's typed call, the page and row iterators,
// the three pollers and Client.Do, against answers that are well-formed
// HTTP but not the documented object, answers that never end, proxies
// that echo the key, careless callers (nil context, nil or zero Client)
// and failures before or after the request left.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const hostileThread = "01HZY6J0V7Q4N2M8K3D5F9G1B0"

// anyMethod is one public method, called the way a user would; a walk is
// run to its end or its first error.
type anyMethod struct {
	name   string
	post   bool // may create something: a lost answer is ErrOutcomeUnknown
	status int  // the documented success status
	// good is a documented answer, terminal for the pollers and the last
	// page for the walks.
	good string
	// required are top-level keys whose absence or wrong type is a
	// malformed answer; nullable ones may be null.
	required []string
	nullable map[string]bool
	// idKey names the resource in the answer, id the one asked for.
	idKey, id string
	// cursor marks a cursor route, whose answer has nextCursor (and
	// hasMore where hasMore is set).
	cursor, hasMore bool
	walk            bool // an iterator or a poller: several requests
	call            func(ctx context.Context, c *Client) (any, error)
}

func drain[T any](seq iter.Seq2[T, error]) (any, error) {
	n := 0
	for _, err := range seq {
		if err != nil {
			return nil, err
		}
		n++
	}
	return n, nil
}

var hostilePoll = []PollOption{WithPollInterval(time.Millisecond), WithMaxPollInterval(2 * time.Millisecond)}

const (
	goodTraffic = `{"totals":{"human":3,"ai":2,"total":4},"%s":[{"path":"/a","human":2,"ai":1,"total":2}],"hasMore":false}`
	goodSearch  = `{"searches":[{"searchQuery":"install","hits":3,"ctr":0.5,"topClickedPage":"/a","lastSearchedAt":"2025-01-02T03:04:05Z"}],"totalSearches":3,"nextCursor":null}`
	goodFB      = `{"feedback":[{"id":"fb_1","path":"/a","comment":"nice","createdAt":"2025-01-02T03:04:05Z","source":"contextual","status":"pending","helpful":true,"contact":"a@b.c"}],"nextCursor":null,"hasMore":false}`
	goodByPage  = `{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":0,"code":0,"total":1}],"hasMore":false}`
	goodConv    = `{"conversations":[{"id":"` + hostileThread + `","timestamp":"2025-01-02T03:04:05Z","query":"how?","response":"so","responseType":"answer","sources":[{"title":"Intro","url":"https://d/a"}],"resolutionStatus":"answered","queryCategory":"setup","pageUrl":"https://d/a"}],"nextCursor":null,"hasMore":false}`
	goodThread  = `{"threadId":"` + hostileThread + `","createdAt":"2025-01-02T03:04:05Z","messages":[{"id":"m_1","role":"user","content":"how?","createdAt":"2025-01-02T03:04:05Z"}]}`
	goodCallers = `{"web":1,"api":2,"other":0,"total":3}`
	goodDeploy  = `{"_id":"st_1","projectId":"proj_42","createdAt":"2026-03-04T05:06:07Z","endedAt":"2026-03-04T05:08:09Z","status":"success","summary":"ok","logs":["built"],"subdomain":"acme","screenshot":"https://s/1.png","screenshotLight":"https://s/l.png","screenshotDark":"https://s/d.png","author":{"name":"Ada","avatarUrl":"https://a/ada.png","githubUserId":7},"commit":{"sha":"abc","ref":"main","message":"docs","filesChanged":{"added":["a.mdx"],"modified":["b.mdx"],"removed":["c.mdx"]}},"source":"api"}`
	goodExport  = `{"jobId":"exp_1","status":"completed","progress":100,"pageCount":3,"createdAt":"2026-03-04T05:06:07Z","updatedAt":"2026-03-04T05:08:09Z","error":null}`
	goodBundle  = `{"jobId":"exp_1","bundleUrl":"https://storage.test/b.tgz?sig=abc","sizeBytes":10,"expiresAt":"2099-01-01T00:00:00Z"}`
)

var anyMethods = []anyMethod{
	{name: "GetJob", status: 200, good: jobJSON("job_1", JobCompleted), required: []string{"id", "status"}, idKey: "id", id: "job_1",
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetJob(ctx, "job_1") }},
	{name: "CreateJob", post: true, status: 201, good: jobJSON("job_1", JobActive), required: []string{"id", "status"},
		call: func(ctx context.Context, c *Client) (any, error) { return c.CreateJob(ctx, "Write") }},
	{name: "SendMessage", post: true, status: 200, good: jobJSON("job_1", JobActive), required: []string{"id", "status"}, idKey: "id", id: "job_1",
		call: func(ctx context.Context, c *Client) (any, error) { return c.SendMessage(ctx, "job_1", "More") }},
	{name: "PollJob", status: 200, good: jobJSON("job_1", JobCompleted), required: []string{"id", "status"}, idKey: "id", id: "job_1", walk: true,
		call: func(ctx context.Context, c *Client) (any, error) { return c.PollJob(ctx, "job_1", hostilePoll...) }},

	{name: "GetVisitors", status: 200, good: fmt.Sprintf(goodTraffic, "visitors"), required: []string{"totals", "visitors", "hasMore"},
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetVisitors(ctx, VisitorsParams{}) }},
	{name: "VisitorPages", status: 200, good: fmt.Sprintf(goodTraffic, "visitors"), required: []string{"totals", "visitors", "hasMore"}, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) { return drain(c.VisitorPages(ctx, VisitorsParams{})) }},
	{name: "Visitors", status: 200, good: fmt.Sprintf(goodTraffic, "visitors"), required: []string{"totals", "visitors", "hasMore"}, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) { return drain(c.Visitors(ctx, VisitorsParams{})) }},
	{name: "GetViews", status: 200, good: fmt.Sprintf(goodTraffic, "views"), required: []string{"totals", "views", "hasMore"},
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetViews(ctx, ViewsParams{}) }},
	{name: "ViewPages", status: 200, good: fmt.Sprintf(goodTraffic, "views"), required: []string{"totals", "views", "hasMore"}, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) { return drain(c.ViewPages(ctx, ViewsParams{})) }},
	{name: "Views", status: 200, good: fmt.Sprintf(goodTraffic, "views"), required: []string{"totals", "views", "hasMore"}, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) { return drain(c.Views(ctx, ViewsParams{})) }},
	{name: "GetSearches", status: 200, good: goodSearch, required: []string{"searches", "totalSearches", "nextCursor"}, nullable: map[string]bool{"nextCursor": true}, cursor: true,
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetSearches(ctx, SearchesParams{}) }},
	{name: "SearchPages", status: 200, good: goodSearch, required: []string{"searches", "totalSearches", "nextCursor"}, nullable: map[string]bool{"nextCursor": true}, cursor: true, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) { return drain(c.SearchPages(ctx, SearchesParams{})) }},
	{name: "Searches", status: 200, good: goodSearch, required: []string{"searches", "totalSearches", "nextCursor"}, nullable: map[string]bool{"nextCursor": true}, cursor: true, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) { return drain(c.Searches(ctx, SearchesParams{})) }},
	{name: "GetFeedback", status: 200, good: goodFB, required: []string{"feedback", "nextCursor", "hasMore"}, nullable: map[string]bool{"nextCursor": true}, cursor: true, hasMore: true,
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetFeedback(ctx, FeedbackParams{}) }},
	{name: "FeedbackPages", status: 200, good: goodFB, required: []string{"feedback", "nextCursor", "hasMore"}, nullable: map[string]bool{"nextCursor": true}, cursor: true, hasMore: true, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) {
			return drain(c.FeedbackPages(ctx, FeedbackParams{}))
		}},
	{name: "Feedback", status: 200, good: goodFB, required: []string{"feedback", "nextCursor", "hasMore"}, nullable: map[string]bool{"nextCursor": true}, cursor: true, hasMore: true, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) { return drain(c.Feedback(ctx, FeedbackParams{})) }},
	{name: "GetFeedbackByPage", status: 200, good: goodByPage, required: []string{"feedback", "hasMore"},
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetFeedbackByPage(ctx, FeedbackByPageParams{})
		}},
	{name: "GetConversations", status: 200, good: goodConv, required: []string{"conversations", "nextCursor", "hasMore"}, nullable: map[string]bool{"nextCursor": true}, cursor: true, hasMore: true,
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetConversations(ctx, ConversationsParams{})
		}},
	{name: "ConversationPages", status: 200, good: goodConv, required: []string{"conversations", "nextCursor", "hasMore"}, nullable: map[string]bool{"nextCursor": true}, cursor: true, hasMore: true, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) {
			return drain(c.ConversationPages(ctx, ConversationsParams{}))
		}},
	{name: "Conversations", status: 200, good: goodConv, required: []string{"conversations", "nextCursor", "hasMore"}, nullable: map[string]bool{"nextCursor": true}, cursor: true, hasMore: true, walk: true,
		call: func(ctx context.Context, c *Client) (any, error) {
			return drain(c.Conversations(ctx, ConversationsParams{}))
		}},
	{name: "GetThread", status: 200, good: goodThread, required: []string{"threadId", "createdAt", "messages"}, idKey: "threadId", id: hostileThread,
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetThread(ctx, hostileThread) }},
	{name: "GetCallerStats", status: 200, good: goodCallers, required: []string{"web", "api", "other", "total"},
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetCallerStats(ctx, CallerStatsParams{}) }},

	{name: "TriggerDeployment", post: true, status: 202, good: `{"statusId":"st_1"}`, required: []string{"statusId"},
		call: func(ctx context.Context, c *Client) (any, error) { return c.TriggerDeployment(ctx) }},
	{name: "TriggerPreview", post: true, status: 202, good: `{"statusId":"st_1","previewUrl":"https://acme-main.mintlify.app"}`, required: []string{"statusId"},
		call: func(ctx context.Context, c *Client) (any, error) { return c.TriggerPreview(ctx, "main") }},
	{name: "GetDeployment", status: 200, good: goodDeploy, required: []string{"_id", "status"}, idKey: "_id", id: "st_1",
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetDeployment(ctx, "st_1") }},
	{name: "PollDeployment", status: 200, good: goodDeploy, required: []string{"_id", "status"}, idKey: "_id", id: "st_1", walk: true,
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.PollDeployment(ctx, "st_1", hostilePoll...)
		}},
	{name: "TriggerAutomation", post: true, status: 202, good: `{"schemaId":"auto_1","instanceId":"run_1","jobId":"j_1"}`, required: []string{"instanceId"}, idKey: "schemaId", id: "auto_1",
		call: func(ctx context.Context, c *Client) (any, error) { return c.TriggerAutomation(ctx, "auto_1") }},
	{name: "StartStaticExport", post: true, status: 202, good: strings.Replace(goodExport, "completed", "queued", 1), required: []string{"jobId", "status"},
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.StartStaticExport(ctx, StaticExportParams{Domain: "docs.example.com"})
		}},
	{name: "GetStaticExport", status: 200, good: goodExport, required: []string{"jobId", "status"}, idKey: "jobId", id: "exp_1",
		call: func(ctx context.Context, c *Client) (any, error) { return c.GetStaticExport(ctx, "exp_1") }},
	{name: "PollStaticExport", status: 200, good: goodExport, required: []string{"jobId", "status"}, idKey: "jobId", id: "exp_1", walk: true,
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.PollStaticExport(ctx, "exp_1", hostilePoll...)
		}},
	{name: "BundleStaticExport", status: 200, good: goodBundle, required: []string{"bundleUrl", "sizeBytes"}, idKey: "jobId", id: "exp_1",
		call: func(ctx context.Context, c *Client) (any, error) { return c.BundleStaticExport(ctx, "exp_1") }},

	{name: "Do GET", status: 200, good: `{"ok":true}`,
		call: func(ctx context.Context, c *Client) (any, error) {
			var out map[string]any
			_, err := c.Do(ctx, http.MethodGet, "/v1/analytics/{projectId}/views?limit=5", nil, &out)
			return out, err
		}},
	{name: "Do POST", post: true, status: 202, good: `{"statusId":"st_1"}`,
		call: func(ctx context.Context, c *Client) (any, error) {
			var out map[string]any
			_, err := c.Do(ctx, http.MethodPost, "/v1/project/update/{projectId}", nil, &out)
			return out, err
		}},
}

// isDo marks the escape hatch, which takes any JSON of any 2xx.
func (m anyMethod) isDo() bool { return strings.HasPrefix(m.name, "Do ") }

// withKey returns good with top-level key k set to v (raw JSON), or
// removed when v is "".
func withKey(t testing.TB, good, k, v string) string {
	t.Helper()
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(good), &obj))
	if v == "" {
		delete(obj, k)
	} else {
		obj[k] = json.RawMessage(v)
	}
	b, err := json.Marshal(obj)
	require.NoError(t, err)
	return string(b)
}

// rawKey is the raw JSON of top-level key k of good.
func rawKey(t testing.TB, good, k string) string {
	t.Helper()
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(good), &obj))
	require.Contains(t, obj, k)
	return string(obj[k])
}

// TestEveryMethodRefusesAnAnswerThatIsNotTheDocumentedObject: {} / null /
// other JSON / not JSON / a required field missing, null or of the wrong
// type / an answer about another resource / an undocumented 2xx status is
// ErrMalformedResponse on every method, and ErrOutcomeUnknown too for
// every call that may have acted, which is never sent twice.
func TestEveryMethodRefusesAnAnswerThatIsNotTheDocumentedObject(t *testing.T) {
	t.Parallel()
	for _, m := range anyMethods {
		type answer struct {
			status int
			body   string
		}
		answers := map[string]answer{
			"not JSON":      {m.status, `<html>ok</html>`},
			"trailing junk": {m.status, m.good + ` {}`},
			"cut short":     {m.status, m.good[:len(m.good)/2]},
		}
		if !m.isDo() {
			for name, body := range map[string]string{"{}": `{}`, "null": `null`, "[]": `[]`, "a string": `"ok"`, "a number": `7`} {
				answers[name] = answer{m.status, body}
			}
			for _, k := range m.required {
				answers[k+" missing"] = answer{m.status, withKey(t, m.good, k, "")}
				if !m.nullable[k] {
					answers[k+" null"] = answer{m.status, withKey(t, m.good, k, "null")}
				}
				wrong := `"x"` // a string where a number, boolean, object or array belongs
				if v := rawKey(t, m.good, k); v[0] == '"' || v == "null" {
					wrong = `7`
				}
				answers[k+" of the wrong type"] = answer{m.status, withKey(t, m.good, k, wrong)}
			}
			if m.idKey != "" {
				answers["about another resource"] = answer{m.status, withKey(t, m.good, m.idKey, `"someone_else"`)}
			}
			if strings.HasSuffix(m.name, "Deployment") && m.name != "TriggerDeployment" || strings.HasSuffix(m.name, "StaticExport") && m.name != "BundleStaticExport" {
				answers["an undocumented status"] = answer{m.status, withKey(t, m.good, "status", `"exploded"`)}
			}
			for _, s := range []int{200, 201, 202, 203, 204, 206} {
				if s != m.status {
					answers[fmt.Sprintf("HTTP %d", s)] = answer{s, m.good}
				}
			}
		}
		for name, a := range answers {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				c, mt := newCoreClient(t, WithMaxRetries(1))
				mt.RegisterNoResponder(respond(a.status, a.body))
				got, err := m.call(context.Background(), c)
				require.ErrorIs(t, err, ErrMalformedResponse, "%s answered %d %s: got %v", m.name, a.status, a.body, got)
				if m.post {
					assert.ErrorIs(t, err, ErrOutcomeUnknown, "the server may have acted")
					assert.Equal(t, 1, mt.GetTotalCallCount(), "never sent twice")
				} else {
					assert.NotErrorIs(t, err, ErrOutcomeUnknown)
				}
				assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
			})
		}
	}
}

// TestEveryMethodAcceptsItsDocumentedAnswer keeps the table honest: each
// good answer is a success, so the failures above come from the hostile
// part alone.
func TestEveryMethodAcceptsItsDocumentedAnswer(t *testing.T) {
	t.Parallel()
	for _, m := range anyMethods {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newCoreClient(t, WithMaxRetries(0))
			mt.RegisterNoResponder(respond(m.status, m.good))
			got, err := m.call(context.Background(), c)
			require.NoError(t, err)
			assert.NotNil(t, got)
		})
	}
}

// hostileAnswers are raw HTTP exchanges that never finish on their own.
// stalledError marks the one that is a clear refusal: never an unknown
// outcome.
var hostileAnswers = map[string]func(net.Conn){
	"101 held open": func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
	},
	"100 then nothing": func(c net.Conn) { fmt.Fprint(c, "HTTP/1.1 100 Continue\r\n\r\n") },
	"103 then nothing": func(c net.Conn) { fmt.Fprint(c, "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n") },
	"headers then nothing": func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"id\":")
	},
	"a body that never ends": func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
		for i := 0; i < 300; i++ {
			if _, err := fmt.Fprint(c, "1\r\n \r\n"); err != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	},
	"stalledError": func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"error\":\"")
	},
}

// TestEveryMethodEndsWithItsContext: whatever the server holds open, every
// method returns soon after a 100 ms deadline, with no result, a POST's
// outcome unknown unless the answer was a clear refusal. Before the fix a
// 101 held GetJob and CreateJob until the server closed.
func TestEveryMethodEndsWithItsContext(t *testing.T) {
	t.Parallel()
	for _, m := range anyMethods {
		for name, answer := range hostileAnswers {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				holdTimingSlot(t)
				base := rawServer(t, answer)
				c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(base),
					WithRetryWait(time.Millisecond, 5*time.Millisecond))
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				started := time.Now()
				got, err := m.call(ctx, c)
				elapsed := time.Since(started)
				require.Error(t, err)
				if id, ok := got.(string); ok {
					assert.Empty(t, id) // TriggerDeployment's status ID
				} else {
					assert.Nil(t, got)
				}
				assert.Less(t, elapsed, time.Second, "returned soon after the context ended")
				switch {
				case name == "stalledError":
					assert.ErrorIs(t, err, ErrNotFound)
					assert.NotErrorIs(t, err, ErrOutcomeUnknown)
				case m.post:
					assert.ErrorIs(t, err, ErrOutcomeUnknown, "the request was sent")
				default:
					assert.NotErrorIs(t, err, ErrOutcomeUnknown)
				}
				assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
			})
		}
	}
}

// keyEchoes are the shapes in which a proxy echoes the key.
func keyEchoes(key string) map[string]string {
	j, _ := json.Marshal(key)
	return map[string]string{
		"as sent":         key,
		"percent-encoded": url.QueryEscape(key),
		"JSON-escaped":    strings.Trim(string(j), `"`),
		"Basic auth":      "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+key)),
		"cut short":       key[:len(key)-3],
		"after padding":   strings.Repeat("x", 53) + key, // cut by a 64-byte snippet
	}
}

// stringLeaves returns the JSON paths of every string value in the JSON
// text good, as sequences of object keys and array indexes.
func stringLeaves(v any, path []any, out *[][]any) {
	switch v := v.(type) {
	case string:
		*out = append(*out, append([]any(nil), path...))
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			stringLeaves(v[k], append(path, k), out)
		}
	case []any:
		for i, e := range v {
			stringLeaves(e, append(path, i), out)
		}
	}
}

// setLeaf returns a copy of the JSON text good with the value at path (a
// sequence of object keys and array indexes) set to v.
func setLeaf(t testing.TB, good string, path []any, v any) string {
	t.Helper()
	var root any
	require.NoError(t, json.Unmarshal([]byte(good), &root))
	var set func(cur any, p []any) any
	set = func(cur any, p []any) any {
		if len(p) == 0 {
			return v
		}
		switch k := p[0].(type) {
		case string:
			m, ok := cur.(map[string]any)
			require.True(t, ok, "%v: no object at %v", path, k)
			m[k] = set(m[k], p[1:])
		case int:
			a, ok := cur.([]any)
			require.True(t, ok, "%v: no array at %v", path, k)
			a[k] = set(a[k], p[1:])
		}
		return cur
	}
	b, err := json.Marshal(set(root, path))
	require.NoError(t, err)
	return string(b)
}

func pathName(p []any) string {
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ".")
}

// TestEveryMethodHidesAnEchoedKey: a proxy that copies the key, in any
// shape, into any string field of any answer (and into its headers)
// cannot get it into an error, its %+v or %#v, a debug log line or the
// headers an observer sees. The cursor routes get one more field: a
// nextCursor that is the key, with more pages said to follow.
func TestEveryMethodHidesAnEchoedKey(t *testing.T) {
	t.Parallel()
	key := "mint_sk_<live>&9vLr4+TzW/8mN3bKc5yJ=" // characters that every encoding changes
	for _, m := range anyMethods {
		var root any
		require.NoError(t, json.Unmarshal([]byte(m.good), &root))
		var leaves [][]any
		stringLeaves(root, nil, &leaves)
		if m.cursor {
			leaves = append(leaves, []any{"nextCursor"})
		}
		for _, leaf := range leaves {
			for form, echo := range keyEchoes(key) {
				t.Run(m.name+"/"+pathName(leaf)+"/"+form, func(t *testing.T) {
					t.Parallel()
					body := setLeaf(t, m.good, leaf, echo)
					if m.cursor && m.hasMore && pathName(leaf) == "nextCursor" {
						body = withKey(t, body, "hasMore", "true")
					}
					var logs syncBuffer
					var mu sync.Mutex
					var seen []http.Header
					var paths []string
					mt := httpmock.NewMockTransport()
					c, err := NewClient(WithAPIKey(key), WithProjectID(coreProjectID), WithBaseURL(coreBaseURL),
						WithHTTPClient(&http.Client{Transport: mt}), WithMaxRetries(1),
						WithRetryWait(time.Millisecond, time.Millisecond),
						WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
						WithResponseObserver(func(_ context.Context, r *Response) {
							mu.Lock()
							seen = append(seen, r.Header)
							paths = append(paths, r.Method+" "+r.Path+" "+r.RequestID)
							mu.Unlock()
						}))
					require.NoError(t, err)
					mt.RegisterNoResponder(respond(m.status, body,
						"X-Request-Id", echo, "X-Echo", echo, "Retry-After", echo, "Www-Authenticate", echo))
					ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
					defer cancel()
					_, err = m.call(ctx, c)
					if err != nil {
						assertNoSecret(t, key, err.Error(), "error")
						assertNoSecret(t, key, fmt.Sprintf("%+v | %#v | %s | %q", err, err, err, err), "formatted error")
						// Every error in the chain, as a reporter that walks it
						// (Sentry, say) records each one's text.
						eachError(err, func(e error) {
							assertNoSecret(t, key, e.Error(), fmt.Sprintf("wrapped %T", e))
						})
						// The public types a caller reaches with errors.As.
						var we *WalkError
						if errors.As(err, &we) {
							assertNoSecret(t, key, fmt.Sprintf("%v %+v %#v", we, we, we), "WalkError")
						}
						var ae *APIError
						if errors.As(err, &ae) {
							assertNoSecret(t, key, fmt.Sprintf("%v %+v %#v", ae, ae, ae), "APIError")
						}
					}
					assertNoSecret(t, key, logs.String(), "logs")
					mu.Lock()
					defer mu.Unlock()
					for _, p := range paths {
						assertNoSecret(t, key, p, "observed request")
					}
					for _, h := range seen {
						for name, values := range h {
							assertNoSecret(t, key, name+": "+strings.Join(values, ","), "observed headers")
						}
					}
				})
			}
		}
	}
}

// syncBuffer is a log sink safe for the transport's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestEveryMethodRefusesCarelessCallers: a nil context, a nil *Client and a
// zero Client{} are ErrInvalidInput on every method, never a panic and
// never a request.
func TestEveryMethodRefusesCarelessCallers(t *testing.T) {
	t.Parallel()
	good, mt := newCoreClient(t)
	var nilClient *Client
	for _, m := range anyMethods {
		for name, c := range map[string]*Client{"nil Client": nilClient, "zero Client": {}} {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				_, err := m.call(context.Background(), c)
				require.ErrorIs(t, err, ErrInvalidInput)
				var we *WalkError
				assert.False(t, errors.As(err, &we), "refused before any request, not a walk that stopped: %v", err)
				assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
			})
		}
		t.Run(m.name+"/nil context", func(t *testing.T) {
			var nilCtx context.Context
			_, err := m.call(nilCtx, good)
			require.ErrorIs(t, err, ErrInvalidInput)
			var we *WalkError
			assert.False(t, errors.As(err, &we), "refused before any request, not a walk that stopped: %v", err)
		})
	}
	bundle := &StaticExportBundle{JobID: "exp_1", URL: "https://storage.test/b.tgz?sig=1", SizeBytes: 1}
	for name, c := range map[string]*Client{"nil Client": nilClient, "zero Client": {}} {
		_, err := c.DownloadStaticExport(context.Background(), bundle, io.Discard)
		require.ErrorIs(t, err, ErrInvalidInput, name)
	}
	var nilCtx context.Context
	_, err := good.DownloadStaticExport(nilCtx, bundle, io.Discard)
	require.ErrorIs(t, err, ErrInvalidInput)
	assert.Zero(t, mt.GetTotalCallCount(), "nothing was sent")
}

// TestEveryMethodOutcomeUnknownOnlyWhenSent: a failed TLS handshake sends
// no byte of the request, so no method reports an unknown outcome; a
// connection closed after the request was read leaves every POST's
// outcome unknown, after exactly one request.
func TestEveryMethodOutcomeUnknownOnlyWhenSent(t *testing.T) {
	t.Parallel()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("no request should get through a failed handshake")
	}))
	var handshakes atomic.Int32
	tlsSrv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			handshakes.Add(1)
		}
	}
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are the point
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)

	var lost atomic.Int32
	lostSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lost.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close() // the request arrived; its answer never leaves
		}
	}))
	t.Cleanup(lostSrv.Close)

	// A port nobody listens on: every connection is refused.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := "http://" + ln.Addr().String()
	ln.Close()

	for _, m := range anyMethods {
		t.Run(m.name+"/connection refused", func(t *testing.T) {
			c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(refused),
				WithRetryWait(time.Millisecond, time.Millisecond))
			require.NoError(t, err)
			_, err = m.call(context.Background(), c)
			require.Error(t, err)
			assert.NotErrorIs(t, err, ErrOutcomeUnknown, "nothing was sent")
			assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
		})
		t.Run(m.name+"/handshake fails", func(t *testing.T) {
			c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(tlsSrv.URL),
				WithMaxRetries(0)) // the default transport does not trust the test certificate
			require.NoError(t, err)
			before := handshakes.Load()
			_, err = m.call(context.Background(), c)
			require.Error(t, err)
			assert.Greater(t, handshakes.Load(), before, "the call reached the server")
			assert.NotErrorIs(t, err, ErrOutcomeUnknown, "nothing was sent")
			assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
		})
		if !m.post {
			continue
		}
		t.Run(m.name+"/answer lost", func(t *testing.T) {
			c, err := NewClient(WithAPIKey(coreAPIKey), WithProjectID(coreProjectID), WithBaseURL(lostSrv.URL),
				WithRetryWait(time.Millisecond, time.Millisecond))
			require.NoError(t, err)
			before := lost.Load()
			_, err = m.call(context.Background(), c)
			require.ErrorIs(t, err, ErrOutcomeUnknown)
			assert.Equal(t, int32(1), lost.Load()-before, "sent once")
			assert.Equal(t, 1, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
		})
	}
}

// TestEveryMethodErrorsReadOnce: API refusals, rate limits and server
// errors read with one package prefix on every method, walks and polls
// included.
func TestEveryMethodErrorsReadOnce(t *testing.T) {
	t.Parallel()
	for _, m := range anyMethods {
		for _, status := range []int{400, 404, 409, 429, 500, 502, 503, 504} {
			t.Run(fmt.Sprintf("%s/%d", m.name, status), func(t *testing.T) {
				t.Parallel()
				c, mt := newCoreClient(t, WithMaxRetries(1))
				mt.RegisterNoResponder(respond(status, `{"error":"mintlify: no","details":[{"message":"mintlify: really"}]}`))
				_, err := m.call(context.Background(), c)
				require.Error(t, err)
				assert.ErrorIs(t, err, sentinelFor(status))
				// The server's own text may say "mintlify:": the SDK adds one.
				assert.Equal(t, 3, strings.Count(err.Error(), "mintlify:"), "reads once: %s", err)
				// A gateway's 500, 502 or 504 may follow a request the API
				// acted on; a refusal (4xx, 503) follows one it did not.
				gateway := status == 500 || status == 502 || status == 504
				if m.post && gateway {
					assert.ErrorIs(t, err, ErrOutcomeUnknown)
					assert.Equal(t, 1, mt.GetTotalCallCount(), "never sent twice")
				} else {
					assert.NotErrorIs(t, err, ErrOutcomeUnknown)
				}
			})
		}
	}
}

// setPath returns good with the value at a dotted path ("views.0.path")
// replaced by the JSON raw.
func setPath(t testing.TB, good, path, raw string) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(raw), &v))
	var p []any
	for _, part := range strings.Split(path, ".") {
		var i int
		if _, err := fmt.Sscan(part, &i); err == nil && part == fmt.Sprint(i) {
			p = append(p, i)
		} else {
			p = append(p, part)
		}
	}
	return setLeaf(t, good, p, v)
}

// TestEveryMethodRefusesHostileNestedValues: inside rows and nested
// objects too, a required value missing, null or of the wrong type, a
// fraction where a count belongs, or a link the SDK could not use is a
// malformed answer, on the one-page call and on its walks.
func TestEveryMethodRefusesHostileNestedValues(t *testing.T) {
	t.Parallel()
	traffic := func(rows string) map[string]string {
		return map[string]string{
			"totals.human": `"3"`, "totals.total": `1.5`, "totals": `null`,
			rows + ".0.path": `7`, rows + ".0.human": `null`, rows + ".0.total": `2.5`, rows + ".0.ai": `"1"`,
			rows + ".0": `null`, rows: `"x"`, "hasMore": `"no"`,
		}
	}
	mutations := map[string]map[string]string{
		"GetVisitors": traffic("visitors"), "VisitorPages": traffic("visitors"), "Visitors": traffic("visitors"),
		"GetViews": traffic("views"), "ViewPages": traffic("views"), "Views": traffic("views"),
		"GetSearches": {"searches.0.hits": `"3"`, "searches.0.hits ": `3.5`, "searches.0.ctr": `"0.5"`,
			"searches.0.lastSearchedAt": `7`, "searches.0.searchQuery": `null`, "searches.0": `null`,
			"searches.0.topClickedPage": `7`, "totalSearches": `1.5`},
		"GetFeedback": {"feedback.0.id": `7`, "feedback.0.id ": `""`, "feedback.0.status": `null`, "feedback.0": `null`,
			"feedback.0.createdAt": `7`, "feedback.0.path": `["a"]`, "hasMore": `1`},
		"GetFeedbackByPage": {"feedback.0.total": `"1"`, "feedback.0.path": `null`, "feedback.0.code": `0.5`,
			"feedback.0": `null`},
		"GetConversations": {"conversations.0.sources": `"x"`, "conversations.0.sources.0.url": `7`,
			"conversations.0.sources.0": `null`, "conversations.0.responseType": `null`,
			"conversations.0.timestamp": `null`, "conversations.0": `null`, "conversations.0.id": `7`,
			"conversations.0.id ": `""`},
		"GetThread": {"messages.0.role": `7`, "messages": `"x"`, "messages.0": `null`, "messages.0.createdAt": `null`,
			"createdAt": `7`},
		"GetCallerStats": {"web": `1.5`, "total": `"3"`, "api": `null`, "other": `true`},
		"GetDeployment": {"logs": `"x"`, "logs.0": `7`, "author": `"x"`, "commit.filesChanged.added": `"a"`,
			"commit": `[]`, "author.githubUserId": `"x"`, "summary": `7`},
		"GetStaticExport":    {"progress": `"50"`, "pageCount": `1.5`, "createdAt": `7`, "updatedAt": `"yesterday"`, "error": `7`},
		"BundleStaticExport": {"sizeBytes": `"10"`, "sizeBytes ": `1.5`, "sizeBytes  ": `-1`, "bundleUrl": `"ftp://storage.test/b"`, "bundleUrl ": `"https://u:p@storage.test/b"`, "bundleUrl  ": `"/b.tgz"`, "expiresAt": `"soon"`},
		"TriggerPreview":     {"previewUrl": `7`},
		"TriggerAutomation":  {"jobId": `7`, "schemaId": `7`},
	}
	// The walks share the one-page call's decoder: check them on the same
	// values.
	for walk, one := range map[string]string{"SearchPages": "GetSearches", "Searches": "GetSearches",
		"FeedbackPages": "GetFeedback", "Feedback": "GetFeedback", "ConversationPages": "GetConversations",
		"Conversations": "GetConversations", "PollDeployment": "GetDeployment", "PollStaticExport": "GetStaticExport",
		"StartStaticExport": "GetStaticExport"} {
		mutations[walk] = mutations[one]
	}
	for _, m := range anyMethods {
		for path, raw := range mutations[m.name] {
			t.Run(m.name+"/"+strings.TrimSpace(path)+"="+raw, func(t *testing.T) {
				t.Parallel()
				good := m.good
				if m.name == "StartStaticExport" {
					good = strings.Replace(goodExport, "completed", "queued", 1)
				}
				body := setPath(t, good, strings.TrimSpace(path), raw)
				c, mt := newCoreClient(t, WithMaxRetries(0))
				mt.RegisterNoResponder(respond(m.status, body))
				got, err := m.call(context.Background(), c)
				require.ErrorIs(t, err, ErrMalformedResponse, "%s: %s gave %+v", m.name, body, got)
				if m.post {
					assert.ErrorIs(t, err, ErrOutcomeUnknown)
				}
			})
		}
	}
}

// TestEveryMethodHidesAKeyEchoedInAnErrorAnswer: a proxy's error page or
// JSON error that quotes the key, in any form, reaches no error text,
// APIError field, log line or observed header of any method.
func TestEveryMethodHidesAKeyEchoedInAnErrorAnswer(t *testing.T) {
	t.Parallel()
	key := "mint_sk_<live>&9vLr4+TzW/8mN3bKc5yJ="
	for _, m := range anyMethods {
		for form, echo := range keyEchoes(key) {
			j, _ := json.Marshal("Authorization: Bearer " + echo)
			bodies := map[string]string{
				"JSON": `{"error":` + string(j) + `,"details":[{"message":` + string(j) + `}],"message":` + string(j) + `}`,
				"HTML": "<html><body><pre>Authorization: Bearer " + echo + "</pre>" + strings.Repeat("x", 150) + echo + "</body></html>",
			}
			for kind, body := range bodies {
				t.Run(m.name+"/"+form+"/"+kind, func(t *testing.T) {
					t.Parallel()
					var logs syncBuffer
					var seen []string
					var mu sync.Mutex
					mt := httpmock.NewMockTransport()
					c, err := NewClient(WithAPIKey(key), WithProjectID(coreProjectID), WithBaseURL(coreBaseURL),
						WithHTTPClient(&http.Client{Transport: mt}), WithMaxRetries(1),
						WithRetryWait(time.Millisecond, time.Millisecond),
						WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
						WithResponseObserver(func(_ context.Context, r *Response) {
							mu.Lock()
							defer mu.Unlock()
							seen = append(seen, fmt.Sprint(r.Header, r.RequestID, r.Path))
						}))
					require.NoError(t, err)
					mt.RegisterNoResponder(respond(502, body, "X-Request-Id", echo, "Proxy-Authenticate", echo))
					ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
					defer cancel()
					_, err = m.call(ctx, c)
					require.Error(t, err)
					assertNoSecret(t, key, fmt.Sprintf("%v | %+v | %#v", err, err, err), "error")
					eachError(err, func(e error) { assertNoSecret(t, key, e.Error(), fmt.Sprintf("wrapped %T", e)) })
					var ae *APIError
					if assert.ErrorAs(t, err, &ae) {
						assertNoSecret(t, key, fmt.Sprintf("%+v %#v %s %s %s", ae, ae, ae.Message, ae.Details, ae.RequestID), "APIError")
					}
					assertNoSecret(t, key, logs.String(), "logs")
					mu.Lock()
					defer mu.Unlock()
					assertNoSecret(t, key, strings.Join(seen, "\n"), "observed")
				})
			}
		}
	}
}

// eachError calls fn with err and every error it wraps, depth first.
func eachError(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		eachError(u.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			eachError(e, fn)
		}
	}
}
