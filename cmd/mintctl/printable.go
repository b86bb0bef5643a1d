package main

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// printable is the one way mintctl prints a text from the server (an ID,
// a status, a link, a summary, a log line, an error body, analytics text,
// a spinner's label) as text, on a terminal or in a CI log. Its result is
// one line that can neither drive a terminal nor run as a GitHub Actions
// workflow command, wherever it stands in a line of mintctl's:
//
//   - C0 controls, DEL, C1 controls, the line and paragraph separators,
//     the bidirectional controls and the byte-order mark are shown
//     escaped: a control below space in caret notation (ESC as ^[, a line
//     feed as ^J, a carriage return as ^M, DEL as ^?), the others as
//     \uXXXX, a byte that is not UTF-8 as \xNN. Tab stays.
//   - The runner runs a line that starts with "::" once it has stripped
//     leading white space (.NET char.IsWhiteSpace: the Unicode spaces too,
//     U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000, ...). A text
//     that starts with ":" after such white space gets a backslash before
//     the colon, so neither it alone nor it after mintctl's indentation
//     starts a command.
//   - The runner's older parser runs "##[" anywhere in a line: each "##["
//     is written "#\#[".
//
// mintctl's own messages (cobra's "Did you mean this?" included) are not
// passed through it. Data on stdout (JSON, JSON Lines) goes through
// safeJSON instead, and CSV is never written to a CI log (see export).
func printable(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	lead := true // only white space so far
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
			lead = false
		case r == '\t':
			b.WriteByte('\t')
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 64)
			lead = false
		case r == 0x7f:
			b.WriteString("^?")
			lead = false
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
			lead = false
		case lead && isRunnerSpace(r):
			b.WriteRune(r)
		case lead && r == ':':
			b.WriteString(`\:`)
			lead = false
		case r == '#' && strings.HasPrefix(s[i:], "##["):
			b.WriteString(`#\#[`)
			size = 3
			lead = false
		default:
			b.WriteRune(r)
			lead = false
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s prints as itself: printable ASCII (and tab)
// that neither starts with a colon after white space nor holds "##[".
func isPlain(s string) bool {
	if strings.Contains(s, "##[") || strings.HasPrefix(strings.TrimLeft(s, " \t"), ":") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// isControl reports the runes that printable shows escaped besides C0 and
// DEL: C1 controls (U+0085 among them), the line and paragraph separators,
// the bidirectional controls (which reorder what a reader sees) and the
// byte-order mark.
func isControl(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\ufeff' || unicode.Is(unicode.Bidi_Control, r)
}

// isRunnerSpace reports the white space the runner strips before it looks
// for "::": .NET's char.IsWhiteSpace is Unicode White_Space, which Go's
// unicode.IsSpace matches; U+180E and U+200B were white space in older
// Unicode versions, so they count too.
func isRunnerSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\u180e' || r == '\u200b'
}

// printableLines splits a text from the server into lines where the
// runner would (\n, \r and \r\n) and makes each printable. A text that
// ends with a line break has no empty last line.
func printableLines(s string) []string {
	s = strings.TrimRight(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = printable(l)
	}
	return lines
}

// printLines prints a text from the server line by line (printableLines),
// each after indent; an empty line stays empty.
func printLines(w io.Writer, indent, s string) {
	for _, line := range printableLines(s) {
		if line == "" {
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "%s%s\n", indent, line)
	}
}

// textf writes mintctl's format with every text argument (a string, a
// named string type such as a status, an error, a Stringer) made
// printable: the format is mintctl's own, the arguments may come from the
// server.
func textf(w io.Writer, format string, args ...any) (int, error) {
	return fmt.Fprintf(w, format, printableArgs(args)...)
}

func printableArgs(args []any) []any {
	out := make([]any, len(args))
	for i, v := range args {
		switch v := v.(type) {
		case nil:
			out[i] = v
		case string:
			out[i] = printable(v)
		case error:
			out[i] = printable(v.Error())
		case fmt.Stringer:
			out[i] = printable(v.String())
		default:
			if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
				out[i] = printable(rv.String())
			} else {
				out[i] = v
			}
		}
	}
	return out
}

// safeJSON rewrites encoded JSON so that a CI log cannot act on it, and
// every decoder still reads the same values: DEL, the C1 controls and the
// runes printable escapes become \u escapes (encoding/json already escapes
// C0 and U+2028/U+2029), and the second # of each "##[" becomes \u0023.
// All of these can only stand inside strings: JSON's own syntax is ASCII
// without #. b must be valid UTF-8, as encoding/json writes it.
func safeJSON(b []byte) []byte {
	clean := true
	for i := 0; i < len(b); i++ {
		if c := b[i]; c >= 0x7f || (c == '#' && i+2 < len(b) && b[i+1] == '#' && b[i+2] == '[') {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '#' && i+2 < len(b) && b[i+1] == '#' && b[i+2] == '[':
			out = append(out, `#\u0023[`...)
			i += 3
			continue
		case c < 0x7f:
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7f || isControl(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}
