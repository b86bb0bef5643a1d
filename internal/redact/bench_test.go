package redact

import (
	"io"
	"strings"
	"testing"
)

// escapedJSON is 32 KiB of the JSON an export or a CLI prints: paths,
// percent escapes and \u escapes, none of them a key.
var escapedJSON = strings.Repeat(`{"path":"/docs/a%20b%2Fc","title":"caf\u00e9 \"quoted\"","n":12}`+"\n", 32<<10/66)

// Scrubbing text full of escapes, which start the search for an escaped
// key at every % and backslash.
func BenchmarkScrubEscapedJSON(b *testing.B) {
	scrub := New("mint_0123456789abcdefghijklmn")
	b.SetBytes(int64(len(escapedJSON)))
	for b.Loop() {
		_ = scrub(escapedJSON, false)
	}
}

// A Writer with mintctl's three keys, written 32 KiB at a time.
func BenchmarkWriterEscapedJSON(b *testing.B) {
	w := NewWriter(io.Discard, "mint_0123456789abcdefghijklmn", "mint_dsc_0123456789abcdefghij", "mint_us_0123456789abcdefghijk")
	chunk := []byte(escapedJSON)
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = w.Write(chunk)
	}
}
