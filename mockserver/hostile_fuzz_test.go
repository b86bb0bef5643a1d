package mockserver_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"
)

// exactStringField is an oracle written apart from the mock, from the
// rule that a body is read as the vendor's schema reads it:
// body is one JSON object whose key name appears exactly once, spelt
// exactly (other keys, case variants of name included, do not count), and
// its value, read as JSON parsers read it (invalid UTF-8 as U+FFFD), is a
// non-empty string without control characters. It reads the raw tokens,
// so repeats are seen.
func exactStringField(body []byte, name string) bool {
	if !noRepeatsWithin64(body) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	found, ok := 0, true
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false
		}
		if key == name {
			found++
			var s string
			if json.Unmarshal(v, &s) != nil || s == "" || strings.ContainsFunc(s, unicode.IsControl) {
				ok = false
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return false
	}
	if _, err := dec.Token(); err == nil { // nothing after it
		return false
	}
	return ok && found == 1
}

// noRepeatsWithin64 reports whether no object at any depth repeats a key
// and nothing nests deeper than 64 levels.
func noRepeatsWithin64(body []byte) bool {
	type frame struct {
		obj     bool
		wantKey bool
		keys    map[string]bool
	}
	var stack []frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].obj {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
			if tok == json.Delim('}') {
				stack = stack[:n-1]
				valueDone()
				continue
			}
			key := tok.(string)
			if stack[n-1].keys[key] {
				return false
			}
			stack[n-1].keys[key] = true
			stack[n-1].wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, frame{obj: tok == json.Delim('{'), wantKey: true, keys: map[string]bool{}})
			if len(stack) > 64 {
				return false
			}
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			valueDone()
		default:
			valueDone()
		}
	}
}

// Any body to trigger preview: a preview starts exactly when the oracle
// says the body names one branch; everything else is an error body.
func FuzzPreviewBody(f *testing.F) {
	for _, b := range []string{`{"branch":"main"}`, `{"branch":"a","branch":"b"}`, `{"Branch":"a"}`, `{"branch":"a","BRANCH":"b"}`,
		`{"branch":""}`, `{"branch":null}`, `{"branch":1}`, `null`, `[]`, `{"branch":"a\u0000"}`, "{\"branch\":\"\xff\"}",
		`{"branch":"a"} {}`, `{"x":[[[[]]]],"branch":"a"}`, `{"branch":"ſ"}`, `{"ſbranch":"a"}`, `{"branch":"a","x":{"branch":1,"branch":2}}`} {
		f.Add([]byte(b))
	}
	s := fuzzServer(f)
	path := "/v1/project/preview/" + s.ProjectID()
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.APIKey())
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		want := exactStringField(body, "branch")
		switch rec.Code {
		case http.StatusAccepted:
			if !want {
				t.Fatalf("a preview started from %q", body)
			}
			validate(t, "preview", rec.Body.Bytes())
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			checkError(t, rec)
			if want {
				t.Fatalf("refused %q: %s", body, rec.Body)
			}
		default:
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
	})
}

// Any body to every control route that takes one: no panic, no 5xx, the
// error body on every refusal.
func FuzzControlBodies(f *testing.F) {
	for _, b := range []string{`{}`, `null`, `[]`, `{"outcome":"failed"}`, `{"advance":"1h"}`, `{"faults":["status=503"]}`,
		`{"scopes":["read"],"expiresAt":"2030-01-01T00:00:00Z","allowIPs":["10.0.0.0/8"]}`, `{"trigger":"code_change","active":false}`,
		`{"enabled":false,"bundleSize":1024}`, `{"visits":[{"visitorId":"v","path":"/a","timestamp":"2025-03-01T00:00:00Z"}],"synthetic":3}`,
		`{"searches":[{"query":"q","timestamp":"2025-03-01T00:00:00Z","clickedPath":"/a"}]}`,
		`{"feedback":[{"path":"/a","source":"code_snippet","status":"pending","createdAt":"2025-03-01T00:00:00Z","code":"x"}]}`,
		`{"threads":[{"caller":"api","turns":[{"timestamp":"2025-03-01T00:00:00Z","query":"q","response":"r"}]}]}`} {
		f.Add([]byte(b), uint8(0))
	}
	s := fuzzServer(f)
	routes := [][2]string{
		{"PUT", "/_mock/outcome"}, {"POST", "/_mock/clock"}, {"POST", "/_mock/faults"}, {"POST", "/_mock/keys"},
		{"POST", "/_mock/automations"}, {"PUT", "/_mock/static-export"}, {"POST", "/_mock/visits"}, {"POST", "/_mock/searches"},
		{"POST", "/_mock/feedback"}, {"POST", "/_mock/threads"}, {"PUT", "/_mock/projects/" + s.ProjectID() + "/outcome"},
		{"POST", "/_mock/jobs/job_missing/outcome"},
	}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		rt := routes[int(which)%len(routes)]
		req := httptest.NewRequest(rt[0], rt[1], bytes.NewReader(body))
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		switch {
		case rec.Code == http.StatusOK || rec.Code == http.StatusNoContent:
			s.ClearFaults() // an added fault rule must not strike the next input
		case rec.Code == http.StatusBadRequest || rec.Code == http.StatusNotFound || rec.Code == http.StatusRequestEntityTooLarge:
			checkError(t, rec)
		default:
			t.Fatalf("%s %s %q: %d %s", rt[0], rt[1], body, rec.Code, rec.Body)
		}
	})
}
