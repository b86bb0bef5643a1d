// Package access is who may call the mock: organizations with their
// projects and feature switches, keys with their scopes, expiry and IP
// allowlists, and the checks a request's key must pass. It knows nothing
// of HTTP; the server reads the Authorization header and turns a Denial
// into its 401 or 403.
package access

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/journal"
)

// KeyPrefix marks the service's admin keys; any other key is refused before
// it is even looked up. The assistant and Index keys start with it too, and
// then with their own mark (see KindOf).
const KeyPrefix = "mint_"

// The prefixes of the two other kinds of key: an assistant key belongs to
// one deployment (a docs site's domain) of its organization; an Index key
// to its organization.
const (
	AssistantKeyPrefix = "mint_dsc_"
	IndexKeyPrefix     = "mint_us_"
)

// Kind is which API a key opens: each API refuses the other two kinds.
type Kind uint8

// The three kinds of key.
const (
	KindAdmin     Kind = iota // mint_: jobs, analytics, deployments, static export
	KindAssistant             // mint_dsc_: the assistant API of one domain
	KindIndex                 // mint_us_: the Index API
)

// KindOf tells a key's kind by its prefix, as the service does before it
// looks a key up. Anything else (no mint_ at all) counts as an admin key
// here; CheckForm refuses it where keys are configured.
func KindOf(key string) Kind {
	switch {
	case strings.HasPrefix(key, AssistantKeyPrefix):
		return KindAssistant
	case strings.HasPrefix(key, IndexKeyPrefix):
		return KindIndex
	}
	return KindAdmin
}

// String names the kind as error details and the control API do.
func (k Kind) String() string {
	switch k {
	case KindAssistant:
		return "assistant"
	case KindIndex:
		return "index"
	}
	return "admin"
}

// The scopes of the service's admin keys: ScopeRead allows GET and HEAD,
// ScopeWrite every method (it implies ScopeRead).
const (
	ScopeRead  = "read"
	ScopeWrite = "write"
)

// Spec restricts a key, as the service lets an organization do. The zero
// Spec is an unrestricted key.
type Spec struct {
	Scopes    []string  // none: read and write; admin keys only
	ExpiresAt time.Time // zero: never; from this instant on every request is 401
	AllowIPs  []string  // addresses or CIDR prefixes; none: any address
	Domain    string    // an assistant key's domain (required for them, refused for others)
}

// Organization owns projects and keys. Keys named together on a project
// (WithProject) share an organization; the primary key's is the primary
// organization, the one keys made at run time join.
type Organization struct {
	ID           string
	projects     map[string]bool
	previews     bool // the plan includes preview deployments
	staticExport bool // static export is enabled
	noIndex      bool // the organization has no Index access (its Index keys are 401)
}

// Key is one key with its organization and restrictions.
type Key struct {
	Org       *Organization
	Kind      Kind   // by its prefix
	Domain    string // an assistant key's domain, lower case; "" for the others
	read      bool
	write     bool
	expiresAt time.Time
	allow     []netip.Prefix
}

// Book holds organizations and keys. Keys can be added while the server
// runs (NewKey, POST /_mock/keys), so lookups take a lock.
type Book struct {
	mu      sync.RWMutex
	keys    map[string]*Key
	orgs    []*Organization
	primary *Organization
}

// Build turns the key grants of the options (key -> the projects it was
// named on) into organizations: the connected groups of keys and the
// projects they were named on. Every organization starts with previews and
// static export as given.
func Build(grants map[string]map[string]bool, primaryKey string, previews, staticExport bool) *Book {
	b := &Book{keys: map[string]*Key{}}
	keys := make([]string, 0, len(grants))
	for k := range grants {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	orgOfProject := map[string]*Organization{}
	for _, k := range keys {
		var org *Organization
		for p := range grants[k] {
			if o := orgOfProject[p]; o != nil && o != org {
				if org != nil { // merge o into org
					for q := range o.projects {
						org.projects[q] = true
						orgOfProject[q] = org
					}
					for _, ak := range b.keys {
						if ak.Org == o {
							ak.Org = org
						}
					}
					b.orgs = slices.DeleteFunc(b.orgs, func(x *Organization) bool { return x == o })
				} else {
					org = o
				}
			}
		}
		if org == nil {
			org = &Organization{projects: map[string]bool{}, previews: previews, staticExport: staticExport}
			b.orgs = append(b.orgs, org)
		}
		for p := range grants[k] {
			org.projects[p] = true
			orgOfProject[p] = org
		}
		b.keys[k] = &Key{Org: org, Kind: KindOf(k), read: true, write: true}
	}
	b.primary = b.keys[primaryKey].Org
	for i, o := range b.orgs {
		o.ID = fmt.Sprintf("org_%d", i+1)
		if o == b.primary {
			o.ID = "org_primary"
		}
	}
	return b
}

// Primary is the primary key's organization.
func (b *Book) Primary() *Organization { return b.primary }

// Lookup finds a key, or nil.
func (b *Book) Lookup(key string) *Key {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.keys[key]
}

// Add gives key the restrictions of spec. A key the book knows keeps its
// organization; any other joins the primary organization.
func (b *Book) Add(key string, spec Spec) error {
	if err := CheckForm(key); err != nil {
		return err
	}
	k := &Key{Org: b.primary, Kind: KindOf(key), Domain: strings.ToLower(spec.Domain), expiresAt: spec.ExpiresAt}
	switch {
	case k.Kind == KindAssistant && spec.Domain == "":
		return fmt.Errorf("mockserver: assistant key %s: it belongs to one domain; name it", RedactKey(key))
	case k.Kind != KindAssistant && spec.Domain != "":
		return fmt.Errorf("mockserver: %s key %s: only assistant keys (%s) belong to a domain", k.Kind, RedactKey(key), AssistantKeyPrefix)
	case k.Kind != KindAdmin && len(spec.Scopes) > 0:
		return fmt.Errorf("mockserver: %s key %s: scopes restrict admin keys only", k.Kind, RedactKey(key))
	}
	if len(spec.Scopes) == 0 {
		k.read, k.write = true, true
	}
	for _, sc := range spec.Scopes {
		switch sc {
		case ScopeRead:
			k.read = true
		case ScopeWrite:
			k.read, k.write = true, true
		default:
			return fmt.Errorf("mockserver: unknown scope %q (want %q or %q)", sc, ScopeRead, ScopeWrite)
		}
	}
	for _, a := range spec.AllowIPs {
		p, err := parseAllow(a)
		if err != nil {
			return err
		}
		k.allow = append(k.allow, p)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old := b.keys[key]; old != nil {
		k.Org = old.Org // restricting a key keeps its organization
	}
	b.keys[key] = k
	return nil
}

func parseAllow(a string) (netip.Prefix, error) {
	if strings.Contains(a, "/") {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("mockserver: allowIPs: %q is not an address or CIDR prefix", a)
		}
		return p.Masked(), nil
	}
	ip, err := netip.ParseAddr(a)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("mockserver: allowIPs: %q is not an address or CIDR prefix", a)
	}
	ip = ip.Unmap()
	return netip.PrefixFrom(ip, ip.BitLen()), nil
}

// Denial says why a key's own restrictions refuse a request.
type Denial int

// The denials, in the order Check tries them. Expired is answered 401, the
// others 403.
const (
	Allowed Denial = iota
	Expired
	NotFromHere // the caller's address is outside the allowlist
	NoScope     // the key lacks the scope the method needs
)

// Check applies a key's own restrictions to a request: expiry, then
// address and scope. The message says which rule refused, as the SDK's
// error text should.
func (k *Key) Check(method, remoteAddr string, now time.Time) (Denial, string) {
	if !k.expiresAt.IsZero() && !now.Before(k.expiresAt) {
		return Expired, "the API key expired at " + k.expiresAt.UTC().Format(time.RFC3339)
	}
	if len(k.allow) > 0 {
		ip := remoteIP(remoteAddr)
		if !slices.ContainsFunc(k.allow, func(p netip.Prefix) bool { return ip.IsValid() && p.Contains(ip) }) {
			return NotFromHere, "this API key is not allowed from " + ip.String()
		}
	}
	read := method == "GET" || method == "HEAD"
	if (read && !k.read) || (!read && !k.write) {
		need := ScopeWrite
		if read {
			need = ScopeRead
		}
		return NoScope, "this API key lacks the " + need + " scope that " + method + " requests need"
	}
	return Allowed, ""
}

func remoteIP(remoteAddr string) netip.Addr {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip, _ := netip.ParseAddr(host)
	return ip.Unmap()
}

// Owns reports whether the organization has the project.
func (o *Organization) Owns(projectID string) bool { return o.projects[projectID] }

// ErrUnknownKey is returned by SetStaticExport for a key the book does not
// know.
var ErrUnknownKey = errors.New("mockserver: unknown API key")

// SetStaticExport turns static export on or off for the organization that
// owns key.
func (b *Book) SetStaticExport(key string, enabled bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := b.keys[key]
	if k == nil {
		return ErrUnknownKey
	}
	k.Org.staticExport = enabled
	return nil
}

// SetIndexAccess gives every organization Index access, or takes it away
// (their Index keys are then 401, as the service answers an organization
// without it).
func (b *Book) SetIndexAccess(enabled bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, o := range b.orgs {
		o.noIndex = !enabled
	}
}

// IndexAccess reports whether the organization may use the Index API.
func (b *Book) IndexAccess(o *Organization) bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return !o.noIndex
}

// Features reads an organization's switches under the book's lock.
func (b *Book) Features(o *Organization) (previews, staticExport bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return o.previews, o.staticExport
}

// CheckForm refuses a configured key that is not KeyPrefix and then
// letters, digits, '_' or '-'. Such a key could not be told from the text
// around it, so the journal and the logs could not be sure to redact all
// of it ("mint_a b" would leave " b"); a client could not send it in a
// header reliably either.
func CheckForm(key string) error {
	rest, ok := strings.CutPrefix(key, KeyPrefix)
	if !ok {
		return fmt.Errorf("mockserver: API key %s does not start with %q, so the service would refuse it", RedactKey(key), KeyPrefix)
	}
	if rest == "" {
		return fmt.Errorf("mockserver: API key %q has nothing after the prefix", key)
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("mockserver: API key %s holds a character other than letters, digits, _ and -", RedactKey(key))
		}
	}
	return nil
}

// RedactKey names a configured key in an error without its secret: the
// public prefix of its kind, or nothing of it at all. Configuration
// errors are printed and logged, where the key must not be.
func RedactKey(key string) string {
	return journal.Prefixed(key, AssistantKeyPrefix, IndexKeyPrefix, KeyPrefix)
}
