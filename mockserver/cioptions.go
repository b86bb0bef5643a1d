package mockserver

import (
	"net"
	"time"
)

// Rate limits of the deployment routes, per organization, as the service
// documents them.
const (
	DefaultDeployLimit   = 10 // trigger deployment plus trigger automation
	DefaultDeployWindow  = 10 * time.Second
	DefaultPreviewLimit  = 5 // trigger preview
	DefaultPreviewWindow = time.Minute
	// DefaultBundleLinkTTL is how long a presigned bundle link stays valid.
	DefaultBundleLinkTTL = time.Hour
)

// ciConfig is the part of the configuration for deployments, previews,
// automations, static export and keys. Its zero value is the service's
// defaults.
type ciConfig struct {
	noPreviews, noStaticExport bool
	noLimits                   bool
	deployLimit, previewLimit  *limit
	outcome                    Outcome // forced on every new run from the start
	keys                       []keySpecFor
	projects                   map[string]ProjectSettings
	bundleSize                 int64
	bundleTTL                  time.Duration
	storageListener            net.Listener
}

type keySpecFor struct {
	key  string
	spec KeySpec
}

// ProjectSettings are what a project has on the service's dashboard.
// Empty fields take defaults.
type ProjectSettings struct {
	Branch     string  // the deployment branch (default "main")
	Subdomain  string  // the docs' subdomain (default derived from the project ID)
	NoPreviews bool    // the project's plan lacks preview deployments (403)
	Outcome    Outcome // how its deployments, previews and exports end; "" or a success outcome: success
}

// WithKey restricts key with spec (scopes, expiry, IP allowlist). A key
// named in WithAPIKey or WithProject keeps its organization; any other
// joins the primary organization.
func WithKey(key string, spec KeySpec) Option {
	return func(c *config) { c.ci.keys = append(c.ci.keys, keySpecFor{key, spec}) }
}

// WithProjectSettings sets a project's deployment branch, subdomain, plan and
// deployment outcome. The project must be the primary one or one added with
// WithProject.
func WithProjectSettings(projectID string, ps ProjectSettings) Option {
	return func(c *config) {
		if c.ci.projects == nil {
			c.ci.projects = map[string]ProjectSettings{}
		}
		c.ci.projects[projectID] = ps
	}
}

// WithPreviews turns preview deployments on or off for every organization
// (off: trigger preview answers 403, as on a plan without them).
func WithPreviews(enabled bool) Option { return func(c *config) { c.ci.noPreviews = !enabled } }

// WithStaticExport turns static export on or off for every organization
// (off: starting an export answers 403). See also SetStaticExport.
func WithStaticExport(enabled bool) Option {
	return func(c *config) { c.ci.noStaticExport = !enabled }
}

// WithOutcome forces the outcome of every new run from the start, as
// -outcome and PUT /_mock/outcome do: OutcomeFailed ends jobs failed,
// deployments and previews in failure and exports failed. Reset returns to
// it.
func WithOutcome(o Outcome) Option { return func(c *config) { c.ci.outcome = o } }

// WithDeployRateLimit sets how many deployment and automation triggers an
// organization may send per window (the service: 10 per 10 seconds).
// n <= 0 turns the limit off.
func WithDeployRateLimit(n int, per time.Duration) Option {
	return func(c *config) { c.ci.deployLimit = &limit{n, per} }
}

// WithPreviewRateLimit sets how many previews an organization may trigger
// per window (the service: 5 per minute). n <= 0 turns the limit off.
func WithPreviewRateLimit(n int, per time.Duration) Option {
	return func(c *config) { c.ci.previewLimit = &limit{n, per} }
}

// WithBundleSize pads every static-export bundle to n bytes (see
// SetBundleSize), for download benchmarks.
func WithBundleSize(n int64) Option { return func(c *config) { c.ci.bundleSize = n } }

// WithBundleLinkTTL sets how long presigned bundle links stay valid
// (default one hour).
func WithBundleLinkTTL(d time.Duration) Option { return func(c *config) { c.ci.bundleTTL = d } }

func (c *ciConfig) deployLim() limit {
	if c.noLimits {
		return limit{}
	}
	if c.deployLimit != nil {
		return *c.deployLimit
	}
	return limit{DefaultDeployLimit, DefaultDeployWindow}
}

func (c *ciConfig) previewLim() limit {
	if c.noLimits {
		return limit{}
	}
	if c.previewLimit != nil {
		return *c.previewLimit
	}
	return limit{DefaultPreviewLimit, DefaultPreviewWindow}
}
