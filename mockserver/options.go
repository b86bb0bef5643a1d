package mockserver

import (
	"log/slog"
	"net"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/access"
	"github.com/docsagent/mintlify-go/mockserver/internal/ratelimit"
)

// Defaults follow the service where it documents a figure (the rate limits)
// and favour fast tests where it does not (the job duration).
const (
	DefaultJobDuration    = time.Second
	DefaultJobLimit       = 100 // job creations plus follow-ups, per project
	DefaultAnalyticsLimit = 100 // analytics requests, per organization, all routes together
	DefaultLimitWindow    = time.Hour
	DefaultJournalSize    = 10_000
)

// Rate limits of the deployment routes, per organization, as the service
// documents them.
const (
	DefaultDeployLimit   = 10 // the two routes that trigger a deployment, together
	DefaultDeployWindow  = 10 * time.Second
	DefaultPreviewLimit  = 5 // trigger preview
	DefaultPreviewWindow = time.Minute
	// DefaultBundleLinkTTL is how long a presigned bundle link stays valid.
	DefaultBundleLinkTTL = time.Hour
)

// Timeouts bound how long a connection may hold the server: a client that
// stalls while sending headers or a body, that stops reading the answer,
// or that leaves a connection idle. Zero fields take the defaults.
type Timeouts struct {
	ReadHeader time.Duration // the request line and headers (default 10s)
	Read       time.Duration // the whole request, body included (default 30s)
	Write      time.Duration // from the end of the headers to the end of the answer (default 5m; cuts longer latency and slow faults)
	Idle       time.Duration // a kept-alive connection between requests (default 60s)
}

// DefaultTimeouts are the connection bounds of New and the standalone
// program.
var DefaultTimeouts = Timeouts{ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: 5 * time.Minute, Idle: time.Minute}

// ProjectSettings are what a project has on the service's dashboard.
// Empty fields take defaults.
type ProjectSettings struct {
	Branch     string  // the deployment branch (default "main")
	Subdomain  string  // the docs' subdomain (default derived from the project ID)
	NoPreviews bool    // the project's plan lacks preview deployments (403)
	Outcome    Outcome // how its deployments, previews and exports end; "" or a success outcome: success
}

// Scope is what a key may do: ScopeRead allows GET and HEAD, ScopeWrite
// every method (it implies ScopeRead).
type Scope string

// The scopes of the service's admin keys.
const (
	ScopeRead  Scope = access.ScopeRead
	ScopeWrite Scope = access.ScopeWrite
)

// KeySpec restricts a key, as the service lets an organization do. The
// zero KeySpec is an unrestricted key.
type KeySpec struct {
	Scopes    []Scope   // none: read and write
	ExpiresAt time.Time // zero: never; from this instant on every request is 401
	AllowIPs  []string  // addresses or CIDR prefixes; none: any address
}

func (ks KeySpec) access() access.Spec {
	spec := access.Spec{ExpiresAt: ks.ExpiresAt, AllowIPs: ks.AllowIPs}
	for _, sc := range ks.Scopes {
		spec.Scopes = append(spec.Scopes, string(sc))
	}
	return spec
}

// Option configures a Server in New or Start.
type Option func(*config)

type config struct {
	apiKey, projectID string
	projects          []projectSpec
	settings          map[string]ProjectSettings
	keys              []keySpecFor
	jobDuration       time.Duration
	clock             Clock
	agent             func(prompt string) Outcome
	outcome           Outcome // forced on every new run from the start

	jobLimit, analyticsLimit  ratelimit.Limit
	deployLimit, previewLimit ratelimit.Limit
	noDeployLimits            bool // WithoutRateLimits: the two above are off whatever they say

	visits    []Visit
	synthetic int
	seed      int
	searches  []SearchEvent
	feedback  []Feedback
	threads   []Thread

	noPreviews, noStaticExport bool
	bundleSize                 int64
	bundleTTL                  time.Duration
	storageListener            net.Listener

	controlOrigins, controlHosts []string

	timeouts    Timeouts
	journalSize int
	logger      *slog.Logger
	listener    net.Listener
	faults      []FaultRule
	faultSeed   uint64
}

type projectSpec struct {
	id   string
	keys []string
}

type keySpecFor struct {
	key  string
	spec KeySpec
}

func defaultConfig() config {
	return config{
		jobDuration:    DefaultJobDuration,
		clock:          realClock{},
		jobLimit:       ratelimit.Limit{N: DefaultJobLimit, Per: DefaultLimitWindow},
		analyticsLimit: ratelimit.Limit{N: DefaultAnalyticsLimit, Per: DefaultLimitWindow},
		deployLimit:    ratelimit.Limit{N: DefaultDeployLimit, Per: DefaultDeployWindow},
		previewLimit:   ratelimit.Limit{N: DefaultPreviewLimit, Per: DefaultPreviewWindow},
		journalSize:    DefaultJournalSize,
		faultSeed:      1,
	}
}

// WithAPIKey sets the primary key (APIKey). Without it each server draws a
// random one, so a key can never work by accident on another test's server.
// Keys must start with "mint_", as the service's admin keys do.
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithProjectID sets the primary project (ProjectID), random by default.
func WithProjectID(id string) Option { return func(c *config) { c.projectID = id } }

// WithProject adds another project, usable by the given keys (by the primary
// key when none are given). A key named here that the server does not know
// yet becomes valid, which is how a test gets a key that is genuine but owns
// a different project (the 403 case).
func WithProject(projectID string, keys ...string) Option {
	return func(c *config) { c.projects = append(c.projects, projectSpec{projectID, keys}) }
}

// WithProjectSettings sets a project's deployment branch, subdomain, plan and
// deployment outcome. The project must be the primary one or one added with
// WithProject.
func WithProjectSettings(projectID string, ps ProjectSettings) Option {
	return func(c *config) {
		if c.settings == nil {
			c.settings = map[string]ProjectSettings{}
		}
		c.settings[projectID] = ps
	}
}

// WithKey restricts key with spec (scopes, expiry, IP allowlist). A key
// named in WithAPIKey or WithProject keeps its organization; any other
// joins the primary organization.
func WithKey(key string, spec KeySpec) Option {
	return func(c *config) { c.keys = append(c.keys, keySpecFor{key, spec}) }
}

// WithJobDuration sets how long each run of a job stays active before it
// reaches its outcome. Zero makes jobs finish the moment they start.
func WithJobDuration(d time.Duration) Option { return func(c *config) { c.jobDuration = d } }

// WithClock replaces the wall clock, typically with a FakeClock.
func WithClock(clock Clock) Option { return func(c *config) { c.clock = clock } }

// WithAgent decides the outcome of every run from its prompt (the create
// prompt, then each follow-up). Without it every run completes with a pull
// request. The function may be called concurrently.
func WithAgent(agent func(prompt string) Outcome) Option {
	return func(c *config) { c.agent = agent }
}

// WithOutcome forces the outcome of every new run from the start, as
// -outcome and PUT /_mock/outcome do: OutcomeFailed ends jobs failed,
// deployments and previews in failure and exports failed. Reset returns to
// it.
func WithOutcome(o Outcome) Option { return func(c *config) { c.outcome = o } }

// WithJobRateLimit sets how many job creations and follow-ups a project may
// make per window (the service: 100 per hour). n <= 0 turns the limit off.
func WithJobRateLimit(n int, per time.Duration) Option {
	return func(c *config) { c.jobLimit = ratelimit.Limit{N: n, Per: per} }
}

// WithAnalyticsRateLimit sets how many analytics requests an organization
// may make per window, all analytics routes and keys together (the service:
// 100 per hour). n <= 0 turns the limit off.
func WithAnalyticsRateLimit(n int, per time.Duration) Option {
	return func(c *config) { c.analyticsLimit = ratelimit.Limit{N: n, Per: per} }
}

// WithDeployRateLimit sets how many deployments an organization may
// trigger per window, over both routes that trigger one (the service: 10
// per 10 seconds). n <= 0 turns the limit off.
func WithDeployRateLimit(n int, per time.Duration) Option {
	return func(c *config) { c.deployLimit = ratelimit.Limit{N: n, Per: per} }
}

// WithPreviewRateLimit sets how many previews an organization may trigger
// per window (the service: 5 per minute). n <= 0 turns the limit off.
func WithPreviewRateLimit(n int, per time.Duration) Option {
	return func(c *config) { c.previewLimit = ratelimit.Limit{N: n, Per: per} }
}

// WithoutRateLimits turns every rate limit off, for benchmarks and for
// tests that are not about quotas.
func WithoutRateLimits() Option {
	return func(c *config) { c.jobLimit.N, c.analyticsLimit.N, c.noDeployLimits = 0, 0, true }
}

// WithVisits stores visits for the primary project from the start; Reset
// returns to them.
func WithVisits(visits ...Visit) Option {
	return func(c *config) { c.visits = append(c.visits, visits...) }
}

// WithSyntheticVisits stores n generated visits, and nothing else, for the
// primary project (see SyntheticVisits), ending at the clock's time when the
// server starts. WithSeed makes the whole data set.
func WithSyntheticVisits(n int) Option { return func(c *config) { c.synthetic = n } }

// WithSearches stores search events for the primary project from the
// start; Reset returns to them.
func WithSearches(searches ...SearchEvent) Option {
	return func(c *config) { c.searches = append(c.searches, searches...) }
}

// WithFeedback stores feedback entries for the primary project from the
// start; Reset returns to them.
func WithFeedback(entries ...Feedback) Option {
	return func(c *config) { c.feedback = append(c.feedback, entries...) }
}

// WithThreads stores assistant threads for the primary project from the
// start; Reset returns to them.
func WithThreads(threads ...Thread) Option {
	return func(c *config) { c.threads = append(c.threads, threads...) }
}

// WithSeed stores the coherent synthetic data set of the standalone
// program's -seed flag for the primary project: n visits and, over the
// same pages and window, n/5 searches, n/50 feedback entries and n/200
// assistant threads (see README.md for the ratios). It is deterministic for
// the same n and the clock's time at start.
func WithSeed(n int) Option { return func(c *config) { c.seed = n } }

// WithPreviews turns preview deployments on or off for every organization
// (off: trigger preview answers 403, as on a plan without them).
func WithPreviews(enabled bool) Option { return func(c *config) { c.noPreviews = !enabled } }

// WithStaticExport turns static export on or off for every organization
// (off: starting an export answers 403). See also SetStaticExport.
func WithStaticExport(enabled bool) Option {
	return func(c *config) { c.noStaticExport = !enabled }
}

// WithBundleSize pads every static-export bundle to n bytes (see
// SetBundleSize), for download benchmarks.
func WithBundleSize(n int64) Option { return func(c *config) { c.bundleSize = n } }

// WithBundleLinkTTL sets how long presigned bundle links stay valid
// (default one hour).
func WithBundleLinkTTL(d time.Duration) Option { return func(c *config) { c.bundleTTL = d } }

// WithStorageListener serves the storage host on l instead of a fresh
// port opened on first use on the API listener's host. The server closes
// l on Close.
func WithStorageListener(l net.Listener) Option { return func(c *config) { c.storageListener = l } }

// WithControlOrigins lets web pages of these origins (scheme://host[:port],
// such as "http://localhost:5173") drive the control API, for tests that
// run in a browser: their requests, preflight included, get CORS answers.
// Any other request to /_mock/ that carries an Origin header is refused
// (403), so that no web page can drive a developer's mock. New fails on a
// value that is not an http or https origin.
func WithControlOrigins(origins ...string) Option {
	return func(c *config) { c.controlOrigins = append(c.controlOrigins, origins...) }
}

// WithControlHosts adds host names the control API answers to besides
// localhost and IP addresses, such as a container's service name: a
// request to /_mock/ whose Host names anything else is refused (403), so
// that a page on another name cannot reach it by DNS rebinding. Ports are
// not compared.
func WithControlHosts(hosts ...string) Option {
	return func(c *config) { c.controlHosts = append(c.controlHosts, hosts...) }
}

// WithTimeouts replaces the connection bounds (see Timeouts).
func WithTimeouts(t Timeouts) Option { return func(c *config) { c.timeouts = t } }

// WithJournalSize sets how many requests the journal keeps; older entries
// are dropped so a long-running server stays bounded in memory.
func WithJournalSize(n int) Option { return func(c *config) { c.journalSize = n } }

// WithLogger logs one line per request (never the API key). Off by default
// because test output should stay quiet.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithListener serves on l instead of a fresh 127.0.0.1 port, for programs
// that must choose the address (and see the error if it is taken). The
// server closes l on Close.
func WithListener(l net.Listener) Option { return func(c *config) { c.listener = l } }

// WithFaults installs fault rules from the start; Reset returns to them.
func WithFaults(rules ...FaultRule) Option {
	return func(c *config) { c.faults = append(c.faults, rules...) }
}

// WithFaultSeed seeds the random choice of probabilistic faults, so a flaky
// network can be replayed exactly (for requests that arrive in the same
// order).
func WithFaultSeed(seed uint64) Option { return func(c *config) { c.faultSeed = seed } }
