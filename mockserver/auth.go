package mockserver

import (
	"net/http"
	"strings"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/access"
)

// keyPrefix marks the service's admin keys; any other key is refused before
// it is even looked up.
const keyPrefix = access.KeyPrefix

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

// NewKey makes a key of the primary organization with the restrictions of
// spec, as POST /_mock/keys does.
func (s *Server) NewKey(spec KeySpec) (string, error) {
	key := keyPrefix + randomToken()
	return key, s.orgs.Add(key, spec.access())
}

// ErrUnknownKey is returned by SetStaticExport for a key the server does not
// know.
var ErrUnknownKey = access.ErrUnknownKey

// SetStaticExport turns static export on or off for the organization that
// owns key.
func (s *Server) SetStaticExport(key string, enabled bool) error {
	return s.orgs.SetStaticExport(key, enabled)
}

// authorize checks the Bearer key and that it owns projectID. A key that
// does not own the project gets the same 403 whether the project exists or
// not, so the answer never reveals other customers' project IDs.
func (s *Server) authorize(r *http.Request, projectID string) (string, reply, bool) {
	values := r.Header["Authorization"]
	if len(values) == 0 || values[0] == "" {
		return "", unauthorized("missing Authorization header; send \"Authorization: Bearer <admin key>\""), false
	}
	if len(values) > 1 {
		// Which one counts is up to each server and proxy on the way: a
		// request that two of them read differently must not pass.
		return "", errorReply(http.StatusBadRequest, "Invalid Authorization header", "send exactly one Authorization header"), false
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", unauthorized("the Authorization header must use the Bearer scheme"), false
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", unauthorized("the Bearer token is empty"), false
	}
	if !strings.HasPrefix(token, keyPrefix) {
		return "", unauthorized("the API key is not an admin key (admin keys start with " + keyPrefix + ")"), false
	}
	k := s.orgs.Lookup(token)
	if k == nil {
		return "", unauthorized("invalid API key"), false
	}
	switch denial, detail := k.Check(r.Method, r.RemoteAddr, s.Now()); denial {
	case access.Expired:
		return "", unauthorized(detail), false
	case access.NotFromHere, access.NoScope:
		return "", errorReply(http.StatusForbidden, "Forbidden", detail), false
	}
	// Routes without a project (deployment status, static export) act
	// within the key's organization.
	if projectID != "" && !k.Org.Owns(projectID) {
		return "", errorReply(http.StatusForbidden, "Forbidden", "this API key has no access to the requested project"), false
	}
	return token, reply{}, true
}

// bearerChallenge is sent with every 401.
var bearerChallenge = []string{"Bearer"}

func unauthorized(detail string) reply {
	return errorReply(http.StatusUnauthorized, "Unauthorized", detail)
}
