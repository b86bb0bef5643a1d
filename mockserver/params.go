package mockserver

import (
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Page-size bounds of the visitors export, as the service documents them.
const (
	DefaultLimit = 50
	MaxLimit     = 250
)

type visitorsQuery struct {
	from, to      int64 // unix nanoseconds; to is exclusive
	limit, offset int
}

// parseVisitorsQuery validates the export's parameters, reporting every
// problem at once (one detail each) rather than the first: a client fixing
// its request should not have to go round once per mistake. Parameters the
// export does not know are ignored, as the service does.
func parseVisitorsQuery(raw string) (visitorsQuery, []string) {
	q := visitorsQuery{from: math.MinInt64, to: math.MaxInt64, limit: DefaultLimit}
	var problems []string
	var seen [4]bool
	var fromT, toT time.Time
	var fromSet, toSet bool
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		key, err1 := unescape(key)
		value, err2 := unescape(value)
		if err1 != nil || err2 != nil {
			problems = append(problems, "malformed query string near "+quoteShort(pair))
			continue
		}
		i := slices.Index(visitorsParams, key)
		if i < 0 {
			continue
		}
		if seen[i] {
			problems = append(problems, key+": given more than once")
			continue
		}
		seen[i] = true
		switch key {
		case "limit":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > MaxLimit {
				problems = append(problems, "limit: must be an integer from 1 to 250, got "+quoteShort(value))
			} else {
				q.limit = n
			}
		case "offset":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				problems = append(problems, "offset: must be an integer of 0 or more, got "+quoteShort(value))
			} else {
				q.offset = n
			}
		case "dateFrom", "dateTo":
			t, err := parseDate(value)
			if err != nil {
				problems = append(problems, key+": must be an ISO 8601 date-time or YYYY-MM-DD, got "+quoteShort(value))
				break
			}
			if key == "dateFrom" {
				q.from, fromT, fromSet = unixNanoClamped(t), t, true
			} else {
				q.to, toT, toSet = unixNanoClamped(t), t, true
			}
		}
	}
	if fromSet && toSet && !fromT.Before(toT) {
		problems = append(problems, "dateFrom must be before dateTo (dateTo is exclusive)")
	}
	return q, problems
}

var visitorsParams = []string{"dateFrom", "dateTo", "limit", "offset"}

func unescape(s string) (string, error) {
	if !strings.ContainsAny(s, "%+") {
		return s, nil // the common case allocates nothing
	}
	return url.QueryUnescape(s)
}

// dateLayouts accepts what the service documents, "ISO 8601 or YYYY-MM-DD":
// a date (midnight UTC) or a date-time, with or without seconds, fraction
// and offset (no offset means UTC).
var dateLayouts = []string{
	"2006-01-02",
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
}

func parseDate(s string) (time.Time, error) {
	var err error
	for _, layout := range dateLayouts {
		var t time.Time
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// unixNanoClamped keeps far-away dates ordered: UnixNano is undefined
// outside about 1678..2262, but "from the year 1000" is a fine request.
func unixNanoClamped(t time.Time) int64 {
	switch {
	case t.Year() < 1678:
		return math.MinInt64 + 1
	case t.Year() > 2261:
		return math.MaxInt64
	}
	return t.UnixNano()
}

func quoteShort(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return strconv.Quote(s)
}
