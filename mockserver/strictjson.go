package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// decodeStrict decodes a JSON object into v, a pointer to a struct with
// json tags. encoding/json matches keys case-insensitively, so {"Branch":
// "x"} would fill Branch; the service reads names exactly as its schema
// spells them, so a key that matches a field only up to case is refused.
// Other unknown keys are ignored, as the service ignores them.
func decodeStrict(body []byte, v any) error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return fmt.Errorf("the request body must be a JSON object")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return fmt.Errorf("the request body is not valid JSON: %v", err)
	}
	names := jsonNames(reflect.TypeOf(v).Elem())
	for k := range raw {
		for _, n := range names {
			if k != n && strings.EqualFold(k, n) {
				return fmt.Errorf("unknown field %q (field names are case-sensitive: %q)", k, n)
			}
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		if te, ok := err.(*json.UnmarshalTypeError); ok && te.Field != "" {
			return fmt.Errorf("%s: must be %s", te.Field, strictKind(te.Type))
		}
		return fmt.Errorf("the request body is not valid JSON: %v", err)
	}
	return nil
}

func jsonNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

func strictKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(strictKind(t.Elem()), "a ") + "s"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	}
	return "of another type"
}
