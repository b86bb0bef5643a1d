// Package punycode writes a host name in the ASCII form browsers send in
// an Origin header: each label that is not ASCII as "xn--" and its
// Punycode (RFC 3492), so that an origin configured in Unicode
// ("https://bücher.example") matches the header a browser sends for it
// ("https://xn--bcher-kva.example").
//
// It lower-cases a name and encodes it; it applies none of IDNA's other
// mappings (Unicode normalization, width folding, the transitional
// rules): a name given in its usual form (NFC, lower case) comes out as
// browsers write it.
package punycode

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// The Bootstring parameters of Punycode (RFC 3492, section 5).
const (
	base        = 36
	tMin        = 1
	tMax        = 26
	skew        = 38
	damp        = 700
	initialBias = 72
	initialN    = 128
)

// ErrInvalid is a label Punycode cannot encode: not UTF-8, or too long
// for its arithmetic.
var ErrInvalid = errors.New("punycode: a label that cannot be encoded")

// ToASCII is host with each label that is not ASCII lower-cased and
// written "xn--" and its Punycode; labels also end at the full stops
// IDNA treats as dots (U+3002, U+FF0E, U+FF61). An ASCII host is
// returned as it is.
func ToASCII(host string) (string, error) {
	if ascii(host) {
		return host, nil
	}
	if !utf8.ValidString(host) {
		return "", ErrInvalid
	}
	host = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(host)
	labels := strings.Split(host, ".")
	for i, label := range labels {
		if ascii(label) {
			continue
		}
		code, err := Encode(strings.ToLower(label))
		if err != nil {
			return "", err
		}
		labels[i] = "xn--" + code
	}
	return strings.Join(labels, "."), nil
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Encode is the Punycode of label (RFC 3492, section 6.3), without the
// "xn--" prefix: its ASCII characters in order, a hyphen if there were
// any, then the others as digits of a variable-length integer code.
func Encode(label string) (string, error) {
	if !utf8.ValidString(label) {
		return "", ErrInvalid
	}
	input := []rune(label)
	var out []byte
	for _, r := range input {
		if r < initialN {
			out = append(out, byte(r))
		}
	}
	basic := len(out)
	if basic > 0 {
		out = append(out, '-')
	}
	n, delta, bias := rune(initialN), int32(0), int32(initialBias)
	for handled := basic; handled < len(input); {
		m := rune(utf8.MaxRune + 1)
		for _, r := range input {
			if r >= n && r < m {
				m = r
			}
		}
		step := int64(m-n) * int64(handled+1)
		if step > int64(maxInt32-delta) {
			return "", ErrInvalid
		}
		delta += int32(step)
		n = m
		for _, r := range input {
			if r < n {
				if delta == maxInt32 {
					return "", ErrInvalid
				}
				delta++
			}
			if r != n {
				continue
			}
			q := delta
			for k := int32(base); ; k += base {
				t := threshold(k, bias)
				if q < t {
					break
				}
				out = append(out, digit(t+(q-t)%(base-t)))
				q = (q - t) / (base - t)
			}
			out = append(out, digit(q))
			bias = adapt(delta, int32(handled+1), handled == basic)
			delta = 0
			handled++
		}
		delta++
		n++
	}
	return string(out), nil
}

const maxInt32 = 1<<31 - 1

// threshold is t(k) of RFC 3492, section 6.3: tMin, tMax or k - bias.
func threshold(k, bias int32) int32 {
	switch {
	case k <= bias:
		return tMin
	case k >= bias+tMax:
		return tMax
	}
	return k - bias
}

// adapt is the bias adaptation of RFC 3492, section 6.1.
func adapt(delta, points int32, first bool) int32 {
	if first {
		delta /= damp
	} else {
		delta /= 2
	}
	delta += delta / points
	k := int32(0)
	for delta > ((base-tMin)*tMax)/2 {
		delta /= base - tMin
		k += base
	}
	return k + (base-tMin+1)*delta/(delta+skew)
}

// digit is the basic code point of the digit d: a to z, then 0 to 9.
func digit(d int32) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}
