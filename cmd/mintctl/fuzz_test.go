package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzPrintable: a printed server text holds no control character, no
// "##[", and starts no GitHub Actions workflow command, alone or after
// mintctl's indentation (the runner trims every Unicode space).
func FuzzPrintable(f *testing.F) {
	f.Add("::set-output name=status::success")
	f.Add("\x1b[2J\r\n\u202e\x85")
	f.Add("\u00a0\u3000::add-mask::x ###[ ##[")
	f.Add("\xff\xfe:")
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range append(printableLines(s), printable(s)) {
			for _, shown := range []string{line, "  " + line, "\u00a0" + line} {
				if strings.HasPrefix(strings.TrimLeftFunc(shown, unicode.IsSpace), "::") {
					t.Fatalf("%q prints as a workflow command %q", s, shown)
				}
			}
			if strings.Contains(line, "##[") {
				t.Fatalf("%q prints the legacy command prefix in %q", s, line)
			}
			if i := strings.IndexFunc(line, func(r rune) bool { return r != '\t' && (isControl(r) || r == utf8.RuneError) }); i >= 0 {
				t.Fatalf("%q prints a control character in %q", s, line)
			}
		}
	})
}

// FuzzSafeJSON: JSON made safe for a CI log is still valid, decodes to the
// same value, and holds no "##[", DEL or C1 control.
func FuzzSafeJSON(f *testing.F) {
	f.Add("##[add-mask]x \u009b\x7f ###[")
	f.Add("\u2028\u202e#")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(map[string]string{s: s})
		if err != nil {
			t.Skip()
		}
		safe := safeJSON(b)
		var got map[string]string
		if err := json.Unmarshal(safe, &got); err != nil {
			t.Fatalf("%q: %v", safe, err)
		}
		var want map[string]string
		_ = json.Unmarshal(b, &want)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q decodes to %q, want %q", safe, got, want)
		}
		if bytes.Contains(safe, []byte("##[")) {
			t.Fatalf("%q holds ##[", safe)
		}
		for _, r := range string(safe) {
			if r == 0x7f || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("%q holds %U", safe, r)
			}
		}
	})
}
