package analytics

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
)

// Signer seals cursors with an HMAC keyed per server. A cursor carries only
// its position; the MAC also covers what it was issued for (project, route,
// filters, date window), so a cursor used with another query, altered, or
// made up does not open, and the server keeps no cursor state at all.
type Signer struct{ key [32]byte }

// NewSigner draws a fresh key: cursors of one server never open on another.
func NewSigner() *Signer {
	s := &Signer{}
	_, _ = rand.Read(s.key[:]) // never fails on supported platforms
	return s
}

const macSize = 12 // 96 bits: forging one is out of reach of any test

// maxCursor is longer than any cursor this server issues (a feedback ID
// is the longest part); a longer one is refused before it is decoded.
const maxCursor = 1 << 10

// cursorEncoding is strict: the last character of unpadded base64 holds
// bits beyond the data, and a lenient decoder ignores them, so a cursor
// altered in its last character would still open.
var cursorEncoding = base64.RawURLEncoding.Strict()

func (s *Signer) mac(binding, position []byte) []byte {
	m := hmac.New(sha256.New, s.key[:])
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(binding)))
	m.Write(n[:])
	m.Write(binding)
	m.Write(position)
	return m.Sum(nil)[:macSize]
}

func (s *Signer) seal(binding, position []byte) string {
	return cursorEncoding.EncodeToString(append(position, s.mac(binding, position)...))
}

// open returns the position sealed in cursor, or a 400 when the cursor was
// not issued by this server for this very query.
func (s *Signer) open(binding []byte, cursor string) ([]byte, *Error) {
	if len(cursor) > maxCursor {
		return nil, badCursor("it is malformed")
	}
	raw, err := cursorEncoding.DecodeString(cursor)
	if err != nil || len(raw) < macSize {
		return nil, badCursor("it is malformed")
	}
	position, mac := raw[:len(raw)-macSize], raw[len(raw)-macSize:]
	if !hmac.Equal(mac, s.mac(binding, position)) {
		return nil, badCursor("it was altered, or issued for another project, route, filter or date window")
	}
	return position, nil
}

func badCursor(why string) *Error {
	return &Error{Message: "Invalid cursor",
		Details: []string{"cursor: not a cursor this server issued for this query: " + why + "; start again without a cursor"}}
}

// binding is what a cursor is issued for.
func (q *Query) binding(project string) []byte {
	b := make([]byte, 0, 64)
	b = append(b, q.spec.Route...)
	b = append(b, 0)
	b = append(b, project...)
	b = append(b, 0)
	b = binary.BigEndian.AppendUint64(b, uint64(q.From))
	b = binary.BigEndian.AppendUint64(b, uint64(q.To))
	b = append(b, q.Source...)
	b = append(b, 0, byte(q.Statuses))
	return b
}
