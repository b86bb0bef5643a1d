package mintlify

import "fmt"

// A status or enum value the API does not document yet is kept when it is a
// well-formed token: the vendor may add a state (a job "queued", a feedback
// status "escalated") before this SDK knows it, and an answer carrying one
// is still the answer. Such a status is never terminal, so a poller keeps
// reading until a status it knows ends the wait. A value that is no token
// (upper case, punctuation, white space, control characters, non-ASCII,
// empty, longer than 64 bytes) is a malformed answer: it cannot be a state
// the vendor added, and printed in a CI log it could start a workflow
// command.

// maxTokenLen is the longest status or enum value accepted.
const maxTokenLen = 64

// isToken reports whether s is 1 to 64 bytes of ASCII lower-case letters,
// digits, '_' and '-'.
func isToken(s string) bool {
	if len(s) == 0 || len(s) > maxTokenLen {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// checkToken accepts a status or enum value that is a token, which every
// value the API documents is; name says which field in the error.
func checkToken[S ~string](name string, v S) error {
	if isToken(string(v)) {
		return nil
	}
	return fmt.Errorf("%s %s is not a status (lower-case letters, digits, _ and -, at most %d bytes)", name, answerText(string(v)), maxTokenLen)
}

// token records an enum field of an analytics row that is present and not
// a token (see checkToken); absent and null are the required-field checks'.
func (c *fieldCheck) token(name string, v jsonString) {
	if c.err == nil && v.present() {
		c.err = checkToken(name, v.s)
	}
}
