package mockserver

import (
	"log/slog"
	"net"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/access"
	"github.com/docsagent/mintlify-go/mockserver/internal/assistant"
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

// The assistant and Index APIs' defaults: the site the assistant key
// belongs to, and the service's limits.
const (
	DefaultDomain          = assistant.DefaultDomain // the assistant API's site
	DefaultMessageLimit    = 10_000                  // assistant messages (v1 and v2) per organization per hour
	DefaultMessageIPLimit  = 10_000                  // assistant messages per IP address per day
	DefaultDocsLimit       = 10_000                  // docs searches per organization per hour, and page content requests apart
	DefaultIndexLimit      = 10                      // Index requests per organization per second, every key together
	DefaultIndexDailyLimit = 1_000                   // Index requests per organization per day
	DailyWindow            = 24 * time.Hour          // the window of the daily limits: a sliding 24 hours
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
	Scopes    []Scope   // none: read and write; admin keys only
	ExpiresAt time.Time // zero: never; from this instant on every request is 401
	AllowIPs  []string  // addresses or CIDR prefixes; none: any address

	// Type is the kind of key NewKey makes ("" is KeyAdmin); WithKey
	// reads the kind from the key's prefix, and a Type that says
	// otherwise makes New fail.
	Type KeyType
	// Domain is the site an assistant key belongs to (default: the
	// mock's, Domain()); other keys have none.
	Domain string
}

// KeyType is one of the service's three kinds of key, told apart by their
// prefix.
type KeyType string

// The kinds of key: KeyAdmin (mint_) for the admin API, KeyAssistant
// (mint_dsc_) for the assistant API of one domain, KeyIndex (mint_us_) for
// the Index API. Each API answers 401 to the other two.
const (
	KeyAdmin     KeyType = "admin"
	KeyAssistant KeyType = "assistant"
	KeyIndex     KeyType = "index"
)

func (ks KeySpec) access() access.Spec {
	spec := access.Spec{ExpiresAt: ks.ExpiresAt, AllowIPs: ks.AllowIPs, Domain: ks.Domain}
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

	// limits are the rate limits by kind (routes.go). noLimits
	// (WithoutRateLimits) clears them all once every option has run, so
	// that their order does not matter.
	limits   [numLimitKinds]ratelimit.Limit
	noLimits bool

	visits    []Visit
	synthetic int
	seed      int
	searches  []SearchEvent
	feedback  []Feedback
	threads   []Thread

	assistantKey, indexKey, domain string
	streamDelay                    time.Duration
	noIndexAccess                  bool

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
		jobDuration: DefaultJobDuration,
		clock:       realClock{},
		limits: [...]ratelimit.Limit{
			jobLimit:         {N: DefaultJobLimit, Per: DefaultLimitWindow},
			analyticsLimit:   {N: DefaultAnalyticsLimit, Per: DefaultLimitWindow},
			deployLimit:      {N: DefaultDeployLimit, Per: DefaultDeployWindow},
			previewLimit:     {N: DefaultPreviewLimit, Per: DefaultPreviewWindow},
			messageLimit:     {N: DefaultMessageLimit, Per: time.Hour},
			messageIPLimit:   {N: DefaultMessageIPLimit, Per: DailyWindow},
			docsSearchLimit:  {N: DefaultDocsLimit, Per: time.Hour},
			pageContentLimit: {N: DefaultDocsLimit, Per: time.Hour},
			indexLimit:       {N: DefaultIndexLimit, Per: time.Second},
			indexDayLimit:    {N: DefaultIndexDailyLimit, Per: DailyWindow},
		},
		domain:      DefaultDomain,
		journalSize: DefaultJournalSize,
		faultSeed:   1,
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
func WithJobRateLimit(n int, per time.Duration) Option { return setLimits(n, per, jobLimit) }

// WithAnalyticsRateLimit sets how many analytics requests an organization
// may make per window, all analytics routes and keys together (the service:
// 100 per hour). n <= 0 turns the limit off.
func WithAnalyticsRateLimit(n int, per time.Duration) Option {
	return setLimits(n, per, analyticsLimit)
}

// WithDeployRateLimit sets how many deployments and automation runs an
// organization may trigger per window, over the three routes that share
// the limit: trigger deployment, trigger automation and the automation
// webhook (the service: 10 per 10 seconds). n <= 0 turns the limit off.
func WithDeployRateLimit(n int, per time.Duration) Option { return setLimits(n, per, deployLimit) }

// WithPreviewRateLimit sets how many previews an organization may trigger
// per window (the service: 5 per minute). n <= 0 turns the limit off.
func WithPreviewRateLimit(n int, per time.Duration) Option { return setLimits(n, per, previewLimit) }

// WithAssistantKey sets the primary assistant key (AssistantKey), which
// belongs to the mock's domain (WithDomain). It must start with
// "mint_dsc_"; without it each server draws a random one.
func WithAssistantKey(key string) Option { return func(c *config) { c.assistantKey = key } }

// WithIndexKey sets the primary Index key (IndexKey). It must start with
// "mint_us_"; without it each server draws a random one.
func WithIndexKey(key string) Option { return func(c *config) { c.indexKey = key } }

// WithDomain sets the assistant API's site (Domain, default
// DefaultDomain): the domain the primary assistant key belongs to, whose
// pages start as the default set. Letters, digits, dots and hyphens.
func WithDomain(domain string) Option { return func(c *config) { c.domain = domain } }

// WithStreamDelay sets the pause between the frames of a streamed answer
// (default 0; the standalone program's -stream-delay is 20ms).
func WithStreamDelay(d time.Duration) Option { return func(c *config) { c.streamDelay = d } }

// WithoutIndexAccess takes Index access from every organization: their
// Index keys are 401, as the service answers an organization without it.
func WithoutIndexAccess() Option { return func(c *config) { c.noIndexAccess = true } }

// WithAssistantRateLimit sets how many assistant messages (v1 and v2
// together) an organization may send per window (the service: 10,000 an
// hour). n <= 0 turns the limit off.
func WithAssistantRateLimit(n int, per time.Duration) Option { return setLimits(n, per, messageLimit) }

// WithAssistantIPRateLimit sets how many assistant messages one client
// address may send per window, whatever its organization (the service:
// 10,000 a day). It is checked before the organization's limit. n <= 0
// turns the limit off.
func WithAssistantIPRateLimit(n int, per time.Duration) Option {
	return setLimits(n, per, messageIPLimit)
}

// WithDocsRateLimit sets how many docs searches, and apart from them how
// many page content requests, an organization may make per window (the
// service: 10,000 an hour each). n <= 0 turns the limits off.
func WithDocsRateLimit(n int, per time.Duration) Option {
	return setLimits(n, per, docsSearchLimit, pageContentLimit)
}

// WithIndexRateLimit sets the Index API's short limit: requests per
// window per organization, the three routes and every Index key together
// (the service: 10 a second). n <= 0 turns it off.
func WithIndexRateLimit(n int, per time.Duration) Option { return setLimits(n, per, indexLimit) }

// WithIndexDailyRateLimit sets the Index API's long limit (the service:
// 1,000 a day per organization). It is checked first, so a request it
// refuses takes no slot of the short one. n <= 0 turns it off.
func WithIndexDailyRateLimit(n int, per time.Duration) Option {
	return setLimits(n, per, indexDayLimit)
}

// WithoutRateLimits turns every rate limit off, for benchmarks and for
// tests that are not about quotas, whatever the order of the options: a
// With*RateLimit after it does not turn one back on.
func WithoutRateLimits() Option { return func(c *config) { c.noLimits = true } }

// setLimits is every With*RateLimit: n per window for the kinds given.
func setLimits(n int, per time.Duration, kinds ...ratelimit.Kind) Option {
	return func(c *config) {
		for _, k := range kinds {
			c.limits[k] = ratelimit.Limit{N: n, Per: per}
		}
	}
}

// WithVisits stores visits for the primary project from the start; Reset
// returns to them.
func WithVisits(visits ...Visit) Option {
	return func(c *config) { c.visits = append(c.visits, visits...) }
}

// WithSyntheticVisits stores n generated visits, and nothing else, for the
// primary project (see SyntheticVisits), ending at the clock's time when the
// server starts. WithSeed makes the whole data set. n is 0 to MaxSeed: New
// fails on another.
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
// assistant threads (docs/mock.md gives the ratios). It is deterministic for
// the same n and the clock's time at start. n is 0 to MaxSeed: New fails
// on another.
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
