package assistant

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// ask is a valid request whose last message is the user's question.
func ask(question string) MessageRequest {
	return MessageRequest{FP: "anonymous", Messages: []Message{
		{ID: "s", Role: "system", Parts: []MessagePart{{Type: "text", Text: "Be brief."}}},
		{ID: "u1", Role: "user", Parts: []MessagePart{{Type: "text", Text: question}}},
	}}
}

func TestValidateMessage(t *testing.T) {
	if err := ValidateMessage(ask("How do previews work?")); err != nil {
		t.Fatalf("a valid request: %v", err)
	}
	followUp := ask("And deployments?")
	followUp.Messages = append(followUp.Messages[:1],
		Message{ID: "u0", Role: "user", Parts: []MessagePart{{Type: "text", Text: "How do previews work?"}}},
		Message{ID: "a0", Role: "assistant", Parts: []MessagePart{{Type: "step-start"}, {Type: "tool-search"}, {Type: "text", Text: "..."}, {Type: "source-url"}}},
		followUp.Messages[1])
	if err := ValidateMessage(followUp); err != nil {
		t.Errorf("a follow-up carrying the parts of an earlier answer: %v", err)
	}
	v1 := MessageRequest{FP: "x", V1: true, Messages: []Message{{Role: "data"}, {Role: "user", Content: "What are the rate limits?"}}}
	if err := ValidateMessage(v1); err != nil {
		t.Errorf("v1 with content and a data message: %v", err)
	}

	edit := func(f func(*MessageRequest)) MessageRequest { r := ask("q"); f(&r); return r }
	for name, req := range map[string]MessageRequest{
		"no fp":           edit(func(r *MessageRequest) { r.FP = "" }),
		"no messages":     edit(func(r *MessageRequest) { r.Messages = nil }),
		"unknown role":    edit(func(r *MessageRequest) { r.Messages[0].Role = "tool" }),
		"data role on v2": edit(func(r *MessageRequest) { r.Messages[0].Role = "data" }),
		"untyped part":    edit(func(r *MessageRequest) { r.Messages[0].Parts[0].Type = "" }),
		"last not user":   edit(func(r *MessageRequest) { r.Messages = r.Messages[:1] }),
		"no text":         edit(func(r *MessageRequest) { r.Messages[1].Parts = []MessagePart{{Type: "file"}} }),
		"blank text":      edit(func(r *MessageRequest) { r.Messages[1].Parts[0].Text = " \n" }),
		"v2 content only": edit(func(r *MessageRequest) { r.Messages[1] = Message{Role: "user", Content: "hi"} }),
		"page size 0":     edit(func(r *MessageRequest) { r.RetrievalPageSize = ptr(0) }),
		"page size 51":    edit(func(r *MessageRequest) { r.RetrievalPageSize = ptr(51) }),
		"long path":       edit(func(r *MessageRequest) { r.CurrentPath = strings.Repeat("é", MaxCurrentPath+1) }),
		"bad context":     edit(func(r *MessageRequest) { r.Context = []ContextItem{{Type: "code"}, {Type: "image"}} }),
	} {
		mustStatus(t, ValidateMessage(req), 400, name)
	}
	if err := ValidateMessage(edit(func(r *MessageRequest) {
		r.CurrentPath = strings.Repeat("é", MaxCurrentPath) // 200 characters, 400 bytes
		r.RetrievalPageSize = ptr(50)
		r.Context = []ContextItem{{Type: "textSelection", Value: "v"}}
	})); err != nil {
		t.Errorf("the bounds themselves: %v", err)
	}
	var e *Error
	err := ValidateMessage(MessageRequest{RetrievalPageSize: ptr(0)})
	if e, _ = err.(*Error); e == nil || !strings.Contains(e.Message, "fp") || !strings.Contains(e.Message, "messages") || !strings.Contains(e.Message, "retrievalPageSize") {
		t.Errorf("every problem at once: %v", err)
	}
}

// A page added to the site is found by a word only it holds, and the
// answer to a question with that word cites it.
func TestAnAddedPageIsFoundAndCited(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	if _, err := s.AddPages(DefaultDomain, []Page{{Path: "/guides/webhooks", Title: "Webhooks",
		Content: "## Signing\n\nEvery webhook is signed with the quokka secret of your project.\n\nRetries back off over a day."}}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(DefaultDomain, SearchRequest{Query: "quokka"})
	if err != nil || len(res) != 1 || res[0].Path != "guides/webhooks" || !strings.Contains(res[0].Content, "quokka secret") {
		t.Fatalf("search: %+v, %v", res, err)
	}
	a, err := s.Message(DefaultDomain, ask("Where is the quokka secret?"), t0)
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://docs.example.com/guides/webhooks"
	if !a.Answered || len(a.Sources) != 1 || a.Sources[0].URL != url || a.Sources[0].Title != "Webhooks" {
		t.Errorf("answer sources %+v (answered %v), want the webhooks page", a.Sources, a.Answered)
	}
	if !strings.Contains(a.Response, "[Webhooks]("+url+")") || !strings.Contains(a.Response, "quokka secret") || strings.Contains(a.Response, "## Signing") {
		t.Errorf("answer %q: want a link to the page and its paragraph without the heading", a.Response)
	}
	sources := 0
	for _, c := range a.Chunks() {
		if c.Type == "source-url" && strings.Contains(string(c.JSON), url) {
			sources++
		}
	}
	if sources != 1 {
		t.Errorf("%d source-url chunks for the page, want 1", sources)
	}
}

func TestAnswersUseRetrievalSizeFiltersAndGroups(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	req := ask("deployment branch preview")
	req.RetrievalPageSize = ptr(1)
	a, err := s.Message(DefaultDomain, req, t0)
	if err != nil || len(a.Results) != 1 || len(a.Sources) != 1 {
		t.Fatalf("retrievalPageSize 1: %d results, %d sources, %v", len(a.Results), len(a.Sources), err)
	}
	a, _ = s.Message(DefaultDomain, ask("deployment branch preview"), t0)
	if len(a.Results) < 2 || len(a.Sources) > answerPages {
		t.Errorf("default: %d results, %d sources", len(a.Results), len(a.Sources))
	}
	if a, _ = s.Message(DefaultDomain, ask("incident runbook"), t0); a.Answered {
		t.Errorf("the staff runbook answered a request without groups: %q", a.Response)
	}
	req = ask("incident runbook")
	req.Filter.Groups = []string{"staff"}
	if a, _ = s.Message(DefaultDomain, req, t0); !a.Answered || a.Sources[0].Path != "internal/runbook" {
		t.Errorf("with the staff group: %+v", a.Sources)
	}
	req = ask("deployment")
	req.Filter.Version = "v3"
	if a, _ = s.Message(DefaultDomain, req, t0); a.Answered {
		t.Error("a version no page has still answered")
	}
}

func TestNoMatchIsUnanswered(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	a, err := s.Message(DefaultDomain, ask("What is the capital of France?"), t0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Answered || len(a.Sources) != 0 || len(a.Results) != 0 || !strings.Contains(a.Response, "do not seem to cover it") {
		t.Errorf("answer %+v, want unanswered, no sources", a)
	}
	if got := a.Turn.Analytics(); got.ResolutionStatus != "unanswered" || got.Sources != nil {
		t.Errorf("analytics turn %+v", got)
	}
	var out struct{ Output []Result }
	for _, c := range a.Chunks() {
		if c.Type == "tool-output-available" {
			if err := json.Unmarshal(c.JSON, &out); err != nil || out.Output == nil {
				t.Errorf("tool output %s: want an empty array", c.JSON)
			}
		}
	}
}

func TestMessageRecordsCurrentPath(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	for path, want := range map[string]string{
		"/deployments":                   "https://docs.example.com/deployments",
		"https://docs.example.com/x?y=1": "https://docs.example.com/x?y=1",
		"":                               "",
	} {
		req := ask("preview")
		req.CurrentPath = path
		a, err := s.Message(DefaultDomain, req, t0)
		if err != nil || a.PageURL != want || a.Turn.Analytics().PageURL != want {
			t.Errorf("currentPath %q: page URL %q, %v; want %q", path, a.PageURL, err, want)
		}
	}
	if got := SiteURL("acme", "/guides/x/"); got != "https://acme.mintlify.site/guides/x" {
		t.Errorf("a bare domain identifier: %s", got)
	}
}
