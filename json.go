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
// string (analytics, deployments). One the SDK cannot read is the zero
// time, still present; null sets null. The zero time marshals as null: the
// SDK does not know it.
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
		return typeError(b, "")
	}
	// RFC 3339 straight from the bytes, without a copy; the other forms
	// through a string.
	if f.t.UnmarshalJSON(b) == nil {
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		f.t = parseLooseTime(s)
	}
	return nil
}

func (f jsonTime) MarshalJSON() ([]byte, error) { return orNull(!f.t.IsZero(), f.t) }

func (f jsonTime) present() bool { return f.set && !f.null }

func timeOf(t time.Time) jsonTime { return jsonTime{t: t, set: true, null: t.IsZero()} }

// looseTimeLayouts are the forms such a timestamp may take; times without
// a zone are UTC.
var looseTimeLayouts = []string{
	time.RFC3339Nano,
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
// in a CI log, such an ID could start a command (issue 18); passed back
// in a path, it would address something else. "" (absent) is left to the
// required-field checks.
func checkID(name, id string) error {
	if strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return fmt.Errorf("%s %s holds white space or a control character", name, answerText(id))
	}
	return nil
}

// fieldCheck collects the first missing required field of an answer.
type fieldCheck struct{ err error }

// need records name as missing unless ok.
func (c *fieldCheck) need(ok bool, name string) {
	if !ok && c.err == nil {
		c.err = fmt.Errorf("required field %q is missing or null", name)
	}
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
