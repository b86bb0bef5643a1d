package journal

import "strings"

// Authorization describes an Authorization header for the mock's journal
// and logs without the secret: the scheme and, for admin keys, the public
// prefix.
func Authorization(values []string) string {
	if len(values) == 0 {
		return ""
	}
	scheme, token, found := strings.Cut(values[0], " ")
	if !found {
		return "***"
	}
	if strings.EqualFold(scheme, "Bearer") {
		if strings.HasPrefix(strings.TrimSpace(token), anyKeyPrefix) {
			return "Bearer " + anyKeyPrefix + "***"
		}
		return "Bearer ***"
	}
	if !schemeName(scheme) {
		return "***" // not a scheme's name: it may be a credential (a key's base64, say)
	}
	return scheme + " ***"
}

// schemeName reports whether s reads as an authentication scheme's name
// (Basic, Token, Digest): at most 20 letters and hyphens. The base64 of a
// key holds digits wherever it starts.
func schemeName(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	return true
}

// Prefixed names key by the first of prefixes it starts with, followed by
// ***, or as *** alone: a key's kind, for an error about configuration,
// and nothing of its secret. List longer prefixes first (mint_dsc_ before
// mint_).
func Prefixed(key string, prefixes ...string) string {
	for _, p := range prefixes {
		if strings.HasPrefix(key, p) {
			return p + "***"
		}
	}
	return "***"
}
