package index

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/docsagent/mintlify-go/mockserver/internal/reqbody"
)

// The request bodies, field for field as the vendor's schemas name them.
// Optional numbers and strings are pointers because the schema tells an
// absent member (take the default, or ignore) from a given one that must
// satisfy its range: "tokenBudget": 0 is a 400, no tokenBudget is 3000.
// Optional members are left out when marshalled, so a request written by
// a Go test is one the mock accepts (no member may be null).

// ContextRequest is the body of POST /v1/context.
type ContextRequest struct {
	Query          string   `json:"query"`             // required, at least one character
	Product        *string  `json:"product,omitempty"` // a retrieval hint; see doc.go
	Format         string   `json:"format"`            // required: FormatTxt or FormatJSON
	IncludeDomains []string `json:"includeDomains,omitempty"`
	ExcludeDomains []string `json:"excludeDomains,omitempty"`
	TokenBudget    *int     `json:"tokenBudget,omitempty"` // 1..6000, default 3000
}

// SearchRequest is the body of POST /v1/search.
type SearchRequest struct {
	Query          string   `json:"query"`      // required, at least one character
	NumResults     *int     `json:"numResults"` // required, 1..20
	Text           Text     `json:"text,omitzero"`
	IncludeDomains []string `json:"includeDomains,omitempty"`
	ExcludeDomains []string `json:"excludeDomains,omitempty"`
}

// ContentsRequest is the body of POST /v1/contents.
type ContentsRequest struct {
	IDs           []string `json:"ids,omitempty"`  // Mintlify result IDs
	URLs          []string `json:"urls,omitempty"` // result URLs, of any page
	MaxCharacters *int     `json:"maxCharacters,omitempty"`
	Query         *string  `json:"query,omitempty"` // picks paragraphs when text is cut; see doc.go
}

// The two context formats.
const (
	FormatTxt  = "txt"
	FormatJSON = "json"
)

// The documented ranges.
const (
	MaxNumResults      = 20
	MaxTokenBudget     = 6000
	DefaultTokenBudget = 3000
	MaxContentsItems   = 20 // ids and urls together
)

// The three routes, relative to the API's base path.
const (
	PathContext  = "/v1/context"
	PathSearch   = "/v1/search"
	PathContents = "/v1/contents"
)

// AllowedFields names the top-level members a route's body may have, for
// the wire layer's exact-key reader: every schema says
// additionalProperties: false. It is nil for an unknown path.
func AllowedFields(path string) []string {
	switch path {
	case PathContext:
		return []string{"query", "product", "format", "includeDomains", "excludeDomains", "tokenBudget"}
	case PathSearch:
		return []string{"query", "numResults", "text", "includeDomains", "excludeDomains"}
	case PathContents:
		return []string{"ids", "urls", "maxCharacters", "query"}
	}
	return nil
}

// CheckNulls refuses a body with a null member. No member of any Index
// request is nullable, but encoding/json reads null as "absent" (a nil
// pointer or slice), which would let {"tokenBudget": null} through as the
// default. The wire layer calls it before decoding; a body that is not a
// JSON object is left for the decoder to refuse.
func CheckNulls(body []byte) error {
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) != nil {
		return nil
	}
	for name, v := range members {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return invalid(name + ": null is not allowed")
		}
	}
	return nil
}

// Text is the search request's "text" member: false (the default, also
// when absent), true, or {"maxCharacters": n} with n ≥ 1. The zero value
// is false.
type Text struct {
	Include       bool // text is wanted
	MaxCharacters int  // with Include: at most this many characters; 0 for all
}

// UnmarshalJSON accepts exactly the three forms of the schema. The wire
// layer's key checker does not look inside a type that decodes itself, so
// unknown or misspelt members of the object are refused here.
func (t *Text) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch string(data) {
	case "false":
		*t = Text{}
		return nil
	case "true":
		*t = Text{Include: true}
		return nil
	}
	if len(data) == 0 || data[0] != '{' {
		return invalid("text: must be true, false or an object with maxCharacters")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return invalid("text: " + err.Error())
	}
	for name := range members {
		if name != "maxCharacters" {
			return invalid(fmt.Sprintf("text.%s: unknown field", name))
		}
	}
	raw, ok := members["maxCharacters"]
	if !ok {
		return invalid("text.maxCharacters: required")
	}
	// Integers only, as for every other integer of the schemas: 2.5, "3"
	// and null are refused, not rounded or read as absent; 3.0 is 3, as
	// the wire reads it everywhere (reqbody).
	n, whole := reqbody.Int(string(bytes.TrimSpace(raw)))
	if !whole {
		return invalid("text.maxCharacters: must be an integer")
	}
	if n < 1 {
		return invalid("text.maxCharacters: must be at least 1")
	}
	*t = Text{Include: true, MaxCharacters: int(n)}
	return nil
}

// MarshalJSON writes the form UnmarshalJSON reads back.
func (t Text) MarshalJSON() ([]byte, error) {
	switch {
	case !t.Include:
		return []byte("false"), nil
	case t.MaxCharacters == 0:
		return []byte("true"), nil
	}
	return fmt.Appendf(nil, `{"maxCharacters":%d}`, t.MaxCharacters), nil
}

// Validate checks the request against its schema.
func (r *ContextRequest) Validate() error {
	if err := checkQuery("query", r.Query); err != nil {
		return err
	}
	if r.Product != nil && *r.Product == "" {
		return invalid("product: must not be empty")
	}
	if r.Format != FormatTxt && r.Format != FormatJSON {
		return invalid(`format: must be "txt" or "json"`)
	}
	if err := checkDomains(r.IncludeDomains, r.ExcludeDomains); err != nil {
		return err
	}
	if b := r.TokenBudget; b != nil && (*b < 1 || *b > MaxTokenBudget) {
		return invalid(fmt.Sprintf("tokenBudget: must be between 1 and %d", MaxTokenBudget))
	}
	return nil
}

// Validate checks the request against its schema.
func (r *SearchRequest) Validate() error {
	if err := checkQuery("query", r.Query); err != nil {
		return err
	}
	switch n := r.NumResults; {
	case n == nil:
		return invalid("numResults: required")
	case *n < 1 || *n > MaxNumResults:
		return invalid(fmt.Sprintf("numResults: must be between 1 and %d", MaxNumResults))
	}
	if r.Text.MaxCharacters < 0 || (r.Text.MaxCharacters > 0 && !r.Text.Include) {
		return invalid("text.maxCharacters: must be at least 1")
	}
	return checkDomains(r.IncludeDomains, r.ExcludeDomains)
}

// Validate checks the request against its schema. More than 20 items in
// all has its own message, the one the vendor documents for it.
func (r *ContentsRequest) Validate() error {
	if r.IDs == nil && r.URLs == nil {
		return invalid("ids or urls: at least one is required")
	}
	if r.IDs != nil && len(r.IDs) == 0 {
		return invalid("ids: must not be empty")
	}
	if r.URLs != nil && len(r.URLs) == 0 {
		return invalid("urls: must not be empty")
	}
	if n := len(r.IDs) + len(r.URLs); n > MaxContentsItems {
		return &Error{Status: StatusBadRequest, Message: MsgTooManyItems,
			Detail: fmt.Sprintf("%d items", n)}
	}
	for i, id := range r.IDs {
		if id == "" {
			return invalid(fmt.Sprintf("ids[%d]: must not be empty", i))
		}
	}
	for i, u := range r.URLs {
		if !isURI(u) {
			return invalid(fmt.Sprintf("urls[%d]: must be an absolute URI", i))
		}
	}
	if r.MaxCharacters != nil && *r.MaxCharacters < 1 {
		return invalid("maxCharacters: must be at least 1")
	}
	if r.Query != nil {
		return checkQuery("query", *r.Query)
	}
	return nil
}

// checkQuery is minLength 1, counted in characters as JSON Schema does;
// any non-empty string has one.
func checkQuery(name, q string) error {
	if utf8.RuneCountInString(q) < 1 {
		return invalid(name + ": must not be empty")
	}
	return nil
}

// checkDomains is minItems 1 and items of minLength 1, for both lists.
func checkDomains(include, exclude []string) error {
	for _, l := range []struct {
		name    string
		domains []string
	}{{"includeDomains", include}, {"excludeDomains", exclude}} {
		if l.domains != nil && len(l.domains) == 0 {
			return invalid(l.name + ": must not be empty")
		}
		for i, d := range l.domains {
			if d == "" {
				return invalid(fmt.Sprintf("%s[%d]: must not be empty", l.name, i))
			}
		}
	}
	return nil
}

// isURI is the schema's format "uri": an absolute URI, with a scheme.
func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.IsAbs()
}
