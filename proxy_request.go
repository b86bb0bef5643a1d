package mintlify

// The proxy's reading of a browser's request body: the conversation and
// the allowlist of what goes upstream.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
)

// proxyRequest is what the proxy reads of a browser's body: the members
// of the allowlist. Everything else (fp, filter.groups, unknown members)
// is never read, so it cannot reach upstream.
//
// Its arrays decode item by item within their bounds: a decoded item
// costs its Go value whatever its bytes, so decoding 256 KiB of {}
// (87,000 empty messages, parts or context items) whole would cost 15 to
// 28 MB of allocation per request, before any limit counted it.
type proxyRequest struct {
	Messages          proxyConversation `json:"messages"`
	ThreadID          string            `json:"threadId"`
	ThreadKey         string            `json:"threadKey"`
	RetrievalPageSize *float64          `json:"retrievalPageSize"`
	Context           proxyContext      `json:"context"`
	CurrentPath       string            `json:"currentPath"`
	Filter            struct {
		Version  string `json:"version"`
		Language string `json:"language"`
	} `json:"filter"`
}

type proxyMessage struct {
	ID    string     `json:"id"`
	Role  string     `json:"role"`
	Parts proxyParts `json:"parts"`
	text  int        // bytes of text in Parts
}

// proxyConversation is the conversation a browser sent as the proxy
// forwards it. A chat client sends the whole conversation with each
// question, so a long chat outgrows what the API takes (50 messages) in a
// few dozen turns: the proxy keeps the most recent messages that fit, at
// most maxProxyMessages and maxProxyText bytes of text, with no part over
// maxProxyPartText, and leaves the older ones out. The messages are read
// one at a time and only those kept are held.
type proxyConversation struct {
	kept     []proxyMessage // the most recent messages that fit, in order
	text     int            // bytes of text in kept
	leftOut  int            // messages read and not kept
	total    int            // messages read
	lastRole string         // the last message's
	lastFits bool           // the last message fits by itself (it is kept)
}

// proxyRoleError is a message whose role is not user or assistant: the
// i-th.
type proxyRoleError int

func (e proxyRoleError) Error() string {
	return fmt.Sprintf("message %d: the role must be user or assistant", int(e))
}

func (c *proxyConversation) UnmarshalJSON(data []byte) error {
	*c = proxyConversation{}
	return eachItem(data, func(dec *json.Decoder, i int) error {
		var m proxyMessage
		if err := dec.Decode(&m); err != nil {
			return err
		}
		if m.Role != "user" && m.Role != "assistant" {
			return proxyRoleError(i) // a browser sets no system prompt
		}
		c.add(m)
		return nil
	})
}

// add reads the next message: kept, and the oldest let go while the kept
// ones are too many or hold too much text. A message that can never fit
// (a part over maxProxyPartText, or more than maxProxyText in all) is
// left out with everything before it.
func (c *proxyConversation) add(m proxyMessage) {
	c.total++
	c.lastRole = m.Role
	c.lastFits = true
	for _, p := range m.Parts {
		m.text += len(p.Text)
		c.lastFits = c.lastFits && len(p.Text) <= maxProxyPartText
	}
	if !c.lastFits || m.text > maxProxyText {
		c.leftOut += len(c.kept) + 1
		c.kept, c.text, c.lastFits = c.kept[:0], 0, false
		return
	}
	c.kept = append(c.kept, m)
	c.text += m.text
	for len(c.kept) > maxProxyMessages || c.text > maxProxyText {
		c.text -= c.kept[0].text
		c.kept = c.kept[:copy(c.kept, c.kept[1:])]
		c.leftOut++
	}
}

type proxyPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

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
type proxyContext []wireContext

func (c *proxyContext) UnmarshalJSON(data []byte) error {
	*c = nil
	return eachItem(data, func(dec *json.Decoder, i int) error {
		if i >= maxProxyContext {
			var skip struct{}
			return dec.Decode(&skip)
		}
		*c = append(*c, wireContext{})
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
// the allowlist, without fp and groups (the identity's): the most recent
// messages that fit (see proxyConversation), and how many it left out.
// header holds the thread's ID and key when the browser sent them as
// X-Thread-Id and X-Thread-Key. A refusal is a status and a message in
// the proxy's words.
func rebuildMessage(raw []byte, header http.Header) (body *messageBody, leftOut, status int, msg string) {
	var req proxyRequest
	// Unmarshal, not a Decoder: one JSON value and nothing after it, read
	// where it lies (a Decoder would copy a large body into its buffer).
	if err := json.Unmarshal(raw, &req); err != nil {
		if role := proxyRoleError(0); errors.As(err, &role) {
			return nil, 0, http.StatusBadRequest, role.Error()
		}
		return nil, 0, http.StatusBadRequest, "the request is not the JSON of one chat request"
	}
	conv := req.Messages
	switch {
	case conv.total == 0:
		return nil, 0, http.StatusBadRequest, "the request holds no message"
	case conv.lastRole != "user":
		return nil, 0, http.StatusBadRequest, "the last message must be the user's, with some text"
	case !conv.lastFits:
		return nil, 0, http.StatusRequestEntityTooLarge, fmt.Sprintf(
			"the last message is too long: at most %d KiB of text in a part, %d KiB in all", maxProxyPartText>>10, maxProxyText>>10)
	}
	body = &messageBody{Messages: make([]wireUIMessage, len(conv.kept))}
	for i, m := range conv.kept {
		out := wireUIMessage{ID: m.ID, Role: m.Role, Parts: []wirePart{}}
		if !plainToken(m.ID) {
			out.ID = newMessageID()
		}
		for _, part := range m.Parts { // text parts only: see proxyParts
			out.Parts = append(out.Parts, wirePart{Type: "text", Text: part.Text})
		}
		body.Messages[i] = out
	}
	if strings.TrimSpace(wireText(body.Messages[len(body.Messages)-1])) == "" {
		return nil, 0, http.StatusBadRequest, "the last message must be the user's, with some text"
	}
	if id, key := header.Get("X-Thread-Id"), header.Get("X-Thread-Key"); id != "" || key != "" {
		if req.ThreadID != "" && (req.ThreadID != id || req.ThreadKey != key) {
			return nil, 0, http.StatusBadRequest, "the thread is named twice, differently: in the body and in X-Thread-Id and X-Thread-Key"
		}
		req.ThreadID, req.ThreadKey = id, key
	}
	switch {
	case (req.ThreadID == "") != (req.ThreadKey == ""):
		return nil, 0, http.StatusBadRequest, "threadId and threadKey go together"
	case req.ThreadID != "" && (!plainToken(req.ThreadID) || !plainToken(req.ThreadKey)):
		return nil, 0, http.StatusBadRequest, "threadId or threadKey is not a thread's"
	}
	body.ThreadID, body.ThreadKey = req.ThreadID, req.ThreadKey
	if size := req.RetrievalPageSize; size != nil {
		body.RetrievalPageSize = int(math.Min(math.Max(*size, 1), maxProxyPageSize))
	}
	for i, c := range req.Context { // at most maxProxyContext: see proxyContext
		if c.Type != "code" && c.Type != "textSelection" {
			return nil, 0, http.StatusBadRequest, fmt.Sprintf("context %d: the type must be code or textSelection", i)
		}
		body.Context = append(body.Context, c)
	}
	body.CurrentPath = cutRunes(req.CurrentPath, maxCurrentPathRunes)
	body.Filter = filterOf(docFilter{Version: req.Filter.Version, Language: req.Filter.Language})
	return body, conv.leftOut, 0, ""
}

func wireText(m wireUIMessage) string {
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
