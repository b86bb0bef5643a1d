package mintlify

import (
	"cmp"
	"context"
	"encoding/binary"
	"hash/maphash"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ConversationsParams selects the turns of the assistant export.
type ConversationsParams struct {
	// DateFrom is the first instant counted; zero sends none. DateTo is the
	// exclusive end; zero sends none. Dates are sent as in [VisitorsParams].
	DateFrom, DateTo time.Time
	// Limit is the page size, 1 to 1000. With 0, GetConversations sends
	// none (the server answers 100 turns) and the iterators use 1000.
	Limit int
	// Cursor is where to start: a page's NextCursor, or a [WalkError]'s
	// Cursor to resume a walk. "" starts from the first page.
	Cursor string
}

func (p ConversationsParams) params() params {
	return params{from: p.DateFrom, to: p.DateTo, limit: p.Limit, at: position{cursor: p.Cursor}}
}

// Conversation is one turn of an assistant conversation: a reader's query
// and the assistant's response. ID is the ULID of the turn's thread, the
// same for every turn of it: pass it to [Client.GetThread] for the whole
// thread. A turn is identified by ID, Timestamp and Query together: two
// turns of a thread may share an instant.
//
// It marshals as the API sends it: QueryCategory and PageURL "" as null, a
// zero Timestamp (one the SDK could not read) as null, no Sources as [],
// and a time read from the API as the API wrote it
// ("2025-01-02T03:04:05.000Z" stays so) while Timestamp holds that time.
type Conversation struct {
	ID string
	// Timestamp is when the reader asked; zero when the server sent a time
	// it could not read.
	Timestamp time.Time
	Query     string
	Response  string
	// ResponseType is "answer" or "clarifying_question" (the assistant
	// asked back); "answer" when the server leaves it out. A value the
	// vendor added since is kept when it is a well-formed token (lower-case
	// letters, digits, _ and -, at most 64 bytes), as is one of
	// ResolutionStatus; any other value is a malformed answer.
	ResponseType string
	Sources      []ConversationSource
	// ResolutionStatus is "answered", or "unanswered" when the docs did not
	// cover the question.
	ResolutionStatus string
	// QueryCategory and PageURL are "" when the server sends null.
	QueryCategory string
	PageURL       string // pageUrl

	timestampText string // the API's text of Timestamp, when Go writes it otherwise
}

// MarshalJSON writes the turn as the API does.
func (t Conversation) MarshalJSON() ([]byte, error) { return marshalWire(t.wire()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (t *Conversation) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, t, (*wireConversation).turn)
}

// ConversationSource is a documentation page a response drew on.
type ConversationSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// ConversationsPage is one page of the assistant export. It marshals as
// the API sends it, NextCursor "" as null.
type ConversationsPage struct {
	Conversations []Conversation
	// NextCursor leads to the next page when HasMore is set.
	NextCursor string
	HasMore    bool
}

// MarshalJSON writes the page as the API does.
func (p ConversationsPage) MarshalJSON() ([]byte, error) {
	return marshalWire(wireConversationsPage{Rows: each(p.Conversations, (*Conversation).wire),
		NextCursor: nullable(p.NextCursor), HasMore: boolean(p.HasMore)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *ConversationsPage) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, p, func(w *wireConversationsPage) ConversationsPage { return *w.page() })
}

type wireConversationsPage struct {
	Rows       list[wireConversation, upTo1000] `json:"conversations"`
	NextCursor jsonString                       `json:"nextCursor"`
	HasMore    jsonBool                         `json:"hasMore"`
}

type wireConversation struct {
	ID               jsonString                   `json:"id"`
	Timestamp        jsonTime                     `json:"timestamp"`
	Query            jsonString                   `json:"query"`
	Response         jsonString                   `json:"response"`
	ResponseType     jsonString                   `json:"responseType"`
	Sources          list[wireSource, sourcesMax] `json:"sources"`
	ResolutionStatus jsonString                   `json:"resolutionStatus"`
	QueryCategory    jsonString                   `json:"queryCategory"`
	PageURL          jsonString                   `json:"pageUrl"`
}

type wireSource struct {
	Title jsonString `json:"title"`
	URL   jsonString `json:"url"`
}

func (w *wireConversationsPage) check() error {
	var c fieldCheck
	c.need(w.Rows != nil, "conversations")
	c.need(w.NextCursor.set, "nextCursor")
	c.need(w.HasMore.set, "hasMore")
	for i := range w.Rows {
		r := &w.Rows[i]
		c.need(r.ID.present() && r.ID.s != "", "conversations[].id") // "" leads to no thread
		c.need(r.Timestamp.present(), "conversations[].timestamp")
		c.need(r.Query.present(), "conversations[].query")
		c.need(r.Response.present(), "conversations[].response")
		c.need(!r.ResponseType.null, "conversations[].responseType")
		c.need(r.Sources != nil, "conversations[].sources")
		for _, s := range r.Sources {
			c.need(s.Title.present() && s.URL.present(), "conversations[].sources[].title, url")
		}
		c.need(r.ResolutionStatus.present(), "conversations[].resolutionStatus")
		c.token("conversations[].responseType", r.ResponseType)
		c.token("conversations[].resolutionStatus", r.ResolutionStatus)
		c.need(r.QueryCategory.set, "conversations[].queryCategory")
		c.need(r.PageURL.set, "conversations[].pageUrl")
	}
	return c.err
}

func (r *wireConversation) turn() Conversation {
	return Conversation{
		ID:               r.ID.s,
		Timestamp:        r.Timestamp.t,
		Query:            r.Query.s,
		Response:         r.Response.s,
		ResponseType:     cmp.Or(r.ResponseType.s, "answer"),
		Sources:          each(r.Sources, func(s *wireSource) ConversationSource { return ConversationSource{Title: s.Title.s, URL: s.URL.s} }),
		ResolutionStatus: r.ResolutionStatus.s,
		QueryCategory:    r.QueryCategory.s,
		PageURL:          r.PageURL.s,
		timestampText:    r.Timestamp.raw,
	}
}

func (t Conversation) wire() wireConversation {
	return wireConversation{ID: str(t.ID), Timestamp: timeText(t.Timestamp, t.timestampText), Query: str(t.Query), Response: str(t.Response),
		ResponseType: str(t.ResponseType), ResolutionStatus: str(t.ResolutionStatus),
		QueryCategory: nullable(t.QueryCategory), PageURL: nullable(t.PageURL),
		Sources: each(t.Sources, func(s *ConversationSource) wireSource { return wireSource{Title: str(s.Title), URL: str(s.URL)} })}
}

func (w *wireConversationsPage) page() *ConversationsPage {
	return &ConversationsPage{Conversations: each(w.Rows, (*wireConversation).turn), NextCursor: w.NextCursor.s, HasMore: w.HasMore.v}
}

// turnKey is a turn's identity: its thread's ID, when it was asked (the ID
// alone is shared by every turn of a thread), as one instant whatever
// offset the time was written with, and its query (two turns of a thread
// may share an instant); for a time the SDK could not read, its response
// too.
func turnKey(seed maphash.Seed, r Conversation) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	writeKeyPart(&h, r.ID)
	var at [8]byte
	binary.LittleEndian.PutUint64(at[:], uint64(r.Timestamp.UnixNano()))
	_, _ = h.Write(at[:])
	writeKeyPart(&h, r.Query)
	if r.Timestamp.IsZero() {
		// A time the SDK could not read: the text tells turns apart.
		writeKeyPart(&h, r.Response)
	}
	return h.Sum64()
}

// writeKeyPart hashes s with its length first, so that the parts of a key
// cannot run into each other ("ab"+"c" is not "a"+"bc").
func writeKeyPart(h *maphash.Hash, s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	_, _ = h.Write(n[:])
	h.WriteString(s)
}

var conversationsRoute = &route[wireConversationsPage, ConversationsPage, Conversation]{
	path:        "assistant",
	maxLimit:    limitOf[upTo1000](),
	cursorPaged: true,
	page:        (*wireConversationsPage).page,
	rows:        func(p *ConversationsPage) *[]Conversation { return &p.Conversations },
	next:        func(p *ConversationsPage) (string, bool) { return p.NextCursor, p.HasMore },
	key:         turnKey,
}

// GetConversations reads one page of assistant conversation turns (GET
// /v1/analytics/{projectId}/assistant) from p.Cursor. Each call is one
// request of the organization's 100 analytics requests an hour.
func (c *Client) GetConversations(ctx context.Context, p ConversationsParams) (*ConversationsPage, error) {
	return conversationsRoute.get(ctx, c, p.params())
}

// ConversationPages walks the assistant export page by page from p.Cursor
// (GET /v1/analytics/{projectId}/assistant, one request per page of 1,000
// turns unless p.Limit says otherwise) while HasMore is set. Turns do not
// change once recorded and the cursor is a position among them, so a walk
// neither repeats nor skips one.
//
// The walk fetches lazily, yields a failure (or a guard against a
// misbehaving server) once as (nil, *[WalkError]) whose Cursor resumes it,
// and drops a turn already yielded (same ID, Timestamp and Query).
func (c *Client) ConversationPages(ctx context.Context, p ConversationsParams) iter.Seq2[*ConversationsPage, error] {
	return conversationsRoute.pages(ctx, c, p.params())
}

// Conversations walks every assistant turn from p.Cursor, fetching pages
// as [Client.ConversationPages] does. A failure is yielded once as (zero,
// *[WalkError]): walk again with Cursor set to its Cursor to resume.
func (c *Client) Conversations(ctx context.Context, p ConversationsParams) iter.Seq2[Conversation, error] {
	return conversationsRoute.all(ctx, c, p.params())
}

// Thread is a whole assistant conversation. It marshals as the API sends
// it (ID as threadId), a zero time (one the SDK could not read) as null, a
// time read from the API as the API wrote it while the field holds that
// time.
type Thread struct {
	ID string // threadId
	// CreatedAt is zero when the server sent a time it could not read.
	CreatedAt time.Time
	Messages  []ThreadMessage

	createdAtText string // the API's text of CreatedAt, when Go writes it otherwise
}

// MarshalJSON writes the thread as the API does.
func (t Thread) MarshalJSON() ([]byte, error) {
	return marshalWire(wireThread{ID: str(t.ID), CreatedAt: timeText(t.CreatedAt, t.createdAtText), Messages: each(t.Messages, (*ThreadMessage).wire)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (t *Thread) UnmarshalJSON(b []byte) error { return unmarshalWire(b, t, (*wireThread).thread) }

// ThreadMessage is one message of a thread, in order. It marshals as the
// API sends it, a zero CreatedAt as null, a time read from the API as the
// API wrote it while CreatedAt holds that time.
type ThreadMessage struct {
	ID string
	// Role is "user" or "assistant", or a role the vendor added since: a
	// well-formed token (see [Conversation]'s ResponseType).
	Role      string
	Content   string
	CreatedAt time.Time

	createdAtText string // the API's text of CreatedAt, when Go writes it otherwise
}

// MarshalJSON writes the message as the API does.
func (m ThreadMessage) MarshalJSON() ([]byte, error) { return marshalWire(m.wire()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (m *ThreadMessage) UnmarshalJSON(b []byte) error {
	return unmarshalWire(b, m, (*wireThreadMessage).message)
}

type wireThread struct {
	ID        jsonString                           `json:"threadId"`
	CreatedAt jsonTime                             `json:"createdAt"`
	Messages  list[wireThreadMessage, messagesMax] `json:"messages"`
}

type wireThreadMessage struct {
	ID        jsonString `json:"id"`
	Role      jsonString `json:"role"`
	Content   jsonString `json:"content"`
	CreatedAt jsonTime   `json:"createdAt"`
}

func (w *wireThread) check() error {
	var c fieldCheck
	c.need(w.ID.present(), "threadId")
	c.need(w.CreatedAt.present(), "createdAt")
	c.need(w.Messages != nil, "messages")
	for _, m := range w.Messages {
		ok := m.ID.present() && m.Role.present() && m.Content.present() && m.CreatedAt.present()
		c.need(ok, "messages[].id, role, content, createdAt")
		c.token("messages[].role", m.Role)
	}
	return c.err
}

// GetThread reads a whole assistant conversation (GET
// /v1/analytics/{projectId}/assistant/threads/{threadId}): threadID is a
// [Conversation]'s ID, a ULID. An unknown thread is ErrNotFound; an ID that
// is not a ULID is ErrInvalidInput, before any request; an answer about
// another thread is ErrMalformedResponse.
func (c *Client) GetThread(ctx context.Context, threadID string) (*Thread, error) {
	if !isULID(threadID) {
		return nil, c.redact(invalidf("thread ID %q is not a ULID (26 characters of Crockford base32)", threadID))
	}
	path := analyticsPath + "assistant/threads/" + url.PathEscape(threadID)
	r := request{method: http.MethodGet, path: path}
	w, err := send[wireThread](ctx, c, r)
	if err != nil {
		return nil, err
	}
	// A ULID reads the same in either case; another thread is a confused
	// proxy or cache, not the conversation asked for.
	if !strings.EqualFold(w.ID.s, threadID) {
		return nil, c.malformed(r, "asked for thread %q, the answer is about %s", threadID, answerText(w.ID.s))
	}
	t := w.thread()
	return &t, nil
}

func (w *wireThread) thread() Thread {
	return Thread{ID: w.ID.s, CreatedAt: w.CreatedAt.t, Messages: each(w.Messages, (*wireThreadMessage).message),
		createdAtText: w.CreatedAt.raw}
}

func (w *wireThreadMessage) message() ThreadMessage {
	return ThreadMessage{ID: w.ID.s, Role: w.Role.s, Content: w.Content.s, CreatedAt: w.CreatedAt.t, createdAtText: w.CreatedAt.raw}
}

func (m ThreadMessage) wire() wireThreadMessage {
	return wireThreadMessage{ID: str(m.ID), Role: str(m.Role), Content: str(m.Content), CreatedAt: timeText(m.CreatedAt, m.createdAtText)}
}

// isULID reports whether s is a ULID: 26 characters of Crockford's base32
// (either case), the first at most 7 so that it fits 128 bits.
func isULID(s string) bool {
	if len(s) != 26 || s[0] < '0' || s[0] > '7' {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		switch {
		case '0' <= c && c <= '9':
		case 'A' <= c && c <= 'Z' && c != 'I' && c != 'L' && c != 'O' && c != 'U':
		default:
			return false
		}
	}
	return true
}

// CallerStatsParams selects the date range of [Client.GetCallerStats].
type CallerStatsParams struct {
	// DateFrom is the first instant counted; zero sends none. DateTo is the
	// exclusive end; zero sends none. Dates are sent as in [VisitorsParams].
	DateFrom, DateTo time.Time
}

// CallerStats counts assistant queries by where they came from.
type CallerStats struct {
	Web   int `json:"web"`   // the documentation site
	API   int `json:"api"`   // API calls
	Other int `json:"other"` // integrations, SDKs, ...
	Total int `json:"total"`
}

type wireCallerStats struct {
	Web   jsonCount `json:"web"`
	API   jsonCount `json:"api"`
	Other jsonCount `json:"other"`
	Total jsonCount `json:"total"`
}

func (w *wireCallerStats) check() error {
	var c fieldCheck
	c.need(w.Web.set, "web")
	c.need(w.API.set, "api")
	c.need(w.Other.set, "other")
	c.need(w.Total.set, "total")
	return c.err
}

// GetCallerStats counts assistant queries by caller (GET
// /v1/analytics/{projectId}/assistant/caller-stats): one request of the
// organization's 100 analytics requests an hour.
func (c *Client) GetCallerStats(ctx context.Context, p CallerStatsParams) (*CallerStats, error) {
	return callerStatsRoute.get(ctx, c, params{from: p.DateFrom, to: p.DateTo})
}

var callerStatsRoute = &route[wireCallerStats, CallerStats, struct{}]{
	path: "assistant/caller-stats",
	page: func(w *wireCallerStats) *CallerStats {
		return &CallerStats{Web: w.Web.n, API: w.API.n, Other: w.Other.n, Total: w.Total.n}
	},
}
