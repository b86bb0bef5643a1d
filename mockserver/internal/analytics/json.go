package analytics

import "time"

// Answers are the routes' JSON bodies as Go values, which the server writes
// with encoding/json: members in the order of the struct fields, as the
// vendor's examples show them.

// TimeLayout is how every analytics time is written: RFC 3339 in UTC with
// milliseconds, like the service's other timestamps.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// timeText writes an instant, in nanoseconds since the epoch, as the
// routes do.
func timeText(unixNano int64) string { return time.Unix(0, unixNano).UTC().Format(TimeLayout) }

// nullable is s, or null for "": the vendor's nullable strings.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// keysetEnd is the end of a keyset page (feedback, assistant): the cursor
// of the next page and hasMore, or null and false on the last page.
type keysetEnd struct {
	NextCursor *string `json:"nextCursor"`
	HasMore    bool    `json:"hasMore"`
}

func endAt(cursor string, hasMore bool) keysetEnd {
	if !hasMore {
		return keysetEnd{}
	}
	return keysetEnd{NextCursor: &cursor, HasMore: true}
}
