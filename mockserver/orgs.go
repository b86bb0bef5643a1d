package mockserver

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Scope is what a key may do: ScopeRead allows GET and HEAD, ScopeWrite
// every method (it implies ScopeRead).
type Scope string

// The scopes of the service's admin keys.
const (
	ScopeRead  Scope = "read"
	ScopeWrite Scope = "write"
)

// KeySpec restricts a key, as the service lets an organization do. The
// zero KeySpec is an unrestricted key.
type KeySpec struct {
	Scopes    []Scope   // none: read and write
	ExpiresAt time.Time // zero: never; from this instant on every request is 401
	AllowIPs  []string  // addresses or CIDR prefixes; none: any address
}

// organization owns projects and keys. Keys named together on a project
// (WithProject) share an organization; the primary key's is the primary
// organization, the one keys made at run time join.
type organization struct {
	id           string
	projects     map[string]bool
	previews     bool // the plan includes preview deployments
	staticExport bool // static export is enabled
}

// apiKey is one key with its organization and restrictions.
type apiKey struct {
	org       *organization
	read      bool
	write     bool
	expiresAt time.Time
	allow     []netip.Prefix
}

// orgBook holds organizations and keys. Keys can be added while the server
// runs (NewKey, POST /_mock/keys), so lookups take a lock.
type orgBook struct {
	mu      sync.RWMutex
	keys    map[string]*apiKey
	orgs    []*organization
	primary *organization
}

// buildOrgs turns the key grants of the options into organizations: the
// connected groups of keys and the projects they were named on.
func (s *Server) buildOrgs() error {
	b := &orgBook{keys: map[string]*apiKey{}}
	keys := make([]string, 0, len(s.keys))
	for k := range s.keys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	orgOfProject := map[string]*organization{}
	for _, k := range keys {
		var org *organization
		for p := range s.keys[k] {
			if o := orgOfProject[p]; o != nil && o != org {
				if org != nil { // merge o into org
					for q := range o.projects {
						org.projects[q] = true
						orgOfProject[q] = org
					}
					for _, ak := range b.keys {
						if ak.org == o {
							ak.org = org
						}
					}
					b.orgs = slices.DeleteFunc(b.orgs, func(x *organization) bool { return x == o })
				} else {
					org = o
				}
			}
		}
		if org == nil {
			org = &organization{projects: map[string]bool{}, previews: !s.cfg.ci.noPreviews, staticExport: !s.cfg.ci.noStaticExport}
			b.orgs = append(b.orgs, org)
		}
		for p := range s.keys[k] {
			org.projects[p] = true
			orgOfProject[p] = org
		}
		b.keys[k] = &apiKey{org: org, read: true, write: true}
	}
	b.primary = b.keys[s.apiKey].org
	for i, o := range b.orgs {
		o.id = fmt.Sprintf("org_%d", i+1)
		if o == b.primary {
			o.id = "org_primary"
		}
	}
	s.orgs = b
	for _, spec := range s.cfg.ci.keys {
		if err := s.addKey(spec.key, spec.spec); err != nil {
			return err
		}
	}
	return nil
}

// orgOf is the organization a key belongs to, by ID ("" for an unknown
// key). Rate limits that the service counts per organization key on it.
func (s *Server) orgOf(key string) string {
	if k := s.lookupKey(key); k != nil {
		return k.org.id
	}
	return ""
}

func (s *Server) lookupKey(key string) *apiKey {
	s.orgs.mu.RLock()
	defer s.orgs.mu.RUnlock()
	return s.orgs.keys[key]
}

// NewKey makes a key of the primary organization with the restrictions of
// spec, as POST /_mock/keys does.
func (s *Server) NewKey(spec KeySpec) (string, error) {
	key := keyPrefix + randomToken()
	return key, s.addKey(key, spec)
}

func (s *Server) addKey(key string, spec KeySpec) error {
	if err := checkKeyForm(key); err != nil {
		return err
	}
	k := &apiKey{org: s.orgs.primary, expiresAt: spec.ExpiresAt}
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
	s.orgs.mu.Lock()
	defer s.orgs.mu.Unlock()
	if old := s.orgs.keys[key]; old != nil {
		k.org = old.org // restricting a key keeps its organization
	}
	s.orgs.keys[key] = k
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

// check applies a key's own restrictions to a request: expiry (401),
// then address and scope (403). The messages say which rule refused, as the
// SDK's error text should.
func (k *apiKey) check(r *http.Request, now time.Time) (reply, bool) {
	if !k.expiresAt.IsZero() && !now.Before(k.expiresAt) {
		return unauthorized("the API key expired at " + k.expiresAt.UTC().Format(time.RFC3339)), false
	}
	if len(k.allow) > 0 {
		ip := remoteIP(r)
		if !slices.ContainsFunc(k.allow, func(p netip.Prefix) bool { return ip.IsValid() && p.Contains(ip) }) {
			return errorReply(http.StatusForbidden, "Forbidden", "this API key is not allowed from "+ip.String()), false
		}
	}
	read := r.Method == http.MethodGet || r.Method == http.MethodHead
	if (read && !k.read) || (!read && !k.write) {
		need := ScopeWrite
		if read {
			need = ScopeRead
		}
		return errorReply(http.StatusForbidden, "Forbidden", "this API key lacks the "+string(need)+" scope that "+r.Method+" requests need"), false
	}
	return reply{}, true
}

func remoteIP(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, _ := netip.ParseAddr(host)
	return ip.Unmap()
}

// owns reports whether the organization has the project.
func (o *organization) owns(projectID string) bool { return o.projects[projectID] }

// ErrUnknownKey is returned by SetStaticExport for a key the server does not
// know.
var ErrUnknownKey = errors.New("mockserver: unknown API key")

// SetStaticExport turns static export on or off for the organization that
// owns key.
func (s *Server) SetStaticExport(key string, enabled bool) error {
	s.orgs.mu.Lock()
	defer s.orgs.mu.Unlock()
	k := s.orgs.keys[key]
	if k == nil {
		return ErrUnknownKey
	}
	k.org.staticExport = enabled
	return nil
}

// features reads an organization's switches under the book's lock.
func (s *Server) features(o *organization) (previews, staticExport bool) {
	s.orgs.mu.RLock()
	defer s.orgs.mu.RUnlock()
	return o.previews, o.staticExport
}
