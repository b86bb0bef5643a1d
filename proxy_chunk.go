package mintlify

// The proxy's reading and writing of one chunk of an answer: parsed as the
// browser's JSON.parse reads it, written anew with the members that every
// AI SDK from 5.0.216 on accepts.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxProxyChunkMembers bounds the distinct members of a chunk the proxy
// relays: the AI SDK's chunks have at most eight.
const maxProxyChunkMembers = 64

// proxyChunkMembers are the members the AI SDK's UI message chunk schemas
// name, by chunk type. AI SDK 5.0.0 to 5.0.216 read chunks as strict
// objects, so that one unknown member (the vendor's threadId on finish)
// fails the whole answer: for the types 5.0.216 knows, the list is its
// schema's, and a later release's optional additions (a tool's title, an
// abort's reason) are left out. The types later releases added (6.0 and
// 7.0) are read by loose schemas only: their lists join every release's.
// A type no release names passes with all its members.
var proxyChunkMembers = map[string][]string{
	"text-start":            {"id", "providerMetadata"},
	"text-delta":            {"id", "delta", "providerMetadata"},
	"text-end":              {"id", "providerMetadata"},
	"error":                 {"errorText"},
	"tool-input-start":      {"toolCallId", "toolName", "providerExecuted", "dynamic"},
	"tool-input-delta":      {"toolCallId", "inputTextDelta"},
	"tool-input-available":  {"toolCallId", "toolName", "input", "providerExecuted", "providerMetadata", "dynamic"},
	"tool-input-error":      {"toolCallId", "toolName", "input", "providerExecuted", "providerMetadata", "dynamic", "errorText"},
	"tool-output-available": {"toolCallId", "output", "providerExecuted", "dynamic", "preliminary"},
	"tool-output-error":     {"toolCallId", "errorText", "providerExecuted", "dynamic"},
	"reasoning-start":       {"id", "providerMetadata"},
	"reasoning-delta":       {"id", "delta", "providerMetadata"},
	"reasoning-end":         {"id", "providerMetadata"},
	"source-url":            {"sourceId", "url", "title", "providerMetadata"},
	"source-document":       {"sourceId", "mediaType", "title", "filename", "providerMetadata"},
	"file":                  {"url", "mediaType", "providerMetadata"},
	"start-step":            {},
	"finish-step":           {},
	"start":                 {"messageId", "messageMetadata"},
	"finish":                {"finishReason", "messageMetadata"},
	"abort":                 {},
	"message-metadata":      {"messageMetadata"},
	"data-":                 {"id", "data", "transient"}, // every type that starts with "data-"

	// Added by 6.0 and 7.0.
	"tool-approval-request":  {"approvalId", "toolCallId", "approvalDescriptor", "inputSchemaInput", "signature", "reason", "isAutomatic"},
	"tool-approval-response": {"approvalId", "approved", "reason", "providerExecuted", "providerMetadata"},
	"tool-output-denied":     {"toolCallId"},
	"custom":                 {"kind", "providerMetadata"},
	"reasoning-file":         {"url", "mediaType", "providerMetadata"},
	"steering-message":       {"id", "parts"},
	"reset-step":             {},
}

// proxyFinishReasons are the finish reasons every release accepts: 5.0
// knows "unknown", 7.0 "interrupted", and neither the other's. Another is
// left out of the finish chunk rather than fail the answer.
var proxyFinishReasons = []string{`"stop"`, `"length"`, `"content-filter"`, `"tool-calls"`, `"error"`, `"other"`}

// proxyChunk is a chunk as JSON.parse reads it: an object whose members
// keep the place they first came in and the last value given; typ is the
// string value of its type.
type proxyChunk struct {
	typ     string
	members []proxyMember
}

// proxyMember is a member of a chunk: its name, unescaped, and its value's
// JSON as it came (a slice of the event) or as the proxy rewrote it.
type proxyMember struct {
	name  string
	value []byte
}

// parse reads data, an event, into c. It reports whether data is a chunk:
// one JSON object, with a non-empty string type and at most
// maxProxyChunkMembers distinct members.
func (c *proxyChunk) parse(data []byte) bool {
	c.typ, c.members = "", c.members[:0]
	if !json.Valid(data) {
		return false
	}
	if !eachMember(data, c.set) {
		return false
	}
	typ, ok := c.get("type")
	if !ok || len(typ) < 3 || typ[0] != '"' {
		return false
	}
	c.typ = jsonStringOf(typ)
	return c.typ != ""
}

// eachMember calls f with each member of data, valid JSON, in order: its
// name unescaped and its value's JSON, a slice of data. It reports false
// when data is not an object or f returned false.
func eachMember(data []byte, f func(name string, value []byte) bool) bool {
	i := skipSpace(data, 0)
	if data[i] != '{' {
		return false
	}
	for i = skipSpace(data, i+1); data[i] != '}'; {
		end := jsonValueEnd(data, i)
		name := jsonStringOf(data[i:end])
		i = skipSpace(data, skipSpace(data, end)+1) // past the colon
		end = jsonValueEnd(data, i)
		if !f(name, data[i:end]) {
			return false
		}
		if i = skipSpace(data, end); data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return true
}

// get is the value of the member name, if c has it.
func (c *proxyChunk) get(name string) ([]byte, bool) {
	for _, m := range c.members {
		if m.name == name {
			return m.value, true
		}
	}
	return nil, false
}

// set gives the member name its value, in its first place if it is there
// already. It reports false past maxProxyChunkMembers members.
func (c *proxyChunk) set(name string, value []byte) bool {
	for i := range c.members {
		if c.members[i].name == name {
			c.members[i].value = value
			return true
		}
	}
	if len(c.members) == maxProxyChunkMembers {
		return false
	}
	c.members = append(c.members, proxyMember{name, value})
	return true
}

// str is the member name's value when it is a string.
func (c *proxyChunk) str(name string) (string, bool) {
	v, ok := c.get(name)
	if !ok || v[0] != '"' {
		return "", false
	}
	return jsonStringOf(v), true
}

// appendFrame appends c as one server-sent event, "data: " and its JSON on
// one line, then an empty line: its type first, then the members its
// type's schema names (see proxyChunkMembers), each value compacted so
// that no line break of it can end the line.
func (c *proxyChunk) appendFrame(out []byte) []byte {
	allowed, known := proxyChunkMembers[c.typ]
	if !known && strings.HasPrefix(c.typ, "data-") {
		allowed, known = proxyChunkMembers["data-"], true
	}
	typ, _ := c.get("type")
	out = append(append(out, `data: {"type":`...), typ...)
	for _, m := range c.members {
		switch {
		case m.name == "type":
			continue
		case known && !slices.Contains(allowed, m.name):
			continue
		case c.typ == "finish" && m.name == "finishReason" && !slices.Contains(proxyFinishReasons, string(m.value)):
			continue
		}
		out = append(appendJSONName(append(out, ','), m.name), ':')
		if bytes.IndexByte(m.value, '\n') < 0 && bytes.IndexByte(m.value, '\r') < 0 {
			out = append(out, m.value...)
			continue
		}
		b := bytes.NewBuffer(out)
		_ = json.Compact(b, m.value) // valid JSON: parse checked it
		out = b.Bytes()
	}
	return append(out, "}\n\n"...)
}

// appendJSONName appends name as a JSON string.
func appendJSONName(out []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(name) // a string: no error
			return append(out, b...)
		}
	}
	return append(append(append(out, '"'), name...), '"')
}

// jsonValueEnd is the index just past the JSON value that starts at
// data[i], in data that json.Valid accepted.
func jsonValueEnd(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i // the end of an enclosing object: a number, true, false or null ended here
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// jsonStringOf is the text of a JSON string (quoted, valid), invalid
// UTF-8 read as U+FFFD, as encoding/json and a browser (which decodes the
// stream before it parses a chunk) read it: "p\xff" and "p\xfe" name one
// text part there, and so here.
func jsonStringOf(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}
