package mintlify_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// ciEnv is a mock server whose runs last 5 minutes of a fake clock that
// moves a minute on every poll, and a client of its primary key. The
// clock starts now: bundle links expire by it, and the SDK checks their
// expiry against the real time.
type ciEnv struct {
	c     *mintlify.Client
	mock  *mockserver.Server
	clock *mockserver.FakeClock
}

func ciStart(t *testing.T, opts ...mockserver.Option) *ciEnv {
	t.Helper()
	clock := mockserver.NewFakeClock(time.Now())
	opts = append([]mockserver.Option{mockserver.WithClock(clock), mockserver.WithJobDuration(5 * time.Minute)}, opts...)
	mock := mockserver.Start(t, opts...)
	return &ciEnv{c: mockClient(t, mock), mock: mock, clock: clock}
}

// tick moves the mock's clock a minute after each read of a poll.
func ciTick[T any](env *ciEnv) mintlify.PollOption {
	return mintlify.WithPollObserver(func(*T) { env.clock.Advance(time.Minute) })
}

// completedBundle starts a static export, polls it to its end and
// returns its bundle link.
func (env *ciEnv) completedBundle(ctx context.Context, t *testing.T) *mintlify.StaticExportBundle {
	t.Helper()
	started, err := env.c.StartStaticExport(ctx, mintlify.StaticExportParams{Domain: "docs.acme.com"})
	require.NoError(t, err)
	_, err = env.c.PollStaticExport(ctx, started.ID, fastPoll, ciTick[mintlify.StaticExport](env))
	require.NoError(t, err)
	bundle, err := env.c.BundleStaticExport(ctx, started.ID)
	require.NoError(t, err)
	return bundle
}

// control calls one of the mock's control routes and decodes its answer
// into out (if not nil).
func (env *ciEnv) control(t *testing.T, method, path, body string, out any) {
	t.Helper()
	req, err := http.NewRequest(method, env.mock.URL()+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	require.Less(t, resp.StatusCode, 300, "%s %s: %s", method, path, data)
	if out != nil {
		require.NoError(t, json.Unmarshal(data, out), string(data))
	}
}

func TestE2EDeploymentRunsToItsVerdict(t *testing.T) {
	t.Parallel()
	for _, failed := range []bool{false, true} {
		name := map[bool]string{false: "success", true: "failure"}[failed]
		t.Run(name, func(t *testing.T) {
			env := ciStart(t)
			if failed {
				env.control(t, http.MethodPut, "/_mock/outcome", `{"outcome":"failed"}`, nil)
			}
			ctx := testContext(t)

			statusID, err := env.c.TriggerDeployment(ctx)
			require.NoError(t, err)
			require.NotEmpty(t, statusID)

			first, err := env.c.GetDeployment(ctx, statusID)
			require.NoError(t, err)
			assert.Equal(t, statusID, first.ID)
			assert.False(t, first.Status.Terminal(), "a new deployment is still running")
			assert.True(t, first.EndedAt.IsZero(), "no end time while it runs")

			var seen []mintlify.DeploymentStatus
			d, err := env.c.PollDeployment(ctx, statusID, fastPoll, ciTick[mintlify.Deployment](env),
				mintlify.WithPollObserver(func(d *mintlify.Deployment) { seen = append(seen, d.Status) }))
			require.NoError(t, err, "a failed deployment is a verdict, not an error")
			want := map[bool]mintlify.DeploymentStatus{false: mintlify.DeploymentSucceeded, true: mintlify.DeploymentFailed}[failed]
			assert.Equal(t, want, d.Status)
			assert.Equal(t, want, seen[len(seen)-1])
			assert.Equal(t, statusID, d.ID)
			assert.Equal(t, env.mock.ProjectID(), d.ProjectID)
			assert.NotEmpty(t, d.Summary)
			assert.NotEmpty(t, d.Logs)
			assert.GreaterOrEqual(t, len(d.Logs), len(first.Logs), "logs grow as it runs")
			assert.NotEmpty(t, d.Commit.SHA)
			assert.False(t, d.CreatedAt.IsZero())
			assert.False(t, d.EndedAt.IsZero(), "a deployment that ended says when")
			assert.True(t, d.EndedAt.After(d.CreatedAt))
		})
	}
}

func TestE2EPreviewTwiceOnOneBranch(t *testing.T) {
	t.Parallel()
	env := ciStart(t)
	ctx := testContext(t)

	first, err := env.c.TriggerPreview(ctx, "feature/new-nav")
	require.NoError(t, err)
	second, err := env.c.TriggerPreview(ctx, "feature/new-nav")
	require.NoError(t, err)
	assert.NotEmpty(t, first.URL)
	assert.Equal(t, first.URL, second.URL, "a branch keeps its preview URL")
	assert.NotEqual(t, first.StatusID, second.StatusID, "each preview is a new deployment")

	other, err := env.c.TriggerPreview(ctx, "fix/typo")
	require.NoError(t, err)
	assert.NotEqual(t, first.URL, other.URL, "another branch, another preview")

	for _, p := range []*mintlify.Preview{first, second} {
		d, err := env.c.PollDeployment(ctx, p.StatusID, fastPoll, ciTick[mintlify.Deployment](env))
		require.NoError(t, err)
		assert.Equal(t, mintlify.DeploymentSucceeded, d.Status)
	}
}

// ciAutomation is a row of GET /_mock/automations.
type ciAutomation struct {
	ID      string `json:"id"`
	Project string `json:"project"`
	Trigger string `json:"trigger"`
	Active  bool   `json:"active"`
	Runs    int    `json:"runs"`
}

func TestE2EAutomationOfEachTriggerKind(t *testing.T) {
	t.Parallel()
	env := ciStart(t)
	ctx := testContext(t)
	add := func(trigger string, active bool) string {
		var a ciAutomation
		body, _ := json.Marshal(map[string]any{"project": env.mock.ProjectID(), "trigger": trigger, "active": active})
		env.control(t, http.MethodPost, "/_mock/automations", string(body), &a)
		require.NotEmpty(t, a.ID)
		return a.ID
	}
	tests := []struct {
		trigger string
		active  bool
		want    error // nil: it runs
	}{
		{"custom_schedule", true, nil},
		{"custom_schedule", false, mintlify.ErrBadRequest},
		{"code_change", true, mintlify.ErrBadRequest},
		{"content_update", true, mintlify.ErrBadRequest},
	}
	ids := map[string]int{} // automation ID -> runs expected
	for _, tt := range tests {
		id := add(tt.trigger, tt.active)
		run, err := env.c.TriggerAutomation(ctx, id)
		if tt.want == nil {
			require.NoError(t, err, tt.trigger)
			assert.NotEmpty(t, run.RunID)
			assert.Equal(t, id, run.AutomationID)
			ids[id] = 1
		} else {
			assert.ErrorIs(t, err, tt.want, "%s active=%v", tt.trigger, tt.active)
			assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "a refusal is a known outcome")
			ids[id] = 0
		}
	}
	_, err := env.c.TriggerAutomation(ctx, "0123456789abcdef01234567")
	assert.ErrorIs(t, err, mintlify.ErrNotFound, "an unknown automation")
	_, err = env.c.TriggerAutomation(ctx, "not-an-automation-id")
	assert.ErrorIs(t, err, mintlify.ErrBadRequest, "a malformed automation ID")

	var listed []ciAutomation
	env.control(t, http.MethodGet, "/_mock/automations", "", &listed)
	for _, a := range listed {
		if want, ok := ids[a.ID]; ok {
			assert.Equal(t, want, a.Runs, "automation %s (%s, active=%v): runs recorded", a.ID, a.Trigger, a.Active)
			delete(ids, a.ID)
		}
	}
	assert.Empty(t, ids, "every automation added is listed")
}

// TestE2EStaticExportDownloadResumesTheSameObject: the mock's storage host
// names its bundles by ETag and honours If-Range, so a download cut in
// the middle resumes (Range, If-Range) into the exact archive.
func TestE2EStaticExportDownloadResumesTheSameObject(t *testing.T) {
	t.Parallel()
	env := ciStart(t)
	ctx := testContext(t)
	bundle := env.completedBundle(ctx, t)
	var whole bytes.Buffer
	_, err := env.c.DownloadStaticExport(ctx, bundle, &whole)
	require.NoError(t, err)

	env.mock.InjectFault(mockserver.FaultRule{Route: mockserver.RouteBundleDownload, Fault: mockserver.Fault{Kind: mockserver.FaultTruncate}, Times: 1})
	var resumed bytes.Buffer
	n, err := env.c.DownloadStaticExport(ctx, bundle, &resumed)
	require.NoError(t, err)
	assert.Equal(t, bundle.SizeBytes, n)
	assert.Equal(t, whole.Bytes(), resumed.Bytes(), "the same bytes, resumed where the cut left them")
	downloads := 0
	for _, e := range env.mock.Journal() {
		if e.Route == mockserver.RouteBundleDownload {
			downloads++
		}
	}
	assert.Equal(t, 3, downloads, "one whole download, then one cut and its resume")
}

func TestE2EStaticExportToAValidTarGz(t *testing.T) {
	t.Parallel()
	env := ciStart(t)
	ctx := testContext(t)

	started, err := env.c.StartStaticExport(ctx, mintlify.StaticExportParams{Domain: "docs.acme.com"})
	require.NoError(t, err)
	require.NotEmpty(t, started.ID)
	assert.False(t, started.Status.Terminal())

	_, err = env.c.BundleStaticExport(ctx, started.ID)
	assert.ErrorIs(t, err, mintlify.ErrBadRequest, "no bundle before the export completes (409)")

	var progress []float64
	done, err := env.c.PollStaticExport(ctx, started.ID, fastPoll, ciTick[mintlify.StaticExport](env),
		mintlify.WithPollObserver(func(e *mintlify.StaticExport) { progress = append(progress, e.Progress) }))
	require.NoError(t, err)
	require.Equal(t, mintlify.StaticExportCompleted, done.Status)
	assert.Equal(t, float64(100), done.Progress)
	assert.Positive(t, done.PageCount)
	assert.Empty(t, done.Error)
	assert.IsNonDecreasing(t, progress)

	bundle, err := env.c.BundleStaticExport(ctx, started.ID)
	require.NoError(t, err)
	assert.Equal(t, started.ID, bundle.JobID)
	assert.Positive(t, bundle.SizeBytes)
	assert.True(t, bundle.ExpiresAt.After(time.Now()))
	assert.NotContains(t, bundle.URL, env.mock.URL(), "the bundle lives on another host")

	var archive bytes.Buffer
	n, err := env.c.DownloadStaticExport(ctx, bundle, &archive)
	require.NoError(t, err, "the storage host refuses a request with Authorization: this one had none")
	assert.Equal(t, bundle.SizeBytes, n)
	assert.Equal(t, int(bundle.SizeBytes), archive.Len())

	zr, err := gzip.NewReader(&archive)
	require.NoError(t, err)
	tr := tar.NewReader(zr)
	files := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		_, err = io.Copy(io.Discard, tr)
		require.NoError(t, err, h.Name)
		files++
	}
	assert.Positive(t, files, "the archive holds the pages")

	env.clock.Advance(time.Minute)
	again, err := env.c.BundleStaticExport(ctx, started.ID)
	require.NoError(t, err)
	assert.NotEqual(t, bundle.URL, again.URL, "each call mints a fresh link")
	assert.Equal(t, bundle.SizeBytes, again.SizeBytes, "to the same files")
}

func TestE2EStaticExportThatFails(t *testing.T) {
	t.Parallel()
	env := ciStart(t)
	env.control(t, http.MethodPut, "/_mock/outcome", `{"outcome":"failed"}`, nil)
	ctx := testContext(t)
	started, err := env.c.StartStaticExport(ctx, mintlify.StaticExportParams{Domain: "docs.acme.com"})
	require.NoError(t, err)
	done, err := env.c.PollStaticExport(ctx, started.ID, fastPoll, ciTick[mintlify.StaticExport](env))
	require.NoError(t, err)
	assert.Equal(t, mintlify.StaticExportFailed, done.Status)
	assert.NotEmpty(t, done.Error)
}

// A read-only key may read but every POST is refused; an expired key is
// refused everything.
func TestE2EScopedAndExpiredKeys(t *testing.T) {
	t.Parallel()
	env := ciStart(t)
	ctx := testContext(t)
	statusID, err := env.c.TriggerDeployment(ctx)
	require.NoError(t, err)

	var readOnly, expired struct {
		Key string `json:"key"`
	}
	env.control(t, http.MethodPost, "/_mock/keys", `{"scopes":["read"]}`, &readOnly)
	env.control(t, http.MethodPost, "/_mock/keys",
		`{"expiresAt":"`+env.clock.Now().Add(time.Minute).UTC().Format(time.RFC3339)+`"}`, &expired)
	env.clock.Advance(2 * time.Minute) // past the expiry
	require.NotEmpty(t, readOnly.Key)
	require.NotEmpty(t, expired.Key)

	ro := mockClient(t, env.mock, mintlify.WithAPIKey(readOnly.Key))
	old := mockClient(t, env.mock, mintlify.WithAPIKey(expired.Key))
	for _, m := range methods {
		if m.apiPrefix != "" || m.verb != http.MethodPost {
			continue
		}
		_, err := m.call(ctx, ro)
		assert.ErrorIs(t, err, mintlify.ErrForbidden, "read-only key: %s", m.name)
		assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, m.name)
		_, err = m.call(ctx, old)
		assert.ErrorIs(t, err, mintlify.ErrUnauthorized, "expired key: %s", m.name)
	}
	d, err := ro.GetDeployment(ctx, statusID)
	require.NoError(t, err, "a read-only key reads")
	assert.Equal(t, statusID, d.ID)
	_, err = old.GetDeployment(ctx, statusID)
	assert.ErrorIs(t, err, mintlify.ErrUnauthorized)
}

// The storage host refuses an altered or expired link (403); the error
// says so without quoting the link.
func TestE2EStaticExportRefusedLinks(t *testing.T) {
	t.Parallel()
	env := ciStart(t)
	ctx := testContext(t)
	bundle := env.completedBundle(ctx, t)
	u, err := url.Parse(bundle.URL)
	require.NoError(t, err)
	secrets := []string{bundle.URL, u.RawQuery}
	for _, vs := range u.Query() {
		secrets = append(secrets, vs...)
	}

	altered := *bundle
	q := u.Query()
	q.Set("size", "1") // any change breaks the signature
	altered.URL = u.Scheme + "://" + u.Host + u.Path + "?" + q.Encode()
	var sink bytes.Buffer
	n, err := env.c.DownloadStaticExport(ctx, &altered, &sink)
	assert.ErrorIs(t, err, mintlify.ErrForbidden, "altered link")
	assert.Zero(t, n)

	env.clock.Advance(2 * time.Hour) // past the link's expiry on the host's clock
	_, err2 := env.c.DownloadStaticExport(ctx, bundle, &sink)
	assert.ErrorIs(t, err2, mintlify.ErrForbidden, "expired link")
	assert.Zero(t, sink.Len(), "nothing written")
	for _, e := range []error{err, err2} {
		for _, s := range secrets {
			if len(s) >= 6 {
				assert.NotContains(t, e.Error(), s, "the link never shows in an error")
			}
		}
	}
}

// Past the organization's 5 previews a minute, a trigger is refused with
// Retry-After; one longer than the client's maximum wait returns at once,
// and no refused trigger left a preview behind.
func TestE2EPreviewRateLimit(t *testing.T) {
	t.Parallel()
	env := ciStart(t)
	ctx := testContext(t)
	for i := range 5 {
		_, err := env.c.TriggerPreview(ctx, "feature/"+strconv.Itoa(i))
		require.NoError(t, err)
	}
	_, err := env.c.TriggerPreview(ctx, "feature/one-too-many")
	require.ErrorIs(t, err, mintlify.ErrRateLimited)
	assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "a 429 is a refusal: nothing was queued")
	var apiErr *mintlify.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Positive(t, apiErr.RetryAfter)
	previews := 0
	for _, d := range env.mock.Deployments() {
		if d.Preview {
			previews++
		}
	}
	assert.Equal(t, 5, previews, "exactly the previews that were accepted")

	env.clock.Advance(time.Minute)
	_, err = env.c.TriggerPreview(ctx, "feature/one-too-many")
	assert.NoError(t, err, "the window moved on")
}
