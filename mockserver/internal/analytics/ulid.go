package analytics

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"time"
)

// crockford is the ULID alphabet (Crockford's base32: no I, L, O, U).
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ValidULID reports whether s is a ULID: 26 characters of Crockford base32,
// the first at most 7 (128 bits). Lower case is accepted, as the spec
// allows; IDs are compared in upper case.
func ValidULID(s string) bool {
	if len(s) != 26 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(crockford, upper(s[i])) < 0 {
			return false
		}
	}
	return s[0] <= '7'
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// newULID makes a ULID for time t with randomness from rng: the
// millisecond time first, so IDs sort by creation.
func newULID(t time.Time, rng *rand.Rand) string {
	var b [16]byte
	ms := uint64(max(t.UnixMilli(), 0))
	binary.BigEndian.PutUint64(b[:8], ms<<16)
	binary.BigEndian.PutUint64(b[8:], rng.Uint64())
	binary.BigEndian.PutUint16(b[6:8], uint16(rng.Uint32()))
	// 128 bits as 26 base32 digits, the first carrying 3 bits.
	var out [26]byte
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}
