package journal

import "testing"

func TestAnyKey(t *testing.T) {
	for in, want := range map[string]string{
		"":                            "",
		"no key here, mom":            "no key here, mom",
		"admin keys start with mint_": "admin keys start with mint_",
		"mint_abc":                    "mint_***",
		"a=mint_abc&b=mint_def":       "a=mint_***&b=mint_***",
		"/v1/mint_abc/views":          "/v1/mint_***/views",
		"MINT_abc mInT_x":             "MINT_*** mInT_***",
		"token=%6Dint_abc&x=%41":      "token=mint_***&x=A",
		"token=%256Dint_abc":          "token=mint_***",
		"token=mint%255Fabc%2526x":    "token=mint_***&x",
		"token=mint%5Fabc":            "token=mint_***",
		"bad%zzescape mint_abc":       "bad%zzescape mint_***",
		`got "mint_abc"`:              `got "mint_***"`,
		"(mint_abc) mint_":            "(mint_***) mint_",
		"mmmmint_abc":                 "mmmmint_***",
		"mint_a.b-c_d~e":              "mint_***",
	} {
		if got := AnyKey(in); got != want {
			t.Errorf("AnyKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkAnyKeyTypicalPath(b *testing.B) {
	p := "/v1/analytics/proj_abcdefghijkl/views"
	q := "dateFrom=2025-01-01&dateTo=2025-02-01&limit=250&offset=500"
	for b.Loop() {
		_ = AnyKey(p)
		_ = AnyKey(q)
	}
}
