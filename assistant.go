package mintlify

// The assistant API (keys "mint_dsc_"): the AI assistant of one docs site,
// its search and its pages. The stream its answers come in is read by
// [MessageStream] (stream.go); [AssistantProxy] (proxy.go) serves it to a
// browser without the key.

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// DefaultAssistantBaseURL is where the assistant API lives, used unless
// WithBaseURL or $MINTLIFY_ASSISTANT_BASE_URL says otherwise.
const DefaultAssistantBaseURL = "https://api.mintlify.com/discovery"

// AssistantClient calls the assistant API of one docs site (its domain)
// with an assistant key. It is safe for concurrent use; make one and share
// it. Its calls go through the same request path as [Client]'s: the same
// retries, errors, redaction and observers.
type AssistantClient struct {
	c         *Client
	domain    string
	domainSeg string // domain, path-escaped
}

// WithDomain sets the docs site the assistant API answers for: its domain
// identifier (as in the dashboard, e.g. "docs.example.com"). Without it,
// NewAssistantClient reads $MINTLIFY_DOMAIN. Other clients ignore it.
func WithDomain(domain string) Option { return func(c *config) { c.domain = domain } }

// NewAssistantClient builds an [AssistantClient]. The key comes from
// WithAPIKey or $MINTLIFY_ASSISTANT_API_KEY and must be an assistant key
// ("mint_dsc_..."); the domain from WithDomain or $MINTLIFY_DOMAIN; the
// address from WithBaseURL or $MINTLIFY_ASSISTANT_BASE_URL, else
// [DefaultAssistantBaseURL] ($MINTLIFY_BASE_URL, the admin API's, is not
// read). A missing or malformed key or domain fails with ErrInvalidInput
// before anything is sent; the key never appears in the error.
func NewAssistantClient(opts ...Option) (*AssistantClient, error) {
	cfg := defaults(assistantAPI)
	cfg.domain = os.Getenv(EnvDomain)
	cfg.apply(opts)
	c, err := newClient(assistantAPI, cfg)
	if err != nil {
		return nil, err
	}
	return &AssistantClient{c: c, domain: cfg.domain, domainSeg: url.PathEscape(cfg.domain)}, nil
}

// checkDomain refuses a domain that cannot be the site's identifier: the
// API names sites by a hostname-like identifier, and anything else would
// change the path it is sent in.
func checkDomain(domain string) error {
	switch {
	case domain == "":
		return invalidf("missing domain: use WithDomain or set $%s", EnvDomain)
	case len(domain) > 253:
		return invalidf("domain is %d bytes: at most 253", len(domain))
	case strings.Trim(domain, ".-") != domain || strings.Contains(domain, ".."):
		return invalidf("domain %q: a hostname-like identifier neither starts nor ends with a dot or hyphen, and has no empty label", domain)
	case strings.IndexFunc(domain, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-')
	}) >= 0:
		return invalidf("domain %q: only letters, digits, dots and hyphens (no scheme, port or path)", domain)
	}
	return nil
}

// Domain returns the docs site the client answers for.
func (a *AssistantClient) Domain() string {
	if a == nil {
		return ""
	}
	return a.domain
}

// ready refuses a nil or zero AssistantClient and a nil context.
func (a *AssistantClient) ready(ctx context.Context) error {
	if a == nil || a.c == nil {
		return invalidf("nil or zero AssistantClient: make one with NewAssistantClient")
	}
	return a.c.ready(ctx)
}

// Format prints the client's domain and base URL, never its key, for
// every verb.
func (a *AssistantClient) Format(f fmt.State, verb rune) {
	if a == nil || a.c == nil {
		fmt.Fprint(f, "<nil>")
		return
	}
	fmt.Fprintf(f, "mintlify.AssistantClient{domain: %q, baseURL: %q}", a.domain, a.c.baseURL)
}
