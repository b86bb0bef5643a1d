package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
)

// FuzzRedactWriter: however a text is cut into writes, what comes out is
// the text with every copy of the key redacted, byte for byte.
func FuzzRedactWriter(f *testing.F) {
	const key = "mint_fuzzkey0123456789"
	f.Add("before "+key+" after", uint8(3))
	f.Add(key[:5]+key+key[:12], uint8(1))
	f.Add("mmmmint_fuzzkey0123456789m", uint8(7))
	f.Fuzz(func(t *testing.T, text string, size uint8) {
		n := int(size)%32 + 1
		var out bytes.Buffer
		w := newRedactWriter(&out, keyNeedles(key))
		for rest := text; rest != ""; {
			k := min(n, len(rest))
			if _, err := w.Write([]byte(rest[:k])); err != nil {
				t.Fatal(err)
			}
			rest = rest[k:]
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if want := strings.ReplaceAll(text, key, redacted); out.String() != want {
			t.Fatalf("writes of %d bytes:\n got %q\nwant %q", n, out.String(), want)
		}
	})
}

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
