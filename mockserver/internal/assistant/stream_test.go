package assistant

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// knownChunks are the v5 UI message chunk types and the keys each may
// carry (the AI SDK's chunk schemas, plus threadId on finish, which the
// vendor documents).
var knownChunks = map[string][]string{
	"start":                 {"messageId", "messageMetadata"},
	"start-step":            {},
	"finish-step":           {},
	"text-start":            {"id"},
	"text-delta":            {"id", "delta"},
	"text-end":              {"id"},
	"tool-input-start":      {"toolCallId", "toolName"},
	"tool-input-delta":      {"toolCallId", "inputTextDelta"},
	"tool-input-available":  {"toolCallId", "toolName", "input"},
	"tool-output-available": {"toolCallId", "output"},
	"source-url":            {"sourceId", "url", "title"},
	"finish":                {"finishReason", "messageMetadata", "threadId"},
	"error":                 {"errorText"},
}

func TestChunksFollowTheUIMessageStreamRules(t *testing.T) {
	s := NewStore(DefaultDomain, 7)
	a, err := s.Message(DefaultDomain, ask("How do deployment previews and rate limits work?"), t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Sources) < 2 {
		t.Fatalf("the question should cite several pages, got %+v", a.Sources)
	}
	chunks := a.Chunks()
	var types []string
	var text strings.Builder
	open := map[string]bool{}
	tools := map[string]string{} // toolCallId -> last chunk type
	for i, c := range chunks {
		types = append(types, c.Type)
		if c.Type == Done {
			if i != len(chunks)-1 || string(c.JSON) != Done || string(c.Frame()) != "data: [DONE]\n\n" {
				t.Errorf("[DONE] at %d of %d: %q", i, len(chunks), c.Frame())
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(c.JSON, &m); err != nil {
			t.Fatalf("chunk %d: %s is not JSON", i, c.JSON)
		}
		allowed, known := knownChunks[c.Type]
		if !known || m["type"] != c.Type {
			t.Fatalf("chunk %d: type %q (JSON %v), not a v5 chunk", i, c.Type, m["type"])
		}
		for k := range m {
			if k != "type" && !slices.Contains(allowed, k) {
				t.Errorf("chunk %d (%s): unknown key %q", i, c.Type, k)
			}
		}
		if f := string(c.Frame()); !strings.HasPrefix(f, "data: {") || !strings.HasSuffix(f, "}\n\n") || strings.Count(f, "\n") != 2 {
			t.Errorf("frame %q", f)
		}
		id, _ := m["id"].(string)
		switch c.Type {
		case "text-start":
			open[id] = true
		case "text-delta":
			if !open[id] {
				t.Errorf("chunk %d: a delta of %q before its start", i, id)
			}
			text.WriteString(m["delta"].(string))
		case "text-end":
			if !open[id] {
				t.Errorf("chunk %d: the end of %q before its start", i, id)
			}
			delete(open, id)
		case "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available":
			call := m["toolCallId"].(string)
			if want := map[string]string{"tool-input-delta": "tool-input-start", "tool-input-available": "tool-input-delta",
				"tool-output-available": "tool-input-available"}[c.Type]; tools[call] != want {
				t.Errorf("chunk %d: %s after %q", i, c.Type, tools[call])
			}
			tools[call] = c.Type
		case "finish":
			if m["finishReason"] != "stop" || m["threadId"] != a.ThreadID {
				t.Errorf("finish %v, want stop and thread %s", m, a.ThreadID)
			}
		}
	}
	if len(open) != 0 {
		t.Errorf("text parts never ended: %v", open)
	}
	if text.String() != a.Response {
		t.Errorf("deltas make %q,\nwant %q", text.String(), a.Response)
	}
	head := []string{"start", "start-step", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available",
		"finish-step", "start-step", "text-start"}
	tail := []string{"text-end"}
	for range a.Sources {
		tail = append(tail, "source-url")
	}
	tail = append(tail, "finish-step", "finish", Done)
	if !slices.Equal(types[:len(head)], head) || !slices.Equal(types[len(types)-len(tail):], tail) {
		t.Errorf("chunk types %v", types)
	}
	for _, typ := range types[len(head) : len(types)-len(tail)] {
		if typ != "text-delta" {
			t.Errorf("a %s among the deltas", typ)
		}
	}

	// The search step's input is the question and its output the results.
	var in struct{ Input struct{ Query string } }
	var out struct{ Output json.RawMessage }
	_ = json.Unmarshal(chunks[4].JSON, &in)
	_ = json.Unmarshal(chunks[5].JSON, &out)
	results, _ := json.Marshal(a.Results)
	if in.Input.Query != a.Query || !jsonEqual(out.Output, results) {
		t.Errorf("search step: input %q, output %s; want %q, %s", in.Input.Query, out.Output, a.Query, results)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// Two stores with the same seed, pages, clock and question stream the
// same bytes.
func TestChunksAreDeterministic(t *testing.T) {
	stream := func() (v5, v4 []byte) {
		a, err := NewStore(DefaultDomain, 42).Message(DefaultDomain, ask("How are API keys restricted to IP addresses?"), t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range a.Chunks() {
			v5 = append(v5, c.Frame()...)
		}
		for _, p := range a.DataStream() {
			v4 = append(v4, p.Line()...)
		}
		return v5, v4
	}
	a5, a4 := stream()
	b5, b4 := stream()
	if !bytes.Equal(a5, b5) || !bytes.Equal(a4, b4) {
		t.Error("the same request on the same seed streamed different bytes")
	}
}

func TestDataStreamCarriesTheSameAnswer(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	a, err := s.Message(DefaultDomain, ask("What happens when a deployment fails?"), t0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []byte
	var text strings.Builder
	var sources []string
	parts := a.DataStream()
	for i, p := range parts {
		line := string(p.Line())
		if !strings.HasPrefix(line, string(p.Code)+":") || !strings.HasSuffix(line, "\n") || strings.Count(line, "\n") != 1 {
			t.Fatalf("line %q", line)
		}
		var v any
		if err := json.Unmarshal(p.JSON, &v); err != nil {
			t.Fatalf("part %d: %s is not JSON", i, p.JSON)
		}
		codes = append(codes, p.Code)
		m, _ := v.(map[string]any)
		switch p.Code {
		case '0':
			text.WriteString(v.(string))
		case '9':
			if m["toolName"] != "search" || m["args"].(map[string]any)["query"] != a.Query {
				t.Errorf("tool call %v", m)
			}
		case 'a':
			if !jsonEqual(mustJSON(m["result"]), mustJSON(a.Results)) {
				t.Errorf("tool result %v", m["result"])
			}
		case 'h':
			if m["sourceType"] != "url" {
				t.Errorf("source %v", m)
			}
			sources = append(sources, m["url"].(string))
		case 'f':
			if m["messageId"] != a.AssistantMessageID {
				t.Errorf("step start %v", m)
			}
		case 'e':
			if _, ok := m["finishReason"].(string); !ok {
				t.Errorf("step finish %v", m)
			}
		case 'd':
			if i != len(parts)-1 || m["finishReason"] != "stop" || m["threadId"] != a.ThreadID {
				t.Errorf("finish %v at %d of %d", m, i, len(parts))
			}
		default:
			t.Errorf("part code %q", p.Code)
		}
	}
	if text.String() != a.Response {
		t.Errorf("text parts make %q, want %q", text.String(), a.Response)
	}
	if len(sources) != len(a.Sources) || len(sources) == 0 || sources[0] != a.Sources[0].URL {
		t.Errorf("sources %v, want %+v", sources, a.Sources)
	}
	if got := string(codes); !strings.HasPrefix(got, "f9aef0") || !strings.HasSuffix(got, "0"+strings.Repeat("h", len(sources))+"ed") {
		t.Errorf("part codes %s", got)
	}
	if got := string(ErrorPart(`bad "news"`).Line()); got != `3:"bad \"news\""`+"\n" {
		t.Errorf("error part %s", got)
	}
	if got := string(ErrorChunk("boom").Frame()); got != `data: {"type":"error","errorText":"boom"}`+"\n\n" {
		t.Errorf("error chunk %s", got)
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func TestDeltasAreSmallGroupsOfWords(t *testing.T) {
	for _, text := range []string{"", "one", "  lead and trail  ", "a b c d e f g", "line\n\nbreak [link](https://x/y): done."} {
		ds := deltas(text, 3)
		if strings.Join(ds, "") != text {
			t.Errorf("%q: deltas %q do not concatenate back", text, ds)
		}
		for _, d := range ds {
			if n := len(strings.Fields(d)); n > 3 || n == 0 && strings.TrimSpace(text) != "" {
				t.Errorf("%q: delta %q holds %d words", text, d, n)
			}
		}
	}
}
