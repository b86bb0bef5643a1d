package redact

import (
	"encoding/base64"
	"slices"
	"strings"
)

// Redacted is what every recognised copy of the key becomes.
const Redacted = "[redacted]"

// afterHashes is what a copy of the key becomes right after "##": the
// GitHub Actions runner runs "##[" anywhere in a log line as a workflow
// command, so there the marker opens with a parenthesis instead.
const afterHashes = "(redacted)"

// MinEchoedPrefix is the shortest start of the key that is redacted
// wherever it appears: what is left of the key when a proxy cuts it short.
const MinEchoedPrefix = 12

// minKeyPrefix is the shortest tail that a cut text loses: a text cut
// short must not end in the first characters of the key.
const minKeyPrefix = 3

// Scrubber replaces every copy of the key in a text: as sent,
// percent-encoded, JSON-escaped, inside base64 (a proxy that echoes a
// Basic auth header), or a start of it of at least MinEchoedPrefix
// characters. With cut set, the text was cut short, and a tail that starts
// a copy goes too. The key lives only in the closure, which no fmt verb
// can print.
type Scrubber func(s string, cut bool) string

// New returns the scrubber of keys: a program holding keys of several
// APIs (admin, assistant, Index) keeps all of them out of what it shows.
// Empty keys scrub nothing.
func New(keys ...string) Scrubber {
	f := formsOf(keys)
	if f == nil {
		return func(s string, _ bool) string { return s }
	}
	return func(s string, cut bool) string {
		out, _ := f.scrub("", s, true, cut)
		return out
	}
}

// forms are the copies of the keys a text may hold: each key with any of
// its characters escaped as a URL (%6D) or JSON (\u006d, \/) encoder
// writes them, and the characters of its base64 that depend on it alone.
type forms struct {
	keys  []string
	cores []string  // base64, see base64Cores
	first [256]bool // the bytes a copy may start with
}

// formsOf returns the forms of the non-empty keys, nil if there are none.
func formsOf(keys []string) *forms {
	f := &forms{}
	f.first['%'], f.first['\\'] = true, true
	for _, k := range keys {
		if k == "" {
			continue
		}
		f.keys = append(f.keys, k)
		f.first[k[0]] = true
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			for _, core := range base64Cores(enc, k) {
				if !slices.Contains(f.cores, core) {
					f.cores = append(f.cores, core)
					f.first[core[0]] = true
				}
			}
		}
	}
	if len(f.keys) == 0 {
		return nil
	}
	return f
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

// scrub replaces the copies in s from the left: at each byte, the longest
// copy that starts there, and the scan goes on after it. before is the
// text that came just before s, for the marker after "##". Unless final,
// more text follows s: the scan stops at the first byte from which that
// text could still complete a copy, and held is the length of s from
// there, not scanned. With cut (final only), s was cut short: a tail that
// starts a copy, minKeyPrefix characters or more, is dropped.
func (f *forms) scrub(before, s string, final, cut bool) (out string, held int) {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if !f.first[s[i]] {
			continue
		}
		end, open, started := f.copyAt(s, i)
		if open && !final || open && cut && started {
			held = len(s) - i
			break
		}
		if end == i {
			continue
		}
		b.WriteString(s[last:i])
		if done := b.String(); strings.HasSuffix(before[max(0, len(before)-2):]+done[max(0, len(done)-2):], "##") {
			b.WriteString(afterHashes)
		} else {
			b.WriteString(Redacted)
		}
		last, i = end, end-1
	}
	if last == 0 {
		return s[:len(s)-held], held
	}
	b.WriteString(s[last : len(s)-held])
	return b.String(), held
}

// copyAt reads the copies that start at s[i]: end is the end of the
// longest (i if none), open reports that s ends inside one that more text
// could go on (or complete), and started that such an open copy already
// spells minKeyPrefix characters.
func (f *forms) copyAt(s string, i int) (end int, open, started bool) {
	end, c := i, s[i]
	escape := c == '%' || c == '\\'
	for _, k := range f.keys {
		for _, plain := range [...]bool{true, false} {
			if c != k[0] && (plain || !escape) {
				continue
			}
			e, n, o := spell(s, i, k, plain)
			if n == len(k) || n >= MinEchoedPrefix {
				end = max(end, e)
			}
			open, started = open || o, started || o && n >= minKeyPrefix
		}
	}
	rest := s[i:]
	for _, core := range f.cores {
		switch {
		case c != core[0]:
		case strings.HasPrefix(rest, core):
			end = max(end, i+len(core))
		case len(rest) < len(core) && strings.HasPrefix(core, rest):
			open, started = true, started || len(rest) >= minKeyPrefix
		}
	}
	return end, open, started
}

// spell reports how far s, from i on, spells the start of key, its
// characters as they are (plain) or each maybe escaped (see escapeOf): the
// end of the run, how many of key's characters it spells, and whether s
// ended inside the run.
func spell(s string, i int, key string, plain bool) (end, n int, open bool) {
	for ; n < len(key); n++ {
		if i == len(s) {
			return i, n, true
		}
		width, short := 0, false
		switch {
		case !plain:
			width, short = escapeOf(s[i:], key[n])
		case s[i] == key[n]:
			width = 1
		}
		switch {
		case short:
			return i, n, true
		case width == 0:
			return i, n, false
		}
		i += width
	}
	return i, n, false
}

// escapes are how an escape of a character starts, before its two hex
// digits: percent-encoded, JSON's \u, and either encoded once more by the
// SDK itself (a walk percent-encodes a server's cursor into its next URL,
// an error quotes a server's value with %q).
var escapes = [...]string{"%", `\u00`, "%25", `\\u00`, `%5cu00`}

// escapeOf is the width of the character c at the start of t, escaped (see
// escapes; \" \\ \/ for those three too) or else as it is; 0 when t starts
// with neither, and short when t ends before that can be told. An escape
// is tried first: a key holding % or \ is then found in the forms
// encoders write (%25, \\), as it is by spell's plain reading.
func escapeOf(t string, c byte) (width int, short bool) {
	if len(t) > 1 && t[0] == '\\' && t[1] == c && strings.IndexByte(`"\/`, c) >= 0 {
		return 2, false
	}
	for _, e := range escapes {
		if t[0] != e[0] {
			continue
		}
		w, s := foldPrefix(t, e, c)
		if w > 0 {
			return w, false
		}
		short = short || s
	}
	if !short && t[0] == c {
		return 1, false
	}
	return 0, short
}

// foldPrefix is the width of the escape of c that starts with lead when t
// starts with it, letters and hex digits in either case; 0 when it does
// not, and short when t ends while it still spells the escape's start. It
// compares in place: it runs at every escape of every text scrubbed.
func foldPrefix(t, lead string, c byte) (width int, short bool) {
	const hex = "0123456789abcdef"
	for i := range len(lead) + 2 {
		f := hex[c&15]
		switch {
		case i < len(lead):
			f = lead[i]
		case i == len(lead):
			f = hex[c>>4]
		}
		switch {
		case i == len(t):
			return 0, true
		case t[i] != f && !('a' <= f && f <= 'z' && t[i] == f-'a'+'A'):
			return 0, false
		}
	}
	return len(lead) + 2, false
}
