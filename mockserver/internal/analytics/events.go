package analytics

import "time"

// SearchEvent is one search in the docs, and the page the reader opened
// from its results, if any.
type SearchEvent struct {
	Query       string    `json:"query"`                 // the term as typed; terms are compared exactly
	Time        time.Time `json:"timestamp"`             // filtered by the date window
	ClickedPath string    `json:"clickedPath,omitempty"` // "" when no result was clicked
}

// Source is where a piece of feedback came from.
type Source string

// The feedback sources the service reports.
const (
	SourceCodeSnippet Source = "code_snippet" // on a code block: carries Code, Filename, Lang
	SourceContextual  Source = "contextual"   // on a page: carries Helpful, Contact
	SourceAgent       Source = "agent"        // sent by a third-party AI agent
	SourceThumbsOnly  Source = "thumbs_only"  // a bare vote: Helpful is the vote
)

func (s Source) valid() bool {
	switch s {
	case SourceCodeSnippet, SourceContextual, SourceAgent, SourceThumbsOnly:
		return true
	}
	return false
}

// Status is where a piece of feedback is in its review.
type Status string

// The review statuses the service reports.
const (
	StatusPending    Status = "pending"
	StatusInProgress Status = "in_progress"
	StatusResolved   Status = "resolved"
	StatusDismissed  Status = "dismissed"
)

var statuses = []Status{StatusPending, StatusInProgress, StatusResolved, StatusDismissed}

// StatusSet is a set of statuses, one bit each; 0 stands for all.
type StatusSet uint8

func (s Status) bit() StatusSet {
	for i, v := range statuses {
		if v == s {
			return 1 << i
		}
	}
	return 0
}

func (set StatusSet) has(s Status) bool { return set == 0 || set&s.bit() != 0 }

// Feedback is one piece of reader feedback. Fields another source does not
// carry are ignored for it; empty strings are answered as null.
type Feedback struct {
	ID        string    `json:"id"` // unique in the project; generated when empty
	Path      string    `json:"path"`
	Source    Source    `json:"source"`
	Status    Status    `json:"status"`  // pending when empty
	Comment   string    `json:"comment"` // "" is answered as null
	CreatedAt time.Time `json:"createdAt"`
	Helpful   bool      `json:"helpful"`  // contextual: the page helped; thumbs_only: the vote
	Contact   string    `json:"contact"`  // contextual only
	Code      string    `json:"code"`     // code_snippet only
	Filename  string    `json:"filename"` // code_snippet only
	Lang      string    `json:"lang"`     // code_snippet only
}

// Caller is what asked the assistant: its web widget, the API, or
// something else.
type Caller string

// The caller types the caller-stats route counts.
const (
	CallerWeb   Caller = "web"
	CallerAPI   Caller = "api"
	CallerOther Caller = "other"
)

func (c Caller) valid() bool { return c == CallerWeb || c == CallerAPI || c == CallerOther }

// Thread is one assistant conversation: a reader's queries and the
// assistant's responses, turn by turn.
type Thread struct {
	ID     string `json:"id"`     // a ULID; generated from the first turn's time when empty
	Caller Caller `json:"caller"` // web when empty
	Turns  []Turn `json:"turns"`  // at least one, in time order; turns at one instant differ in query
}

// Turn is a query and the response to it: one row of the conversations
// route, two messages of the thread's transcript.
type Turn struct {
	Time               time.Time    `json:"timestamp"` // when the query was asked
	Query              string       `json:"query"`
	Response           string       `json:"response"`
	ResponseType       string       `json:"responseType,omitempty"`     // answer (default) or clarifying_question
	Sources            []TurnSource `json:"sources,omitempty"`          // pages the response cites
	ResolutionStatus   string       `json:"resolutionStatus,omitempty"` // answered (default) or unanswered
	QueryCategory      string       `json:"queryCategory,omitempty"`    // "" is answered as null
	PageURL            string       `json:"pageUrl,omitempty"`          // the page it was asked from; "" is null
	UserMessageID      string       `json:"userMessageId,omitempty"`    // a ULID; generated when empty
	AssistantMessageID string       `json:"assistantMessageId,omitempty"`
	AnsweredAt         time.Time    `json:"answeredAt,omitzero"` // the response's time; Time when zero
}

// TurnSource is a page a response cites.
type TurnSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}
