package mockserver_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/mockserver"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

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
