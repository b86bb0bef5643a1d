package openapicheck

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/docsagent/mintlify-go/internal/apishape"
)

// Read loads every *.json document of dir as Load does, but without
// validating them: a newer vendor document that kin-openapi finds fault
// with can still be compared. Its documents serve Facts and Shape, not
// Check.
func Read(dir string) (*Documents, error) { return loadAll(dir, readDocument) }

// Files lists the documents' file names.
func (d *Documents) Files() []string {
	out := make([]string, len(d.docs))
	for i, doc := range d.docs {
		out[i] = doc.file
	}
	return out
}

// Shape is the shape of an operation's JSON body: its request's (status
// 0) or its answer's for a status; false when the documents have no such
// operation, status or JSON body.
func (d *Documents) Shape(method, route string, status int) (*apishape.Shape, bool) {
	for _, doc := range d.docs {
		if !strings.HasPrefix(route, doc.base+"/") {
			continue
		}
		item := doc.spec.Paths.Find(strings.TrimPrefix(route, doc.base))
		if item == nil || item.GetOperation(method) == nil {
			continue
		}
		op := item.GetOperation(method)
		var content openapi3.Content
		if status == 0 {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				return nil, false
			}
			content = op.RequestBody.Value.Content
		} else {
			r := op.Responses.Status(status)
			if r == nil || r.Value == nil {
				return nil, false
			}
			content = r.Value.Content
		}
		mt := content.Get("application/json")
		if mt == nil || mt.Schema == nil {
			return nil, false
		}
		return shapeOf(mt.Schema, 0), true
	}
	return nil, false
}

// Facts lists what each document says, by file name, as sorted flat
// lines: its routes, parameters, statuses, media types, and the members
// and enum values of every JSON body. Two folders of documents compare
// line by line.
func (d *Documents) Facts() map[string][]string {
	out := map[string][]string{}
	for _, doc := range d.docs {
		var lines []string
		for _, path := range doc.spec.Paths.InMatchingOrder() {
			item := doc.spec.Paths.Value(path)
			for method, op := range item.Operations() {
				lines = append(lines, operationFacts(method, doc.base+path, item, op)...)
			}
		}
		sort.Strings(lines)
		out[doc.file] = slices.Compact(lines)
	}
	return out
}

func operationFacts(method, route string, item *openapi3.PathItem, op *openapi3.Operation) []string {
	at := method + " " + route
	lines := []string{"route " + at}
	if op.Deprecated {
		lines = append(lines, "deprecated "+at)
	}
	for _, p := range slices.Concat(item.Parameters, op.Parameters) {
		if p == nil || p.Value == nil {
			continue
		}
		s := &apishape.Shape{}
		if p.Value.Schema != nil {
			s = shapeOf(p.Value.Schema, 0)
		}
		line := fmt.Sprintf("%s param %s %s: %s", at, p.Value.In, p.Value.Name, s.TypeText())
		if p.Value.Required {
			line += " required"
		}
		lines = append(lines, line)
		for _, e := range s.Enum {
			lines = append(lines, fmt.Sprintf("%s param %s %s enum %s", at, p.Value.In, p.Value.Name, e))
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		lines = append(lines, contentFacts(at+" request", op.RequestBody.Value.Content)...)
	}
	if op.Responses != nil {
		for code, r := range op.Responses.Map() {
			lines = append(lines, "status "+at+" "+code)
			if r != nil && r.Value != nil {
				lines = append(lines, contentFacts(at+" "+code, r.Value.Content)...)
				for name := range r.Value.Headers {
					lines = append(lines, at+" "+code+" header "+name)
				}
			}
		}
	}
	return lines
}

func contentFacts(prefix string, content openapi3.Content) []string {
	var lines []string
	for media, mt := range content {
		lines = append(lines, prefix+" media "+media)
		if mt != nil && mt.Schema != nil && strings.Contains(media, "json") {
			lines = append(lines, apishape.Facts(prefix, shapeOf(mt.Schema, 0))...)
		}
	}
	return lines
}

// maxShapeDepth bounds the walk of a schema: how deep a body's members
// are read.
const maxShapeDepth = 16

// shapeOf reduces a schema to a Shape. Alternatives merge: oneOf and
// anyOf give the members of every alternative, required where all of
// them require it, and the union of their types and enums; allOf gives
// the members and the required ones of all its parts. OpenAPI 3.0's
// nullable adds null to the types. within are the schemas being reduced
// around this one: a schema that refers to itself is cut (any value)
// where it repeats, so that one referring to itself from several members
// costs a shape per member, not one per path (3^16 for three).
func shapeOf(ref *openapi3.SchemaRef, depth int, within ...*openapi3.Schema) *apishape.Shape {
	if ref == nil || ref.Value == nil || depth > maxShapeDepth || slices.Contains(within, ref.Value) {
		return &apishape.Shape{}
	}
	v := ref.Value
	within = append(within[:len(within):len(within)], v)
	s := &apishape.Shape{Format: v.Format}
	if v.Type != nil {
		s.Types = slices.Clone(v.Type.Slice())
	}
	if v.Nullable && len(s.Types) > 0 && !slices.Contains(s.Types, apishape.Null) {
		s.Types = append(s.Types, apishape.Null)
	}
	for _, e := range v.Enum {
		b, _ := json.Marshal(e)
		s.Enum = append(s.Enum, string(b))
	}
	if len(v.Properties) > 0 {
		s.Members = map[string]*apishape.Shape{}
		for name, p := range v.Properties {
			s.Members[name] = shapeOf(p, depth+1, within...)
		}
		s.Required = slices.Clone(v.Required)
	}
	if v.Items != nil {
		s.Items = shapeOf(v.Items, depth+1, within...)
	}
	for _, part := range v.AllOf {
		s = merge(s, shapeOf(part, depth+1, within...))
	}
	if alts := slices.Concat(v.OneOf, v.AnyOf); len(alts) > 0 {
		var union *apishape.Shape
		for _, alt := range alts {
			a := shapeOf(alt, depth+1, within...)
			if union == nil {
				union = a
			} else {
				union = either(union, a)
			}
		}
		s = merge(s, union)
	}
	s.Types, s.Enum, s.Required = sortedSet(s.Types), sortedSet(s.Enum), sortedSet(s.Required)
	return s
}

// sortedSet is the strings of lists, sorted, each once.
func sortedSet(lists ...[]string) []string {
	out := slices.Concat(lists...)
	sort.Strings(out)
	return slices.Compact(out)
}

// merge is a value that is both a and b (allOf): every member of either,
// required where either requires it.
func merge(a, b *apishape.Shape) *apishape.Shape {
	out := *a
	if len(out.Types) == 0 {
		out.Types = b.Types
	} else if len(b.Types) > 0 {
		out.Types = slices.DeleteFunc(slices.Clone(out.Types), func(t string) bool {
			return !slices.Contains(b.Types, t) && !(t == apishape.Number && slices.Contains(b.Types, apishape.Integer))
		})
	}
	out.Format = cmp.Or(out.Format, b.Format)
	if len(out.Enum) == 0 {
		out.Enum = b.Enum
	}
	out.Members = mergeMembers(a.Members, b.Members, merge)
	out.Required = sortedSet(a.Required, b.Required)
	switch {
	case out.Items == nil:
		out.Items = b.Items
	case b.Items != nil:
		out.Items = merge(out.Items, b.Items)
	}
	return &out
}

// either is a value that is a or b (oneOf, anyOf): the members of both,
// required where both require them, the types and enums of both (an
// alternative without an enum allows any value).
func either(a, b *apishape.Shape) *apishape.Shape {
	out := *a
	if len(a.Types) == 0 || len(b.Types) == 0 {
		out.Types = nil
	} else {
		out.Types = sortedSet(a.Types, b.Types)
	}
	if a.Format != b.Format {
		out.Format = ""
	}
	if len(a.Enum) == 0 || len(b.Enum) == 0 {
		out.Enum = nil
	} else {
		out.Enum = sortedSet(a.Enum, b.Enum)
	}
	out.Members = mergeMembers(a.Members, b.Members, either)
	out.Required = slices.DeleteFunc(slices.Clone(a.Required), func(m string) bool { return !slices.Contains(b.Required, m) })
	switch {
	case a.Items == nil:
		out.Items = b.Items
	case b.Items != nil:
		out.Items = either(a.Items, b.Items)
	}
	return &out
}

func mergeMembers(a, b map[string]*apishape.Shape, both func(x, y *apishape.Shape) *apishape.Shape) map[string]*apishape.Shape {
	if a == nil && b == nil {
		return nil
	}
	out := maps.Clone(a)
	if out == nil {
		out = map[string]*apishape.Shape{}
	}
	for k, v := range b {
		if w, ok := out[k]; ok {
			out[k] = both(w, v)
		} else {
			out[k] = v
		}
	}
	return out
}
