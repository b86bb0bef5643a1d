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
	"reflect"
	"strings"
	"unicode/utf8"
)

// encoding/json matches object keys to fields case-insensitively, so
// {"Prompt": "x"} would fill Prompt and {"prompt": "", "PROMPT": "x"} would
// keep the last. The service reads names exactly as its schema spells
// them; so does the mock: every body is checked key by key against the
// type it decodes into before it is decoded.

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// Decode decodes data into v after checking that every object key
// names a field of v's type exactly (at any depth). A key that differs
// only in case is refused with the right spelling; with strict, any other
// unknown key is refused too.
func Decode(data []byte, v any, strict bool) error {
	if !utf8.Valid(data) {
		// encoding/json would turn the bad bytes into U+FFFD and store a
		// branch or prompt the client never sent.
		return errors.New("the request body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := checkKeys(dec, reflect.TypeOf(v), "", strict, 0); err != nil {
		if isSyntaxError(err) {
			return fmt.Errorf("the request body is not valid JSON: %w", err)
		}
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
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

// checkKeys reads one JSON value from dec, checking the keys of every
// object in it against t (nil: anything goes). It streams tokens, so a
// large body is never held twice as a tree.
func checkKeys(dec *json.Decoder, t reflect.Type, path string, strict bool, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
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
				fields = jsonFields(t)
			case reflect.Map:
				elem = t.Elem()
			}
		}
		var seen keySet
		for dec.More() {
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
			next := elem
			if fields != nil {
				ft, known := fields[key]
				if !known {
					if err := unknownField(path, key, fields, strict); err != nil {
						return err
					}
				}
				next = ft
			}
			if err := checkKeys(dec, next, path+key+".", strict, depth+1); err != nil {
				return err
			}
		}
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for dec.More() {
			if err := checkKeys(dec, elem, path, strict, depth+1); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
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

func unknownField(path, key string, fields map[string]reflect.Type, strict bool) error {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return &KeyError{Path: path, Key: key, Problem: fmt.Sprintf("unknown field; field names are case-sensitive: send %q", name)}
		}
	}
	if strict {
		return &KeyError{Path: path, Key: key, Problem: "unknown field"}
	}
	return nil
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

// ReadAll is io.ReadAll into a reusable buffer.
func ReadAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
