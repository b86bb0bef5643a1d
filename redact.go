package mintlify

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// redacted is what every recognised copy of the key becomes.
const redacted = "[redacted]"

// scrubber replaces every copy of the key in a text: as sent,
// percent-encoded, JSON-escaped, and inside base64 (a proxy that echoes a
// Basic auth header), whatever the bytes around it. With cut set, the text
// was cut short, and a tail that is the start of the key goes too. The key
// lives only in the closure, which no fmt verb can print.
type scrubber func(s string, cut bool) string

func newScrubber(key string) scrubber {
	if key == "" {
		return func(s string, _ bool) string { return s }
	}
	needles := []string{key, url.QueryEscape(key), url.PathEscape(key)}
	if j, err := json.Marshal(key); err == nil {
		escaped := strings.Trim(string(j), `"`)
		needles = append(needles, escaped, strings.ReplaceAll(escaped, "/", `\/`))
	}
	// The key's textual forms: a long enough start of any of them is
	// redacted too (a proxy's echo cut short, then escaped into a URL).
	starts := unique(append([]string(nil), needles...))
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		needles = append(needles, base64Cores(enc, key)...)
	}
	// An echo may be encoded once more on its way to a text: an error
	// quotes a server's value (%q doubles a JSON escape's backslash), a
	// walk escapes a server's cursor into the next request's URL (logged).
	for _, n := range needles[:len(needles):len(needles)] {
		needles = append(needles, strings.Trim(strconv.Quote(n), `"`), url.QueryEscape(n))
	}
	needles = unique(needles)
	return func(s string, cut bool) string {
		for _, n := range needles {
			if strings.Contains(s, n) {
				s = strings.ReplaceAll(s, n, redacted)
			}
		}
		for _, start := range starts {
			s = redactKeyPrefixes(s, start)
		}
		if cut {
			s = trimNeedlePrefix(s, needles)
		}
		return s
	}
}

// base64Cores returns, for each of the three alignments the key can have
// inside a base64 text, the characters that depend on the key's bytes
// alone.
func base64Cores(enc *base64.Encoding, key string) []string {
	var cores []string
	for offset, skip := range [...]int{0, 2, 3} {
		s := enc.EncodeToString(append(make([]byte, offset), key...))[skip:]
		if (offset+len(key))%3 != 0 {
			s = s[:len(s)-1] // its last character mixes in the next byte
		}
		if len(s) >= 8 {
			cores = append(cores, s)
		}
	}
	return cores
}

// unique drops empty and repeated strings from ss, in place, keeping the
// order: the scrubber tries each needle once.
func unique(ss []string) []string {
	out := ss[:0]
	for _, s := range ss {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// minEchoedPrefix is the shortest start of the key that is redacted
// wherever it appears: what is left of the key when a proxy cuts it short.
const minEchoedPrefix = 12

// redactKeyPrefixes replaces every run of text that starts the key and is
// at least minEchoedPrefix long (or the whole key, when shorter).
func redactKeyPrefixes(s, key string) string {
	least := min(minEchoedPrefix, len(key))
	start := key[:least]
	if !strings.Contains(s, start) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, start)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		n := least
		for n < len(key) && i+n < len(s) && s[i+n] == key[n] {
			n++
		}
		b.WriteString(s[:i])
		b.WriteString(redacted)
		s = s[i+n:]
	}
}

// minKeyPrefix is the shortest tail that trimNeedlePrefix removes: a text
// cut short must not end in the first characters of the key.
const minKeyPrefix = 3

// trimNeedlePrefix drops a tail of s that is the start of a needle: what is
// left when a text holding the key was cut short.
func trimNeedlePrefix(s string, needles []string) string {
	for _, n := range needles {
		for k := min(len(n)-1, len(s)); k >= minKeyPrefix; k-- {
			if strings.HasSuffix(s, n[:k]) {
				s = s[:len(s)-k]
				break
			}
		}
	}
	return s
}

// redactedError shows its error's text with the key scrubbed, while
// errors.Is and errors.As still see the whole chain.
type redactedError struct {
	err   error
	scrub scrubber
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
		start := form[:min(minEchoedPrefix, len(form))]
		for i := 0; start != "" && i+len(start) <= len(name); i++ {
			if strings.EqualFold(name[i:i+len(start)], start) {
				return true
			}
		}
	}
	return false
}
