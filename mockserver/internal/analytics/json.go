package analytics

import (
	"strconv"
	"time"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Hand-written because answers
// are built in reused buffers and encoding/json cannot append to one.
// Invalid UTF-8 becomes U+FFFD, as encoding/json does.
func AppendString(b []byte, s string) []byte {
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

// appendNullable writes "" as null: the vendor's nullable strings.
func appendNullable(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return AppendString(b, s)
}

// AppendInt appends n as a JSON number.
func AppendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// TimeLayout is how every analytics time is written: RFC 3339 in UTC with
// milliseconds, like the service's other timestamps.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

func appendTime(b []byte, unixNano int64) []byte {
	b = append(b, '"')
	b = time.Unix(0, unixNano).UTC().AppendFormat(b, TimeLayout)
	return append(b, '"')
}

// appendKeysetEnd closes the rows of a keyset page (feedback, assistant)
// and writes its end: the cursor of the next page and hasMore, or null and
// false on the last page.
func appendKeysetEnd(b []byte, cursor string, hasMore bool) []byte {
	b = append(b, `],"nextCursor":`...)
	if !hasMore {
		return append(b, `null,"hasMore":false}`...)
	}
	b = AppendString(b, cursor)
	return append(b, `,"hasMore":true}`...)
}
