package mintlify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
)

// StaticExportStatus is the state of a static export job.
type StaticExportStatus string

// The static export states the API documents. An answer may carry a state
// the vendor added since, a well-formed token (lower-case letters, digits,
// _ and -, at most 64 bytes): it is kept as sent and is not terminal (see
// [StaticExportStatus.Known]). Any other value is a malformed answer (an
// error).
const (
	StaticExportQueued    StaticExportStatus = "queued"
	StaticExportRunning   StaticExportStatus = "running"
	StaticExportCompleted StaticExportStatus = "completed" // BundleStaticExport can fetch it
	StaticExportFailed    StaticExportStatus = "failed"    // Error says why
)

// Terminal reports whether the export has stopped: polling can end.
func (s StaticExportStatus) Terminal() bool {
	return s == StaticExportCompleted || s == StaticExportFailed
}

// Known reports whether the status is one this version of the SDK
// documents. A poller waits through one it does not know: only a known
// status ends a wait.
func (s StaticExportStatus) Known() bool {
	return s == StaticExportQueued || s == StaticExportRunning || s.Terminal()
}

// StaticExportParams says what StartStaticExport exports.
type StaticExportParams struct {
	// Domain is the deployment's primary domain, a bare hostname: the
	// custom domain ("docs.example.com") or the Mintlify subdomain
	// ("acme.mintlify.app"), without scheme, port, slash or path.
	Domain string
	// Version tags the export; "" exports the latest published version.
	Version string
	// Paths limits the export to these pages ("guides/getting-started");
	// none exports every published page.
	Paths []string
}

func (p StaticExportParams) validate() error {
	d := p.Domain
	switch {
	case d == "":
		return invalidf("empty domain")
	case strings.Contains(d, "://"):
		return invalidf("domain %q has a scheme: give the hostname alone", d)
	case strings.ContainsAny(d, `/\?#`):
		return invalidf("domain %q has a slash or a path: give the hostname alone", d)
	case strings.Contains(d, ":"):
		return invalidf("domain %q has a port: give the hostname alone", d)
	case strings.Contains(d, "@") || strings.IndexFunc(d, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return invalidf("domain %q is not a bare hostname", d)
	}
	for i, path := range p.Paths {
		if path == "" {
			return invalidf("empty path at Paths[%d]", i)
		}
	}
	return nil
}

// StaticExport is a static export job. It marshals as the API sends it (ID
// as jobId), Error "" and a zero time as null.
type StaticExport struct {
	ID        string
	Status    StaticExportStatus
	Progress  float64 // percent done, 0 to 100
	PageCount int     // pages exported so far
	CreatedAt time.Time
	UpdatedAt time.Time
	Error     string // why it failed; "" unless Status is StaticExportFailed
}

// MarshalJSON writes the export as the API does.
func (e StaticExport) MarshalJSON() ([]byte, error) {
	return marshalWire(wireStaticExport{JobID: e.ID, Status: e.Status, Progress: e.Progress, PageCount: e.PageCount,
		CreatedAt: dateTime{e.CreatedAt}, UpdatedAt: dateTime{e.UpdatedAt}, Error: nullable(e.Error)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *StaticExport) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, e, (*wireStaticExport).export)
}

// wireStaticExport is the StaticExportJob answer as sent. The times are
// date-times in the vendor schema: a value that is not one is an error.
type wireStaticExport struct {
	JobID     string             `json:"jobId"`
	Status    StaticExportStatus `json:"status"`
	Progress  float64            `json:"progress"`
	PageCount int                `json:"pageCount"`
	CreatedAt dateTime           `json:"createdAt"`
	UpdatedAt dateTime           `json:"updatedAt"`
	Error     jsonString         `json:"error"`
}

func (w *wireStaticExport) check() error {
	if w.JobID == "" {
		return errors.New("static export without a jobId")
	}
	if err := checkToken("static export status", w.Status); err != nil {
		return err
	}
	return checkID("static export jobId", w.JobID)
}

func (w *wireStaticExport) about() string { return w.JobID }

func (w *wireStaticExport) export() StaticExport {
	return StaticExport{
		ID: w.JobID, Status: w.Status, Progress: w.Progress, PageCount: w.PageCount,
		CreatedAt: w.CreatedAt.t, UpdatedAt: w.UpdatedAt.t, Error: w.Error.s,
	}
}

// StaticExportBundle is a link to a finished export's tar.gz archive, on a
// storage host other than the API's. The link carries its own signature:
// treat it as a secret until ExpiresAt. It is left out when the bundle is
// formatted, logged or marshalled (its JSON is the API's answer without
// bundleUrl, a zero ExpiresAt as null); DownloadStaticExport fetches it
// without the API key.
type StaticExportBundle struct {
	JobID     string
	URL       string // presigned; valid until ExpiresAt
	SizeBytes int64
	ExpiresAt time.Time // zero when the service sends none
}

// String shows the bundle without its link, so that printing or logging it
// does not hand out the signature.
func (b StaticExportBundle) String() string {
	return fmt.Sprintf("{JobID:%s URL:[presigned link] SizeBytes:%d ExpiresAt:%s}",
		b.JobID, b.SizeBytes, b.ExpiresAt.Format(time.RFC3339))
}

// GoString is String for %#v.
func (b StaticExportBundle) GoString() string { return "mintlify.StaticExportBundle" + b.String() }

// LogValue keeps the link out of slog lines.
func (b StaticExportBundle) LogValue() slog.Value {
	return slog.GroupValue(slog.String("jobId", b.JobID), slog.Int64("sizeBytes", b.SizeBytes),
		slog.Time("expiresAt", b.ExpiresAt))
}

// MarshalJSON writes the bundle as the API does, without its link.
func (b StaticExportBundle) MarshalJSON() ([]byte, error) {
	return marshalWire(wireBundle{JobID: b.JobID, SizeBytes: count(int(b.SizeBytes)), ExpiresAt: dateTime{b.ExpiresAt}})
}

// UnmarshalJSON reads what MarshalJSON writes (and a bundleUrl, if any).
func (b *StaticExportBundle) UnmarshalJSON(data []byte) error {
	return unmarshalWire(data, b, (*wireBundle).bundle)
}

type wireBundle struct {
	JobID     string     `json:"jobId"`
	BundleURL jsonString `json:"bundleUrl,omitzero"`
	SizeBytes jsonCount  `json:"sizeBytes"`
	ExpiresAt dateTime   `json:"expiresAt"`
}

func (w *wireBundle) about() string { return w.JobID }

func (w *wireBundle) bundle() StaticExportBundle {
	return StaticExportBundle{JobID: w.JobID, URL: w.BundleURL.s, SizeBytes: int64(w.SizeBytes.n), ExpiresAt: w.ExpiresAt.t}
}

func (w *wireBundle) check() error {
	switch {
	case w.BundleURL.s == "":
		return errors.New("bundle without a bundleUrl")
	case !w.SizeBytes.set:
		return errors.New("bundle without a sizeBytes")
	case w.SizeBytes.n < 0:
		return fmt.Errorf("bundle of %d bytes", w.SizeBytes.n)
	}
	if _, err := parseBundleLink(w.BundleURL.s); err != nil {
		return err
	}
	return checkID("bundle jobId", w.JobID)
}

// parseBundleLink accepts an absolute http(s) URL without user info: Go
// would turn user info into an Authorization header. Its errors never show
// the link.
func parseBundleLink(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, fmt.Errorf("the bundle link is not a URL")
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return nil, fmt.Errorf("the bundle link is not an absolute http or https URL")
	case u.User != nil:
		return nil, fmt.Errorf("the bundle link carries user info (credentials)")
	}
	return u, nil
}

// StartStaticExport starts exporting a deployment as static HTML (POST
// /v1/static-export/jobs); follow it with PollStaticExport, then fetch it
// with BundleStaticExport and DownloadStaticExport. The key's organization
// and p.Domain choose the deployment; an organization without the
// (Enterprise) feature gets ErrForbidden.
//
// It is never retried where the server may have acted, so one call never
// starts two exports: a lost answer, or a 500, 502 or 504, is an error
// wrapping ErrOutcomeUnknown.
func (c *Client) StartStaticExport(ctx context.Context, p StaticExportParams) (*StaticExport, error) {
	if err := p.validate(); err != nil {
		return nil, c.redact(err) // it quotes the domain, where a caller may have pasted the key
	}
	body, err := requestBody(struct {
		Domain  string   `json:"domain"`
		Version string   `json:"version,omitempty"`
		Paths   []string `json:"paths,omitempty"`
	}{p.Domain, p.Version, p.Paths})
	if err != nil {
		return nil, err
	}
	w, err := send[wireStaticExport](ctx, c, request{
		method: http.MethodPost,
		path:   "/v1/static-export/jobs",
		body:   body,
		want:   http.StatusAccepted,
	})
	if err != nil {
		return nil, err
	}
	e := w.export()
	return &e, nil
}

// GetStaticExport reads a static export job (GET
// /v1/static-export/jobs/{jobId}). It is retried like every GET. An answer
// without a jobId or about another job, or with a status the API does not
// document, is an error.
func (c *Client) GetStaticExport(ctx context.Context, jobID string) (*StaticExport, error) {
	return c.getStaticExport(ctx, jobID, nil)
}

// getStaticExport is GetStaticExport, also for a poller, whose reads share
// buf (nil for GetStaticExport; see request.buf).
func (c *Client) getStaticExport(ctx context.Context, jobID string, buf *answerBuffer) (*StaticExport, error) {
	if err := checkSegment("static export job ID", jobID); err != nil {
		return nil, err
	}
	r := request{method: http.MethodGet, path: "/v1/static-export/jobs/" + url.PathEscape(jobID), buf: buf}
	w, err := sendAbout[wireStaticExport](ctx, c, r, "static export", jobID)
	if err != nil {
		return nil, err
	}
	e := w.export()
	return &e, nil
}

// PollStaticExport reads the export until its status is terminal and
// returns it with a nil error, completed or failed alike: check Status, and
// Error on failure. It shares PollJob's schedule, options and stop reasons;
// each read is a GetStaticExport.
func (c *Client) PollStaticExport(ctx context.Context, jobID string, opts ...PollOption) (*StaticExport, error) {
	if err := checkSegment("static export job ID", jobID); err != nil {
		return nil, err
	}
	return poll(ctx, c, "static export", jobID, c.getStaticExport, func(e *StaticExport) bool { return e.Status.Terminal() }, opts)
}

// BundleStaticExport mints a link to a completed export's tar.gz (POST
// /v1/static-export/jobs/{jobId}/bundle); an export not yet completed is
// ErrBadRequest (409). Every call gives a fresh link to the same files, so
// it is retried like a GET. Pass the bundle to DownloadStaticExport before
// ExpiresAt.
func (c *Client) BundleStaticExport(ctx context.Context, jobID string) (*StaticExportBundle, error) {
	if err := checkSegment("static export job ID", jobID); err != nil {
		return nil, err
	}
	r := request{
		method:     http.MethodPost,
		path:       "/v1/static-export/jobs/" + url.PathEscape(jobID) + "/bundle",
		idempotent: true,
	}
	w, err := sendAbout[wireBundle](ctx, c, r, "the bundle of static export", jobID)
	if err != nil {
		return nil, err
	}
	// A proxy that echoed the key into the link, or an https API handing
	// out an http link: following it would hand the key, or the link's
	// signature, to whoever is on the way.
	link, _ := parseBundleLink(w.BundleURL.s) // checked by wireBundle.check
	if err := c.checkBundleLink(link); err != nil {
		return nil, c.malformed(r, "%v", err)
	}
	b := w.bundle()
	b.JobID = jobID // the answer may leave it out
	return &b, nil
}
