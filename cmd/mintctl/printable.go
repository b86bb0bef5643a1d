package main

import (
	"fmt"
	"strings"
	"unicode"
)

// printable shows a text from the server on one line with its control
// characters made visible (ESC as ^[, a line break as ^J): a job's link,
// a deployment's logs or an error body could otherwise move the cursor,
// retitle the terminal or forge lines of a CI log. A text that would start
// a GitHub Actions workflow command (::) starts with a backslash instead.
// --json, CSV and JSON Lines keep the text as sent.
func printable(s string) string {
	if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, "::") {
		// The GitHub Actions runner reads a log line that starts with ::
		// as a workflow command (set an output, mask, stop commands):
		// server text never starts one.
		s = s[:len(s)-len(t)] + `\` + t
	}
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || !isControl(r):
			b.WriteRune(r)
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 64)
		case r == 0x7f:
			b.WriteString("^?")
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

func isControl(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}

// printableLines splits a text from the server into printable lines.
func printableLines(s string) []string {
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n"), "\n")
	for i, l := range lines {
		lines[i] = printable(l)
	}
	return lines
}
