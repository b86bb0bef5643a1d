package mockserver

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// A hostile or careless client puts its key where no key belongs: in the
// query string, in the path, as the method, as the scheme of its
// Authorization header. The journal, the logs and the error details repeat
// what the client sent, so all of them pass through scrubKeys first; and
// they repeat at most maxEcho bytes of any one value, so a megabyte path
// is not sent back as a megabyte of error.

// maxEcho bounds how much of a client's own value an error detail repeats.
const maxEcho = 128

// maxDetail bounds one error detail, whatever it holds.
const maxDetail = 1024

// clipDetail shortens a client's value for an error detail, cutting on a
// rune boundary and saying how much was left out.
func clipDetail(s string) string { return clipTo(s, maxEcho) }

func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "...(" + itoa64(int64(len(s)-cut)) + " more bytes)"
}

// keyEnd lists the bytes that end a key written into a URL, a header or
// a message.
const keyEnd = " \t\r\n\"'&=/?#;,()<>\\`"

// scrubKeys replaces everything that looks like an admin key (keyPrefix
// and the characters that follow it up to a delimiter) with keyPrefix***.
// A percent-encoded key (once or twice) is found too: then the decoded
// text, scrubbed, is what is kept.
func scrubKeys(s string) string {
	// A key escaped once or twice ("%6Dint_", "%256Dint_") is found in
	// the decoded text, which is then what is kept.
	for dec, i := s, 0; i < 3 && strings.IndexByte(dec, '%') >= 0; i++ {
		next, err := url.PathUnescape(dec)
		if err != nil || next == dec {
			break
		}
		if dec = next; hasKeyPrefix(dec) {
			s = dec
			break
		}
	}
	if !hasKeyPrefix(s) {
		return s
	}
	var b strings.Builder
	for {
		i := indexKeyPrefix(s)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := i + len(keyPrefix)
		n := strings.IndexAny(s[j:], keyEnd)
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

// hasKeyPrefix and indexKeyPrefix ignore case: "MINT_..." is not a valid
// key, but it may be one retyped.
func hasKeyPrefix(s string) bool { return indexKeyPrefix(s) >= 0 }

func indexKeyPrefix(s string) int {
	for i := 0; ; i++ {
		j := strings.IndexAny(s[i:], "mM")
		if j < 0 {
			return -1
		}
		i += j
		if len(s)-i >= len(keyPrefix) && strings.EqualFold(s[i:i+len(keyPrefix)], keyPrefix) {
			return i
		}
	}
}
