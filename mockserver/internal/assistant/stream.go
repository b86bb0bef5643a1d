package assistant

import (
	"bytes"
	"encoding/json"
	"unicode"
)

// Chunk is one chunk of an AI SDK v5 UI message stream: its type and the
// JSON a frame carries. The stream's last chunk is the Done sentinel.
type Chunk struct {
	Type string
	JSON []byte
}

// Done is the type and the data of the sentinel that ends a v5 stream.
const Done = "[DONE]"

// Frame is the chunk as a server-sent event: "data: <JSON>\n\n".
func (c Chunk) Frame() []byte {
	b := make([]byte, 0, len(c.JSON)+8)
	b = append(b, "data: "...)
	b = append(b, c.JSON...)
	return append(b, "\n\n"...)
}

// UIMessageStreamHeaders are the headers of a v5 answer, as the AI SDK's
// own server sends them (the thread headers come on top).
func UIMessageStreamHeaders() [][2]string {
	return [][2]string{
		{"Content-Type", "text/event-stream"},
		{"Cache-Control", "no-cache"},
		{"Connection", "keep-alive"},
		{"X-Vercel-AI-UI-Message-Stream", "v1"},
		{"X-Accel-Buffering", "no"},
	}
}

// toolName is the tool the answers' search step calls: a v5 client shows
// it as a "tool-search" part.
const toolName = "search"

// Chunks is the answer as a v5 UI message stream:
//
//	start {messageId}
//	start-step, tool-input-start, tool-input-delta, tool-input-available
//	  {input: {query}}, tool-output-available {output: the results}, finish-step
//	start-step, text-start, text-delta... (wordsPerDelta words each),
//	  text-end, source-url... (one per cited page), finish-step
//	finish {finishReason: "stop", threadId}
//	[DONE]
//
// The deltas concatenate to Response. threadId on finish is the vendor's
// (AI SDK clients before the chunk schemas were loosened refuse keys they
// do not know; the vendor documents it there regardless).
func (a *Answer) Chunks() []Chunk {
	call := "call-" + a.AssistantMessageID
	input := jsonOf(struct {
		Query string `json:"query"`
	}{a.Query})
	var out []Chunk
	add := func(typ string, v any) { out = append(out, Chunk{Type: typ, JSON: jsonOf(v)}) }
	type typed struct {
		Type string `json:"type"`
	}
	add("start", struct {
		Type      string `json:"type"`
		MessageID string `json:"messageId"`
	}{"start", a.AssistantMessageID})
	add("start-step", typed{"start-step"})
	add("tool-input-start", struct {
		Type       string `json:"type"`
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
	}{"tool-input-start", call, toolName})
	add("tool-input-delta", struct {
		Type           string `json:"type"`
		ToolCallID     string `json:"toolCallId"`
		InputTextDelta string `json:"inputTextDelta"`
	}{"tool-input-delta", call, string(input)})
	add("tool-input-available", struct {
		Type       string          `json:"type"`
		ToolCallID string          `json:"toolCallId"`
		ToolName   string          `json:"toolName"`
		Input      json.RawMessage `json:"input"`
	}{"tool-input-available", call, toolName, input})
	add("tool-output-available", struct {
		Type       string   `json:"type"`
		ToolCallID string   `json:"toolCallId"`
		Output     []Result `json:"output"`
	}{"tool-output-available", call, a.Results})
	add("finish-step", typed{"finish-step"})
	add("start-step", typed{"start-step"})
	type text struct {
		Type  string `json:"type"`
		ID    string `json:"id"`
		Delta string `json:"delta,omitempty"`
	}
	const textID = "text-1"
	add("text-start", text{"text-start", textID, ""})
	for _, d := range deltas(a.Response, wordsPerDelta) {
		add("text-delta", text{"text-delta", textID, d})
	}
	add("text-end", text{"text-end", textID, ""})
	for _, s := range a.Sources {
		add("source-url", struct {
			Type     string `json:"type"`
			SourceID string `json:"sourceId"`
			URL      string `json:"url"`
			Title    string `json:"title"`
		}{"source-url", s.ID, s.URL, s.Title})
	}
	add("finish-step", typed{"finish-step"})
	add("finish", struct {
		Type         string `json:"type"`
		FinishReason string `json:"finishReason"`
		ThreadID     string `json:"threadId"`
	}{"finish", "stop", a.ThreadID})
	return append(out, Chunk{Type: Done, JSON: []byte(Done)})
}

// ErrorChunk is a v5 error chunk, for a fault injected mid-stream.
func ErrorChunk(text string) Chunk {
	return Chunk{Type: "error", JSON: jsonOf(struct {
		Type      string `json:"type"`
		ErrorText string `json:"errorText"`
	}{"error", text})}
}

// DataPart is one line of an AI SDK v4 data stream: its code and its JSON.
type DataPart struct {
	Code byte
	JSON []byte
}

// Line is the part as the stream carries it: "<code>:<JSON>\n".
func (p DataPart) Line() []byte {
	b := make([]byte, 0, len(p.JSON)+3)
	b = append(b, p.Code, ':')
	b = append(b, p.JSON...)
	return append(b, '\n')
}

// DataStreamHeaders are the headers of a v4 answer.
func DataStreamHeaders() [][2]string {
	return [][2]string{
		{"Content-Type", "text/plain; charset=utf-8"},
		{"X-Vercel-AI-Data-Stream", "v1"},
	}
}

// DataStream is the same answer as an AI SDK v4 data stream, for the v1
// route:
//
//	f {messageId}                        start of the search step
//	9 {toolCallId, toolName, args: {query}}
//	a {toolCallId, result: the results}
//	e {finishReason: "tool-calls", isContinued: false}
//	f {messageId}                        start of the text step
//	0 "text"...                          the same deltas as Chunks
//	h {sourceType: "url", id, url, title}...
//	e {finishReason: "stop", isContinued: false}
//	d {finishReason: "stop", threadId}
//
// A v4 stream has no sentinel: it ends with d.
func (a *Answer) DataStream() []DataPart {
	call := "call-" + a.AssistantMessageID
	var out []DataPart
	add := func(code byte, v any) { out = append(out, DataPart{Code: code, JSON: jsonOf(v)}) }
	type step struct {
		MessageID string `json:"messageId"`
	}
	type stepEnd struct {
		FinishReason string `json:"finishReason"`
		IsContinued  bool   `json:"isContinued"`
	}
	add('f', step{a.AssistantMessageID})
	add('9', struct {
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
		Args       any    `json:"args"`
	}{call, toolName, struct {
		Query string `json:"query"`
	}{a.Query}})
	add('a', struct {
		ToolCallID string   `json:"toolCallId"`
		Result     []Result `json:"result"`
	}{call, a.Results})
	add('e', stepEnd{"tool-calls", false})
	add('f', step{a.AssistantMessageID})
	for _, d := range deltas(a.Response, wordsPerDelta) {
		add('0', d)
	}
	for _, s := range a.Sources {
		add('h', struct {
			SourceType string `json:"sourceType"`
			ID         string `json:"id"`
			URL        string `json:"url"`
			Title      string `json:"title"`
		}{"url", s.ID, s.URL, s.Title})
	}
	add('e', stepEnd{"stop", false})
	add('d', struct {
		FinishReason string `json:"finishReason"`
		ThreadID     string `json:"threadId"`
	}{"stop", a.ThreadID})
	return out
}

// ErrorPart is a v4 error part, for a fault injected mid-stream.
func ErrorPart(text string) DataPart { return DataPart{Code: '3', JSON: jsonOf(text)} }

// deltas splits text into pieces of n words, each word with the spaces
// that follow it, so the pieces concatenate to text.
func deltas(text string, n int) []string {
	var out []string
	start, words, inWord := 0, 0, false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if !space && !inWord {
			if words == n {
				out = append(out, text[start:i])
				start, words = i, 0
			}
			words++
		}
		inWord = !space
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// jsonOf encodes v as the AI SDK's JSON.stringify would: without
// encoding/json's HTML escapes, which only make frames harder to read.
func jsonOf(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings, numbers and slices of them: cannot fail
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
