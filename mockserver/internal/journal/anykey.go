package journal

import (
	"net/url"
	"strings"
)

// anyKeyPrefix marks the service's admin keys.
const anyKeyPrefix = "mint_"

// anyKeyEnd lists the bytes that end a key written into a URL, a header or
// a message.
const anyKeyEnd = " \t\r\n\"'&=/?#;,()<>\\`"

// AnyKey replaces everything that looks like an admin key (the mint_
// prefix and the characters that follow it up to a delimiter) with
// mint_***, whatever the key: it needs no list of known keys, so it serves
// text a client wrote, such as a path, a query or a header a hostile or
// careless client put its key in. A percent-encoded key (once or twice) is
// found too: then the decoded text, scrubbed, is what is kept.
func AnyKey(s string) string {
	// A key escaped once or twice ("%6Dint_", "%256Dint_") is found in
	// the decoded text, which is then what is kept.
	for dec, i := s, 0; i < 3 && strings.IndexByte(dec, '%') >= 0; i++ {
		next, err := url.PathUnescape(dec)
		if err != nil || next == dec {
			break
		}
		if dec = next; anyKeyHasPrefix(dec) {
			s = dec
			break
		}
	}
	if !anyKeyHasPrefix(s) {
		return s
	}
	var b strings.Builder
	for {
		i := anyKeyIndex(s)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := i + len(anyKeyPrefix)
		n := strings.IndexAny(s[j:], anyKeyEnd)
		if n < 0 {
			n = len(s) - j
		}
		b.WriteString(s[:j])
		if n > 0 {
			b.WriteString("***")
		}
		s = s[j+n:]
	}
}

// anyKeyHasPrefix and anyKeyIndex ignore case: "MINT_..." is not a valid
// key, but it may be one retyped.
func anyKeyHasPrefix(s string) bool { return anyKeyIndex(s) >= 0 }

func anyKeyIndex(s string) int {
	for i := 0; ; i++ {
		j := strings.IndexAny(s[i:], "mM")
		if j < 0 {
			return -1
		}
		i += j
		if len(s)-i >= len(anyKeyPrefix) && strings.EqualFold(s[i:i+len(anyKeyPrefix)], anyKeyPrefix) {
			return i
		}
	}
}
