package mintlify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/docsagent/mintlify-go/internal/redact"
	"github.com/hashicorp/go-retryablehttp"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// DefaultBaseURL is the API's address, used unless WithBaseURL or
// $MINTLIFY_BASE_URL says otherwise.
const DefaultBaseURL = "https://api.mintlify.com"

// The environment variables NewClient reads when an option is not given.
const (
	EnvAPIKey    = "MINTLIFY_API_KEY"
	EnvProjectID = "MINTLIFY_PROJECT_ID"
	EnvBaseURL   = "MINTLIFY_BASE_URL"
)

// The environment variables NewAssistantClient and NewIndexClient read
// when an option is not given. Neither reads $MINTLIFY_BASE_URL: that is
// the admin API's address, and a key sent there would go to the wrong API.
const (
	EnvAssistantAPIKey  = "MINTLIFY_ASSISTANT_API_KEY"
	EnvDomain           = "MINTLIFY_DOMAIN"
	EnvAssistantBaseURL = "MINTLIFY_ASSISTANT_BASE_URL"
	EnvIndexAPIKey      = "MINTLIFY_INDEX_API_KEY"
	EnvIndexBaseURL     = "MINTLIFY_INDEX_BASE_URL"
)

// apiKind is what tells Mintlify's three APIs apart when a client is
// built: each has its own key type, environment and address.
type apiKind struct {
	name            string // in messages: "admin", "assistant", "Index"
	prefix          string // of its keys
	constructor     string // in messages
	envKey, envBase string
	defaultBase     string
}

var (
	adminAPI     = apiKind{"admin", "mint_", "NewClient", EnvAPIKey, EnvBaseURL, DefaultBaseURL}
	assistantAPI = apiKind{"assistant", "mint_dsc_", "NewAssistantClient", EnvAssistantAPIKey, EnvAssistantBaseURL, DefaultAssistantBaseURL}
	indexAPI     = apiKind{"Index", "mint_us_", "NewIndexClient", EnvIndexAPIKey, EnvIndexBaseURL, DefaultIndexBaseURL}
)

// kindOfKey names the API a key serves by its prefix; admin keys share
// "mint_" with the others, so the longer prefixes are tried first.
func kindOfKey(key string) (apiKind, bool) {
	for _, k := range [...]apiKind{assistantAPI, indexAPI, adminAPI} {
		if strings.HasPrefix(key, k.prefix) {
			return k, true
		}
	}
	return apiKind{}, false
}

const (
	defaultMaxRetries   = 3
	defaultRetryWaitMin = 500 * time.Millisecond
	defaultRetryWaitMax = 30 * time.Second
)

// Client calls the API for one project. It is safe for concurrent use; make
// one and share it, so connections are reused.
type Client struct {
	baseURL    string // no trailing slash
	projectID  string
	projectSeg string            // projectID, path-escaped
	cred       func() credential // a closure: no fmt verb or reflection can print the key
	scrub      redact.Scrubber   // removes the key from any text
	userAgent  []string
	observer   func(context.Context, *Response)

	// What every call's retry layer is built from (see retrier), and the
	// retry layers of the reads that follow no attempt: [polling].
	readers                    map[bool]*retryablehttp.Client
	http                       *http.Client
	logger                     any // a *redact.Logger, or an untyped nil: log nothing
	maxRetries                 int
	retryWaitMin, retryWaitMax time.Duration

	maxWalkRequests int // see WithMaxWalkRequests; < 1 is the default
}

type credential struct {
	key    string
	header []string // {"Bearer <key>"}, built once
}

func sealed(cred credential) func() credential {
	return func() credential { return cred }
}

// Option configures a Client. Options are applied in order, after the
// environment defaults, so an explicit option always wins.
type Option func(*config)

type config struct {
	apiKey, projectID, baseURL string
	domain                     string // the assistant API's site (WithDomain)
	httpClient                 *http.Client
	maxRetries                 int
	retryWaitMin, retryWaitMax time.Duration
	userAgentSuffix            string
	logger                     *slog.Logger
	observer                   func(context.Context, *Response)
	maxWalkRequests            int
	insecureHTTP               bool          // WithInsecureHTTP
	stallTimeout               time.Duration // WithStallTimeout; <= 0: none
}

// WithAPIKey sets the admin API key (it starts with "mint_"). Without it,
// NewClient reads $MINTLIFY_API_KEY.
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithProjectID sets the project every call addresses. Without it, NewClient
// reads $MINTLIFY_PROJECT_ID.
func WithProjectID(id string) Option { return func(c *config) { c.projectID = id } }

// WithBaseURL points the client elsewhere: a mock server, a proxy (a path
// prefix is kept). Without it, NewClient reads $MINTLIFY_BASE_URL, else uses
// DefaultBaseURL.
func WithBaseURL(url string) Option { return func(c *config) { c.baseURL = url } }

// WithHTTPClient sends requests through a copy of hc: its Transport,
// Timeout and cookie jar apply to every attempt; its CheckRedirect does
// not, for the SDK follows no redirect whatever hc says (the key or a
// presigned link would follow it), and hc itself is left as it is.
// Retries stay with the SDK; do not wrap hc in another retrying transport.
// After a failed call the retry layer closes the idle connections of hc's
// Transport, which affects other users of it: give the SDK a client of its
// own. A nil hc means the default, a private pooled transport.
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.httpClient = hc } }

// WithInsecureHTTP allows a base URL of plain http to a host other than
// loopback. Without it the constructors refuse one with ErrInvalidInput,
// before anything is sent: the key would cross the network in clear text,
// readable by anyone on the path. Loopback (127.0.0.0/8, ::1, localhost),
// where a mock server listens, needs no option.
func WithInsecureHTTP() Option { return func(c *config) { c.insecureHTTP = true } }

// WithMaxRetries sets how many times a failed request may be retried (default
// 3; 0 turns retries off). Which failures are retried is fixed by the method:
// see the package documentation.
func WithMaxRetries(n int) Option { return func(c *config) { c.maxRetries = n } }

// WithRetryWait bounds the wait between retries (default 500ms to 30s). The
// maximum also caps Retry-After: a server asking for a longer pause gets an
// immediate ErrRateLimited (or ErrServer) with APIError.RetryAfter set, never
// a silent hour-long sleep.
func WithRetryWait(minWait, maxWait time.Duration) Option {
	return func(c *config) { c.retryWaitMin, c.retryWaitMax = minWait, maxWait }
}

// WithUserAgent appends an application name to the User-Agent header, so
// the server's logs can tell your program apart.
func WithUserAgent(suffix string) Option { return func(c *config) { c.userAgentSuffix = suffix } }

// WithLogger logs each call and each retry at debug level, failed attempts
// at error level. The default logs nothing. Every line is scrubbed of the
// key, wherever it came from (a proxy may echo it into an answer).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithResponseObserver calls fn once per call with the final answer: its
// status, headers and request ID, successes included, and how many HTTP
// requests the call sent, retries included (each counts against the
// API's quotas). It runs on the calling goroutine, before the call
// returns; ctx is the call's context, so fn can tell calls apart by values
// the caller put there. An iterator makes one call per page.
func WithResponseObserver(fn func(ctx context.Context, r *Response)) Option {
	return func(c *config) { c.observer = fn }
}

// NewClient builds a Client. It fails with ErrInvalidInput when the key or
// the project is missing or malformed (an assistant or Index key
// included: they serve other APIs), or the base URL is not an absolute
// http(s) URL; the key never appears in the error.
func NewClient(opts ...Option) (*Client, error) {
	cfg := defaults(adminAPI)
	cfg.projectID = os.Getenv(EnvProjectID)
	cfg.apply(opts)
	return newClient(adminAPI, cfg)
}

// defaults is the configuration of a client of api before its options:
// its key and address from the environment, the retry defaults.
func defaults(api apiKind) config {
	cfg := config{
		apiKey:       os.Getenv(api.envKey),
		baseURL:      os.Getenv(api.envBase),
		maxRetries:   defaultMaxRetries,
		retryWaitMin: defaultRetryWaitMin,
		retryWaitMax: defaultRetryWaitMax,
		stallTimeout: defaultStallTimeout,
	}
	if cfg.baseURL == "" {
		cfg.baseURL = api.defaultBase
	}
	return cfg
}

func (cfg *config) apply(opts []Option) {
	for _, opt := range opts {
		if opt != nil { // a nil Option (an unset variable, say) changes nothing
			opt(cfg)
		}
	}
}

// newClient builds the request path of a client of api: every API's calls
// go through one (send.go), with the same retries, errors, redaction and
// observers.
func newClient(api apiKind, cfg config) (*Client, error) {
	if err := cfg.validate(api); err != nil {
		return nil, err
	}
	scrub := redact.New(cfg.apiKey)
	base, err := parseBaseURL(cfg.baseURL, scrub, cfg.insecureHTTP)
	if err != nil {
		return nil, err
	}

	// The SDK's own copy of the caller's http.Client, never the caller's
	// itself: its redirect policy is the SDK's, whatever the caller's
	// says, so no redirect carries the key to another host.
	var hc http.Client
	if cfg.httpClient != nil {
		hc = *cfg.httpClient
	} else {
		// Not http.DefaultClient's transport: the retry layer closes idle
		// connections after a failure, which must not disturb the rest of
		// the program.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 16
		hc.Transport = t
	}
	hc.CheckRedirect = refuseRedirect
	if cfg.stallTimeout > 0 {
		hc.Transport = &stallGuard{next: hc.Transport, idle: cfg.stallTimeout}
	}
	var logger any // an untyped nil, so retryablehttp logs nothing
	if cfg.logger != nil {
		logger = redact.NewLogger(cfg.logger, scrub)
	}

	ua := "mintlify-go/" + Version
	if cfg.userAgentSuffix != "" {
		ua += " " + cfg.userAgentSuffix
	}
	c := &Client{
		baseURL:    base,
		projectID:  cfg.projectID,
		projectSeg: url.PathEscape(cfg.projectID),
		cred:       sealed(credential{key: cfg.apiKey, header: []string{"Bearer " + cfg.apiKey}}),
		scrub:      scrub,
		userAgent:  []string{ua},
		observer:   cfg.observer,

		http:         &hc,
		logger:       logger,
		maxRetries:   cfg.maxRetries,
		retryWaitMin: cfg.retryWaitMin,
		retryWaitMax: cfg.retryWaitMax,

		maxWalkRequests: cfg.maxWalkRequests,
	}
	c.readers = map[bool]*retryablehttp.Client{
		false: c.retrier(readPolicy(cfg.retryWaitMax, false), nil),
		true:  c.retrier(readPolicy(cfg.retryWaitMax, true), nil),
	}
	return c, nil
}

// refuseRedirect returns a redirect as the answer instead of following it:
// the API never redirects, net/http would carry the key along to another
// port or scheme of the same host, and a storage host's redirect would
// hand the presigned link to another in Referer.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// ProjectID returns the project the client addresses.
func (c *Client) ProjectID() string {
	if c == nil {
		return ""
	}
	return c.projectID
}

// ready refuses what would otherwise panic: a nil or zero Client, a nil
// context.
func (c *Client) ready(ctx context.Context) error {
	switch {
	case c == nil || c.cred == nil:
		return invalidf("nil or zero Client: make one with NewClient")
	case ctx == nil:
		return invalidf("nil context")
	}
	return nil
}

// Format prints the client's project and base URL, never its key, for
// every verb (%v, %+v, %#v, %s...).
func (c *Client) Format(f fmt.State, verb rune) {
	if c == nil {
		fmt.Fprint(f, "<nil>")
		return
	}
	fmt.Fprintf(f, "mintlify.Client{project: %q, baseURL: %q}", c.projectID, c.baseURL)
}

// validate checks what every client needs: a key of api's kind, sane
// retry bounds and a User-Agent that can be sent.
func (cfg *config) validate(api apiKind) error {
	key := cfg.apiKey
	switch kind, known := kindOfKey(key); {
	case key == "":
		return invalidf("missing API key: use WithAPIKey or set $%s", api.envKey)
	case strings.HasPrefix(strings.ToLower(key), "bearer "):
		return invalidf(`API key starts with "Bearer ": pass the key alone`)
	case !known:
		return invalidf("API key does not start with %q: use an %s key", api.prefix, api.name)
	case kind != api:
		return invalidf("API key is an %s key (%s...): %s takes an %s key (%s...); use %s", kind.name, kind.prefix, api.constructor, api.name, api.prefix, kind.constructor)
	case strings.IndexFunc(key, func(r rune) bool { return r <= ' ' || r >= 0x7f }) >= 0:
		return invalidf("API key contains white space, a control character or non-ASCII text")
	}
	switch api {
	case adminAPI:
		if err := checkSegment("project ID", cfg.projectID); err != nil {
			if cfg.projectID == "" {
				return invalidf("missing project ID: use WithProjectID or set $%s", EnvProjectID)
			}
			return err
		}
		if strings.Contains(cfg.projectID, key) {
			// $MINTLIFY_PROJECT_ID and $MINTLIFY_API_KEY swapped, say: the
			// ID shows in URLs, logs and %v of the Client.
			return invalidf("project ID holds the API key: set the project's ID")
		}
	case assistantAPI:
		if err := checkDomain(cfg.domain); err != nil {
			return err
		}
	}
	if cfg.maxRetries < 0 {
		return invalidf("max retries %d is negative", cfg.maxRetries)
	}
	if cfg.retryWaitMin <= 0 || cfg.retryWaitMax < cfg.retryWaitMin {
		return invalidf("retry wait bounds %s..%s: want 0 < min <= max", cfg.retryWaitMin, cfg.retryWaitMax)
	}
	// A header value net/http would refuse to send fails every call later,
	// after the caller believes the client works: refuse it here.
	if strings.IndexFunc(cfg.userAgentSuffix, func(r rune) bool { return r < ' ' || r >= 0x7f }) >= 0 {
		return invalidf("user agent suffix %q contains a control character or non-ASCII text", cfg.userAgentSuffix)
	}
	return nil
}

// checkSegment rejects values that cannot be one path segment even when
// escaped: "." and ".." would be resolved away by servers and proxies.
func checkSegment(what, s string) error {
	switch s {
	case "":
		return invalidf("empty %s", what)
	case ".", "..":
		return invalidf("%s %q is not a valid path segment", what, s)
	}
	return nil
}

// parseBaseURL checks the base URL. It refuses a user name or password (the
// key goes in a header, never in the URL) and any copy of the key, for keys
// end up in odd places; its errors show neither. Plain http is refused
// unless the host is loopback or insecureHTTP allows it.
func parseBaseURL(raw string, scrub redact.Scrubber, insecureHTTP bool) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err // without the URL itself
		}
		return "", invalidf("base URL is not a URL: %s", scrub(err.Error(), false))
	}
	shown := scrub(u.Redacted(), false)
	switch {
	case (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return "", invalidf("base URL %q must be an absolute http or https URL", shown)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.RawFragment != "":
		return "", invalidf("base URL %q must not have a query or fragment", shown)
	case u.User != nil:
		return "", invalidf("base URL %q must not carry a user name or password", scrub(redactUser(u), false))
	case scrub(raw, false) != raw || scrub(u.String(), false) != u.String():
		return "", invalidf("base URL %q holds the API key: the key goes in WithAPIKey only", shown)
	case u.Scheme == "http" && !insecureHTTP && !isLoopback(u.Hostname()):
		return "", invalidf("base URL %q is plain http to a host that is not loopback: the key would cross the network "+
			"in clear text; use https, or WithInsecureHTTP() to allow it", shown)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// isLoopback reports a host that never leaves the machine: "localhost" and
// the loopback addresses (127.0.0.0/8, ::1). Other names ending in
// "localhost" are left to DNS, which may send them anywhere.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

func redactUser(u *url.URL) string {
	v := *u
	v.User = url.User("***")
	return v.String()
}
