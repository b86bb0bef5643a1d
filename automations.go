package mintlify

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode"
)

// AutomationRun is a queued run of an automation. It marshals as the API
// sends it.
type AutomationRun struct {
	AutomationID string `json:"schemaId"`   // the automation triggered
	RunID        string `json:"instanceId"` // the run, as the dashboard's run history shows it
	JobID        string `json:"jobId"`      // the background job processing the run
}

type wireAutomationRun struct {
	SchemaID   string `json:"schemaId"`
	InstanceID string `json:"instanceId"`
	JobID      string `json:"jobId"`
}

func (w *wireAutomationRun) about() string { return w.SchemaID }

func (w *wireAutomationRun) check() error {
	if w.InstanceID == "" {
		return errors.New("automation run without an instanceId")
	}
	return cmp.Or(checkID("instanceId", w.InstanceID), checkID("schemaId", w.SchemaID), checkID("jobId", w.JobID))
}

// TriggerAutomation queues a run of an automation (POST
// /v1/workflow/{projectId}/{workflowSchemaId}/trigger). Only an active
// automation on a custom schedule can be triggered; others are
// ErrBadRequest, and one that is unknown or belongs to another project is
// ErrNotFound.
//
// A run spends the organization's credits, so it is never retried where
// the server may have acted: a lost answer, or a 500, 502 or 504, is an
// error wrapping ErrOutcomeUnknown (check the dashboard's run history
// before trying again), as is an answer about another automation. A 429
// is retried; the organization shares 10 triggers per 10 seconds with
// TriggerDeployment and TriggerAutomationWebhook.
func (c *Client) TriggerAutomation(ctx context.Context, automationID string) (*AutomationRun, error) {
	if err := checkAutomationID(automationID); err != nil {
		return nil, c.redact(err) // it quotes the ID, where a caller may have pasted the key
	}
	r := request{
		method: http.MethodPost,
		path:   "/v1/workflow/{projectId}/" + url.PathEscape(automationID) + "/trigger",
		want:   http.StatusAccepted,
	}
	// A run of another automation is not the one asked for; something ran,
	// so the outcome is unknown.
	w, err := sendAbout[wireAutomationRun](ctx, c, r, "a run of automation", automationID)
	if err != nil {
		return nil, err
	}
	return &AutomationRun{AutomationID: w.SchemaID, RunID: w.InstanceID, JobID: w.JobID}, nil
}

// checkAutomationID refuses IDs that cannot be one the dashboard shows: a
// slash would address another route, and white space is a copy-paste slip.
func checkAutomationID(id string) error {
	if err := checkSegment("automation ID", id); err != nil {
		return err
	}
	if i := strings.IndexFunc(id, func(r rune) bool {
		return r == '/' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r)
	}); i >= 0 {
		return invalidf("automation ID %q contains a slash, white space or a control character", id)
	}
	return nil
}

// AutomationWebhookRun is a run of an automation queued through its
// webhook. It marshals as the API sends it.
type AutomationWebhookRun struct {
	RunID string `json:"runId"` // the run, as the dashboard's run history shows it
}

type wireAutomationWebhookRun struct {
	Success *bool  `json:"success"`
	RunID   string `json:"runId"`
}

func (w *wireAutomationWebhookRun) check() error {
	switch {
	case w.RunID == "":
		return errors.New("webhook run without a runId")
	case w.Success != nil && !*w.Success:
		// A run ID beside "success": false says neither that it ran nor
		// that it did not.
		return errors.New(`webhook answer with "success": false`)
	}
	return checkID("runId", w.RunID)
}

// TriggerAutomationWebhook queues a run of an automation whose trigger is
// a webhook (POST /v2/workflow/{projectId}/{workflowSchemaId}/webhook),
// as a call to the webhook would, and returns the run. The key needs
// write access. An automation with another trigger, a predefined one, or
// one that is unknown or belongs to another project is ErrNotFound. The
// route takes no body: none is sent.
//
// A run spends the organization's credits, so it is never retried where
// the server may have acted: a lost answer, or a 500, 502 or 504, is an
// error wrapping ErrOutcomeUnknown (check the dashboard's run history
// before trying again). A 429 is retried; the organization shares 10
// requests per 10 seconds with TriggerDeployment and TriggerAutomation.
func (c *Client) TriggerAutomationWebhook(ctx context.Context, automationID string) (*AutomationWebhookRun, error) {
	if err := checkAutomationID(automationID); err != nil {
		return nil, c.redact(err) // it quotes the ID, where a caller may have pasted the key
	}
	r := request{
		method: http.MethodPost,
		path:   "/v2/workflow/{projectId}/" + url.PathEscape(automationID) + "/webhook",
		want:   http.StatusAccepted,
		also:   http.StatusOK, // the vendor documents both
	}
	w, err := send[wireAutomationWebhookRun](ctx, c, r)
	if err != nil {
		return nil, err
	}
	return &AutomationWebhookRun{RunID: w.RunID}, nil
}
