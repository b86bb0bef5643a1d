package punycode

import (
	"errors"
	"testing"
)

// TestEncodeRFC3492 encodes the sample strings of RFC 3492, section 7.1
// (their letters' case kept: the RFC's mixed-case annotations aside,
// Punycode copies ASCII letters as they are).
func TestEncodeRFC3492(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, out string }{
		{"(A) Arabic (Egyptian)", "\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F", "egbpdaj6bu4bxfgehfvwxn"},
		{"(B) Chinese (simplified)", "\u4ED6\u4EEC\u4E3A\u4EC0\u4E48\u4E0D\u8BF4\u4E2D\u6587", "ihqwcrb4cv8a8dqg056pqjye"},
		{"(C) Chinese (traditional)", "\u4ED6\u5011\u7232\u4EC0\u9EBD\u4E0D\u8AAA\u4E2D\u6587", "ihqwctvzc91f659drss3x8bo0yb"},
		{"(D) Czech", "Pro\u010Dprost\u011Bnemluv\u00ED\u010Desky", "Proprostnemluvesky-uyb24dma41a"},
		{"(E) Hebrew", "\u05DC\u05DE\u05D4\u05D4\u05DD\u05E4\u05E9\u05D5\u05D8\u05DC\u05D0\u05DE\u05D3\u05D1\u05E8\u05D9\u05DD\u05E2\u05D1\u05E8\u05D9\u05EA", "4dbcagdahymbxekheh6e0a7fei0b"},
		{"(I) Russian (lower case)", "почемужеонинеговорятпорусски", "b1abfaaepdrnnbgefbadotcwatmq2g4l"},
		{"(J) Spanish", "Porqu\u00E9nopuedensimplementehablarenEspa\u00F1ol", "PorqunopuedensimplementehablarenEspaol-fmd56a"},
		{"(K) Vietnamese", "T\u1EA1isaoh\u1ECDkh\u00F4ngth\u1EC3ch\u1EC9n\u00F3iti\u1EBFngVi\u1EC7t", "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"},
		{"(L) 3年B組金八先生", "3\u5E74B\u7D44\u91D1\u516B\u5148\u751F", "3B-ww4c5e180e575a65lsy2b"},
		{"(M) 安室奈美恵-with-SUPER-MONKEYS", "\u5B89\u5BA4\u5948\u7F8E\u6075-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"},
		{"(O) ひとつ屋根の下2", "\u3072\u3068\u3064\u5C4B\u6839\u306E\u4E0B2", "2-u9tlzr9756bt3uc0v"},
		{"(P) MajiでKoiする5秒前", "Maji\u3067Koi\u3059\u308B5\u79D2\u524D", "MajiKoi5-783gue6qz075azm5e"},
		{"(Q) パフィーdeルンバ", "\u30D1\u30D5\u30A3\u30FCde\u30EB\u30F3\u30D0", "de-jg4avhby1noc0d"},
		{"(R) そのスピードで", "\u305D\u306E\u30B9\u30D4\u30FC\u30C9\u3067", "d9juau41awczczp"},
		{"(S) -> $1.00 <-", "-> $1.00 <-", "-> $1.00 <--"},
	} {
		got, err := Encode(tc.in)
		if err != nil || got != tc.out {
			t.Errorf("%s: Encode = %q, %v; want %q", tc.name, got, err, tc.out)
		}
	}
}

// TestToASCII: hosts as browsers write them in an Origin header (the
// WHATWG URL parser of node 20 wrote these).
func TestToASCII(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"bücher.example":      "xn--bcher-kva.example",
		"Bücher.例え.テスト":       "xn--bcher-kva.xn--r8jz45g.xn--zckzah",
		"BÜCHER.example":      "xn--bcher-kva.example",
		"faß.de":              "xn--fa-hia.de",
		"☃.net":               "xn--n3h.net",
		"mañana.com":          "xn--maana-pta.com",
		"müller\u3002example": "xn--mller-kva.example",
		"docs.example.com":    "docs.example.com",
		"Docs.Example.COM":    "Docs.Example.COM", // ASCII is the caller's to lower-case
		"[::1]":               "[::1]",
	} {
		got, err := ToASCII(in)
		if err != nil || got != want {
			t.Errorf("ToASCII(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ToASCII("b\xffcher.example"); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid UTF-8: %v", err)
	}
}
