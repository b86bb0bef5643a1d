package analytics

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Spec is what one route accepts. Parameters a route does not take are
// ignored, as the service does.
type Spec struct {
	Route        string // the route's name, bound into its cursors
	MaxLimit     int    // 0: the route takes no limit
	DefaultLimit int
	Offset       bool // offset pages
	Cursor       bool // cursor pages
	ULIDCursor   bool // the cursor is a ULID (assistant), not an opaque token
	Filters      bool // source and status
}

// The routes' parameters, as the vendor documents them.
var (
	VisitorsSpec       = Spec{Route: "visitors", MaxLimit: 250, DefaultLimit: 50, Offset: true}
	ViewsSpec          = Spec{Route: "views", MaxLimit: 250, DefaultLimit: 50, Offset: true}
	SearchesSpec       = Spec{Route: "searches", MaxLimit: 100, DefaultLimit: 50, Cursor: true}
	FeedbackSpec       = Spec{Route: "feedback", MaxLimit: 100, DefaultLimit: 50, Cursor: true, Filters: true}
	FeedbackByPageSpec = Spec{Route: "feedback-by-page", MaxLimit: 100, DefaultLimit: 10, Filters: true}
	ConversationsSpec  = Spec{Route: "assistant", MaxLimit: 1000, DefaultLimit: 100, Cursor: true, ULIDCursor: true}
	CallerStatsSpec    = Spec{Route: "caller-stats"}
)

// Query is a validated request. From and To are unix nanoseconds, To
// exclusive; without dates they span all time.
type Query struct {
	From, To int64
	Limit    int
	Offset   int
	Cursor   string
	Source   Source    // "" = every source
	Statuses StatusSet // 0 = every status
	spec     *Spec
}

var queryKeys = []string{"dateFrom", "dateTo", "limit", "offset", "cursor", "source", "status"}

// ParseQuery validates raw (a URL's RawQuery) for the route, reporting every
// problem at once, one detail each: a client fixing its request should not
// have to go round once per mistake.
func ParseQuery(spec *Spec, raw string) (Query, error) {
	q := Query{From: math.MinInt64, To: math.MaxInt64, Limit: spec.DefaultLimit, spec: spec}
	var problems []string
	var seen [7]bool
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
		i := indexOf(queryKeys, key)
		if i < 0 {
			// Unknown parameters are ignored, as the service ignores them;
			// but "DateFrom" would silently export the default window, so
			// a parameter this route takes, spelt in another case, is
			// refused like a case-variant JSON key.
			for _, k := range queryKeys {
				if strings.EqualFold(k, key) && spec.takes(k) {
					problems = append(problems, quoteShort(key)+": unknown parameter; parameter names are case-sensitive: send "+k)
					break
				}
			}
			continue
		}
		if !spec.takes(key) {
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
			if err != nil || n < 1 || n > spec.MaxLimit {
				problems = append(problems, "limit: must be an integer from 1 to "+strconv.Itoa(spec.MaxLimit)+", got "+quoteShort(value))
			} else {
				q.Limit = n
			}
		case "offset":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				problems = append(problems, "offset: must be an integer of 0 or more, got "+quoteShort(value))
			} else {
				q.Offset = n
			}
		case "cursor":
			switch {
			case value == "":
				problems = append(problems, "cursor: must not be empty")
			case spec.ULIDCursor && !ValidULID(value):
				problems = append(problems, "cursor: must be a ULID (26 characters of Crockford base32), got "+quoteShort(value))
			default:
				q.Cursor = value
			}
		case "source":
			if s := Source(value); s.valid() {
				q.Source = s
			} else {
				problems = append(problems, "source: must be one of code_snippet, contextual, agent, thumbs_only; got "+quoteShort(value))
			}
		case "status":
			set, bad := parseStatuses(value)
			problems = append(problems, bad...)
			q.Statuses = set
		case "dateFrom", "dateTo":
			t, err := ParseDate(value)
			if err != nil {
				problems = append(problems, key+": must be an ISO 8601 date-time or YYYY-MM-DD, got "+quoteShort(value))
				break
			}
			if key == "dateFrom" {
				q.From, fromT, fromSet = unixNanoClamped(t), t, true
			} else {
				q.To, toT, toSet = unixNanoClamped(t), t, true
			}
		}
	}
	if fromSet && toSet && !fromT.Before(toT) {
		problems = append(problems, "dateFrom must be before dateTo (dateTo is exclusive)")
	}
	if len(problems) > maxProblems {
		// A hostile query of a thousand bad statuses must not make the
		// answer a thousand times its size.
		more := len(problems) - maxProblems
		problems = append(problems[:maxProblems], "... and "+strconv.Itoa(more)+" more problems")
	}
	if len(problems) > 0 {
		return Query{}, invalidQuery(problems...)
	}
	return q, nil
}

// maxProblems bounds the details of one refusal.
const maxProblems = 20

func (s *Spec) takes(key string) bool {
	switch key {
	case "limit":
		return s.MaxLimit > 0
	case "offset":
		return s.Offset
	case "cursor":
		return s.Cursor
	case "source", "status":
		return s.Filters
	}
	return true // the dates: every route but the thread takes them
}

func parseStatuses(value string) (StatusSet, []string) {
	var set StatusSet
	var problems []string
	for _, v := range strings.Split(value, ",") {
		bit := Status(v).bit()
		if bit == 0 {
			problems = append(problems, "status: each comma-separated value must be one of pending, in_progress, resolved, dismissed; got "+quoteShort(v))
			continue
		}
		set |= bit
	}
	return set, problems
}

func (q *Query) inWindow(t int64) bool { return t >= q.From && t < q.To }

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

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

// ParseDate reads a dateFrom or dateTo value.
func ParseDate(s string) (time.Time, error) {
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
