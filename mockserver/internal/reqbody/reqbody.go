// Package reqbody reads the JSON bodies of the mock's API and control
// routes with the key names exactly as the vendor's schema spells them,
// which encoding/json alone does not do. It knows nothing of HTTP: the
// handlers hand it the bytes and turn its errors into 400s.
package reqbody

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// encoding/json matches object keys to fields case-insensitively, so
// {"Prompt": "x"} would fill Prompt and {"prompt": "a", "PROMPT": ""} would
// keep the last. The service reads names exactly as its schema spells
// them, and so does the mock: every body is walked key by key against the
// type it decodes into before it is decoded. An API body (Decode) is read
// as the vendor's schema reads it: a member the schema does not name is
// ignored, a case variant of a name it does included, and invalid UTF-8
// becomes U+FFFD as in any JSON parser. A control body (DecodeStrict) is
// the mock's own: there a key that names nothing is a mistake, refused
// with the right spelling when there is one.

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// Decode decodes an API body into v as the vendor's schema reads it: keys
// that name a field of v's type exactly (at any depth) fill it; any other
// key is ignored, a case variant of a field's name included (encoding/json
// alone would let {"PROMPT": ""} overwrite "prompt"). A key repeated in one
// object is refused: one of its values would be lost whichever a parser
// kept. Every array path holds at most MaxAPIItems items (an
// [*ItemsError] past them), counted before anything is decoded.
func Decode(data []byte, v any) error {
	w := newWalker(data, false)
	if err := w.walk(reflect.TypeOf(v)); err != nil {
		return err
	}
	return unmarshal(w.edited(), v)
}

// DecodeStrict decodes a control body into v: every key must name a field
// of v's type exactly (a case variant is refused with the right spelling),
// a key repeated in one object is refused, and so is a body that is not
// valid UTF-8 (encoding/json would turn the bad bytes into U+FFFD and store
// an event the client never sent). Every array holds at most
// DefaultMaxItems items ([Limits.DecodeStrict] sets other bounds).
func DecodeStrict(data []byte, v any) error { return Limits(nil).DecodeStrict(data, v) }

// DefaultMaxItems bounds the items at each path of a control body that
// [Limits] does not name: a list of fault rules, scopes or addresses.
const DefaultMaxItems = 1000

// Limits bounds the arrays of a control body before any of it is decoded:
// for each path (the keys that lead to an array, joined by dots, such as
// "feedback" or "threads.turns"), how many items the body may hold there
// in all, whatever number of arrays share the path. A path not named holds
// at most DefaultMaxItems. Items are counted as the keys are checked, so a
// body of millions of empty objects is refused at the first item past its
// bound, never decoded (each decoded item costs the size of its Go value:
// a 16 MiB body of {} is 5.6 million items).
type Limits map[string]int

// DecodeStrict is DecodeStrict with the bounds of l.
func (l Limits) DecodeStrict(data []byte, v any) error {
	if !utf8.Valid(data) {
		return errors.New("the request body is not valid UTF-8")
	}
	w := newWalker(data, true)
	w.limits = l
	if err := w.walk(reflect.TypeOf(v)); err != nil {
		return err
	}
	return unmarshal(w.edited(), v)
}

// ItemsError is an array path of a body holding more items than its
// bound: Limits for a control body, MaxAPIItems for an API body.
type ItemsError struct {
	Path string // keys joined by dots, as in Limits
	Max  int
}

func (e *ItemsError) Error() string {
	return fmt.Sprintf("%s: at most %d items per request; send them in smaller batches", e.Path, e.Max)
}

// DecodeClosed decodes an API body whose schema allows no other members
// (additionalProperties: false, as every Index API body): a key that names
// no field of v's type, a case variant included, is refused like a
// control body's; a repeated key too. Invalid UTF-8 is read as JSON
// parsers read it (each bad byte a U+FFFD), as in Decode: it is the
// schema, not the mock, that closes the object.
func DecodeClosed(data []byte, v any) error {
	w := newWalker(data, true)
	if err := w.walk(reflect.TypeOf(v)); err != nil {
		return err
	}
	return unmarshal(w.edited(), v)
}

func unmarshal(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			if lit, isNumber := strings.CutPrefix(typeErr.Value, "number "); isNumber && jsonTypeName(typeErr.Type) == "number" {
				// A number, the right JSON type: its value does not fit.
				if f, err := strconv.ParseFloat(lit, 64); err == nil && f != math.Trunc(f) {
					return fmt.Errorf("%s: must be a whole number", typeErr.Field)
				}
				return fmt.Errorf("%s: out of range", typeErr.Field)
			}
			return fmt.Errorf("%s: must be a JSON %s", typeErr.Field, jsonTypeName(typeErr.Type))
		}
		return fmt.Errorf("the request body is not valid JSON for this route: %w", err)
	}
	return nil
}

// isSyntaxError reports whether checkKeys failed on malformed JSON rather
// than on a key or the nesting.
func isSyntaxError(err error) bool {
	var syntax *json.SyntaxError
	return errors.As(err, &syntax) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Float64:
		return "number"
	}
	return "value of type " + t.String()
}

// maxJSONDepth bounds nesting: Decoder.Token, unlike Unmarshal, sets no
// limit, and a body of a million '[' must not recurse a million deep.
const maxJSONDepth = 64

// walker reads one JSON value token by token, checking the keys of every
// object in it against a type. It streams tokens, so a large body is never
// held twice as a tree. In an API body it notes where the members to
// ignore stand (case variants of a field's name), so that encoding/json,
// which would fold them onto the field, never sees them; in any body,
// where an integer field's number is written with a fraction or an
// exponent (3.0, 3e0), so that encoding/json, which refuses those, reads
// the integer they are.
type walker struct {
	dec    *json.Decoder
	data   []byte
	strict bool
	edits  []edit         // byte ranges to leave out or rewrite, in order
	limits Limits         // strict only: the bounds of arrays
	items  map[string]int // items seen per array path, of every body
}

// edit replaces the bytes from start to end of a body with with (nil: they
// are left out).
type edit struct {
	start, end int64
	with       []byte
}

func newWalker(data []byte, strict bool) *walker {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers as written: see number
	return &walker{dec: dec, data: data, strict: strict}
}

// walk reads the body's value against t and checks nothing follows it but
// what encoding/json will refuse itself.
func (w *walker) walk(t reflect.Type) error {
	if err := w.value(t, "", 0); err != nil {
		if isSyntaxError(err) {
			return fmt.Errorf("the request body is not valid JSON: %w", err)
		}
		return err
	}
	return nil
}

// value reads one JSON value, checking the keys of every object in it
// against t (nil: anything goes).
func (w *walker) value(t reflect.Type, path string, depth int) error {
	dec := w.dec
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		if n, isNumber := tok.(json.Number); isNumber {
			w.number(n, t)
		}
		return nil
	}
	if depth >= maxJSONDepth {
		return fmt.Errorf("the request body nests deeper than %d levels", maxJSONDepth)
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler)) {
		t = nil // decodes itself (time.Time, json.RawMessage)
	}
	switch delim {
	case '{':
		var fields map[string]reflect.Type
		var elem reflect.Type
		if t != nil {
			switch t.Kind() {
			case reflect.Struct:
				fields = fieldsOf(t)
			case reflect.Map:
				elem = t.Elem()
			}
		}
		var seen keySet
		kept := false // a member of this object stays before the current one
		for dec.More() {
			start := dec.InputOffset() // after '{' or the previous value
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			// encoding/json keeps the last of repeated keys; the service's
			// parser may keep the first. Either way one of the values the
			// client sent is silently lost, so a repeat is refused.
			if !seen.add(key) {
				return &KeyError{Path: path, Key: key, Problem: "given more than once"}
			}
			next, drop := elem, false
			if fields != nil {
				ft, known := fields[key]
				if !known {
					if drop, err = w.unknownField(path, key, fields); err != nil {
						return err
					}
				}
				next = ft
			}
			if err := w.value(next, path+key+".", depth+1); err != nil {
				return err
			}
			if drop {
				w.dropMember(start, dec.InputOffset(), kept)
			} else {
				kept = true
			}
		}
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for dec.More() {
			if err := w.count(path); err != nil {
				return err
			}
			if err := w.value(elem, path, depth+1); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

// number notes an integer field's number written with a fraction or an
// exponent whose value is whole (3.0, 3e0, 30e-1) to be read as that
// integer: a JSON parser in JavaScript, as the vendor's, has no other kind
// of number, and its schema's "integer" takes them. A fraction is left to
// encoding/json to refuse.
func (w *walker) number(n json.Number, t reflect.Type) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || !strings.ContainsAny(string(n), ".eE") {
		return
	}
	i, whole := Int(string(n))
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		whole = whole && i >= 0
	default:
		return
	}
	if whole {
		end := w.dec.InputOffset()
		w.edits = append(w.edits, edit{end - int64(len(n)), end, strconv.AppendInt(nil, i, 10)})
	}
}

// Int reads the JSON number lit as an integer when its value is whole
// (3, 3.0, 3e0, 30e-1) and within int64, as a JavaScript parser reads it:
// as a float64 first.
func Int(lit string) (int64, bool) {
	if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}

// MaxAPIItems bounds the items at each array path of an API body read by
// [Decode] (the messages of a conversation, the parts of its messages, a
// filter's groups): far more than a client sends, and few enough that a
// 1 MiB body of {} is refused before it is decoded. Decoded, each of its
// 350,000 items cost its Go value: a message body of them once took 96 MiB
// of heap.
const MaxAPIItems = 10_000

// count notes one more item of an array at path (the enclosing keys, each
// followed by ".") and refuses it past the path's bound: the one Limits
// names, else DefaultMaxItems in a control or closed body and MaxAPIItems
// in an API body.
func (w *walker) count(path string) error {
	name := strings.TrimSuffix(path, ".")
	bound, named := w.limits[name]
	switch {
	case named:
	case w.strict:
		bound = DefaultMaxItems
	default:
		bound = MaxAPIItems
	}
	if w.items == nil {
		w.items = map[string]int{}
	}
	w.items[name]++
	if w.items[name] > bound {
		return &ItemsError{Path: name, Max: bound}
	}
	return nil
}

// unknownField decides about a key that names no field: in a control body
// it is refused (with the right spelling for a case variant); in an API
// body it is ignored, and a case variant is also dropped before decoding.
func (w *walker) unknownField(path, key string, fields map[string]reflect.Type) (drop bool, err error) {
	for name := range fields {
		if strings.EqualFold(name, key) {
			if !w.strict {
				return true, nil
			}
			return false, &KeyError{Path: path, Key: key, Problem: fmt.Sprintf("unknown field; field names are case-sensitive: send %q", name)}
		}
	}
	if w.strict {
		return false, &KeyError{Path: path, Key: key, Problem: "unknown field"}
	}
	return false, nil
}

// dropMember notes the member between start (the end of what precedes it:
// '{' or the previous value) and end (the end of its value). Its leading
// comma goes with it; a member with no member kept before it takes the
// comma that follows it instead, so the object stays well formed.
func (w *walker) dropMember(start, end int64, keptBefore bool) {
	if !keptBefore {
		i := end
		for i < int64(len(w.data)) && isSpace(w.data[i]) {
			i++
		}
		if i < int64(len(w.data)) && w.data[i] == ',' {
			end = i + 1
		}
	}
	w.edits = append(w.edits, edit{start, end, nil})
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// edited is the body with the edits made: dropped members left out,
// whole numbers rewritten (the body itself when there are none, the usual
// case).
func (w *walker) edited() []byte {
	if len(w.edits) == 0 {
		return w.data
	}
	out := make([]byte, 0, len(w.data))
	at := int64(0)
	for _, e := range w.edits {
		if e.start > at {
			out = append(out, w.data[at:e.start]...)
		}
		if e.start >= at {
			out = append(out, e.with...)
		}
		at = max(at, e.end)
	}
	return append(out, w.data[at:]...)
}

// KeyError is a key the body may not hold. Key is the client's own text,
// which an answer should echo only in part (a key can be a megabyte).
type KeyError struct {
	Path    string // the enclosing keys, each followed by "."
	Key     string
	Problem string
}

func (e *KeyError) Error() string { return e.Path + e.Key + ": " + e.Problem }

// keySet remembers the keys of one object. Objects have a few keys and a
// control upload has hundreds of thousands of objects, so the first keys
// go in a small array and a map is made only for a large object.
type keySet struct {
	few  [8]string
	n    int
	many map[string]bool
}

// add reports whether key is new.
func (k *keySet) add(key string) bool {
	for _, seen := range k.few[:k.n] {
		if seen == key {
			return false
		}
	}
	if k.many[key] {
		return false
	}
	if k.n < len(k.few) {
		k.few[k.n] = key
		k.n++
		return true
	}
	if k.many == nil {
		k.many = map[string]bool{}
	}
	k.many[key] = true
	return true
}

// fieldCache holds jsonFields per struct type: a control upload has tens
// of thousands of objects of one type, and a map made for each was most
// of what walking it allocated.
var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// fieldsOf is jsonFields(t), made once per type; the map is only read.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	f, _ := fieldCache.LoadOrStore(t, jsonFields(t))
	return f.(map[string]reflect.Type)
}

// jsonFields maps the JSON names of a struct's fields to their types, as
// encoding/json names them (tag name, else field name; embedded structs
// flattened).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				fields[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}
