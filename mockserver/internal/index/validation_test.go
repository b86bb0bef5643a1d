package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// answer does what the wire layer will: refuse nulls, decode, answer.
// A decoding failure that is not already an *Error is the generic 400.
func answer(st *Store, path, body string) (any, error) {
	if err := CheckNulls([]byte(body)); err != nil {
		return nil, err
	}
	decode := func(v any) error {
		err := json.Unmarshal([]byte(body), v)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			return invalid(err.Error())
		}
		return err
	}
	switch path {
	case PathContext:
		var r ContextRequest
		if err := decode(&r); err != nil {
			return nil, err
		}
		return st.Context(r)
	case PathSearch:
		var r SearchRequest
		if err := decode(&r); err != nil {
			return nil, err
		}
		return st.Search(r)
	case PathContents:
		var r ContentsRequest
		if err := decode(&r); err != nil {
			return nil, err
		}
		return st.Contents(r)
	}
	panic("unknown path " + path)
}

func quoted(prefix string, n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf("%q", fmt.Sprintf("%s%d", prefix, i))
	}
	return strings.Join(items, ",")
}

// Each rule of the three request schemas, one row each: "" is a 200.
func TestValidationFollowsTheSchemas(t *testing.T) {
	bad, tooMany := MsgInvalidBody, MsgTooManyItems
	cases := []struct {
		path, body, want string
	}{
		// context: query and format required, ranges, non-empty lists.
		{PathContext, `{"query":"caching","format":"txt"}`, ""},
		{PathContext, `{"query":"caching","format":"json","product":"Acme","includeDomains":["acme.dev"],"excludeDomains":["x.io"],"tokenBudget":1}`, ""},
		{PathContext, `{"query":"q","format":"txt","tokenBudget":6000}`, ""},
		{PathContext, `{"format":"txt"}`, bad},
		{PathContext, `{"query":"","format":"txt"}`, bad},
		{PathContext, `{"query":null,"format":"txt"}`, bad},
		{PathContext, `{"query":"q"}`, bad},
		{PathContext, `{"query":"q","format":"md"}`, bad},
		{PathContext, `{"query":"q","format":"TXT"}`, bad},
		{PathContext, `{"query":"q","format":"txt","product":""}`, bad},
		{PathContext, `{"query":"q","format":"txt","product":null}`, bad},
		{PathContext, `{"query":"q","format":"txt","includeDomains":[]}`, bad},
		{PathContext, `{"query":"q","format":"txt","includeDomains":[""]}`, bad},
		{PathContext, `{"query":"q","format":"txt","excludeDomains":[]}`, bad},
		{PathContext, `{"query":"q","format":"txt","excludeDomains":["a.io",""]}`, bad},
		{PathContext, `{"query":"q","format":"txt","tokenBudget":0}`, bad},
		{PathContext, `{"query":"q","format":"txt","tokenBudget":-1}`, bad},
		{PathContext, `{"query":"q","format":"txt","tokenBudget":6001}`, bad},
		{PathContext, `{"query":"q","format":"txt","tokenBudget":2.5}`, bad},
		{PathContext, `{"query":"q","format":"txt","tokenBudget":null}`, bad},

		// search: numResults required, text in exactly three forms.
		{PathSearch, `{"query":"q","numResults":1}`, ""},
		{PathSearch, `{"query":"q","numResults":20,"text":true,"includeDomains":["a.io"],"excludeDomains":["b.io"]}`, ""},
		{PathSearch, `{"query":"q","numResults":5,"text":false}`, ""},
		{PathSearch, `{"query":"q","numResults":5,"text":{"maxCharacters":1}}`, ""},
		{PathSearch, `{"query":"q","numResults":5,"text":{ "maxCharacters" : 4000 }}`, ""},
		{PathSearch, `{"numResults":1}`, bad},
		{PathSearch, `{"query":"","numResults":1}`, bad},
		{PathSearch, `{"query":"q"}`, bad},
		{PathSearch, `{"query":"q","numResults":null}`, bad},
		{PathSearch, `{"query":"q","numResults":0}`, bad},
		{PathSearch, `{"query":"q","numResults":21}`, bad},
		{PathSearch, `{"query":"q","numResults":"5"}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":null}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":"true"}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":1}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":[]}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":{}}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":{"maxCharacters":0}}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":{"maxCharacters":-3}}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":{"maxCharacters":2.5}}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":{"maxCharacters":"5"}}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":{"maxCharacters":null}}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":{"MaxCharacters":5}}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"text":{"maxCharacters":5,"extra":1}}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"includeDomains":[]}`, bad},
		{PathSearch, `{"query":"q","numResults":1,"excludeDomains":[""]}`, bad},

		// contents: ids and/or urls, at most 20 together.
		{PathContents, `{"ids":["acme:/quickstart"]}`, ""},
		{PathContents, `{"urls":["https://docs.acme.dev/quickstart"]}`, ""},
		{PathContents, `{"ids":["x"],"urls":["https://x.test"],"maxCharacters":1,"query":"q"}`, ""},
		{PathContents, `{"ids":[` + quoted("id", 20) + `]}`, ""},
		{PathContents, `{"ids":[` + quoted("id", 10) + `],"urls":[` + quoted("https://x.test/", 10) + `]}`, ""},
		{PathContents, `{}`, bad},
		{PathContents, `{"maxCharacters":5}`, bad},
		{PathContents, `{"ids":[]}`, bad},
		{PathContents, `{"urls":[]}`, bad},
		{PathContents, `{"ids":["x"],"urls":[]}`, bad},
		{PathContents, `{"ids":null,"urls":["https://x.test"]}`, bad},
		{PathContents, `{"ids":[""]}`, bad},
		{PathContents, `{"ids":[null]}`, bad},
		{PathContents, `{"urls":["not a url"]}`, bad},
		{PathContents, `{"urls":["/relative/path"]}`, bad},
		{PathContents, `{"ids":[` + quoted("id", 21) + `]}`, tooMany},
		{PathContents, `{"urls":[` + quoted("https://x.test/", 21) + `]}`, tooMany},
		{PathContents, `{"ids":[` + quoted("id", 10) + `],"urls":[` + quoted("https://x.test/", 11) + `]}`, tooMany},
		{PathContents, `{"ids":["x"],"maxCharacters":0}`, bad},
		{PathContents, `{"ids":["x"],"query":""}`, bad},
		{PathContents, `{"ids":["x"],"query":null}`, bad},
	}
	st := NewStore()
	for _, c := range cases {
		_, err := answer(st, c.path, c.body)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s %s: %v, want an answer", c.path, c.body, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s %s: %v, want a 400 %q", c.path, c.body, err, c.want)
			continue
		}
		if e.Status != 400 || e.Message != c.want {
			t.Errorf("%s %s: %d %q, want 400 %q", c.path, c.body, e.Status, e.Message, c.want)
		}
	}
}

// Requests built in Go (not decoded) are checked the same way.
func TestValidateGoValues(t *testing.T) {
	one := 1
	for name, err := range map[string]error{
		"text maxCharacters without include": (&SearchRequest{Query: "q", NumResults: &one, Text: Text{MaxCharacters: 3}}).Validate(),
		"negative maxCharacters":             (&SearchRequest{Query: "q", NumResults: &one, Text: Text{Include: true, MaxCharacters: -1}}).Validate(),
		"empty ids slice":                    (&ContentsRequest{IDs: []string{}}).Validate(),
	} {
		if err == nil || !strings.HasPrefix(err.Error(), MsgInvalidBody+": ") {
			t.Errorf("%s: %v, want %q and the rule", name, err, MsgInvalidBody)
		}
	}
}

// The wire layer's exact-key reader works from the struct tags and its
// error text may use AllowedFields: the two must name the same members.
func TestAllowedFieldsMatchTheRequestTypes(t *testing.T) {
	for path, v := range map[string]any{PathContext: ContextRequest{}, PathSearch: SearchRequest{}, PathContents: ContentsRequest{}} {
		var tags []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			tags = append(tags, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
		}
		got := AllowedFields(path)
		if !slices.Equal(got, tags) {
			t.Errorf("%s: AllowedFields %v, struct tags %v", path, got, tags)
		}
	}
	if AllowedFields("/v1/other") != nil {
		t.Error("an unknown path has fields")
	}
}

func TestTextRoundTrips(t *testing.T) {
	for _, c := range []struct {
		json string
		text Text
	}{
		{`false`, Text{}},
		{`true`, Text{Include: true}},
		{`{"maxCharacters":42}`, Text{Include: true, MaxCharacters: 42}},
	} {
		var got Text
		if err := json.Unmarshal([]byte(c.json), &got); err != nil || got != c.text {
			t.Errorf("%s: read %+v, %v; want %+v", c.json, got, err, c.text)
		}
		if b, err := json.Marshal(c.text); err != nil || string(b) != c.json {
			t.Errorf("%+v: wrote %s, %v; want %s", c.text, b, err, c.json)
		}
	}
}

func TestCheckNullsLeavesNonObjectsToTheDecoder(t *testing.T) {
	for _, body := range []string{``, `[]`, `"x"`, `{"query":`, `{"query":"null"}`} {
		if err := CheckNulls([]byte(body)); err != nil {
			t.Errorf("%q: %v", body, err)
		}
	}
}

// A request built in Go marshals to a body the mock accepts: optional
// members are left out rather than sent as null.
func TestGoRequestsMarshalToAcceptedBodies(t *testing.T) {
	st := NewStore()
	for path, req := range map[string]any{
		PathContext:  ContextRequest{Query: "caching", Format: FormatTxt},
		PathSearch:   SearchRequest{Query: "caching", NumResults: ptr(3)},
		PathContents: ContentsRequest{URLs: []string{"https://docs.acme.dev/quickstart"}},
	} {
		body, _ := json.Marshal(req)
		if _, err := answer(st, path, string(body)); err != nil {
			t.Errorf("%s %s: %v", path, body, err)
		}
	}
}
