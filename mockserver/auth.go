package mockserver

import (
	"fmt"
	"net/http"
	"strings"
)

// keyPrefix marks the service's admin keys; any other key is refused before
// it is even looked up.
const keyPrefix = "mint_"

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
	k := s.lookupKey(token)
	if k == nil {
		return "", unauthorized("invalid API key"), false
	}
	if rep, ok := k.check(r, s.Now()); !ok {
		return "", rep, false
	}
	// Routes without a project (deployment status, static export) act
	// within the key's organization.
	if projectID != "" && !k.org.owns(projectID) {
		return "", errorReply(http.StatusForbidden, "Forbidden", "this API key has no access to the requested project"), false
	}
	return token, reply{}, true
}

// checkKeyForm refuses a configured key that is not keyPrefix and then
// letters, digits, '_' or '-'. Such a key could not be told from the text
// around it, so the journal and the logs could not be sure to redact all
// of it ("mint_a b" would leave " b"); a client could not send it in a
// header reliably either.
func checkKeyForm(key string) error {
	rest, ok := strings.CutPrefix(key, keyPrefix)
	if !ok {
		return fmt.Errorf("mockserver: API key %s does not start with %q, so the service would refuse it", redactKey(key), keyPrefix)
	}
	if rest == "" {
		return fmt.Errorf("mockserver: API key %q has nothing after the prefix", key)
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("mockserver: API key %s holds a character other than letters, digits, _ and -", redactKey(key))
		}
	}
	return nil
}

// bearerChallenge is sent with every 401.
var bearerChallenge = []string{"Bearer"}

func unauthorized(detail string) reply {
	return errorReply(http.StatusUnauthorized, "Unauthorized", detail)
}

// redactKey is redactAuth for a bare key, used in configuration errors.
func redactKey(key string) string {
	if strings.HasPrefix(key, keyPrefix) {
		return keyPrefix + "***"
	}
	return "***"
}
