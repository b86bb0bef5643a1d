package mintlify

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"time"
)

// DeploymentStatus is the state of a deployment or a preview.
type DeploymentStatus string

// The deployment states the API documents. An answer may carry a state the
// vendor added since, a well-formed token (lower-case letters, digits, _
// and -, at most 64 bytes): it is kept as sent and is not terminal (see
// [DeploymentStatus.Known]). Any other value is a malformed answer (an
// error).
const (
	DeploymentQueued     DeploymentStatus = "queued"
	DeploymentInProgress DeploymentStatus = "in_progress"
	DeploymentSucceeded  DeploymentStatus = "success"
	DeploymentFailed     DeploymentStatus = "failure" // Summary and Logs say why
)

// Terminal reports whether the deployment has stopped: polling can end.
func (s DeploymentStatus) Terminal() bool {
	return s == DeploymentSucceeded || s == DeploymentFailed
}

// Known reports whether the status is one this version of the SDK
// documents. A poller waits through one it does not know: only a known
// status ends a wait.
func (s DeploymentStatus) Known() bool {
	return s == DeploymentQueued || s == DeploymentInProgress || s.Terminal()
}

// Deployment is the state of a deployment or a preview, as the status route
// reports it. Fields the service leaves out or sends as null stay zero.
//
// It marshals as the API sends it: ID as _id, the changed files under
// commit.filesChanged, a zero time and a nil Author as null, a nil list as
// [].
type Deployment struct {
	ID        string // the status ID that TriggerDeployment or TriggerPreview returned
	ProjectID string
	Status    DeploymentStatus
	// Source is what triggered it: "api", "github", "dashboard", "gitlab",
	// "github-app-installation", "internal" or "onboarding".
	Source    string
	Summary   string
	Subdomain string   // of the docs site deployed
	Logs      []string // the build log so far, a line per entry; it grows as the deployment runs
	// CreatedAt and EndedAt are zero when absent or in a form the SDK
	// cannot read (the vendor documents them as plain strings); EndedAt is
	// zero until the deployment ends.
	CreatedAt, EndedAt time.Time
	Author             *DeploymentAuthor // nil when the service sends none
	Commit             DeploymentCommit
	// Screenshots of the deployed site, as the service sends them (URLs).
	Screenshot, ScreenshotLight, ScreenshotDark string
}

// MarshalJSON writes the deployment as the API does.
func (d Deployment) MarshalJSON() ([]byte, error) { return marshalWire(d.wire()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Deployment) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, d, (*wireDeployment).deployment)
}

// DeploymentAuthor is who made the commit a deployment built.
type DeploymentAuthor struct {
	Name         string `json:"name"`
	AvatarURL    string `json:"avatarUrl"`
	GitHubUserID int64  `json:"githubUserId"` // 0 when absent
}

// DeploymentCommit is the commit a deployment built, with the paths it
// added, modified and removed. It marshals as the API sends it, the paths
// under filesChanged.
type DeploymentCommit struct {
	SHA, Ref, Message        string
	Added, Modified, Removed []string
}

// MarshalJSON writes the commit as the API does.
func (c DeploymentCommit) MarshalJSON() ([]byte, error) { return marshalWire(c.wire()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (c *DeploymentCommit) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, c, (*wireCommit).commit)
}

// Preview is a queued preview deployment: follow StatusID with
// PollDeployment; the site will be at URL.
type Preview struct {
	StatusID string `json:"statusId"`
	URL      string `json:"previewUrl"` // the same for every preview of one branch
}

// wireDeployment is the status route's answer as sent; required fields are
// checked by check, the rest is tolerated absent or null.
type wireDeployment struct {
	ID              string           `json:"_id"`
	ProjectID       string           `json:"projectId"`
	CreatedAt       jsonTime         `json:"createdAt"`
	EndedAt         jsonTime         `json:"endedAt"`
	Status          DeploymentStatus `json:"status"`
	Summary         string           `json:"summary"`
	Logs            logLines         `json:"logs"`
	Subdomain       string           `json:"subdomain"`
	Screenshot      string           `json:"screenshot"`
	ScreenshotLight string           `json:"screenshotLight"`
	ScreenshotDark  string           `json:"screenshotDark"`
	Source          string           `json:"source"`
	Author          *wireAuthor      `json:"author"`
	Commit          wireCommit       `json:"commit"`
}

type wireAuthor struct {
	Name         string     `json:"name"`
	AvatarURL    string     `json:"avatarUrl"`
	GitHubUserID jsonNumber `json:"githubUserId"`
}

type wireCommit struct {
	SHA          string `json:"sha"`
	Ref          string `json:"ref"`
	Message      string `json:"message"`
	FilesChanged struct {
		Added    list[string, filesMax] `json:"added"`
		Modified list[string, filesMax] `json:"modified"`
		Removed  list[string, filesMax] `json:"removed"`
	} `json:"filesChanged"`
}

func (w *wireDeployment) check() error {
	if w.ID == "" {
		return errors.New("deployment without an _id")
	}
	if err := checkToken("deployment status", w.Status); err != nil {
		return err
	}
	return checkID("deployment _id", w.ID)
}

func (w *wireDeployment) about() string { return w.ID }

func (w *wireDeployment) deployment() Deployment {
	d := Deployment{
		ID: w.ID, ProjectID: w.ProjectID, Status: w.Status, Source: w.Source, Summary: w.Summary,
		Subdomain: w.Subdomain, Logs: []string(w.Logs), CreatedAt: w.CreatedAt.t, EndedAt: w.EndedAt.t,
		Commit:     w.Commit.commit(),
		Screenshot: w.Screenshot, ScreenshotLight: w.ScreenshotLight, ScreenshotDark: w.ScreenshotDark,
	}
	if a := w.Author; a != nil {
		// The vendor types the ID as a number: one that is not whole is left 0.
		id := a.GitHubUserID.x
		if id != math.Trunc(id) || math.Abs(id) >= 1<<63 {
			id = 0
		}
		d.Author = &DeploymentAuthor{Name: a.Name, AvatarURL: a.AvatarURL, GitHubUserID: int64(id)}
	}
	return d
}

func (d Deployment) wire() wireDeployment {
	w := wireDeployment{
		ID: d.ID, ProjectID: d.ProjectID, Status: d.Status, Source: d.Source, Summary: d.Summary,
		Subdomain: d.Subdomain, Logs: orEmpty(d.Logs), CreatedAt: timeOf(d.CreatedAt), EndedAt: timeOf(d.EndedAt),
		Commit:     d.Commit.wire(),
		Screenshot: d.Screenshot, ScreenshotLight: d.ScreenshotLight, ScreenshotDark: d.ScreenshotDark,
	}
	if a := d.Author; a != nil {
		w.Author = &wireAuthor{Name: a.Name, AvatarURL: a.AvatarURL, GitHubUserID: number(float64(a.GitHubUserID))}
	}
	return w
}

func (w *wireCommit) commit() DeploymentCommit {
	f := &w.FilesChanged
	return DeploymentCommit{SHA: w.SHA, Ref: w.Ref, Message: w.Message, Added: []string(f.Added), Modified: []string(f.Modified), Removed: []string(f.Removed)}
}

func (c DeploymentCommit) wire() wireCommit {
	w := wireCommit{SHA: c.SHA, Ref: c.Ref, Message: c.Message}
	w.FilesChanged.Added, w.FilesChanged.Modified, w.FilesChanged.Removed = orEmpty(c.Added), orEmpty(c.Modified), orEmpty(c.Removed)
	return w
}

// orEmpty makes a nil list empty: the API sends [], not null.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// wireTrigger is the 202 answer of trigger deployment and trigger preview.
type wireTrigger struct {
	StatusID   string `json:"statusId"`
	PreviewURL string `json:"previewUrl"`
}

func (w *wireTrigger) check() error {
	if w.StatusID == "" {
		return errors.New("trigger answer without a statusId")
	}
	return checkID("statusId", w.StatusID)
}

// TriggerDeployment deploys the project's configured deployment branch
// (POST /v1/project/update/{projectId}) and returns the status ID to follow
// with PollDeployment or GetDeployment.
//
// It is never retried where the server may have acted, so one call never
// queues two deployments: a lost answer, or a 500, 502 or 504, is an error
// wrapping ErrOutcomeUnknown. A 429 is retried (the organization shares 10
// triggers per 10 seconds with TriggerAutomation and
// TriggerAutomationWebhook).
func (c *Client) TriggerDeployment(ctx context.Context) (statusID string, err error) {
	w, err := send[wireTrigger](ctx, c, request{
		method: http.MethodPost,
		path:   "/v1/project/update/{projectId}",
		want:   http.StatusAccepted,
	})
	if err != nil {
		return "", err
	}
	return w.StatusID, nil
}

// TriggerPreview deploys branch as a preview (POST
// /v1/project/preview/{projectId}). A second preview of the same branch
// redeploys it: the same URL, a new status ID. A plan without previews is
// ErrForbidden. Retries and ErrOutcomeUnknown work as in TriggerDeployment;
// previews allow 5 triggers a minute per organization.
func (c *Client) TriggerPreview(ctx context.Context, branch string) (*Preview, error) {
	if branch == "" {
		return nil, invalidf("empty branch")
	}
	body, err := requestBody(struct {
		Branch string `json:"branch"`
	}{branch})
	if err != nil {
		return nil, err
	}
	w, err := send[wireTrigger](ctx, c, request{
		method: http.MethodPost,
		path:   "/v1/project/preview/{projectId}",
		body:   body,
		want:   http.StatusAccepted,
	})
	if err != nil {
		return nil, err
	}
	return &Preview{StatusID: w.StatusID, URL: w.PreviewURL}, nil
}

// GetDeployment reads the state of a deployment or preview (GET
// /v1/project/update-status/{statusId}). It is retried like every GET. An
// answer without an _id or about another status ID, or with a status the
// API does not document, is an error.
func (c *Client) GetDeployment(ctx context.Context, statusID string) (*Deployment, error) {
	return c.getDeployment(ctx, statusID, nil)
}

// getDeployment is GetDeployment, also for a poller, whose reads share buf
// (nil for GetDeployment; see request.buf).
func (c *Client) getDeployment(ctx context.Context, statusID string, buf *answerBuffer) (*Deployment, error) {
	if err := checkSegment("status ID", statusID); err != nil {
		return nil, err
	}
	r := request{method: http.MethodGet, path: "/v1/project/update-status/" + url.PathEscape(statusID), buf: buf}
	w, err := sendAbout[wireDeployment](ctx, c, r, "deployment", statusID)
	if err != nil {
		return nil, err
	}
	d := w.deployment()
	return &d, nil
}

// PollDeployment reads the deployment until its status is terminal and
// returns it with a nil error, success or failure alike: check Status, and
// Summary and Logs on failure. It shares PollJob's schedule, options and
// stop reasons (the context, an answer waiting cannot fix, repeated
// failures, a Retry-After beyond WithMaxPollInterval); each read is a
// GetDeployment.
func (c *Client) PollDeployment(ctx context.Context, statusID string, opts ...PollOption) (*Deployment, error) {
	if err := checkSegment("status ID", statusID); err != nil {
		return nil, err
	}
	return poll(ctx, c, "deployment", statusID, c.getDeployment, func(d *Deployment) bool { return d.Status.Terminal() }, opts)
}
