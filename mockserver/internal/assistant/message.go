package assistant

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docsagent/mintlify-go/mockserver/internal/analytics"
)

// Bounds of a message.
const (
	DefaultRetrievalPageSize = 5
	MaxRetrievalPageSize     = 50
	MaxCurrentPath           = 200 // characters, as the vendor documents
	MaxQueryBytes            = 4096
	answerPages              = 3   // results an answer quotes and cites
	answerParagraphBytes     = 600 // of each quoted paragraph
	wordsPerDelta            = 3
)

// MessageRequest is the message routes' body. A nil RetrievalPageSize is
// absent (DefaultRetrievalPageSize); Filter.Tag is not part of the
// message body and stays empty.
type MessageRequest struct {
	FP                string        `json:"fp"`
	Messages          []Message     `json:"messages"`
	ThreadID          string        `json:"threadId,omitempty"`
	ThreadKey         string        `json:"threadKey,omitempty"`
	RetrievalPageSize *int          `json:"retrievalPageSize,omitempty"`
	Filter            Filter        `json:"filter"`
	Context           []ContextItem `json:"context,omitempty"`
	CurrentPath       string        `json:"currentPath,omitempty"`

	// V1 is set by the deprecated v1 route: its messages may carry their
	// text in Content, and role "data" is allowed.
	V1 bool `json:"-"`
}

// Message is one message of the conversation the client sends.
type Message struct {
	ID      string        `json:"id"`
	Role    string        `json:"role"`
	Parts   []MessagePart `json:"parts"`
	Content string        `json:"content,omitempty"` // v1
}

// MessagePart is one part of a message. Only text parts are read; the
// others (tool-*, step-start, source-url, reasoning...) are what a chat
// client sends back of earlier answers, and are ignored.
type MessagePart struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// ContextItem is a piece of the page the reader pointed at.
type ContextItem struct {
	Type      string `json:"type"`
	Value     string `json:"value"`
	Path      string `json:"path,omitempty"`
	ElementID string `json:"elementId,omitempty"`
}

// ValidateMessage checks a message body as the vendor's schema and the
// mock's reading of its prose have it, naming every problem in one 400: fp and at least one
// message are required; roles are system, assistant or user (and data on
// v1); every part has a type; the last message is the user's and has text;
// retrievalPageSize is 1..50; currentPath is at most 200 characters;
// context items are code or textSelection. Messages are not counted: the
// wire's body limit bounds them, and only the last is kept.
func ValidateMessage(req MessageRequest) error {
	var bad problems
	if req.FP == "" {
		bad.add("fp is required")
	}
	if len(req.Messages) == 0 {
		bad.add("messages: at least one message is required")
	}
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "assistant", "user":
		case "data":
			if !req.V1 {
				bad.add("messages[%d].role %q is not system, assistant or user", i, cut(m.Role, 32))
			}
		default:
			bad.add("messages[%d].role %q is not system, assistant or user", i, cut(m.Role, 32))
		}
		for j, p := range m.Parts {
			if p.Type == "" {
				bad.add("messages[%d].parts[%d].type is required", i, j)
			}
		}
	}
	if n := len(req.Messages); n > 0 {
		switch last := req.Messages[n-1]; {
		case last.Role != "user":
			bad.add("the last message must be the user's, got role %q", cut(last.Role, 32))
		case strings.TrimSpace(userText(last, req.V1)) == "":
			bad.add("messages[%d]: the user's message has no text", n-1)
		}
	}
	if r := req.RetrievalPageSize; r != nil && (*r < 1 || *r > MaxRetrievalPageSize) {
		bad.add("retrievalPageSize must be between 1 and %d, got %d", MaxRetrievalPageSize, *r)
	}
	if n := utf8.RuneCountInString(req.CurrentPath); n > MaxCurrentPath {
		bad.add("currentPath: at most %d characters, got %d", MaxCurrentPath, n)
	}
	for i, c := range req.Context {
		if c.Type != "code" && c.Type != "textSelection" {
			bad.add("context[%d].type %q is not code or textSelection", i, cut(c.Type, 32))
		}
	}
	return bad.err()
}

// userText is what the user asked: the message's text parts, else (v1)
// its content.
func userText(m Message, v1 bool) string {
	var texts []string
	for _, p := range m.Parts {
		if p.Type == "text" && p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	if len(texts) == 0 && v1 {
		return m.Content
	}
	return strings.Join(texts, "\n")
}

// Answer is one answered message: what the stream carries, and the turn
// recorded in its thread.
type Answer struct {
	ThreadID  string
	ThreadKey string   // only on the message that started the thread
	Results   []Result // the search step's output
	Turn
}

// Turn is one question and its answer, as a thread keeps it.
type Turn struct {
	Time               time.Time // strictly after the thread's previous turn, to the millisecond
	Query              string    // the user's text, at most MaxQueryBytes
	Response           string    // the answer's text
	Sources            []Source  // the pages the answer cites
	Answered           bool      // false: the docs hold nothing on the question
	PageURL            string    // where it was asked (currentPath), or ""
	UserMessageID      string    // ULIDs, unique across threads
	AssistantMessageID string    // the stream's messageId
}

// Source is a page an answer cites.
type Source struct {
	ID    string // the source-url chunk's sourceId
	URL   string
	Title string
	Path  string
}

// Message answers req on domain at now: it searches the pages with the
// user's last text (RetrievalPageSize results, the filter and groups
// applied), composes a deterministic answer, and records the turn in the
// thread named by ThreadID and ThreadKey or in a new one. Errors: 400 for
// an invalid body; 404 for an unknown thread, a missing or wrong key, or
// another domain's thread (one answer for all, so an ID alone reveals
// nothing); 500 when the recorder refuses the turn.
func (s *Store) Message(domain string, req MessageRequest, now time.Time) (*Answer, error) {
	if err := ValidateMessage(req); err != nil {
		return nil, err
	}
	query := cut(strings.TrimSpace(userText(req.Messages[len(req.Messages)-1], req.V1)), MaxQueryBytes)
	size := DefaultRetrievalPageSize
	if req.RetrievalPageSize != nil {
		size = *req.RetrievalPageSize
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	var th *thread
	if req.ThreadID != "" {
		if th = s.threads.find(domain, req.ThreadID, req.ThreadKey); th == nil {
			return nil, notFound("Thread")
		}
	}
	results := s.search(domain, query, &req.Filter, size, 0)
	at := now.UTC().Truncate(time.Millisecond)
	if th != nil && !at.After(th.last) {
		at = th.last.Add(time.Millisecond)
	}
	a := &Answer{Results: results, Turn: compose(domain, query, results)}
	a.Time = at
	switch cp := req.CurrentPath; {
	case strings.HasPrefix(cp, "https://") || strings.HasPrefix(cp, "http://"):
		a.PageURL = cp
	case cp != "":
		a.PageURL = SiteURL(domain, cp)
	}
	a.UserMessageID = analytics.NewULID(at, s.rng)
	a.AssistantMessageID = analytics.NewULID(at, s.rng)
	if th != nil {
		a.ThreadID = th.id
	} else {
		a.ThreadID, a.ThreadKey = analytics.NewULID(at, s.rng), newThreadKey()
	}
	if s.recorder != nil {
		if err := s.recorder.AddTurn(a.ThreadID, analytics.CallerAPI, a.Turn.Analytics()); err != nil {
			return nil, &Error{Status: statusInternal, Message: "the turn could not be recorded: " + err.Error()}
		}
	}
	if th == nil {
		th = s.threads.start(a.ThreadID, a.ThreadKey, domain)
	}
	s.threads.add(th, a.Turn)
	s.credits += CreditsPerMessage
	return a, nil
}

// noAnswer is the text of a turn the docs cannot answer.
const noAnswer = "I could not find anything about this in the documentation, so the docs do not seem to cover it. " +
	"Try rephrasing the question with the words the docs would use."

// compose writes the answer from the search results: a line of
// introduction, then for each of the first answerPages results a link to
// its page and its best paragraph. No result, no answer.
func compose(domain, query string, results []Result) Turn {
	t := Turn{Query: query}
	if len(results) == 0 {
		t.Response = noAnswer
		return t
	}
	t.Answered = true
	var b strings.Builder
	b.WriteString("Here is what the documentation says.")
	for i, r := range results[:min(len(results), answerPages)] {
		src := Source{ID: "source-" + strconv.Itoa(i+1), URL: SiteURL(domain, r.Path), Title: r.Metadata.Title, Path: r.Path}
		t.Sources = append(t.Sources, src)
		b.WriteString("\n\n[" + src.Title + "](" + src.URL + "): " + quote(r.Content))
	}
	t.Response = b.String()
	return t
}

// quote is a paragraph as an answer cites it: on one line, without its
// heading, at most answerParagraphBytes.
func quote(p string) string {
	var words []string
	for _, line := range strings.Split(p, "\n") {
		if !strings.HasPrefix(line, "#") {
			words = append(words, strings.Fields(line)...)
		}
	}
	return cut(strings.Join(words, " "), answerParagraphBytes)
}

// Analytics is the turn as the analytics export stores it; its thread's
// caller is the API.
func (t Turn) Analytics() analytics.Turn {
	out := analytics.Turn{
		Time:               t.Time,
		Query:              t.Query,
		Response:           t.Response,
		ResponseType:       "answer",
		ResolutionStatus:   "answered",
		PageURL:            t.PageURL,
		UserMessageID:      t.UserMessageID,
		AssistantMessageID: t.AssistantMessageID,
		AnsweredAt:         t.Time,
	}
	if !t.Answered {
		out.ResolutionStatus = "unanswered"
	}
	for _, s := range t.Sources {
		out.Sources = append(out.Sources, analytics.TurnSource{Title: s.Title, URL: s.URL})
	}
	return out
}
