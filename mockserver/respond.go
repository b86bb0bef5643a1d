package mockserver

import (
	"strconv"
	"sync"
	"unicode/utf8"
)

// reply is what an endpoint produces. Endpoints return it instead of writing
// to the connection so that the fault layer can decide afterwards how (or
// whether) the client gets to see it.
type reply struct {
	status     int
	body       []byte
	retryAfter string  // the Retry-After header ("0" is a valid value); "" sends none
	html       bool    // body is text/html rather than JSON
	buf        *[]byte // pooled storage behind body, recycled once written
}

// Shared header values: assigning a ready slice skips canonicalisation and
// an allocation on every response.
var (
	jsonContentType = []string{"application/json"}
	htmlContentType = []string{"text/html; charset=utf-8"}
	versionValue    = []string{Version}
)

var bufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 2048)
	return &b
}}

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func putBuf(b *[]byte) {
	if b == nil || cap(*b) > 1<<20 {
		return // let outsized buffers go rather than pin them
	}
	*b = (*b)[:0]
	bufPool.Put(b)
}

func (r *reply) release() {
	putBuf(r.buf)
	r.buf = nil
}

// errorReply builds the service's error body:
// {"error": "...", "details": [{"message": "..."}]}. Every error the mock
// answers goes through here so the format cannot drift between endpoints.
func errorReply(status int, message string, details ...string) reply {
	return reply{status: status, body: appendError(nil, message, details)}
}

func appendError(b []byte, message string, details []string) []byte {
	b = append(b, `{"error":`...)
	b = appendJSONString(b, message)
	if len(details) > 0 {
		b = append(b, `,"details":[`...)
		for i, d := range details {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"message":`...)
			b = appendJSONString(b, d)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. Hand-written because the hot
// paths (job and visitors responses) must not allocate per field, and
// encoding/json cannot append to a caller's buffer.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			// Valid JSON, but not valid JavaScript: escape like encoding/json.
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
