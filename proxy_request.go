package mintlify

// The proxy's reading of a browser's request body: the conversation and
// the allowlist of what goes upstream.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
)

// proxyRequest is what the proxy reads of a browser's body: the members
// of the allowlist. Everything else (fp, filter.groups, unknown members)
// is never read, so it cannot reach upstream.
//
// Its arrays decode item by item within their bounds: a decoded item
// costs its Go value whatever its bytes, so 256 KiB of {} (87,000 empty
// messages, parts or context items) once cost 15 to 28 MB of allocation
// per request, before any limit counted it.
type proxyRequest struct {
	Messages          list[proxyMessage, proxyMessagesMax] `json:"messages"`
	ThreadID          string                               `json:"threadId"`
	ThreadKey         string                               `json:"threadKey"`
	RetrievalPageSize *float64                             `json:"retrievalPageSize"`
	Context           proxyContext                         `json:"context"`
	CurrentPath       string                               `json:"currentPath"`
	Filter            struct {
		Version  string `json:"version"`
		Language string `json:"language"`
	} `json:"filter"`
}

type proxyMessage struct {
	ID    string     `json:"id"`
	Role  string     `json:"role"`
	Parts proxyParts `json:"parts"`
}

type proxyPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// proxyMessagesMax bounds a conversation (a bounded list, json.go): the
// message after maxProxyMessages is refused before it is decoded.
type proxyMessagesMax struct{}

func (proxyMessagesMax) max() (int, string) { return maxProxyMessages, "messages" }

// proxyParts keeps a message's text parts only: the others (tool calls,
// sources, reasoning of earlier answers) are decoded one at a time and
// dropped.
type proxyParts []proxyPart

func (p *proxyParts) UnmarshalJSON(data []byte) error {
	*p = nil
	var part proxyPart // one for all: each a fresh one cost an allocation per dropped part
	return eachItem(data, func(dec *json.Decoder, _ int) error {
		part = proxyPart{}
		if err := dec.Decode(&part); err != nil {
			return err
		}
		if part.Type == "text" {
			*p = append(*p, part)
		}
		return nil
	})
}

// proxyContext keeps the first maxProxyContext items; the rest must be
// objects, and are not kept.
type proxyContext []contextWire

func (c *proxyContext) UnmarshalJSON(data []byte) error {
	*c = nil
	return eachItem(data, func(dec *json.Decoder, i int) error {
		if i >= maxProxyContext {
			var skip struct{}
			return dec.Decode(&skip)
		}
		*c = append(*c, contextWire{})
		return dec.Decode(&(*c)[i])
	})
}

// eachItem calls item with a decoder at each element of the JSON array
// data in turn (null holds none).
func eachItem(data []byte, item func(dec *json.Decoder, i int) error) error {
	if string(data) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return errors.New("not an array")
	}
	for i := 0; dec.More(); i++ {
		if err := item(dec, i); err != nil {
			return err
		}
	}
	return nil
}

// rebuildMessage reads a browser's body and builds the upstream one from
// the allowlist, without fp and groups (the identity's). A refusal is a
// status and a message in the proxy's words.
func rebuildMessage(raw []byte) (*messageBody, int, string) {
	var req proxyRequest
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&req); err != nil {
		if tooMany := (*tooManyError)(nil); errors.As(err, &tooMany) {
			return nil, http.StatusBadRequest, fmt.Sprintf("the conversation holds more than %d messages", maxProxyMessages)
		}
		return nil, http.StatusBadRequest, "the request is not the JSON of a chat request"
	}
	if _, err := dec.Token(); err != io.EOF { // More would pass a stray } or ]
		return nil, http.StatusBadRequest, "the request holds more than one JSON value"
	}
	if len(req.Messages) == 0 {
		return nil, http.StatusBadRequest, "the request holds no message"
	}
	body := &messageBody{Messages: make([]messageWire, len(req.Messages))}
	for i, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return nil, http.StatusBadRequest, fmt.Sprintf("message %d: the role must be user or assistant", i)
		}
		out := messageWire{ID: m.ID, Role: m.Role, Parts: []partWire{}}
		if !plainToken(m.ID) {
			out.ID = newMessageID()
		}
		for _, part := range m.Parts { // text parts only: see proxyParts
			if len(part.Text) > maxProxyPartText {
				return nil, http.StatusRequestEntityTooLarge, fmt.Sprintf("message %d: a text part is larger than %d KiB", i, maxProxyPartText>>10)
			}
			out.Parts = append(out.Parts, partWire{Type: "text", Text: part.Text})
		}
		body.Messages[i] = out
	}
	last := body.Messages[len(body.Messages)-1]
	if last.Role != "user" || strings.TrimSpace(wireText(last)) == "" {
		return nil, http.StatusBadRequest, "the last message must be the user's, with some text"
	}
	switch {
	case (req.ThreadID == "") != (req.ThreadKey == ""):
		return nil, http.StatusBadRequest, "threadId and threadKey go together"
	case req.ThreadID != "" && (!plainToken(req.ThreadID) || !plainToken(req.ThreadKey)):
		return nil, http.StatusBadRequest, "threadId or threadKey is not a thread's"
	}
	body.ThreadID, body.ThreadKey = req.ThreadID, req.ThreadKey
	if size := req.RetrievalPageSize; size != nil {
		body.RetrievalPageSize = int(math.Min(math.Max(*size, 1), maxProxyPageSize))
	}
	for i, c := range req.Context { // at most maxProxyContext: see proxyContext
		if c.Type != "code" && c.Type != "textSelection" {
			return nil, http.StatusBadRequest, fmt.Sprintf("context %d: the type must be code or textSelection", i)
		}
		body.Context = append(body.Context, c)
	}
	body.CurrentPath = cutRunes(req.CurrentPath, maxCurrentPathRunes)
	body.Filter = filterOf(docFilter{Version: req.Filter.Version, Language: req.Filter.Language})
	return body, 0, ""
}

func wireText(m messageWire) string {
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// plainToken reports an ID fit to forward: 1 to 256 bytes of printable
// ASCII without spaces.
func plainToken(s string) bool {
	if s == "" || len(s) > maxProxyID {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// cutRunes keeps the first n characters of s.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
