package mintlify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

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

const (
	defaultMaxRetries   = 3
	defaultRetryWaitMin = 500 * time.Millisecond
	defaultRetryWaitMax = 30 * time.Second
)

// Client calls the API for one project. It is safe for concurrent use; make
// one and share it, so connections are reused.
type Client struct {
	baseURL   string // no trailing slash
	projectID string
	cred      func() credential // a closure: no fmt verb or reflection can print the key
	userAgent []string
	get, post *retryablehttp.Client // the same transport, two retry policies

	jobsPath     string // "/v2/agent/{projectId}/job", escaped
	visitorsPath string // "/v1/analytics/{projectId}/visitors", escaped
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
	httpClient                 *http.Client
	maxRetries                 int
	retryWaitMin, retryWaitMax time.Duration
	userAgentSuffix            string
	logger                     *slog.Logger
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

// WithHTTPClient sends requests through hc: its Transport, Timeout and
// cookie jar apply to every attempt. Retries stay with the SDK; do not wrap
// hc in another retrying transport.
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.httpClient = hc } }

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
// at error level. The default logs nothing. Lines carry the method and URL, never a
// header, so the key cannot appear in them.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// NewClient builds a Client. It fails with ErrInvalidInput when the key or
// the project is missing or malformed, or the base URL is not an absolute
// http(s) URL; the key never appears in the error.
func NewClient(opts ...Option) (*Client, error) {
	cfg := config{
		apiKey:       os.Getenv(EnvAPIKey),
		projectID:    os.Getenv(EnvProjectID),
		baseURL:      os.Getenv(EnvBaseURL),
		maxRetries:   defaultMaxRetries,
		retryWaitMin: defaultRetryWaitMin,
		retryWaitMax: defaultRetryWaitMax,
	}
	if cfg.baseURL == "" {
		cfg.baseURL = DefaultBaseURL
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	base, err := parseBaseURL(cfg.baseURL, cfg.apiKey)
	if err != nil {
		return nil, err
	}

	hc := cfg.httpClient
	if hc == nil {
		// Not http.DefaultClient: the retry layer closes idle connections
		// after a failure, which must not disturb the rest of the program.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 16
		hc = &http.Client{Transport: t, CheckRedirect: refuseRedirect}
	}
	var logger any // an untyped nil, so retryablehttp logs nothing
	if cfg.logger != nil {
		logger = cfg.logger
	}
	newRetrier := func(policy func(time.Duration) retryablehttp.CheckRetry) *retryablehttp.Client {
		return &retryablehttp.Client{
			HTTPClient:   hc,
			Logger:       logger,
			RetryWaitMin: cfg.retryWaitMin,
			RetryWaitMax: cfg.retryWaitMax,
			RetryMax:     cfg.maxRetries,
			CheckRetry:   policy(cfg.retryWaitMax),
			Backoff:      backoff,
			ErrorHandler: retryablehttp.PassthroughErrorHandler,
		}
	}

	ua := "mintlify-go/" + Version
	if cfg.userAgentSuffix != "" {
		ua += " " + cfg.userAgentSuffix
	}
	project := url.PathEscape(cfg.projectID)
	return &Client{
		baseURL:      base,
		projectID:    cfg.projectID,
		cred:         sealed(credential{key: cfg.apiKey, header: []string{"Bearer " + cfg.apiKey}}),
		userAgent:    []string{ua},
		get:          newRetrier(idempotentPolicy),
		post:         newRetrier(nonIdempotentPolicy),
		jobsPath:     "/v2/agent/" + project + "/job",
		visitorsPath: "/v1/analytics/" + project + "/visitors",
	}, nil
}

// refuseRedirect returns a redirect as the answer instead of following it:
// the API never redirects, and net/http would carry the key along to
// another port or scheme of the same host.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// ProjectID returns the project the client addresses.
func (c *Client) ProjectID() string { return c.projectID }

func (cfg *config) validate() error {
	key := cfg.apiKey
	switch {
	case key == "":
		return invalidf("missing API key: use WithAPIKey or set $%s", EnvAPIKey)
	case strings.HasPrefix(strings.ToLower(key), "bearer "):
		return invalidf(`API key starts with "Bearer ": pass the key alone`)
	case !strings.HasPrefix(key, "mint_"):
		return invalidf(`API key does not start with "mint_": use an admin key`)
	case strings.IndexFunc(key, func(r rune) bool { return r <= ' ' || r >= 0x7f }) >= 0:
		return invalidf("API key contains white space, a control character or non-ASCII text")
	}
	if err := checkSegment("project ID", cfg.projectID); err != nil {
		if cfg.projectID == "" {
			return invalidf("missing project ID: use WithProjectID or set $%s", EnvProjectID)
		}
		return err
	}
	if cfg.maxRetries < 0 {
		return invalidf("max retries %d is negative", cfg.maxRetries)
	}
	if cfg.retryWaitMin <= 0 || cfg.retryWaitMax < cfg.retryWaitMin {
		return invalidf("retry wait bounds %s..%s: want 0 < min <= max", cfg.retryWaitMin, cfg.retryWaitMax)
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

// parseBaseURL checks the base URL. Its errors show the URL with any
// password and any copy of the key taken out, for keys end up in odd places.
func parseBaseURL(raw, key string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err // without the URL itself
		}
		return "", invalidf("base URL is not a URL: %s", scrub(err.Error(), key))
	}
	shown := scrub(u.Redacted(), key)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", invalidf("base URL %q must be an absolute http or https URL", shown)
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.RawFragment != "" {
		return "", invalidf("base URL %q must not have a query or fragment", shown)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

var jsonMediaType = []string{"application/json"}

// call is the one request path every endpoint goes through: build, send with
// retries, decode a 2xx body into a new T, map anything else to an error.
// body is nil for requests without one.
func call[T any](ctx context.Context, c *Client, method, path, query string, body []byte) (*T, error) {
	if ctx == nil {
		return nil, invalidf("nil context")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mintlify: %w", err) // nothing was sent
	}
	target := c.baseURL + path
	if query != "" {
		target += "?" + query
	}
	var raw any // an untyped nil for GET: a nil []byte would still send a body
	if body != nil {
		raw = body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, method, target, raw)
	if err != nil {
		return nil, fmt.Errorf("mintlify: building request: %w", err)
	}
	// Shared read-only slices: setting them costs no allocation per call.
	cred := c.cred()
	req.Header["Authorization"] = cred.header
	req.Header["Accept"] = jsonMediaType
	req.Header["User-Agent"] = c.userAgent
	if body != nil {
		req.Header["Content-Type"] = jsonMediaType
	}

	var out T
	req.SetResponseHandler(func(resp *http.Response) error { return decodeSuccess(resp, &out) })
	retrier := c.get
	if method != http.MethodGet {
		retrier = c.post
	}
	// Whatever the attempts were, only the final answer counts: the retry
	// layer drains and closes the others.
	resp, err := retrier.Do(req)
	if resp != nil {
		defer resp.Body.Close()
	}
	switch {
	case err != nil:
		return nil, c.sendError(method, err)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		apiErr := newAPIError(resp, cred.key)
		apiErr.outcomeUnknown = method != http.MethodGet && gatewayMayHaveActed(resp.StatusCode)
		return nil, apiErr
	}
	return &out, nil
}

// gatewayMayHaveActed lists the 5xx answers that can follow a request the
// API already acted on (a crash midway, a proxy timing out on a slow
// answer). 503 is left out: it is sent instead of acting.
func gatewayMayHaveActed(code int) bool {
	return code == http.StatusInternalServerError || code == http.StatusBadGateway ||
		code == http.StatusGatewayTimeout
}

// decodeSuccess is the response handler: retryablehttp calls it inside its
// retry loop, so a 2xx whose body cannot be read or decoded is retried (for
// GETs) like any other transient failure. Other answers are left for call,
// which turns the final one into an *APIError. It closes nothing: the retry
// layer drains the bodies of the attempts it retries, call closes the last.
func decodeSuccess[T any](resp *http.Response, out *T) error {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil
	}
	var zero T
	*out = zero // a retried body must not inherit fields from a broken one
	// Bounded, so an endless body costs neither unbounded memory nor time.
	body := &io.LimitedReader{R: resp.Body, N: maxResponseBody + 1}
	err := json.NewDecoder(body).Decode(out)
	if err == nil {
		_, err = io.Copy(io.Discard, body) // to EOF, so the connection is reused
	}
	if body.N == 0 {
		err = errBodyTooLarge
	}
	if err != nil {
		return &bodyError{status: resp.StatusCode, err: err}
	}
	return nil
}

// maxResponseBody bounds a success body: the largest the API sends (a page
// of 250 rows) is a few tens of KiB.
const maxResponseBody = 16 << 20

var errBodyTooLarge = fmt.Errorf("body larger than %d MiB", maxResponseBody>>20)

// bodyError is a 2xx answer whose body could not be read or decoded.
type bodyError struct {
	status int
	err    error
}

func (e *bodyError) Error() string {
	return fmt.Sprintf("mintlify: reading HTTP %d response: %v", e.status, e.err)
}

func (e *bodyError) Unwrap() error { return e.err }

// sendError classifies a failure with no API answer. For a POST it decides
// whether the server may have acted: only a request that never left (a
// failed dial, a context that ended between attempts) is known not to have.
func (c *Client) sendError(method string, err error) error {
	if method != http.MethodGet && mayHaveActed(err) {
		return fmt.Errorf("%w: %w", ErrOutcomeUnknown, err)
	}
	var be *bodyError
	if errors.As(err, &be) {
		return err
	}
	return fmt.Errorf("mintlify: %w", err)
}

func mayHaveActed(err error) bool {
	var be *bodyError
	if errors.As(err, &be) {
		return true // a 2xx came back: it did act, but the answer is lost
	}
	var ue *url.Error
	return errors.As(err, &ue) && !isDialError(ue.Err)
}

func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// retryableStatus lists the answers a GET may be retried on.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// waitTooLong reports a Retry-After beyond what the client will sleep: the
// caller gets the error at once, with APIError.RetryAfter to plan by.
func waitTooLong(resp *http.Response, maxWait time.Duration) bool {
	d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	return ok && d > maxWait
}

// idempotentPolicy retries GETs on network errors, unreadable 2xx bodies and
// the retryable statuses. Once the context is done it stops and lets the
// answer in hand, if any, be used.
func idempotentPolicy(maxWait time.Duration) retryablehttp.CheckRetry {
	return func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, nil
		}
		if err != nil {
			return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
		}
		return retryableStatus(resp.StatusCode) && !waitTooLong(resp, maxWait), nil
	}
}

// nonIdempotentPolicy retries POSTs only where the server cannot have acted:
// a refused connection (the request never left) and a 429 (the server
// refused it). Never a 5xx or a dropped answer: that could create a second
// job.
func nonIdempotentPolicy(maxWait time.Duration) retryablehttp.CheckRetry {
	return func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, nil
		}
		if err != nil {
			var ue *url.Error
			return errors.As(err, &ue) && isDialError(ue.Err), nil
		}
		return resp.StatusCode == http.StatusTooManyRequests && !waitTooLong(resp, maxWait), nil
	}
}

// backoff waits as long as Retry-After asks (the policies have already
// refused waits beyond the maximum), else a random time between minWait and
// a ceiling that doubles with each attempt, so clients failing together do
// not retry together.
func backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, maxWait)
		}
	}
	ceiling := minWait
	for i := 0; i <= attempt && ceiling < maxWait; i++ {
		if ceiling > maxWait/2 {
			ceiling = maxWait // doubling would pass the maximum (or overflow)
			break
		}
		ceiling *= 2
	}
	return minWait + rand.N(ceiling-minWait+1)
}
