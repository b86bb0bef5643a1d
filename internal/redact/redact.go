package redact

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Redacted is what every recognised copy of the key becomes.
const Redacted = "[redacted]"

// MinEchoedPrefix is the shortest start of the key that is redacted
// wherever it appears: what is left of the key when a proxy cuts it short.
const MinEchoedPrefix = 12

// minKeyPrefix is the shortest tail that a cut text loses: a text cut
// short must not end in the first characters of the key.
const minKeyPrefix = 3

// Scrubber replaces every copy of the key in a text: as sent,
// percent-encoded, JSON-escaped, and inside base64 (a proxy that echoes a
// Basic auth header), whatever the bytes around it. With cut set, the text
// was cut short, and a tail that is the start of the key goes too. The key
// lives only in the closure, which no fmt verb can print.
type Scrubber func(s string, cut bool) string

// afterHashes is what a copy of the key becomes right after "##": the
// GitHub Actions runner runs "##[" anywhere in a log line as a workflow
// command, so there the marker opens with a parenthesis instead.
const afterHashes = "(redacted)"

// New returns the scrubber of keys: a program holding keys of several
// APIs (admin, assistant, Index) keeps all of them out of what it shows.
// Empty keys scrub nothing.
func New(keys ...string) Scrubber {
	all := formsOfAll(keys)
	if len(all) == 0 {
		return func(s string, _ bool) string { return s }
	}
	return func(s string, cut bool) string {
		return scrubAll(all, "", s, cut)
	}
}

// scrubAll scrubs s of every key's forms. before is the text that came
// just before s (a writer's last bytes), so that a marker after "##" is
// written as afterHashes even when the hashes came in an earlier write.
func scrubAll(all []*forms, before, s string, cut bool) string {
	out := s
	for _, f := range all {
		out = f.scrub(out, cut)
	}
	if out == s || !strings.Contains(before+out, "##"+Redacted) {
		return out
	}
	// The two markers have one length: the text before out keeps its place.
	return strings.ReplaceAll(before+out, "##"+Redacted, "##"+afterHashes)[len(before):]
}

// formsOfAll returns the forms of each non-empty key.
func formsOfAll(keys []string) []*forms {
	var all []*forms
	for _, k := range keys {
		if k != "" {
			all = append(all, formsOf(k))
		}
	}
	return all
}

// forms are the copies of one key that a text may hold.
type forms struct {
	key string
	// span is the longest text that spells the key escaped (encodedAt).
	span int
	// needles are replaced wherever they appear.
	needles []string
	// starts are the key's textual forms: a long enough start of any of
	// them is redacted too (a proxy's echo cut short, then escaped into a
	// URL).
	starts []string
}

func formsOf(key string) *forms {
	needles := []string{key, url.QueryEscape(key), url.PathEscape(key)}
	if j, err := json.Marshal(key); err == nil {
		escaped := strings.Trim(string(j), `"`)
		needles = append(needles, escaped, strings.ReplaceAll(escaped, "/", `\/`))
	}
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
	return &forms{key: key, span: maxEncodedChar * len(key), needles: unique(needles), starts: starts}
}

func (f *forms) scrub(s string, cut bool) string {
	for _, n := range f.needles {
		if strings.Contains(s, n) {
			s = strings.ReplaceAll(s, n, Redacted)
		}
	}
	s = redactEncoded(s, f.key, min(MinEchoedPrefix, len(f.key)), cut)
	for _, start := range f.starts {
		s = redactKeyPrefixes(s, start)
	}
	if cut {
		s = trimNeedlePrefix(s, f.needles)
	}
	return s
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

// redactKeyPrefixes replaces every run of text that starts the key and is
// at least MinEchoedPrefix long (or the whole key, when shorter).
func redactKeyPrefixes(s, key string) string {
	least := min(MinEchoedPrefix, len(key))
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
		b.WriteString(Redacted)
		s = s[i+n:]
	}
}

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
