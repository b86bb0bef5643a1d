package mintlify

// What every analytics route shares: the parameters and their query
// string, dates, and the wire types of visitors and views. Each route
// lives in its own file (visitors.go, views.go, searches.go, feedback.go,
// conversations.go) as a route value (pagination.go) and its types.
//
// All analytics routes share one quota: 100 requests per organization per
// hour. The iterators therefore ask for each route's largest page unless
// told otherwise.

import (
	"hash/maphash"
	"net/url"
	"strconv"
	"time"

	"github.com/google/go-querystring/query"
)

// analyticsPath is the prefix of every analytics route; the request path
// puts the client's escaped project ID in place of "{projectId}".
const analyticsPath = "/v1/analytics/{projectId}/"

// params are the parameters of every analytics route, whatever public
// params type they come from; zero fields are not sent.
type params struct {
	from, to time.Time
	limit    int
	at       position // where the first page starts
	source   FeedbackSource
	statuses []FeedbackStatus
}

// analyticsQuery is the wire form of the shared parameters: zero fields
// are not sent. The page position (offset or cursor) is added per page by
// position.appendTo.
type analyticsQuery struct {
	DateFrom string `url:"dateFrom,omitempty"`
	DateTo   string `url:"dateTo,omitempty"`
	Limit    int    `url:"limit,omitempty"`
	Source   string `url:"source,omitempty"`
	Status   string `url:"status,omitempty"`
}

// encode validates p as the API would (the limit against the route's
// largest page) and returns the query string without the position.
func (p params) encode(maxLimit int) (string, error) {
	if p.at.offset < 0 {
		return "", invalidf("offset %d is negative", p.at.offset)
	}
	if p.limit < 0 || p.limit > maxLimit {
		return "", invalidf("limit %d outside 1..%d (0 for the default)", p.limit, maxLimit)
	}
	if err := validateRange(p.from, p.to); err != nil {
		return "", err
	}
	status, err := encodeFilters(p.source, p.statuses)
	if err != nil {
		return "", err
	}
	v, err := query.Values(analyticsQuery{
		DateFrom: queryDate(p.from),
		DateTo:   queryDate(p.to),
		Limit:    p.limit,
		Source:   string(p.source),
		Status:   status,
	})
	if err != nil {
		return "", invalidf("encoding query: %v", err)
	}
	return v.Encode(), nil
}

// validateRange rejects a date range the server would refuse: years RFC
// 3339 cannot write, and DateFrom not before DateTo (DateTo is exclusive).
func validateRange(from, to time.Time) error {
	switch {
	case !inRFC3339Range(from) || !inRFC3339Range(to):
		return invalidf("dates %s..%s: years must be 0000 to 9999", from, to)
	case !from.IsZero() && !to.IsZero() && !asSent(from).Before(asSent(to)):
		return invalidf("DateFrom %s is not before DateTo %s (DateTo is exclusive)",
			queryDate(from), queryDate(to))
	}
	return nil
}

// position is where a page starts: an offset for offset routes, a cursor
// for cursor routes ("" for the first page).
type position struct {
	offset int
	cursor string
}

// appendTo adds the position to an encoded query. The shared parameters
// are encoded once per walk; only this part changes from page to page.
func (p position) appendTo(q string) string {
	var extra string
	switch {
	case p.cursor != "":
		extra = "cursor=" + url.QueryEscape(p.cursor)
	case p.offset > 0:
		extra = "offset=" + strconv.Itoa(p.offset)
	default:
		return q
	}
	if q == "" {
		return extra
	}
	return q + "&" + extra
}

// inRFC3339Range reports whether t has four-digit years where it is and in
// UTC (queryDate may write it either way).
func inRFC3339Range(t time.Time) bool {
	local, utc := t.Year(), t.UTC().Year()
	return min(local, utc) >= 0 && max(local, utc) <= 9999
}

// queryDate writes t in the shortest form the API reads exactly: a calendar
// day for a midnight, else RFC 3339 (with fractions only when present).
func queryDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if isMidnight(t) {
		return t.Format(time.DateOnly)
	}
	if _, offset := t.Zone(); offset%60 != 0 {
		t = t.UTC() // RFC 3339 offsets have no seconds (old local mean times do)
	}
	return t.Format(time.RFC3339Nano)
}

func isMidnight(t time.Time) bool {
	h, m, s := t.Clock()
	return h == 0 && m == 0 && s == 0 && t.Nanosecond() == 0
}

// asSent is the instant the server reads from queryDate(t): a calendar day
// means its UTC midnight, whatever t's location. Validation compares these,
// so it rejects exactly what the server would.
func asSent(t time.Time) time.Time {
	if isMidnight(t) {
		y, m, d := t.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return t
}

// wireCounts are the site-wide totals of the visitors and views routes.
type wireCounts struct {
	Human jsonCount `json:"human"`
	AI    jsonCount `json:"ai"`
	Total jsonCount `json:"total"`
}

func (w *wireCounts) complete() bool { return w.Human.set && w.AI.set && w.Total.set }

// wirePathCounts is a row of the visitors or views routes.
type wirePathCounts struct {
	Path jsonString `json:"path"`
	wireCounts
}

// trafficRoute is the route of the visitors or views export, which share
// their paging and row identity: offset pages of at most 250 rows, one
// per path. page converts the checked answer; rows and more read the
// page's rows and its hasMore.
func trafficRoute[W, P any, R PathVisitors | PathViews](path string, page func(*W) *P, rows func(*P) *[]R, more func(*P) bool) *route[W, P, R] {
	return &route[W, P, R]{
		path:     path,
		maxLimit: limitOf[upTo250](),
		page:     page,
		rows:     rows,
		next:     func(p *P) (string, bool) { return "", more(p) },
		key:      func(seed maphash.Seed, r R) uint64 { return hashString(seed, PathVisitors(r).Path) },
	}
}

// checkTraffic checks the shape visitors and views share: totals, rows
// under rowsName, hasMore.
func checkTraffic(totals *wireCounts, rows []wirePathCounts, hasMore jsonBool, rowsName string) error {
	var c fieldCheck
	c.need(totals != nil && totals.complete(), "totals.human, ai, total")
	c.need(rows != nil, rowsName)
	for i := range rows {
		if !rows[i].Path.present() || !rows[i].complete() {
			c.need(false, rowsName+"[].path, human, ai, total")
		}
	}
	c.need(hasMore.set, "hasMore")
	return c.err
}
