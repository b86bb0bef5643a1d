package redact

import "strings"

// A hostile server, or a proxy between, can echo the key with any of its
// characters escaped, not only the ones an encoder must escape: "%6Dint_"
// (a URL encoder that escapes every byte), "%256D" (that, escaped again),
// "\u006dint_" (a JSON encoder that escapes letters too, which JSON.parse
// in a browser and every decoder read back as the key), "\\u006d" (that,
// quoted once more). No fixed list of needles holds every mix of these,
// so they are matched character by character.

// encodedEscapes are the bytes that start an escape encodedAt reads.
const encodedEscapes = `%\`

// mayStart reports whether a run spelling key may start with c: key's
// first character, or an escape. It is asked of every byte scrubbed.
func mayStart(c byte, key string) bool { return c == key[0] || c == '%' || c == '\\' }

// maxEncodedChar is the longest escape of one character, which a Writer
// holds back whole: "%25XX", or "u00XX" after maxBackslashes backslashes.
const maxEncodedChar = maxBackslashes + len(`u00XX`)

// maxBackslashes is the most backslashes an escape is read with. A JSON
// escape has one, and each quoting doubles them (as %q quotes a server's
// value): two, then four. Seven reads escapes quoted twice over; an escape
// with eight or more is not read, so a key JSON-escaped, then quoted three
// times, is not found. Bounding them lets a Writer bound what it holds
// back.
const maxBackslashes = 7

// encodedAt reports how far s, from i on, spells the start of key with
// each character as it is or escaped: percent-encoded once or twice (%6D,
// %256D, hex digits in either case) or JSON-escaped (\u006d, after up to
// maxBackslashes backslashes, for an escape that was itself escaped). It
// returns the end of the run, how many of key's characters it spells, and
// whether s ended inside the run (more text might go on spelling the key).
func encodedAt(s string, i int, key string) (end, n int, open bool) {
	for n < len(key) {
		if i == len(s) {
			return i, n, true
		}
		c := key[n]
		if s[i] == c {
			i++
			n++
			continue
		}
		width, ok, short := escapeOf(s[i:], c)
		switch {
		case short:
			return i, n, true
		case !ok:
			return i, n, false
		}
		i += width
		n++
	}
	return i, n, false
}

// escapeOf reports whether t starts with an escape of the character c
// (ok, and its width), or ends before one could be told from another
// text (short).
func escapeOf(t string, c byte) (width int, ok, short bool) {
	const hex = "0123456789abcdef"
	hi, lo := hex[c>>4], hex[c&15]
	switch t[0] {
	case '%':
		if ok, short = foldPrefix(t, '%', hi, lo); ok {
			return 3, true, false
		}
		ok, again := foldPrefix(t, '%', '2', '5', hi, lo) // escaped again
		if ok {
			return 5, true, false
		}
		return 0, false, short || again
	case '\\':
		// Up to maxBackslashes: the whole text and a Writer's parts of it
		// then read a long run of them alike.
		j := 1
		for j < len(t) && t[j] == '\\' && j <= maxBackslashes {
			j++
		}
		switch {
		case j > maxBackslashes:
			return 0, false, false
		case j == len(t):
			return 0, false, true // only backslashes so far
		}
		if ok, short = foldPrefix(t[j:], 'u', '0', '0', hi, lo); ok {
			return j + 5, true, false
		}
		return 0, false, short
	}
	return 0, false, false
}

// foldPrefix reports whether t starts with form, ASCII letters in either
// case (ok), or ends while it still spells form's start (short). It
// compares in place: it runs at every escape of every text scrubbed.
func foldPrefix(t string, form ...byte) (ok, short bool) {
	for i, f := range form {
		if i == len(t) {
			return false, true
		}
		if t[i] != f && t[i]|0x20 != f|0x20 {
			return false, false
		}
	}
	return true, false
}

// redactEncoded replaces every run of s that spells at least least of
// key's first characters, escaped or not (see encodedAt). With cut set, s
// was cut short: a run that reaches its end spelling at least
// minKeyPrefix characters is dropped too.
func redactEncoded(s, key string, least int, cut bool) string {
	if !strings.ContainsAny(s, encodedEscapes) {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if !mayStart(s[i], key) {
			continue
		}
		end, n, open := encodedAt(s, i, key)
		switch {
		case n >= least:
			b.WriteString(s[last:i])
			b.WriteString(Redacted)
			last, i = end, end-1
		case cut && open && n >= minKeyPrefix:
			b.WriteString(s[last:i])
			last, i = len(s), len(s)
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// encodedTail is the length of the longest tail of s from which the text
// may go on to spell key escaped: a Writer holds it back until it knows.
func encodedTail(s, key string) int {
	for i := 0; i < len(s); i++ {
		if !mayStart(s[i], key) {
			continue
		}
		if _, _, open := encodedAt(s, i, key); open {
			return len(s) - i
		}
	}
	return 0
}
