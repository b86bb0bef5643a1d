// Package apishape describes the JSON an API answers in the few terms the
// project compares: the JSON types a value may take, an object's members
// and which are required, an array's items, a string's format and enum
// values. mintctl doctor decodes a live service's answers strictly against
// shapes (Check), and the shapes of the vendor's documents are compared as
// flat lines (Facts), so that a change to either shows member by member.
//
// It uses the standard library only: mintctl carries it.
package apishape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// The JSON types of a Shape.
const (
	Array   = "array"
	Boolean = "boolean"
	Integer = "integer" // a number with no fraction
	Null    = "null"
	Number  = "number"
	Object  = "object"
	String  = "string"
)

// Shape is what a JSON value may be. A zero Shape is any value.
type Shape struct {
	Types    []string          // the JSON types allowed, sorted; none: any
	Format   string            // a string's format ("date-time", "uri", ...)
	Enum     []string          // the values allowed, each as JSON text, sorted; none: any
	Members  map[string]*Shape // an object's documented members
	Required []string          // the members an object must have, sorted
	Items    *Shape            // an array's items
}

// Allows reports whether the JSON type t is one of s's.
func (s *Shape) Allows(t string) bool {
	return len(s.Types) == 0 || slices.Contains(s.Types, t) || (t == Integer && slices.Contains(s.Types, Number))
}

// Builders, for shapes written in Go.

// Obj is an object of the members given, each by Req or Opt.
func Obj(members ...Member) *Shape {
	s := &Shape{Types: []string{Object}, Members: map[string]*Shape{}}
	for _, m := range members {
		s.Members[m.Name] = m.Shape
		if m.Required {
			s.Required = append(s.Required, m.Name)
		}
	}
	sort.Strings(s.Required)
	return s
}

// Member is a member of an Obj.
type Member struct {
	Name     string
	Shape    *Shape
	Required bool
}

// Req is a required member.
func Req(name string, s *Shape) Member { return Member{name, s, true} }

// Opt is an optional member.
func Opt(name string, s *Shape) Member { return Member{name, s, false} }

// Arr is an array of items.
func Arr(items *Shape) *Shape { return &Shape{Types: []string{Array}, Items: items} }

// Of is a value of the JSON types given.
func Of(types ...string) *Shape {
	t := slices.Clone(types)
	sort.Strings(t)
	return &Shape{Types: t}
}

// Str is a string, of the format given if any.
func Str(format ...string) *Shape {
	s := Of(String)
	if len(format) > 0 {
		s.Format = format[0]
	}
	return s
}

// Enum is a string of one of values.
func Enum(values ...string) *Shape {
	s := Of(String)
	for _, v := range values {
		b, _ := json.Marshal(v)
		s.Enum = append(s.Enum, string(b))
	}
	sort.Strings(s.Enum)
	return s
}

// OrNull is s that may also be null.
func OrNull(s *Shape) *Shape {
	c := *s
	c.Types = append(slices.Clone(s.Types), Null)
	sort.Strings(c.Types)
	return &c
}

// Facts lists s as flat lines, one per member (with its types, format and
// whether it is required) and one per enum value, each after prefix.
// Sorted, so that two lists compare line by line.
func Facts(prefix string, s *Shape) []string {
	var out []string
	facts(&out, prefix, "", s, true, 0)
	sort.Strings(out)
	return slices.Compact(out)
}

// maxDepth bounds the walk of a shape that refers to itself.
const maxDepth = 16

func facts(out *[]string, prefix, path string, s *Shape, required bool, depth int) {
	if s == nil || depth > maxDepth {
		return
	}
	name := path
	if name == "" {
		name = "(body)"
	}
	line := fmt.Sprintf("%s member %s: %s", prefix, name, s.TypeText())
	if s.Format != "" {
		line += " format " + s.Format
	}
	if required {
		line += " required"
	}
	*out = append(*out, line)
	for _, v := range s.Enum {
		*out = append(*out, fmt.Sprintf("%s enum %s: %s", prefix, name, v))
	}
	for _, m := range slices.Sorted(maps.Keys(s.Members)) {
		facts(out, prefix, join(path, m), s.Members[m], slices.Contains(s.Required, m), depth+1)
	}
	if s.Items != nil {
		facts(out, prefix, path+"[]", s.Items, true, depth+1)
	}
}

func join(path, member string) string {
	if path == "" {
		return member
	}
	return path + "." + member
}

// TypeText is s's JSON types as one word: "string|null", "any".
func (s *Shape) TypeText() string {
	if len(s.Types) == 0 {
		return "any"
	}
	return strings.Join(s.Types, "|")
}

// Finding is one way a JSON value differs from its shape.
type Finding struct {
	Kind Kind
	Path string // the member, "feedback[].status"; "" for the whole value
	// Value is what the value holds there, cut short: the unknown enum
	// value, the JSON type found, the date text. It comes from the server.
	Value string
}

// Kind is a kind of Finding.
type Kind string

// The kinds of Finding.
const (
	UnknownMember   Kind = "unknown member"
	MissingRequired Kind = "required member missing"
	WrongType       Kind = "wrong type"
	OutsideEnum     Kind = "value outside the enum"
	BadFormat       Kind = "format"
)

// maxValue bounds the server text a Finding quotes.
const maxValue = 80

// Check decodes a JSON text strictly against s and lists how it differs,
// each difference once per member path (items of an array share theirs:
// "visitors[].path"). times are member paths the reader takes as dates:
// RFC 3339 or YYYY-MM-DD; a string shape of format date-time counts too.
// A text that is not one JSON value is an error.
func Check(data []byte, s *Shape, times ...string) ([]Finding, error) {
	var v any
	if !json.Valid(data) { // one value and nothing after it, as a JSON parser reads a body
		return nil, fmt.Errorf("not JSON: %w", json.Unmarshal(data, &v))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	c := &checker{times: times, seen: map[string]bool{}}
	c.walk("", v, s, 0)
	return c.found, nil
}

type checker struct {
	times []string
	seen  map[string]bool
	found []Finding
}

func (c *checker) add(kind Kind, path, value string) {
	key := string(kind) + "\x00" + path + "\x00" + value
	if c.seen[key] || len(c.found) >= 100 {
		return
	}
	c.seen[key] = true
	if len(value) > maxValue {
		cut := maxValue
		for cut > 0 && !utf8.RuneStart(value[cut]) {
			cut--
		}
		value = value[:cut] + "..."
	}
	c.found = append(c.found, Finding{Kind: kind, Path: path, Value: value})
}

func (c *checker) walk(path string, v any, s *Shape, depth int) {
	if s == nil || depth > maxDepth {
		return
	}
	t := jsonType(v)
	if !s.Allows(t) {
		c.add(WrongType, path, t)
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for _, name := range slices.Sorted(maps.Keys(v)) {
			m, ok := s.Members[name]
			if !ok {
				if s.Members != nil {
					c.add(UnknownMember, join(path, name), "")
				}
				continue
			}
			c.walk(join(path, name), v[name], m, depth+1)
		}
		for _, name := range s.Required {
			if _, ok := v[name]; !ok {
				c.add(MissingRequired, join(path, name), "")
			}
		}
	case []any:
		for _, item := range v {
			c.walk(path+"[]", item, s.Items, depth+1)
		}
	case string:
		if len(s.Enum) > 0 {
			b, _ := json.Marshal(v)
			if !slices.Contains(s.Enum, string(b)) {
				c.add(OutsideEnum, path, v)
			}
		}
		if (s.Format == "date-time" || slices.Contains(c.times, path)) && !isDate(v) {
			c.add(BadFormat, path, v)
		}
	}
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return Null
	case bool:
		return Boolean
	case string:
		return String
	case []any:
		return Array
	case map[string]any:
		return Object
	case json.Number:
		// As encoding/json reads it into an int: no fraction, no exponent.
		if strings.ContainsAny(string(v), ".eE") {
			return Number
		}
		return Integer
	}
	return "unknown"
}

// isDate reports whether s is a date the SDK reads: RFC 3339 (with or
// without fractions of a second) or a calendar day.
func isDate(s string) bool {
	if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return true
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}
