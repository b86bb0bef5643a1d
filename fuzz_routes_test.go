package mintlify

// FuzzScrubber reaches the scrubber that removes the key from every text
// the SDK shows. The fuzz targets for what the client reads from the
// network are in fuzz_test.go.

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// FuzzScrubber puts a key, in one of the forms a proxy echoes it in, into
// any text and scrubs it: no form of the key, nor a piece of it as long as
// the redaction promises (minEchoedPrefix), may survive; a text cut short
// must not end in the key's first characters.
func FuzzScrubber(f *testing.F) {
	f.Add("mint_sk_live_7hQ2pX9vLr4TzW8mN3bKc5yJ", "Bearer ", " trailing", uint8(0), uint8(0))
	f.Add("mint_sk_<live>&9vLr4+TzW/8mN3bKc5yJ=", `{"error":"`, `"}`, uint8(1), uint8(5))
	f.Add("mint_a/b+c=d&e<f>g\"h\\i", "x", "", uint8(2), uint8(20))
	f.Add("mint_0123456789abcdef", "user:", "", uint8(3), uint8(3))
	f.Add("mint_sk_live_7hQ2pX9vLr4TzW8mN3bKc5yJ", "cursor=", "", uint8(4), uint8(7))
	f.Fuzz(func(t *testing.T, key, before, after string, form, cut uint8) {
		if !strings.HasPrefix(key, "mint_") || len(key) < 16 || len(key) > 200 ||
			strings.IndexFunc(key, func(r rune) bool { return r <= ' ' || r >= 0x7f }) >= 0 {
			t.Skip("not a key NewClient accepts")
		}
		j, _ := json.Marshal(key)
		escaped := strings.Trim(string(j), `"`)
		forms := []string{
			key, url.QueryEscape(key), url.PathEscape(key), escaped,
			base64.StdEncoding.EncodeToString([]byte("user:" + key)),
			strings.Trim(strconv.Quote(escaped), `"`), url.QueryEscape(escaped),
		}
		echo := forms[int(form)%len(forms)]
		scrub := newScrubber(key)
		got := scrub(before+echo+after, false)
		for _, f := range forms[:4] {
			if strings.Contains(got, f) {
				t.Fatalf("form %q of the key survives: %q", f, got)
			}
		}
		if strings.Contains(got, key[:minEchoedPrefix]) {
			t.Fatalf("the key's first %d characters survive: %q", minEchoedPrefix, got)
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
