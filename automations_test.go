package mintlify

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const autoTriggerURL = coreBaseURL + "/v1/workflow/" + coreProjectID + "/"

func TestTriggerAutomationDecodesEveryField(t *testing.T) {
	tests := []struct {
		name, body string
		want       *AutomationRun
	}{
		{"every field", `{"schemaId":"wf_1","instanceId":"run_7","jobId":"job_3"}`,
			&AutomationRun{AutomationID: "wf_1", RunID: "run_7", JobID: "job_3"}},
		{"optional fields null", `{"schemaId":null,"instanceId":"run_7","jobId":null}`,
			&AutomationRun{RunID: "run_7"}},
		{"optional fields absent", `{"instanceId":"run_7"}`, &AutomationRun{RunID: "run_7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			var rec coreRecorder
			mt.RegisterResponder(http.MethodPost, autoTriggerURL+"wf_1/trigger", rec.wrap(respond(202, tt.body)))
			got, err := c.TriggerAutomation(context.Background(), "wf_1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			reqs := rec.requests()
			require.Len(t, reqs, 1)
			assert.Empty(t, reqs[0].Body, "trigger automation has no body")
		})
	}
}

// A run spends credits: an answer that does not name the run leaves the
// caller not knowing, and nothing is sent twice.
func TestTriggerAutomationMalformedAnswer(t *testing.T) {
	for name, body := range map[string]string{
		"empty object":        `{}`,
		"null":                `null`,
		"no instanceId":       `{"schemaId":"wf_1","jobId":"job_3"}`,
		"null instanceId":     `{"instanceId":null}`,
		"empty instanceId":    `{"instanceId":""}`,
		"instanceId a number": `{"instanceId":7}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodPost, autoTriggerURL+"wf_1/trigger", respond(202, body))
			_, err := c.TriggerAutomation(context.Background(), "wf_1")
			assert.ErrorIs(t, err, ErrOutcomeUnknown)
			assert.ErrorIs(t, err, ErrMalformedResponse)
			assert.Equal(t, 1, mt.GetTotalCallCount())
		})
	}
}

func TestTriggerAutomationErrors(t *testing.T) {
	tests := []struct {
		status   int
		body     string
		sentinel error
		unknown  bool
	}{
		{400, `{"error":"automation is not active"}`, ErrBadRequest, false},
		{404, `{"error":"automation not found"}`, ErrNotFound, false},
		{500, `{"error":"boom"}`, ErrServer, true},
		{504, ``, ErrServer, true},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodPost, autoTriggerURL+"wf_1/trigger", respond(tt.status, tt.body))
			_, err := c.TriggerAutomation(context.Background(), "wf_1")
			assert.ErrorIs(t, err, tt.sentinel)
			assert.Equal(t, tt.unknown, errors.Is(err, ErrOutcomeUnknown))
			assert.Equal(t, 1, mt.GetTotalCallCount(), "never retried")
		})
	}
}

// Automation IDs the dashboard shows are one path segment; odd but legal
// characters are escaped, not refused.
func TestTriggerAutomationEscapesTheID(t *testing.T) {
	c, mt := newCoreClient(t)
	var got string
	mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		got = r.URL.EscapedPath()
		return respond(202, `{"instanceId":"run_1"}`)(r)
	})
	_, err := c.TriggerAutomation(context.Background(), "wf?x=1#y")
	require.NoError(t, err)
	assert.Equal(t, "/v1/workflow/"+coreProjectID+"/wf%3Fx=1%23y/trigger", got)
}
