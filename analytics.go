package mintlify

// What every analytics route shares: the path prefix, dates, page limits,
// the query string, and the JSON field types that tell an absent, null or
// wrongly typed value from a real one. Each route lives in its own file
// (visitors.go, views.go, searches.go, feedback.go, assistant.go).
//
// All analytics routes share one quota: 100 requests per organization per
// hour. The iterators therefore ask for each route's largest page unless
// told otherwise.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/google/go-querystring/query"
)

// analyticsPath is the prefix of every analytics route; send replaces
// "{projectId}" with the client's escaped project ID.
const analyticsPath = "/v1/analytics/{projectId}/"

// analyticsQuery is the wire form of the parameters every analytics route
// shares: zero fields are not sent. The page position (offset or cursor)
// is added per page by position.appendTo.
type analyticsQuery struct {
	DateFrom string `url:"dateFrom,omitempty"`
	DateTo   string `url:"dateTo,omitempty"`
	Limit    int    `url:"limit,omitempty"`
	Source   string `url:"source,omitempty"`
	Status   string `url:"status,omitempty"`
}

// encodeQuery validates the shared parameters as the API would (the limit
// against the route's own range) and returns them as a query string.
func encodeQuery(from, to time.Time, limit, maxLimit int, source FeedbackSource, statuses []FeedbackStatus) (string, error) {
	if limit < 0 || limit > maxLimit {
		return "", invalidf("limit %d outside 1..%d (0 for the default)", limit, maxLimit)
	}
	if err := validateRange(from, to); err != nil {
		return "", err
	}
	status, err := encodeFilters(source, statuses)
	if err != nil {
		return "", err
	}
	v, err := query.Values(analyticsQuery{
		DateFrom: queryDate(from),
		DateTo:   queryDate(to),
		Limit:    limit,
		Source:   string(source),
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

// validateOffset rejects a negative offset.
func validateOffset(offset int) error {
	if offset < 0 {
		return invalidf("offset %d is negative", offset)
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

// analyticsTimeLayouts are the forms an analytics timestamp may take. The
// vendor schema types them as plain strings; times without a zone are UTC.
var analyticsTimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	time.DateOnly,
}

// parseAnalyticsTime reads an analytics timestamp. One that does not parse
// is the zero time, not an error: a stray format must not fail an export.
func parseAnalyticsTime(s string) time.Time {
	for _, layout := range analyticsTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// The JSON field types below record whether a field was present, so that a
// page's check method can refuse an answer missing a required field: a
// plain Go field cannot tell `{}` from zeros. They decode without
// reflection beyond encoding/json's own, so a walk stays as fast as a
// hand-written decode.

// jsonString is a JSON string field. null sets null; any other type is a
// decoding error.
type jsonString struct {
	s         string
	set, null bool
}

func (f *jsonString) UnmarshalJSON(b []byte) error {
	*f = jsonString{set: true}
	if string(b) == "null" {
		f.null = true
		return nil
	}
	if len(b) < 2 || b[0] != '"' {
		return errors.New("want a string")
	}
	inner := b[1 : len(b)-1]
	for _, c := range inner {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			// Escapes, control or non-ASCII bytes: let encoding/json
			// unquote them (and repair invalid UTF-8) as usual. Into a
			// local, so that f itself never escapes to the heap.
			var s string
			err := json.Unmarshal(b, &s)
			f.s = s
			return err
		}
	}
	f.s = string(inner)
	return nil
}

// present reports a field that is present and not null.
func (f jsonString) present() bool { return f.set && !f.null }

// jsonCount is a JSON number that holds a whole value (12 and 12.0, not
// 12.5): the vendor schema types counts as numbers. null leaves it unset.
type jsonCount struct {
	n   int
	set bool
}

func (f *jsonCount) UnmarshalJSON(b []byte) error {
	*f = jsonCount{}
	if string(b) == "null" {
		return nil
	}
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil && n >= math.MinInt && n <= math.MaxInt {
		f.n, f.set = int(n), true
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		return errors.New("want a number, got a string")
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return errors.New("want a number")
	}
	if x != math.Trunc(x) || x < math.MinInt || x >= math.MaxInt {
		return fmt.Errorf("count %v is not a whole number", x)
	}
	f.n, f.set = int(x), true
	return nil
}

// jsonNumber is a JSON number field, fractions allowed. null leaves it
// unset.
type jsonNumber struct {
	x   float64
	set bool
}

func (f *jsonNumber) UnmarshalJSON(b []byte) error {
	*f = jsonNumber{}
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && (b[0] == '"' || b[0] == 'I' || b[0] == 'N') {
		return errors.New("want a number")
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return errors.New("want a number")
	}
	f.x, f.set = x, true
	return nil
}

// jsonBool is a JSON boolean field. null leaves it unset.
type jsonBool struct {
	v, set bool
}

func (f *jsonBool) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "true":
		*f = jsonBool{v: true, set: true}
	case "false":
		*f = jsonBool{set: true}
	case "null":
		*f = jsonBool{}
	default:
		return errors.New("want true or false")
	}
	return nil
}

// jsonTime is a JSON string holding an analytics timestamp. One the SDK
// cannot read is the zero time, still present; null sets null.
type jsonTime struct {
	t         time.Time
	set, null bool
}

func (f *jsonTime) UnmarshalJSON(b []byte) error {
	*f = jsonTime{set: true}
	if string(b) == "null" {
		f.null = true
		return nil
	}
	if len(b) < 2 || b[0] != '"' {
		return errors.New("want a time string")
	}
	// RFC 3339 straight from the bytes, without a copy; the other forms
	// through a string.
	if f.t.UnmarshalJSON(b) == nil {
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		f.t = parseAnalyticsTime(s)
	}
	return nil
}

func (f jsonTime) present() bool { return f.set && !f.null }

// fieldCheck collects the first missing required field of an answer.
type fieldCheck struct{ err error }

// need records name as missing unless ok.
func (c *fieldCheck) need(ok bool, name string) {
	if !ok && c.err == nil {
		c.err = fmt.Errorf("required field %q is missing or null", name)
	}
}

// nullable records name as missing unless it was present, null or not.
func (c *fieldCheck) nullable(f jsonString, name string) {
	c.need(f.set, name)
}

// decodeRows decodes the JSON array b into *rows with row, one element at
// a time. The export routes decode their rows this way, straight into the
// public row type, rather than through encoding/json's reflection and an
// intermediate slice: that made a walk about 30% slower than a
// hand-written loop decoding plain fields (see BENCHMARKS.md). null leaves
// *rows nil, for the page's check to refuse; [] is an empty, present slice.
func decodeRows[R any](rows *[]R, b []byte, row func(*R, []byte) error) error {
	*rows = nil
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || b[0] != '[' {
		return errors.New("want a JSON array of rows")
	}
	out := []R{}
	for i := skipSpace(b, 1); i < len(b) && b[i] != ']'; {
		end := skipValue(b, i)
		if end < 0 {
			return errors.New("want a JSON array of rows")
		}
		var zero R
		out = append(out, zero)
		if err := row(&out[len(out)-1], b[i:end]); err != nil {
			return err
		}
		if i = skipSpace(b, end); i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	*rows = out
	return nil
}

// decodePathCounts reads a row of the visitors or views routes: path,
// human, ai and total, all required.
func decodePathCounts(r *PathVisitors, b []byte) error {
	var path jsonString
	var human, ai, total jsonCount
	m := members{b: b}
	for m.next() {
		switch string(m.key) {
		case "path":
			m.err = path.UnmarshalJSON(m.value)
		case "human":
			m.err = human.UnmarshalJSON(m.value)
		case "ai":
			m.err = ai.UnmarshalJSON(m.value)
		case "total":
			m.err = total.UnmarshalJSON(m.value)
		}
	}
	if m.err != nil {
		return m.err
	}
	if !path.present() || !human.set || !ai.set || !total.set {
		return errors.New(`a row lacks one of "path", "human", "ai", "total", or has it null`)
	}
	*r = PathVisitors{Path: path.s, Human: human.n, AI: ai.n, Total: total.n}
	return nil
}

// members walks the keys and raw values of a JSON object, in order, for
// decodeRows. b comes from encoding/json, which has checked that it is
// valid JSON; anything else is an error, never a panic. A null row has no
// members (its check then fails); a key with escapes is unquoted first.
// Keys match exactly, as the vendor spells them.
type members struct {
	b          []byte
	i          int // the next member starts at b[i]; 0 before the first
	key, value []byte
	err        error // set by next, or by the caller to stop
}

var errNotObject = errors.New("want a JSON object")

// next moves to the next member, reporting false at the end of the object
// or once err is set.
func (m *members) next() bool {
	b := m.b
	switch {
	case m.err != nil:
		return false
	case m.i == 0 && string(b) == "null":
		return false
	case m.i == 0:
		if len(b) == 0 || b[0] != '{' {
			m.err = errNotObject
			return false
		}
		m.i = 1
	}
	i := skipSpace(b, m.i)
	if i < len(b) && b[i] == ',' {
		i = skipSpace(b, i+1)
	}
	if i >= len(b) || b[i] == '}' {
		return false
	}
	end := skipValue(b, i)
	if end < 0 || b[i] != '"' {
		m.err = errNotObject
		return false
	}
	m.key = b[i+1 : end-1]
	if bytes.IndexByte(m.key, '\\') >= 0 {
		var k string
		if json.Unmarshal(b[i:end], &k) != nil {
			m.err = errNotObject
			return false
		}
		m.key = []byte(k)
	}
	if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
		m.err = errNotObject
		return false
	}
	i = skipSpace(b, i+1)
	if end = skipValue(b, i); end < 0 {
		m.err = errNotObject
		return false
	}
	m.value, m.i = b[i:end], end
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value starting at b[i], or -1 when
// b ends first.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				if j = skipValue(b, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// wireCounts are the site-wide totals of the visitors and views routes;
// set tells an object from an absent or null one.
type wireCounts struct {
	Human, AI, Total jsonCount
	set              bool
}

func (w *wireCounts) UnmarshalJSON(b []byte) error {
	*w = wireCounts{set: string(b) != "null"}
	m := members{b: b}
	for m.next() {
		switch string(m.key) {
		case "human":
			m.err = w.Human.UnmarshalJSON(m.value)
		case "ai":
			m.err = w.AI.UnmarshalJSON(m.value)
		case "total":
			m.err = w.Total.UnmarshalJSON(m.value)
		}
	}
	return m.err
}

// checkTraffic checks the shape visitors and views share: totals, rows
// under rowsName (each checked as it was decoded), hasMore.
func checkTraffic(totals wireCounts, hasRows bool, hasMore jsonBool, rowsName string) error {
	var c fieldCheck
	c.need(totals.set, "totals")
	if totals.set {
		c.need(totals.Human.set, "totals.human")
		c.need(totals.AI.set, "totals.ai")
		c.need(totals.Total.set, "totals.total")
	}
	c.need(hasRows, rowsName)
	c.need(hasMore.set, "hasMore")
	return c.err
}
