package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Run by count in CI:
//
//	go test -run '^$' -fuzz '^FuzzScrubber$' -fuzztime 20000x ./internal/redact/
//	go test -run '^$' -fuzz '^FuzzWriter$' -fuzztime 20000x ./internal/redact/

// FuzzScrubber puts a key, in one of the forms a proxy echoes it in, into
// any text and scrubs it: no form of the key, nor a piece of it as long as
// the redaction promises (MinEchoedPrefix), may survive; a text cut short
// must not end in the key's first characters.
func FuzzScrubber(f *testing.F) {
	f.Add("mint_sk_live_7hQ2pX9vLr4TzW8mN3bKc5yJ", "Bearer ", " trailing", uint8(0), uint8(0))
	f.Add("mint_sk_<live>&9vLr4+TzW/8mN3bKc5yJ=", `{"error":"`, `"}`, uint8(1), uint8(5))
	f.Add("mint_a/b+c=d&e<f>g\"h\\i", "x", "", uint8(2), uint8(20))
	f.Add("mint_0123456789abcdef", "user:", "", uint8(3), uint8(3))
	f.Add("mint_sk_live_7hQ2pX9vLr4TzW8mN3bKc5yJ", "cursor=", "", uint8(4), uint8(7))
	f.Add("mint_sk_live_7hQ2pX9vLr4TzW8mN3bKc5yJ", "%", "\\", uint8(6), uint8(40))
	f.Fuzz(func(t *testing.T, key, before, after string, form, cut uint8) {
		if !strings.HasPrefix(key, "mint_") || len(key) < 16 || len(key) > 200 ||
			strings.IndexFunc(key, func(r rune) bool { return r <= ' ' || r >= 0x7f }) >= 0 {
			t.Skip("not a key the SDK accepts")
		}
		j, _ := json.Marshal(key)
		escaped := strings.Trim(string(j), `"`)
		basic := base64.StdEncoding.EncodeToString([]byte("user:" + key))
		forms := []string{
			key, url.QueryEscape(key), url.PathEscape(key), escaped,
			escapeEvery(key, func(c byte) string { return fmt.Sprintf(`\u%04x`, c) }),
			escapeEvery(key, func(c byte) string { return fmt.Sprintf("%%%02X", c) }),
			basic, strings.Trim(strconv.Quote(escaped), `"`), url.QueryEscape(escaped),
		}
		echo := forms[int(form)%len(forms)]
		scrub := New(key)
		got := scrub(before+echo+after, false)
		for _, f := range forms[:6] {
			if strings.Contains(got, f) {
				t.Fatalf("form %q of the key survives: %q", f, got)
			}
		}
		// The characters of the base64 that depend on the key alone.
		if core := basic[8 : len(basic)-4]; strings.Contains(got, core) {
			t.Fatalf("the key's base64 %q survives: %q", core, got)
		}
		if strings.Contains(got, key[:MinEchoedPrefix]) {
			t.Fatalf("the key's first %d characters survive: %q", MinEchoedPrefix, got)
		}
		// Cut short: the text ends inside the echo.
		n := len(before) + min(int(cut), len(echo))
		text := (before + echo + after)[:n]
		got = scrub(text, true)
		for _, f := range forms[:4] {
			for k := minKeyPrefix; k <= len(f) && k <= len(got); k++ {
				if strings.HasSuffix(got, f[:k]) && !strings.HasSuffix(before, f[:k]) {
					t.Fatalf("the cut text ends in %q, the start of the key: %q", f[:k], got)
				}
			}
		}
	})
}

const echoKey = "mint_echoed0123456789abcdefSECRET"

// writeInPieces writes text to a new Writer of keys in writes of size
// bytes, then flushes it, and returns what came out.
func writeInPieces(t testing.TB, text string, size int, keys ...string) string {
	var out bytes.Buffer
	w := NewWriter(&out, keys...)
	for rest := text; rest != ""; {
		n := min(size, len(rest))
		k, err := w.Write([]byte(rest[:n]))
		require.NoError(t, err)
		require.Equal(t, n, k)
		rest = rest[n:]
	}
	require.NoError(t, w.Flush())
	return out.String()
}

// The key is redacted even when it reaches the writer in pieces, and the
// text around it is kept byte for byte.
func TestWriterAcrossWrites(t *testing.T) {
	t.Parallel()
	text := "before " + echoKey + " middle " + echoKey + echoKey + " after m"
	want := "before [redacted] middle [redacted][redacted] after m"
	for size := 1; size <= len(text); size++ {
		require.Equal(t, want, writeInPieces(t, text, size, echoKey), "writes of %d bytes", size)
	}
	assert.Equal(t, "a short key", writeInPieces(t, "a short key", 3, ""), "no key: nothing held back, nothing replaced")
}

// The writer redacts what the scrubber does: an escaped copy, a copy
// inside base64, a start of the key cut short, each split across writes.
func TestWriterScrubsAsTheScrubber(t *testing.T) {
	t.Parallel()
	texts := []string{
		"link https://x.test/?k=" + url.QueryEscape(echoKey+"/+") + "&more",
		`{"error":"Bearer ` + echoKey + `"}`,
		"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+echoKey)) + "\n",
		"cut short: " + echoKey[:MinEchoedPrefix+3] + "...",
		"ends in a start: " + echoKey[:MinEchoedPrefix+1],
		"a flood: " + strings.Repeat(`\\`, 300) + "u006d" + echoKey[1:MinEchoedPrefix+2] + "!",
	}
	for _, text := range texts {
		want := New(echoKey)(text, false)
		for size := 1; size <= len(text); size++ {
			got := writeInPieces(t, text, size, echoKey)
			require.Equal(t, want, got, "%q in writes of %d bytes", text, size)
			require.NotContains(t, got, echoKey[:MinEchoedPrefix])
		}
	}
}

// FuzzWriter: however a text is cut into writes, what comes out is the
// whole text scrubbed, byte for byte.
func FuzzWriter(f *testing.F) {
	const key = "mint_fuzzkey0123456789"
	f.Add("before "+key+" after", uint8(3))
	f.Add(key[:5]+key+key[:12], uint8(1))
	f.Add("mmmmint_fuzzkey0123456789m", uint8(7))
	f.Add(key[:13]+"1p", uint8(1)) // "1p" starts a base64 copy of the key
	f.Fuzz(func(t *testing.T, text string, size uint8) {
		n := int(size)%32 + 1
		if got, want := writeInPieces(t, text, n, key), New(key)(text, false); got != want {
			t.Fatalf("writes of %d bytes:\n got %q\nwant %q", n, got, want)
		}
	})
}

// The writer agrees with the scrubber on texts where copies of the key
// meet and overlap: a start of the key running into a base64 copy that
// begins with the key's next character, an escaped character ending a
// run, hashes before a marker. Every join of three pieces, in writes of
// every size.
func TestWriterWhereCopiesMeet(t *testing.T) {
	t.Parallel()
	const key = "mint_fuzzkey0123456789"
	core := formsOf([]string{key}).cores[1] // the base64 copy that starts "1p"
	pieces := []string{
		key[:5], key[:12], key[:13], key[:21], key, core[:2], core, core[:9],
		"%31", `\u0031`, "%6d", "p", "m", "##",
	}
	scrub := New(key)
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				text := a + b + c
				want := scrub(text, false)
				for size := 1; size <= len(text); size++ {
					if got := writeInPieces(t, text, size, key); got != want {
						t.Fatalf("%q in writes of %d bytes:\n got %q\nwant %q", text, size, got, want)
					}
				}
			}
		}
	}
}

// Two keys that share their first 16 characters (an admin and an
// assistant key of one organization), their copies and pieces of them
// joined at random and written in writes of random sizes: the writer
// agrees with the scrubber. The seed is fixed, so a failure repeats.
func TestWriterRandomJoins(t *testing.T) {
	t.Parallel()
	keys := []string{"mint_fuzzkey0123456789", "mint_fuzzkey0123abcdefgh"}
	pieces := []string{"%31", `\u0031`, `\\`, "%", "%25", "%6d", "%256D", "p", "m", "##", `\\u0030`, "1", "%7", `\u00`, "_"}
	for _, k := range keys {
		pieces = append(pieces, k[:5], k[:12], k[:13], k)
		for _, n := range append(formsOf([]string{k}).cores, url.QueryEscape(k+"/"), `\u006d`+k[1:]) {
			pieces = append(pieces, n, n[:2], n[:len(n)/2], n[len(n)/2:])
		}
	}
	scrub := New(keys...)
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		var text strings.Builder
		for range 1 + r.IntN(6) {
			p := pieces[r.IntN(len(pieces))]
			if r.IntN(4) == 0 {
				p = p[r.IntN(len(p)):] // a copy's end
			}
			text.WriteString(p)
		}
		size := 1 + r.IntN(text.Len())
		require.Equal(t, scrub(text.String(), false), writeInPieces(t, text.String(), size, keys...), "%q in writes of %d bytes", text.String(), size)
	}
}

// A made-up key whose start repeats inside it, fed a byte at a time: the
// writer passes text on as it comes, holding back a bounded tail, not the
// whole text.
func TestWriterHoldsBackABoundedTail(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	w := NewWriter(&out, strings.Repeat("a", 16))
	for range 20000 {
		_, err := w.Write([]byte("a"))
		require.NoError(t, err)
	}
	assert.Greater(t, out.Len(), 0, "nothing passed on before Flush")
	require.NoError(t, w.Flush())
	assert.NotContains(t, out.String(), strings.Repeat("a", MinEchoedPrefix))
}

// Several keys (a program holding an admin and an assistant key): each is
// scrubbed, by the scrubber and by a writer cut anywhere.
func TestSeveralKeys(t *testing.T) {
	const admin, assistant = "mint_admin_0123456789abcdef", "mint_dsc_assistant_0123456789"
	text := "a=" + admin + " b=" + url.QueryEscape(assistant) + " c=" + assistant[:14]
	want := "a=" + Redacted + " b=" + Redacted + " c=" + Redacted
	if got := New(admin, assistant)(text, false); got != want {
		t.Fatalf("scrubber: got %q, want %q", got, want)
	}
	for size := 1; size <= len(text); size++ {
		if got := writeInPieces(t, text, size, admin, "", assistant); got != want {
			t.Fatalf("writes of %d bytes: got %q, want %q", size, got, want)
		}
	}
}

// A key right after "##" never leaves "##[", which the GitHub Actions
// runner runs as a workflow command anywhere in a line: not from the
// scrubber, not from a writer, whichever write the hashes came in.
func TestMarkerNeverCompletesAWorkflowCommand(t *testing.T) {
	const key = "mint_hashes_0123456789abcdef"
	text := "a##" + key + " b ##" + key[:13] + " c #" + key
	want := "a##(redacted) b ##(redacted) c #[redacted]"
	if got := New(key)(text, false); got != want {
		t.Fatalf("scrubber: got %q, want %q", got, want)
	}
	assert.Equal(t, "no key ##[here]", New(key)("no key ##[here]", false), "text without a key is left as it is")
	for size := 1; size <= len(text); size++ {
		assert.Equal(t, want, writeInPieces(t, text, size, key), "writes of %d bytes", size)
	}
}

// escapeEvery writes each byte of s with esc, whatever it is: what a
// hostile server or proxy may do to echo the key past a list of forms.
func escapeEvery(s string, esc func(c byte) string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(esc(s[i]))
	}
	return b.String()
}

// encodedEchoes are copies of echoKey with some or all of its characters
// escaped as URL and JSON encoders write them: each byte percent-encoded
// (once or twice, either case), each letter JSON-escaped (as JSON.parse
// and every decoder read back the key), that quoted once more, only the
// first or the last character escaped, and a mix.
func encodedEchoes() map[string]string {
	pct := func(c byte) string { return fmt.Sprintf("%%%02X", c) }
	return map[string]string{
		"percent every byte":         escapeEvery(echoKey, pct),
		"percent every byte, lower":  strings.ToLower(escapeEvery(echoKey, pct)),
		"percent every byte, twice":  url.QueryEscape(escapeEvery(echoKey, pct)),
		"JSON-escape every byte":     escapeEvery(echoKey, func(c byte) string { return fmt.Sprintf(`\u%04x`, c) }),
		"JSON-escape, quoted again":  escapeEvery(echoKey, func(c byte) string { return fmt.Sprintf(`\\u%04X`, c) }),
		"JSON-escape the first byte": `\u006d` + echoKey[1:],
		"JSON-escape the last byte":  echoKey[:len(echoKey)-1] + fmt.Sprintf(`\u%04x`, echoKey[len(echoKey)-1]),
		"percent the first byte":     "%6d" + echoKey[1:],
		"a mix": escapeEvery(echoKey, func(c byte) string {
			switch c % 3 {
			case 0:
				return fmt.Sprintf(`\u%04x`, c)
			case 1:
				return fmt.Sprintf("%%%02x", c)
			}
			return string(c)
		}),
	}
}

// decodeEscapes reads every escape a reader of a log could undo: percent
// (twice) and JSON's \u.
func decodeEscapes(s string) string {
	for range 3 {
		s = strings.NewReplacer(`\\`, `\`).Replace(s)
		if u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`); err == nil {
			s = u
		}
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
	}
	return s
}

// A text cut short inside an escape loses the start of the key before it
// too, as a text cut inside the key's plain characters does.
func TestCutInsideAnEscape(t *testing.T) {
	t.Parallel()
	scrub := New(echoKey)
	for _, text := range []string{"x " + echoKey[:8] + "%6", "x " + echoKey[:8] + `\u00`, "x %6Dint_ec%25"} {
		assert.Equal(t, "x ", scrub(text, true), text)
	}
}

// The key with any of its characters escaped is redacted as the key is,
// by the scrubber and by a writer however the text is cut into writes;
// the text around it is kept.
func TestEncodedEchoes(t *testing.T) {
	t.Parallel()
	scrub := New(echoKey)
	for name, echo := range encodedEchoes() {
		require.Contains(t, decodeEscapes(echo), echoKey, "%s: the echo decodes to the key", name)
		text := `{"error":"bad key ` + echo + `", "at": 5}`
		want := `{"error":"bad key ` + Redacted + `", "at": 5}`
		assert.Equal(t, want, scrub(text, false), name)
		for size := 1; size <= len(text); size += 1 + size/8 {
			assert.Equal(t, want, writeInPieces(t, text, size, echoKey), "%s in writes of %d bytes", name, size)
		}
		// Cut short inside the echo: what is left does not end in a start
		// of the key.
		for n := len(`{"error":"bad key `) + 1; n < len(text)-10; n++ {
			got := scrub(text[:n], true)
			assert.NotContains(t, decodeEscapes(got), echoKey[:minKeyPrefix+1], "%s cut at %d: %q", name, n, got)
		}
	}
	// Escapes of other text, and of less of the key than MinEchoedPrefix,
	// are left alone.
	for _, s := range []string{
		`50% of \u006d and %6D%69%6E%74 and \\ and %`,
		`\u006d\u0069\u006e\u0074\u005f\u0065\u0063\u0068\u006f\u0065\u0064 is eleven`,
		`%`, `\`, `%2`, `\u00`, `%6Dint_echoe is not: ` + echoKey[:4] + `X`,
	} {
		assert.Equal(t, s, scrub(s, false))
		assert.Equal(t, s, writeInPieces(t, s, 1, echoKey))
	}
}
