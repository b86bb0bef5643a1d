package mockserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/mockserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
