package mintlify

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/docsagent/mintlify-go/internal/redact"
)

// redactedError shows its error's text with the key scrubbed, while
// errors.Is and errors.As still see the whole chain.
type redactedError struct {
	err   error
	scrub redact.Scrubber
}

func (e *redactedError) Error() string { return e.scrub(e.err.Error(), false) }
func (e *redactedError) Unwrap() error { return e.err }

// redact makes sure err's text holds no copy of the key, wherever the text
// came from. Most errors need nothing; the check is on the error path only.
func (c *Client) redact(err error) error {
	if err == nil || c == nil || c.scrub == nil {
		return err
	}
	if msg := err.Error(); c.scrub(msg, false) != msg {
		var re *redactedError
		if errors.As(err, &re) {
			return err
		}
		return &redactedError{err: err, scrub: c.scrub}
	}
	return err
}

// redactHeader copies h with the key scrubbed from every value, and every
// header whose name holds the key renamed X-Redacted-N: net/http changes
// the case of a name, so names are matched without regard to case.
func (c *Client) redactHeader(h http.Header) http.Header {
	out := make(http.Header, len(h))
	hidden := 0
	for name, values := range h {
		clean := make([]string, len(values))
		for i, v := range values {
			clean[i] = c.scrub(v, false)
		}
		if c.keyInName(name) {
			hidden++
			name = "X-Redacted-" + strconv.Itoa(hidden)
		}
		out[name] = clean
	}
	return out
}

// keyInName reports a header name holding a long start of the key, as
// sent or percent-encoded, in any case.
func (c *Client) keyInName(name string) bool {
	if c.scrub(name, false) != name {
		return true
	}
	key := c.cred().key
	for _, form := range [...]string{key, url.QueryEscape(key)} {
		start := form[:min(redact.MinEchoedPrefix, len(form))]
		for i := 0; start != "" && i+len(start) <= len(name); i++ {
			if strings.EqualFold(name[i:i+len(start)], start) {
				return true
			}
		}
	}
	return false
}
