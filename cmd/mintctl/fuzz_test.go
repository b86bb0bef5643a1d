package main

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzPrintable: a printed server text holds no control character and
// never starts a GitHub Actions workflow command.
func FuzzPrintable(f *testing.F) {
	f.Add("::set-output name=status::success")
	f.Add("\x1b[2J\r\n\u202e\x85")
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range printableLines(s) {
			if strings.HasPrefix(strings.TrimSpace(line), "::") {
				t.Fatalf("%q prints as a workflow command %q", s, line)
			}
			if i := strings.IndexFunc(line, func(r rune) bool { return r != '\t' && unicode.IsControl(r) }); i >= 0 {
				t.Fatalf("%q prints a control character in %q", s, line)
			}
		}
	})
}
