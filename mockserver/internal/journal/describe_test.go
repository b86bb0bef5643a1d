package journal

import "testing"

func TestAuthorizationKeepsTheSchemeOnly(t *testing.T) {
	for in, want := range map[string]string{
		"Bearer mint_x": "Bearer mint_***", "Bearer other": "Bearer ***", "Basic dXNlcg==": "Basic ***", "mint_x": "***",
		"Token abc": "Token ***", "Digest-X y": "Digest-X ***",
		// A credential where the scheme goes (the key's base64, here of
		// mint_redteamkey000001) once showed its first 20 characters:
		// 15 bytes of the key.
		"bWludF9yZWR0ZWFta2V5MDAwMDAx x": "***", "AVeryLongSchemeNameIndeed x": "***",
	} {
		if got := Authorization([]string{in}); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	if Authorization(nil) != "" {
		t.Error("no header")
	}
}

func TestPrefixedKeepsTheKindOnly(t *testing.T) {
	prefixes := []string{"mint_dsc_", "mint_us_", "mint_"}
	for key, want := range map[string]string{
		"mint_dsc_secret": "mint_dsc_***", "mint_us_secret": "mint_us_***", "mint_secret": "mint_***",
		"sk_secret": "***", "": "***", "mint": "***",
	} {
		if got := Prefixed(key, prefixes...); got != want {
			t.Errorf("%q: %q, want %q", key, got, want)
		}
	}
}
