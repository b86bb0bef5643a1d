package mockserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// deployment is the status route's answer, with pointers where the vendor
// schema allows null or absence.
type deployment struct {
	ID        string   `json:"_id"`
	ProjectID string   `json:"projectId"`
	CreatedAt string   `json:"createdAt"`
	EndedAt   *string  `json:"endedAt"`
	Status    string   `json:"status"`
	Summary   string   `json:"summary"`
	Logs      []string `json:"logs"`
	Subdomain string   `json:"subdomain"`
	Source    string   `json:"source"`
	Author    *struct {
		Name string `json:"name"`
	} `json:"author"`
	Screenshot *string `json:"screenshot"`
	Commit     struct {
		SHA          string `json:"sha"`
		Ref          string `json:"ref"`
		Message      string `json:"message"`
		FilesChanged struct {
			Added    []string `json:"added"`
			Modified []string `json:"modified"`
			Removed  []string `json:"removed"`
		} `json:"filesChanged"`
	} `json:"commit"`
}

func (h *harness) trigger(headers ...string) string {
	h.t.Helper()
	r := h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "", headers...)
	require.Equal(h.t, http.StatusAccepted, r.Status, "body: %s", r.Body)
	var out struct {
		StatusID string `json:"statusId"`
	}
	r.decode(h.t, &out)
	require.NotEmpty(h.t, out.StatusID)
	return out.StatusID
}

func (h *harness) deployment(id string) deployment {
	h.t.Helper()
	r := h.do("GET", "/v1/project/update-status/"+id, "")
	require.Equal(h.t, http.StatusOK, r.Status, "body: %s", r.Body)
	var d deployment
	r.decode(h.t, &d)
	return d
}

func TestDeploymentRunsQueuedThenInProgressThenSuccess(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(10*time.Second),
		mockserver.WithProjectSettings("docs", mockserver.ProjectSettings{Branch: "production", Subdomain: "acme"}),
		mockserver.WithProjectID("docs"))
	id := h.trigger()

	d := h.deployment(id)
	assert.Equal(t, "queued", d.Status)
	assert.Equal(t, id, d.ID)
	assert.Equal(t, "docs", d.ProjectID)
	assert.Equal(t, "acme", d.Subdomain)
	assert.Equal(t, "api", d.Source)
	assert.Nil(t, d.Author, "an API trigger has no author")
	assert.Nil(t, d.EndedAt)
	assert.Empty(t, d.Logs)
	assert.Equal(t, "production", d.Commit.Ref, "a trigger deploys the deployment branch")
	assert.Len(t, d.Commit.SHA, 40)

	clock.Advance(2 * time.Second) // a fifth of the run: the build starts
	d = h.deployment(id)
	assert.Equal(t, "in_progress", d.Status)
	first := len(d.Logs)
	assert.GreaterOrEqual(t, first, 1)
	clock.Advance(6 * time.Second)
	d = h.deployment(id)
	assert.Equal(t, "in_progress", d.Status)
	assert.Greater(t, len(d.Logs), first, "logs grow while the build runs")

	clock.Advance(2 * time.Second)
	d = h.deployment(id)
	assert.Equal(t, "success", d.Status)
	require.NotNil(t, d.EndedAt)
	end, err := time.Parse(time.RFC3339, *d.EndedAt)
	require.NoError(t, err)
	assert.Equal(t, epoch.Add(10*time.Second), end)
	assert.NotNil(t, d.Screenshot)
	files := d.Commit.FilesChanged
	assert.Contains(t, d.Summary, "production")
	assert.Contains(t, d.Summary, strings.Join([]string{strconv.Itoa(len(files.Added)) + " added", strconv.Itoa(len(files.Modified)) + " modified", strconv.Itoa(len(files.Removed)) + " removed"}, ", "))
	assert.Equal(t, "Deployment succeeded", d.Logs[len(d.Logs)-1])
}

func TestDeploymentOutcomeFromHeaderProjectAndControlAPI(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock))
	finish := func(id string) deployment {
		clock.Advance(mockserver.DefaultJobDuration)
		return h.deployment(id)
	}
	d := finish(h.trigger(mockserver.OutcomeHeader, "failed"))
	assert.Equal(t, "failure", d.Status)
	assert.Contains(t, d.Summary, "failed")
	assert.Equal(t, "Deployment failed", d.Logs[len(d.Logs)-1])
	assert.Nil(t, d.Screenshot)

	assert.Equal(t, "success", finish(h.trigger()).Status)

	require.NoError(t, h.s.SetProjectOutcome(h.s.ProjectID(), mockserver.OutcomeFailed))
	assert.Equal(t, "failure", finish(h.trigger()).Status)
	assert.Equal(t, "success", finish(h.trigger(mockserver.OutcomeHeader, "pull-request")).Status, "the header wins")
}

func (h *harness) preview(branch string, headers ...string) (statusID, url string) {
	h.t.Helper()
	r := h.do("POST", "/v1/project/preview/"+h.s.ProjectID(), `{"branch":`+quote(branch)+`}`, headers...)
	require.Equal(h.t, http.StatusAccepted, r.Status, "body: %s", r.Body)
	var out struct {
		StatusID   string `json:"statusId"`
		PreviewURL string `json:"previewUrl"`
	}
	r.decode(h.t, &out)
	return out.StatusID, out.PreviewURL
}

func TestPreviewOfABranchTwiceRedeploysItAtTheSameURL(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock))
	id1, url1 := h.preview("feature/webhooks")
	id2, url2 := h.preview("feature/webhooks")
	_, url3 := h.preview("feature-webhooks")
	assert.NotEqual(t, id1, id2, "a redeploy has its own status")
	assert.Equal(t, url1, url2)
	assert.NotEqual(t, url1, url3, "branches that slug alike keep apart")
	assert.True(t, strings.HasPrefix(url1, "https://"), url1)

	d := h.deployment(id2)
	assert.Equal(t, "queued", d.Status)
	assert.Equal(t, "feature/webhooks", d.Commit.Ref, "a preview deploys the named branch")
	require.NotNil(t, d.Author, "a preview carries the branch's author")
	assert.NotEmpty(t, d.Author.Name)
	clock.Advance(mockserver.DefaultJobDuration)
	assert.Equal(t, "success", h.deployment(id1).Status)
}

func TestPreviewRefusals(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits()) // a refused request spends its slot too
	path := "/v1/project/preview/" + h.s.ProjectID()
	// {"branch": "main", "BRANCH": "x"} is no refusal: the variant is
	// ignored (TestAPIBodiesAreReadAsTheVendorSchemaReadsThem).
	for _, body := range []string{"", "{}", `{"branch":""}`, `{"branch":null}`, `{"branch":7}`, "null", "[]", `{"Branch":"main"}`} {
		r := h.do("POST", path, body)
		assert.Equal(t, http.StatusBadRequest, r.Status, "body %s: %s", body, r.Body)
		r.apiError(t)
	}

	for name, opt := range map[string]mockserver.Option{
		"plan":         mockserver.WithProjectSettings("p", mockserver.ProjectSettings{NoPreviews: true}),
		"organization": mockserver.WithPreviews(false),
	} {
		h := setup(t, mockserver.WithProjectID("p"), opt)
		r := h.do("POST", "/v1/project/preview/p", `{"branch":"main"}`)
		assert.Equal(t, http.StatusForbidden, r.Status, name)
		assert.Contains(t, r.apiError(t).Error, "plan", name)
		assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/project/update/p", "").Status, "deployments still work: %s", name)
	}
}

func TestDeploymentStatusOfAnotherOrganizationIsNotFound(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("theirs", "mint_their_key"))
	r := h.do("POST", "/v1/project/update/theirs", "", "Authorization", "Bearer mint_their_key")
	require.Equal(t, http.StatusAccepted, r.Status)
	var out struct {
		StatusID string `json:"statusId"`
	}
	r.decode(t, &out)
	assert.Equal(t, http.StatusOK, h.do("GET", "/v1/project/update-status/"+out.StatusID, "", "Authorization", "Bearer mint_their_key").Status)
	mine := h.do("GET", "/v1/project/update-status/"+out.StatusID, "")
	never := h.do("GET", "/v1/project/update-status/0123456789abcdef01234567", "")
	assert.Equal(t, http.StatusNotFound, mine.Status)
	assert.Equal(t, never.Body, mine.Body, "the same answer as an ID that never existed")
	assert.Equal(t, http.StatusForbidden, h.do("POST", "/v1/project/update/theirs", "").Status)
}

// automation is one row of GET /_mock/automations.
type automation struct {
	ID      string `json:"id"`
	Project string `json:"project"`
	Trigger string `json:"trigger"`
	Active  bool   `json:"active"`
	Runs    int    `json:"runs"`
}

func (h *harness) automations() []automation {
	h.t.Helper()
	r := h.do("GET", "/_mock/automations", "")
	require.Equal(h.t, http.StatusOK, r.Status)
	var out []automation
	r.decode(h.t, &out)
	return out
}

func TestAutomationsOfEveryTriggerKind(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("second"))
	byKind := map[string]automation{}
	var second automation
	for _, a := range h.automations() {
		if a.Project == "second" {
			second = a
			continue
		}
		key := a.Trigger
		if !a.Active {
			key = "inactive"
		}
		byKind[key] = a
	}
	require.Contains(t, byKind, "custom_schedule")
	require.Contains(t, byKind, "inactive")
	require.Contains(t, byKind, "code_change")
	require.Contains(t, byKind, "content_update")
	require.NotEmpty(t, second.ID, "every project has its automations")

	path := func(id string) string { return "/v1/workflow/" + h.s.ProjectID() + "/" + id + "/trigger" }
	r := h.do("POST", path(byKind["custom_schedule"].ID), "")
	require.Equal(t, http.StatusAccepted, r.Status, "body: %s", r.Body)
	var run struct {
		SchemaID   string `json:"schemaId"`
		InstanceID string `json:"instanceId"`
		JobID      string `json:"jobId"`
	}
	r.decode(t, &run)
	assert.Equal(t, byKind["custom_schedule"].ID, run.SchemaID)
	assert.NotEmpty(t, run.InstanceID)
	assert.NotEmpty(t, run.JobID)

	for name, c := range map[string]struct {
		id     string
		status int
	}{
		"inactive":          {byKind["inactive"].ID, http.StatusBadRequest},
		"code change":       {byKind["code_change"].ID, http.StatusBadRequest},
		"content update":    {byKind["content_update"].ID, http.StatusBadRequest},
		"malformed":         {"not-an-id", http.StatusBadRequest},
		"unknown":           {"0123456789abcdef01234567", http.StatusNotFound},
		"another project's": {second.ID, http.StatusNotFound},
	} {
		r := h.do("POST", path(c.id), "")
		assert.Equal(t, c.status, r.Status, "%s: %s", name, r.Body)
	}
	for _, a := range h.automations() {
		want := 0
		if a.ID == byKind["custom_schedule"].ID {
			want = 1
		}
		assert.Equal(t, want, a.Runs, "runs of %s (%s): only accepted runs count", a.ID, a.Trigger)
	}

	r = h.do("POST", "/_mock/automations", `{"project":"second","trigger":"custom_schedule","active":true}`)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var added automation
	r.decode(t, &added)
	assert.Equal(t, "second", added.Project)
	assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/workflow/second/"+added.ID+"/trigger", "").Status)
	assert.Equal(t, http.StatusBadRequest, h.do("POST", "/_mock/automations", `{"trigger":"nightly"}`).Status)
	assert.Equal(t, http.StatusNotFound, h.do("POST", "/_mock/automations", `{"project":"nope","trigger":"code_change"}`).Status)
}

// stableWebhook is the webhook automation every project of h starts with.
func stableWebhook(h *harness, project string) string {
	h.t.Helper()
	for _, a := range h.s.Automations() {
		if a.Project == project && a.Trigger == mockserver.TriggerWebhook && a.Active {
			return a.ID
		}
	}
	h.t.Fatalf("project %s has no webhook automation", project)
	return ""
}

// TestWebhookAutomations: the webhook route runs an active webhook
// automation of the key's project, whatever body is sent, answering 202
// {"success": true, "runId"} with a fresh run ID; each run counts in the
// control API and the journal. An automation of any other trigger, an
// unknown, malformed or another project's ID is 404; an inactive one 400.
// The trigger route refuses a webhook automation (400, not a custom
// schedule). A read-only key is 403, as for every POST.
func TestWebhookAutomations(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("second"), mockserver.WithoutRateLimits())
	p := h.s.ProjectID()
	byKind := map[string]string{}
	for _, a := range h.automations() {
		if a.Project == p && a.Active {
			byKind[a.Trigger] = a.ID
		}
	}
	require.Contains(t, byKind, "webhook", "every project starts with a webhook automation")
	hook := byKind["webhook"]
	path := func(project, id string) string { return "/v2/workflow/" + project + "/" + id + "/webhook" }

	runIDs := map[string]bool{}
	for _, body := range []string{"", `{"prompt":"ignored"}`, `not json at all`} {
		r := h.do("POST", path(p, hook), body)
		require.Equal(t, http.StatusAccepted, r.Status, "body %q: %s", body, r.Body)
		validate(t, "automation-webhook", r.Body)
		var run struct {
			Success bool   `json:"success"`
			RunID   string `json:"runId"`
		}
		r.decode(t, &run)
		assert.True(t, run.Success)
		assert.Regexp(t, `^[0-9a-f]{24}$`, run.RunID)
		runIDs[run.RunID] = true
	}
	assert.Len(t, runIDs, 3, "a fresh run ID each time")

	var second string
	for _, a := range h.automations() {
		if a.Project == "second" && a.Trigger == "webhook" {
			second = a.ID
		}
	}
	r := h.do("POST", "/_mock/automations", `{"trigger":"webhook","active":false}`)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var inactive automation
	r.decode(t, &inactive)
	assert.Equal(t, "webhook", inactive.Trigger)
	for name, c := range map[string]struct {
		path   string
		status int
	}{
		"custom schedule":   {path(p, byKind["custom_schedule"]), http.StatusNotFound},
		"code change":       {path(p, byKind["code_change"]), http.StatusNotFound},
		"content update":    {path(p, byKind["content_update"]), http.StatusNotFound},
		"unknown":           {path(p, "0123456789abcdef01234567"), http.StatusNotFound},
		"malformed":         {path(p, "not-an-id"), http.StatusNotFound},
		"another project's": {path(p, second), http.StatusNotFound},
		"inactive":          {path(p, inactive.ID), http.StatusBadRequest},
		"on the trigger":    {"/v1/workflow/" + p + "/" + hook + "/trigger", http.StatusBadRequest},
		"v1":                {"/v1/workflow/" + p + "/" + hook + "/webhook", http.StatusNotFound},
		"GET":               {path(p, hook), http.StatusNotFound},
	} {
		method := http.MethodPost
		if name == "GET" {
			method = http.MethodGet
		}
		r := h.do(method, c.path, "")
		assert.Equal(t, c.status, r.Status, "%s: %s", name, r.Body)
		validate(t, "error", r.Body)
		if name == "on the trigger" {
			assert.Contains(t, string(r.Body), "custom schedule")
		}
	}
	reader := h.newKey(`{"scopes":["read"]}`)
	assert.Equal(t, http.StatusForbidden, h.do("POST", path(p, hook), "", "Authorization", "Bearer "+reader).Status)

	for _, a := range h.automations() {
		want := 0
		if a.ID == hook {
			want = 3
		}
		assert.Equal(t, want, a.Runs, "runs of %s (%s): only accepted runs count", a.ID, a.Trigger)
	}
	var hooks, processed int
	for _, e := range h.s.Journal() {
		if e.Route == mockserver.RouteAutomationWebhook {
			hooks++
			if e.Status == http.StatusAccepted && e.Processed {
				processed++
			}
		}
	}
	assert.Equal(t, 3, processed, "the journal holds each accepted run")
	assert.Equal(t, 11, hooks, "and each refused one (the v1 path and GET are no route)")
}

// TestDeployAndAutomationShareALimitPerOrganization: trigger deployment,
// trigger automation and the automation webhook share 10 requests per 10
// seconds per organization.
func TestDeployAndAutomationShareALimitPerOrganization(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithProject("second"), mockserver.WithProject("theirs", "mint_their_key"))
	var active string
	for _, a := range h.automations() {
		if a.Project == h.s.ProjectID() && a.Trigger == "custom_schedule" && a.Active {
			active = a.ID
		}
	}
	for i := range 10 {
		path := "/v1/project/update/second"
		switch i % 3 {
		case 1:
			path = "/v1/workflow/" + h.s.ProjectID() + "/" + active + "/trigger"
		case 2:
			path = "/v2/workflow/second/" + stableWebhook(h, "second") + "/webhook"
		}
		require.Equal(t, http.StatusAccepted, h.do("POST", path, "").Status, i)
	}
	r := h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "")
	assert.Equal(t, http.StatusTooManyRequests, r.Status)
	assert.Equal(t, "10", r.Header.Get("Retry-After"))
	assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/project/update/theirs", "", "Authorization", "Bearer mint_their_key").Status,
		"another organization has its own budget")
	clock.Advance(10 * time.Second)
	assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "").Status)

	for range 5 {
		h.preview("main")
	}
	r = h.do("POST", "/v1/project/preview/"+h.s.ProjectID(), `{"branch":"main"}`)
	assert.Equal(t, http.StatusTooManyRequests, r.Status)
	assert.Equal(t, "60", r.Header.Get("Retry-After"))
}

func TestOutcomeFailedEndsEveryKindOfRunInFailure(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock))
	r := h.do("PUT", "/_mock/outcome", `{"outcome":"failed"}`)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	j := h.createJob("Document webhooks")
	dep := h.trigger()
	pre, _ := h.preview("main")
	exp := h.startExport(`{"domain":"docs.example.com"}`)
	require.Equal(t, http.StatusOK, h.do("POST", "/_mock/clock", `{"advance":"1s"}`).Status)
	assert.Equal(t, "failed", h.getJob(j.ID).Status)
	assert.Equal(t, "failure", h.deployment(dep).Status)
	assert.Equal(t, "failure", h.deployment(pre).Status)
	e := h.export(exp.JobID)
	assert.Equal(t, "failed", e.Status)
	require.NotNil(t, e.Error)
	assert.NotEmpty(t, *e.Error)
}

func TestTriggerWhoseAnswerIsLostStillDeploysOnce(t *testing.T) {
	t.Parallel()
	h := setup(t)
	before := len(h.s.Deployments())
	req, err := http.NewRequest("POST", h.s.URL()+"/v1/project/update/"+h.s.ProjectID(), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+h.s.APIKey())
	req.Header.Set(mockserver.FaultHeader, "reset")
	resp, err := h.hc.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("the answer arrived: %d", resp.StatusCode)
	}
	assert.Len(t, h.s.Deployments(), before+1, "the deployment exists; the client heard nothing")
	var n int
	for _, e := range h.s.Journal() {
		if e.Route == mockserver.RouteTriggerDeployment {
			n++
			assert.Equal(t, http.StatusAccepted, e.EndpointStatus)
		}
	}
	assert.Equal(t, 1, n)
}

func TestConcurrentTriggersAreAllRecorded(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	before := len(h.s.Deployments())
	done := make(chan string, 40)
	for i := range 40 {
		go func() {
			if i%2 == 0 {
				r := h.do("POST", "/v1/project/update/"+h.s.ProjectID(), "")
				done <- string(r.Body)
				return
			}
			r := h.do("POST", "/v1/project/preview/"+h.s.ProjectID(), `{"branch":"b`+strconv.Itoa(i%3)+`"}`)
			done <- string(r.Body)
		}()
	}
	seen := map[string]bool{}
	for range 40 {
		seen[<-done] = true
	}
	assert.Len(t, seen, 40, "every answer has its own status ID")
	assert.Len(t, h.s.Deployments(), before+40)
}

func TestDeploymentRoutesTakeFaultRulesAndBoundBodies(t *testing.T) {
	t.Parallel()
	rule, err := mockserver.ParseFault("route=trigger-preview,status=503,times=1")
	require.NoError(t, err)
	h := setup(t, mockserver.WithFaults(rule), mockserver.WithoutRateLimits())
	path := "/v1/project/preview/" + h.s.ProjectID()
	assert.Equal(t, http.StatusServiceUnavailable, h.do("POST", path, `{"branch":"main"}`).Status)
	assert.Equal(t, http.StatusAccepted, h.do("POST", path, `{"branch":"main"}`).Status, "times=1 is used up")

	huge := `{"branch":"` + strings.Repeat("x", 2<<20) + `"}`
	assert.Equal(t, http.StatusRequestEntityTooLarge, h.do("POST", path, huge).Status)
	assert.Equal(t, http.StatusRequestEntityTooLarge, h.do("POST", "/v1/static-export/jobs", huge).Status)
	assert.Equal(t, http.StatusBadRequest, h.do("POST", path, `{"branch":"main"}`, mockserver.OutcomeHeader, "maybe").Status,
		"a bad outcome header is refused before anything runs")
}

// Every answer of the deployment and static-export routes, at every stage
// of its run and with every nullable field both ways, matches the schema
// written from the vendor documents.
func TestDeploymentAndExportAnswersMatchTheirSchemas(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(10*time.Second), mockserver.WithoutRateLimits())
	p := h.s.ProjectID()
	ok := func(schema string, status int, r *response) {
		t.Helper()
		require.Equal(t, status, r.Status, "body: %s", r.Body)
		validate(t, schema, r.Body)
	}
	var ids []string
	for _, outcome := range []string{"pull-request", "failed"} {
		r := h.do("POST", "/v1/project/update/"+p, "", mockserver.OutcomeHeader, outcome)
		ok("deployment-trigger", http.StatusAccepted, r)
		ids = append(ids, jsonField(t, r.Body, "statusId"))
		r = h.do("POST", "/v1/project/preview/"+p, `{"branch":"feature/x"}`, mockserver.OutcomeHeader, outcome)
		ok("preview", http.StatusAccepted, r)
		ids = append(ids, jsonField(t, r.Body, "statusId"))
	}
	for _, d := range h.s.Deployments() {
		ids = append(ids, d.ID) // the seeded history: github-sourced, with authors
	}
	var active string
	for _, a := range h.s.Automations() {
		if a.Project == p && a.Active && a.Trigger == mockserver.TriggerCustomSchedule {
			active = a.ID
		}
	}
	ok("automation-run", http.StatusAccepted, h.do("POST", "/v1/workflow/"+p+"/"+active+"/trigger", ""))
	ok("automation-webhook", http.StatusAccepted, h.do("POST", "/v2/workflow/"+p+"/"+stableWebhook(h, p)+"/webhook", ""))
	var exports []string
	for _, outcome := range []string{"pull-request", "failed"} {
		r := h.do("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`, mockserver.OutcomeHeader, outcome)
		ok("static-export-job", http.StatusAccepted, r)
		exports = append(exports, jsonField(t, r.Body, "jobId"))
	}
	for range 6 { // queued, in progress, ended
		for _, id := range ids {
			ok("deployment", http.StatusOK, h.do("GET", "/v1/project/update-status/"+id, ""))
		}
		for _, id := range exports {
			ok("static-export-job", http.StatusOK, h.do("GET", "/v1/static-export/jobs/"+id, ""))
		}
		clock.Advance(2 * time.Second)
	}
	ok("static-export-bundle", http.StatusOK, h.do("POST", "/v1/static-export/jobs/"+exports[0]+"/bundle", ""))

	for _, r := range []*response{
		h.do("POST", "/v1/static-export/jobs/"+exports[1]+"/bundle", ""),
		h.do("GET", "/v1/project/update-status/nope", ""),
		h.do("POST", "/v1/project/preview/"+p, `{}`),
		h.do("POST", "/v1/workflow/"+p+"/bad/trigger", ""),
		h.do("POST", "/v2/workflow/"+p+"/"+active+"/webhook", ""),
		h.do("POST", "/v1/static-export/jobs", `{"domain":"https://x"}`),
	} {
		require.GreaterOrEqual(t, r.Status, 400)
		validate(t, "error", r.Body)
	}
}

func jsonField(t *testing.T, body []byte, name string) string {
	t.Helper()
	var m map[string]any
	(&response{Body: body}).decode(t, &m)
	s, _ := m[name].(string)
	require.NotEmpty(t, s, "%s in %s", name, body)
	return s
}

func TestDeploymentSchemasRefuseBrokenAnswers(t *testing.T) {
	schemaOnce.Do(loadSchemas)
	require.NoError(t, schemaErr)
	bad := map[string][]string{
		"deployment-trigger": {`{}`, `{"statusId":""}`, `{"statusID":"x"}`},
		"preview":            {`{"statusId":"x"}`, `{"statusId":"x","previewUrl":7}`},
		"automation-run":     {`{"schemaId":"a","jobId":"b"}`},
		"automation-webhook": {`{"runId":"r"}`, `{"success":false,"runId":"r"}`, `{"success":true,"runId":""}`, `{"success":true}`},
		"deployment": {`{"_id":"x","status":"done"}`, `{"status":"queued"}`, `{"_id":"x","status":"success","author":{"githubUserId":"7"}}`,
			`{"_id":"x","status":"success","source":"cli"}`, `{"_id":"x","status":"success","logs":"one line"}`,
			`{"_id":"x","status":"success","createdAt":"yesterday"}`},
		"static-export-job": {`{"jobId":"x","status":"running","progress":101,"pageCount":1,"createdAt":"2025-01-01T00:00:00Z","updatedAt":"2025-01-01T00:00:00Z"}`,
			`{"jobId":"x","status":"done","progress":1,"pageCount":1,"createdAt":"2025-01-01T00:00:00Z","updatedAt":"2025-01-01T00:00:00Z"}`,
			`{"jobId":"x","status":"running","progress":1,"pageCount":1.5,"createdAt":"2025-01-01T00:00:00Z","updatedAt":"2025-01-01T00:00:00Z"}`},
		"static-export-bundle": {`{"jobId":"x","bundleUrl":"https://s/x","sizeBytes":-1,"expiresAt":"2025-01-01T00:00:00Z"}`,
			`{"jobId":"x","sizeBytes":1,"expiresAt":"2025-01-01T00:00:00Z"}`},
	}
	for name, bodies := range bad {
		for _, body := range bodies {
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
			require.NoError(t, err)
			require.Error(t, schemas[name].Validate(doc), "%s accepted %s", name, body)
		}
	}
}
