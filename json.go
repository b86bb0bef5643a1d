package mintlify

// One way to read and write the API's JSON, for every route: an answer is
// decoded into a wire struct whose tags spell the API's names (each area's
// file has its own), its check method refuses one whose required fields
// are absent, null or of the wrong type, and a conversion builds the public
// type. Public result types marshal as the API: struct tags where their Go
// shape is the API's, else a MarshalJSON through the same wire struct (and
// an UnmarshalJSON that reads it back). The field types below record
// whether a value was present and whether it was null, which a plain Go
// field cannot tell from zero.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// jsonString is a string field. null sets null; any other type is an
// error. It marshals as null when null or absent.
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
		return typeError(b, "")
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

func (f jsonString) MarshalJSON() ([]byte, error) { return orNull(f.present(), f.s) }

// present reports a field that is present and not null.
func (f jsonString) present() bool { return f.set && !f.null }

// str is a present string; nullable is one the API sends as null when
// there is none.
func str(s string) jsonString      { return jsonString{s: s, set: true} }
func nullable(s string) jsonString { return jsonString{s: s, set: true, null: s == ""} }

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
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return typeError(b, 0)
	}
	if x != math.Trunc(x) || x < math.MinInt || x >= math.MaxInt {
		return fmt.Errorf("count %v is not a whole number", x)
	}
	f.n, f.set = int(x), true
	return nil
}

func (f jsonCount) MarshalJSON() ([]byte, error) { return orNull(f.set, f.n) }

func count(n int) jsonCount { return jsonCount{n: n, set: true} }

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
	x, err := strconv.ParseFloat(string(b), 64) // JSON strings, true and false do not parse
	if err != nil {
		return typeError(b, 0.0)
	}
	f.x, f.set = x, true
	return nil
}

func (f jsonNumber) MarshalJSON() ([]byte, error) { return orNull(f.set, f.x) }

func number(x float64) jsonNumber { return jsonNumber{x: x, set: true} }

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
		return typeError(b, false)
	}
	return nil
}

func (f jsonBool) MarshalJSON() ([]byte, error) { return orNull(f.set, f.v) }

func boolean(v bool) jsonBool { return jsonBool{v: v, set: true} }

// jsonTime is a JSON string holding a timestamp the vendor types as a plain
// string (analytics, deployments, an Index result's publishedDate). One the SDK cannot read is the zero
// time, still present; null sets null. The zero time marshals as null: the
// SDK does not know it. A time is written back as the API wrote it
// ("2025-01-02T03:04:05.000Z", "+00:00", a date), which raw keeps when Go
// would write it otherwise, as long as t is still the time raw reads as.
type jsonTime struct {
	t         time.Time
	raw       string
	set, null bool
}

func (f *jsonTime) UnmarshalJSON(b []byte) error {
	*f = jsonTime{set: true}
	if string(b) == "null" {
		f.null = true
		return nil
	}
	if len(b) < 2 || b[0] != '"' {
		return typeError(b, "")
	}
	// RFC 3339 straight from the bytes, without a copy; the other forms
	// through a string.
	if f.t.UnmarshalJSON(b) == nil {
		if inner := b[1 : len(b)-1]; !isGoText(f.t, inner) {
			f.raw = string(inner)
		}
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		if f.t = parseLooseTime(s); !f.t.IsZero() {
			f.raw = s
		}
	}
	return nil
}

func (f jsonTime) MarshalJSON() ([]byte, error) {
	if f.raw != "" && sameTime(parseLooseTime(f.raw), f.t) {
		return marshalWire(f.raw)
	}
	return orNull(!f.t.IsZero(), f.t)
}

func (f jsonTime) present() bool { return f.set && !f.null }

func timeOf(t time.Time) jsonTime { return jsonTime{t: t, set: true, null: t.IsZero()} }

// timeText is timeOf(t) that marshals as raw, the API's text of it, while t
// is still the time raw reads as.
func timeText(t time.Time, raw string) jsonTime {
	f := timeOf(t)
	f.raw = raw
	return f
}

// isGoText reports whether text is what Go writes for t in RFC 3339, so that
// the API's text need not be kept to write it again.
func isGoText(t time.Time, text []byte) bool {
	var buf [64]byte
	return string(t.AppendFormat(buf[:0], time.RFC3339Nano)) == string(text)
}

// sameTime reports whether a and b are one instant written with one offset.
func sameTime(a, b time.Time) bool {
	_, offA := a.Zone()
	_, offB := b.Zone()
	return !a.IsZero() && a.Equal(b) && offA == offB
}

// looseTimeLayouts are the forms such a timestamp may take; times without
// a zone are UTC.
var looseTimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	time.DateOnly,
}

// parseLooseTime reads a timestamp the vendor types as a plain string. One
// that does not parse is the zero time, not an error: a stray format must
// not fail an export or a poll.
func parseLooseTime(s string) time.Time {
	for _, layout := range looseTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// dateTime is a field the vendor types as a date-time: RFC 3339, and
// another form is an error (a *time.ParseError). null is the zero time,
// which marshals as null.
type dateTime struct{ t time.Time }

func (f *dateTime) UnmarshalJSON(b []byte) error {
	*f = dateTime{}
	if string(b) == "null" {
		return nil
	}
	return f.t.UnmarshalJSON(b)
}

func (f dateTime) MarshalJSON() ([]byte, error) { return orNull(!f.t.IsZero(), f.t) }

// orNull is v's JSON, or null when !ok: a field absent, null, or a time
// the SDK does not know.
func orNull(ok bool, v any) ([]byte, error) {
	if !ok {
		return []byte("null"), nil
	}
	return marshalWire(v)
}

// typeError reports a value of another JSON type than want's, the way
// encoding/json does, so that the answer's error names the field.
func typeError(b []byte, want any) error {
	kind := map[byte]string{'"': "string", '{': "object", '[': "array", 't': "bool", 'f': "bool"}[b[0]]
	return &json.UnmarshalTypeError{Value: cmp.Or(kind, "number"), Type: reflect.TypeOf(want)}
}

// checkID refuses an identifier that no API issues: one with white space
// or a control character (C0, C1, DEL; Unicode spaces too, which the
// GitHub runner strips before it looks for a workflow command). Printed
// in a CI log, such an ID could start a command; passed back in a path,
// it would address something else. "" (absent) is left to the
// required-field checks.
func checkID(name, id string) error {
	if strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return fmt.Errorf("%s %s holds white space or a control character", name, answerText(id))
	}
	return nil
}

// An answer's arrays hold at most what the API sends: a page at most the
// route's largest page of rows, a row's or a resource's lists at most what
// a sane answer holds. The body bound alone lets 16 MiB of "{}," become 5.6
// million empty rows, gigabytes once decoded; with these a decoded answer
// costs a few times its bytes. A list longer than its bound is refused
// before any of its elements is decoded (decodeList).
const (
	maxSourcesPerTurn     = 100     // a conversation turn's sources
	maxMessagesPerThread  = 10_000  // an assistant thread's messages
	maxChangedFilesPerSet = 100_000 // a deployment commit's added, modified or removed paths

	// A deployment's log is bounded by bytes, not lines, as a log may be
	// long: its lines' text plus logLineCost for each line (what a line
	// costs beyond its text) at most maxLogBytes, so at most 131,072 empty
	// lines, or fewer long ones.
	maxLogBytes = maxResponseBody
	logLineCost = 128
)

// list is a JSON array of at most N's bound of elements: the type of the
// array fields of an answer, and of a request body the SDK reads (the
// browser's messages, proxyRequest in proxy.go). It reads as []T does, null
// as nil, [] as an empty list, and a longer array as a *tooManyError.
type list[T any, N bound] []T

// bound names a list's bound (the types below): a type rather than a
// value, so that a wire struct's field type says its bound.
type bound interface{ max() (n int, unit string) }

type (
	upTo100     struct{}
	upTo250     struct{}
	upTo1000    struct{}
	sourcesMax  struct{}
	messagesMax struct{}
	filesMax    struct{}
)

func (upTo100) max() (int, string)     { return 100, "rows, the route's largest page" }
func (upTo250) max() (int, string)     { return 250, "rows, the route's largest page" }
func (upTo1000) max() (int, string)    { return 1000, "rows, the route's largest page" }
func (sourcesMax) max() (int, string)  { return maxSourcesPerTurn, "sources" }
func (messagesMax) max() (int, string) { return maxMessagesPerThread, "messages" }
func (filesMax) max() (int, string)    { return maxChangedFilesPerSet, "paths" }

// limitOf is N's bound: a route's largest page is its rows' bound.
func limitOf[N bound]() int {
	var n N
	most, _ := n.max()
	return most
}

// UnmarshalJSON reads the list as []T does, refusing a longer array
// than N's bound before any element is decoded.
func (l *list[T, N]) UnmarshalJSON(b []byte) error {
	var n N
	most, unit := n.max()
	return decodeList(b, (*[]T)(l), most, unit)
}

// logLines is a deployment's log, bounded by bytes (maxLogBytes).
type logLines []string

// logLinesAllowed is how many lines a log whose JSON array has size bytes
// may hold.
func logLinesAllowed(size int) int { return max(maxLogBytes-size, 0) / logLineCost }

const logUnit = "log lines (a log holds 16 MiB, counting 128 bytes a line besides its text)"

func (l *logLines) UnmarshalJSON(b []byte) error {
	return decodeList(b, (*[]string)(l), logLinesAllowed(len(b)), logUnit)
}

// tooManyError is an array longer than its list's bound: in an answer, more
// than the API sends; in a request body (the proxy's), more than the SDK
// accepts. Its text speaks of answers: the proxy answers a request body's
// with its own words.
type tooManyError struct {
	most int
	unit string
}

func (e *tooManyError) Error() string {
	return fmt.Sprintf("an array of more than %d %s, more than the API sends", e.most, e.unit)
}

// decodeList decodes the JSON array b into *out, or fails with a
// *tooManyError when it holds more than most elements. A long array that
// could hold more is counted before any element is decoded, by decoding
// it into a slice of skipped, a type of size zero: that allocates nothing
// however many elements it has, so a refused list costs no more than its
// bytes. A short one (a page of rows: some tens of KB) is decoded, then
// measured: its bytes bound what it costs, and it is scanned twice less.
// null reads as nil, [] as an empty list.
func decodeList[T any](b []byte, out *[]T, most int, unit string) error {
	*out = nil
	switch {
	case string(b) == "null":
		return nil
	case b[0] != '[':
		return typeError(b, *out)
	}
	if len(b) > shortList && (len(b)+1)/2 > most { // each element takes a byte and a comma
		var count []skipped
		if err := json.Unmarshal(b, &count); err != nil {
			return err
		}
		if len(count) > most {
			return &tooManyError{most, unit}
		}
	}
	if err := json.Unmarshal(b, out); err != nil {
		return err
	}
	if len(*out) > most {
		*out = nil
		return &tooManyError{most, unit}
	}
	return nil
}

// shortList is the longest array decodeList decodes before it knows its
// length: 21,845 empty elements at most, a few MB once decoded.
const shortList = 64 << 10

// skipped is a JSON value of any kind, not kept.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// fieldCheck collects the first missing required field of an answer.
type fieldCheck struct{ err error }

// need records name as missing unless ok.
func (c *fieldCheck) need(ok bool, name string) {
	if !ok && c.err == nil {
		c.err = fmt.Errorf("required field %q is missing or null", name)
	}
}

// notNegative records a count below zero, which no count of the API is.
func (c *fieldCheck) notNegative(n jsonCount, name string) {
	if n.n < 0 && c.err == nil {
		c.err = fmt.Errorf("field %q is negative", name)
	}
}

// checkItems checks each item of an answer's array, and names the first
// that fails.
func checkItems[T any, P interface {
	*T
	check() error
}](name string, items []T) error {
	for i := range items {
		if err := P(&items[i]).check(); err != nil {
			return fmt.Errorf("%s[%d]: %w", name, i, err)
		}
	}
	return nil
}

// marshalWire writes a wire struct as the API does: without escaping <, >
// and & (json.Marshal of a public type escapes them, an Encoder with
// SetEscapeHTML(false) does not).
func marshalWire(w any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// requestBody encodes a request's JSON body as marshalWire writes a wire
// struct. A body is one of the SDK's own structs, of strings, numbers and
// lists: an error is a value JSON cannot hold, ErrInvalidInput with
// nothing sent.
func requestBody(v any) ([]byte, error) {
	b, err := marshalWire(v)
	if err != nil {
		return nil, invalidf("encoding the request: %v", err)
	}
	return b, nil
}

// each converts every element of a list, wire to public or back.
func each[A, B any](in []A, convert func(*A) B) []B {
	out := make([]B, len(in))
	for i := range in {
		out[i] = convert(&in[i])
	}
	return out
}

// rawJSON is m's JSON (the field types above never fail), for a wire field
// kept raw.
func rawJSON(m json.Marshaler) json.RawMessage { b, _ := m.MarshalJSON(); return b }

// unmarshalWire reads JSON in the API's shape into *v through its wire
// type W: the UnmarshalJSON of a public type. It checks no required field:
// it reads back what MarshalJSON wrote, zero values included.
func unmarshalWire[W, T any](b []byte, v *T, public func(*W) T) error {
	if string(b) == "null" {
		return nil // as encoding/json leaves a value on null
	}
	var w W
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*v = public(&w)
	return nil
}
