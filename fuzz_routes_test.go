package mintlify

// Fuzz targets for the decoders of the analytics routes and of the
// deployment, automation and static export routes, with the hostile-content
// classes as seeds: {} / null / wrong types / another resource's ID / an
// undocumented status / the key (fuzzKeyMarker) echoed into string fields
// and headers. Run by count in CI:
//
//	go test -run '^$' -fuzz '^FuzzAnalyticsResponse$' -fuzztime 20000x .
//	go test -run '^$' -fuzz '^FuzzDeploymentsResponse$' -fuzztime 20000x .

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fuzzRoute is one call the fuzzer serves an answer to. ok checks a
// success: the documented object, about the resource asked for.
type fuzzRoute struct {
	status int  // documented success status
	post   bool // may create something: an unusable 2xx is ErrOutcomeUnknown
	call   func(ctx context.Context, c *Client) (ok func() string, err error)
}

func fuzzSeedRoutes(f *testing.F, routes int, bodies []string) {
	statuses := []int{200, 202, 201, 204, 404, 429, 500, 101}
	for i, b := range bodies {
		for r := 0; r < routes; r++ {
			if (i+r)%3 == 0 { // a sample, not every pair
				f.Add(uint8(r), statuses[(i+r)%len(statuses)], []byte(b), fuzzKeyMarker)
			}
		}
		f.Add(uint8(i), 200, []byte(b), "req_1")
		f.Add(uint8(i), 202, []byte(b), "")
	}
}

func fuzzRun(t *testing.T, routes []fuzzRoute, route uint8, status int, body []byte, requestID string) {
	a := &fuzzAnswer{status: fuzzStatus(status), contentType: "application/json", requestID: requestID, body: body, budget: 12}
	r := routes[int(route)%len(routes)]
	c := fuzzClient(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ok, err := r.call(ctx, c)
	if err == nil {
		if a.status != r.status {
			t.Fatalf("HTTP %d gave a success; the route documents %d", a.status, r.status)
		}
		if msg := ok(); msg != "" {
			t.Fatalf("a success that is not the documented object: %s", msg)
		}
		return
	}
	fuzzCheckError(t, a.status, err)
	if strings.Count(err.Error(), "mintlify: ") > 1+strings.Count(strings.ReplaceAll(string(body), fuzzKeyMarker, ""), "mintlify: ") {
		t.Errorf("the error repeats the package prefix: %s", err)
	}
	twoXX := a.status >= 200 && a.status <= 299
	var we *WalkError // a walk's guard against pages that do not advance
	if twoXX && !errors.Is(err, ErrMalformedResponse) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, errFuzzBudget) && !errors.As(err, &we) {
		t.Errorf("a %d that gave no result is not ErrMalformedResponse: %v", a.status, err)
	}
	if r.post && twoXX && !errors.Is(err, ErrOutcomeUnknown) {
		t.Errorf("a POST answered %d with an unusable body is not ErrOutcomeUnknown: %v", a.status, err)
	}
}

func fuzzWalk[T any](seq func(yield func(T, error) bool)) error {
	n := 0
	for _, err := range seq {
		if err != nil {
			return err
		}
		if n++; n > 50 {
			break
		}
	}
	return nil
}

func noCheck() string { return "" }

// fuzzNoSleep makes a poller read again at once: the fuzzer's time goes to
// decoding, not waiting.
func fuzzNoSleep(p *pollConfig) {
	p.sleep = func(ctx context.Context, _ time.Duration) bool { return ctx.Err() == nil }
}

var fuzzAnalyticsRoutes = []fuzzRoute{
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		p, err := c.GetViews(ctx, ViewsParams{})
		return func() string {
			if p.Views == nil {
				return "views nil"
			}
			return ""
		}, err
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		return noCheck, fuzzWalk(c.Views(ctx, ViewsParams{}))
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		p, err := c.GetSearches(ctx, SearchesParams{})
		return func() string {
			if p.Searches == nil {
				return "searches nil"
			}
			return ""
		}, err
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		return noCheck, fuzzWalk(c.SearchPages(ctx, SearchesParams{}))
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		p, err := c.GetFeedback(ctx, FeedbackParams{})
		return func() string {
			for _, f := range p.Feedback {
				if f.ID == "" {
					return "an entry without an id: the repeat filter would drop the next one"
				}
				if f.Source != FeedbackContextual && (f.Helpful != nil || f.Contact != "") {
					return "contextual fields on another source"
				}
				if f.Source != FeedbackCodeSnippet && (f.Code != "" || f.Filename != "" || f.Lang != "") {
					return "code fields on another source"
				}
			}
			return ""
		}, err
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		return noCheck, fuzzWalk(c.Feedback(ctx, FeedbackParams{}))
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		p, err := c.GetFeedbackByPage(ctx, FeedbackByPageParams{})
		return noCheck, errorOr(p, err)
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		p, err := c.GetConversations(ctx, ConversationsParams{})
		return func() string {
			for _, cv := range p.Conversations {
				if cv.ID == "" || cv.ResponseType == "" || cv.Sources == nil {
					return "a turn without id, responseType or sources"
				}
			}
			return ""
		}, err
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		return noCheck, fuzzWalk(c.ConversationPages(ctx, ConversationsParams{}))
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		th, err := c.GetThread(ctx, hostileThread)
		return func() string {
			if !strings.EqualFold(th.ID, hostileThread) {
				return "another thread: " + th.ID
			}
			return ""
		}, err
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		s, err := c.GetCallerStats(ctx, CallerStatsParams{})
		return noCheck, errorOr(s, err)
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		return noCheck, fuzzWalk(c.VisitorPages(ctx, VisitorsParams{}))
	}},
}

// errorOr checks that a typed call gave exactly one of a value and an error.
func errorOr[T any](v *T, err error) error {
	if (v == nil) == (err == nil) {
		panic("want exactly one of a value and an error")
	}
	return err
}

// FuzzAnalyticsResponse serves any status and body (with the key echoed
// where the marker is) to every analytics route, one call and one walk per
// route: no panic; a success only for the documented status and object;
// every error well-formed, keyless and read once; a 2xx that gives no
// result is ErrMalformedResponse.
func FuzzAnalyticsResponse(f *testing.F) {
	k := fuzzKeyMarker
	fuzzSeedRoutes(f, len(fuzzAnalyticsRoutes), append([]string{
		`{"totals":{"human":3,"ai":2,"total":4},"views":[{"path":"/a","human":2,"ai":1,"total":3}],"hasMore":false}`,
		`{"totals":{"human":3,"ai":2,"total":4},"views":[{"path":"` + k + `","human":2,"ai":1,"total":3}],"hasMore":true}`,
		`{"totals":{"human":"3"},"views":[{"path":7}],"hasMore":"yes"}`,
		`{"searches":[{"searchQuery":"` + k + `","hits":3,"ctr":0.5,"topClickedPage":null,"lastSearchedAt":"` + k + `"}],"totalSearches":3,"nextCursor":"` + k + `"}`,
		`{"searches":[{"searchQuery":"q","hits":2.5,"ctr":"x","topClickedPage":7,"lastSearchedAt":null}],"totalSearches":null,"nextCursor":null}`,
		`{"feedback":[{"id":"` + k + `","path":"/a","comment":null,"createdAt":"` + k + `","source":"contextual","status":"pending","helpful":"yes","contact":7}],"nextCursor":"` + k + `","hasMore":true}`,
		`{"feedback":[{"id":"f","path":"/a","comment":"c","createdAt":null,"source":"agent","status":"pending","helpful":true,"code":"x","lang":"go"}],"nextCursor":null,"hasMore":false}`,
		`{"feedback":[null,{}],"nextCursor":null,"hasMore":true}`,
		`{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":0,"code":0,"total":1.5}],"hasMore":false}`,
		`{"conversations":[{"id":"` + hostileThread + `","timestamp":"` + k + `","query":"q","response":"r","responseType":null,"sources":[{"title":"` + k + `","url":null}],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}],"nextCursor":"` + hostileThread + `","hasMore":true}`,
		`{"threadId":"01HZY6J0V7Q4N2M8K3D5F9G1B1","createdAt":"2025-01-02T03:04:05Z","messages":[]}`,
		`{"threadId":"` + strings.ToLower(hostileThread) + `","createdAt":"` + k + `","messages":[{"id":"m","role":"user","content":"` + k + `","createdAt":"x"}]}`,
		`{"web":1,"api":2,"other":0,"total":1e400}`,
		`{"web":"1","api":null,"other":0,"total":3}`,
	}, fuzzErrorBodies...))
	f.Fuzz(func(t *testing.T, route uint8, status int, body []byte, requestID string) {
		fuzzRun(t, fuzzAnalyticsRoutes, route, status, body, requestID)
	})
}

var fuzzDeploymentRoutes = []fuzzRoute{
	{status: 202, post: true, call: func(ctx context.Context, c *Client) (func() string, error) {
		id, err := c.TriggerDeployment(ctx)
		return func() string {
			if id == "" {
				return "an empty status ID"
			}
			return ""
		}, err
	}},
	{status: 202, post: true, call: func(ctx context.Context, c *Client) (func() string, error) {
		p, err := c.TriggerPreview(ctx, "main")
		return func() string {
			if p.StatusID == "" {
				return "an empty status ID"
			}
			return ""
		}, errorOr(p, err)
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		d, err := c.GetDeployment(ctx, "st_1")
		return func() string {
			if d.ID != "st_1" || !d.Status.documented() {
				return "another deployment or an undocumented status: " + d.ID + " " + string(d.Status)
			}
			return ""
		}, errorOr(d, err)
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		d, err := c.PollDeployment(ctx, "st_1", fuzzNoSleep)
		return func() string {
			if !d.Status.Terminal() {
				return "a poll that ended before a terminal status"
			}
			return ""
		}, err
	}},
	{status: 202, post: true, call: func(ctx context.Context, c *Client) (func() string, error) {
		run, err := c.TriggerAutomation(ctx, "auto_1")
		return func() string {
			if run.RunID == "" || (run.AutomationID != "" && run.AutomationID != "auto_1") {
				return "no run ID, or a run of another automation"
			}
			return ""
		}, errorOr(run, err)
	}},
	{status: 202, post: true, call: func(ctx context.Context, c *Client) (func() string, error) {
		e, err := c.StartStaticExport(ctx, StaticExportParams{Domain: "docs.example.com"})
		return func() string {
			if e.ID == "" || !e.Status.documented() {
				return "no job ID or an undocumented status"
			}
			return ""
		}, errorOr(e, err)
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		e, err := c.GetStaticExport(ctx, "exp_1")
		return func() string {
			if e.ID != "exp_1" || !e.Status.documented() {
				return "another export or an undocumented status"
			}
			return ""
		}, errorOr(e, err)
	}},
	{status: 200, call: func(ctx context.Context, c *Client) (func() string, error) {
		b, err := c.BundleStaticExport(ctx, "exp_1")
		return func() string {
			if b.JobID != "exp_1" || b.URL == "" || b.SizeBytes < 0 {
				return "another export, no link or a negative size"
			}
			if _, err := parseBundleLink(b.URL); err != nil {
				return "a link DownloadStaticExport refuses"
			}
			return ""
		}, errorOr(b, err)
	}},
}

// FuzzDeploymentsResponse does for the deployment, preview, automation
// and static export routes what FuzzAnalyticsResponse does for analytics,
// and checks that a trigger's unusable 2xx is an unknown outcome.
func FuzzDeploymentsResponse(f *testing.F) {
	k := fuzzKeyMarker
	fuzzSeedRoutes(f, len(fuzzDeploymentRoutes), append([]string{
		`{"statusId":"st_1","previewUrl":"https://acme-main.mintlify.app"}`,
		`{"statusId":"` + k + `","previewUrl":"` + k + `"}`,
		`{"statusId":7}`,
		`{"statusId":""}`,
		goodDeploy,
		`{"_id":"st_2","status":"success"}`,
		`{"_id":"st_1","status":"` + k + `"}`,
		`{"_id":"` + k + `","status":"queued","logs":["` + k + `"],"author":{"githubUserId":"7"}}`,
		`{"_id":"st_1","status":"failure","logs":"x","commit":{"filesChanged":{"added":"a"}}}`,
		`{"schemaId":"auto_2","instanceId":"run_1","jobId":"j"}`,
		`{"schemaId":"auto_1","instanceId":null}`,
		goodExport,
		`{"jobId":"exp_1","status":"running","progress":"50","createdAt":"` + k + `"}`,
		`{"jobId":"exp_2","status":"completed"}`,
		goodBundle,
		`{"jobId":"exp_1","bundleUrl":"https://u:` + k + `@storage.test/b","sizeBytes":10}`,
		`{"jobId":"exp_1","bundleUrl":"javascript:alert(1)","sizeBytes":-1}`,
		`{"bundleUrl":"https://storage.test/b?sig=` + k + `","sizeBytes":1e400,"expiresAt":"` + k + `"}`,
	}, fuzzErrorBodies...))
	f.Fuzz(func(t *testing.T, route uint8, status int, body []byte, requestID string) {
		fuzzRun(t, fuzzDeploymentRoutes, route, status, body, requestID)
	})
}
