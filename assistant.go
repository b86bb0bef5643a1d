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

// maxConversationsLimit is the largest page the assistant route serves.
const maxConversationsLimit = 1000

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

func (p ConversationsParams) encode() (string, error) {
	return encodeQuery(p.DateFrom, p.DateTo, p.Limit, maxConversationsLimit, "", nil)
}

// Conversation is one turn of an assistant conversation: a reader's query
// and the assistant's response. ID is the ULID of the turn's thread, the
// same for every turn of it: pass it to [Client.GetThread] for the whole
// thread. A turn is identified by ID and Timestamp together.
type Conversation struct {
	ID string `json:"id"`
	// Timestamp is when the reader asked; zero when the server sent a time
	// it could not read.
	Timestamp time.Time `json:"timestamp"`
	Query     string    `json:"query"`
	Response  string    `json:"response"`
	// ResponseType is "answer" or "clarifying_question" (the assistant
	// asked back); "answer" when the server leaves it out.
	ResponseType string               `json:"responseType"`
	Sources      []ConversationSource `json:"sources"`
	// ResolutionStatus is "answered", or "unanswered" when the docs did not
	// cover the question.
	ResolutionStatus string `json:"resolutionStatus"`
	// QueryCategory and PageURL are "" when the server sends null.
	QueryCategory string `json:"queryCategory"`
	PageURL       string `json:"pageUrl"`
}

// ConversationSource is a documentation page a response drew on.
type ConversationSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// ConversationsPage is one page of the assistant export.
type ConversationsPage struct {
	Conversations []Conversation `json:"conversations"`
	// NextCursor leads to the next page when HasMore is set.
	NextCursor string `json:"nextCursor"`
	HasMore    bool   `json:"hasMore"`
}

type wireConversationsPage struct {
	Rows       []wireConversation `json:"conversations"`
	NextCursor jsonString         `json:"nextCursor"`
	HasMore    jsonBool           `json:"hasMore"`
}

type wireConversation struct {
	ID               jsonString   `json:"id"`
	Timestamp        jsonTime     `json:"timestamp"`
	Query            jsonString   `json:"query"`
	Response         jsonString   `json:"response"`
	ResponseType     jsonString   `json:"responseType"`
	Sources          []wireSource `json:"sources"`
	ResolutionStatus jsonString   `json:"resolutionStatus"`
	QueryCategory    jsonString   `json:"queryCategory"`
	PageURL          jsonString   `json:"pageUrl"`
}

type wireSource struct {
	Title jsonString `json:"title"`
	URL   jsonString `json:"url"`
}

func (w *wireConversationsPage) check() error {
	var c fieldCheck
	c.need(w.Rows != nil, "conversations")
	c.nullable(w.NextCursor, "nextCursor")
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
		c.nullable(r.QueryCategory, "conversations[].queryCategory")
		c.nullable(r.PageURL, "conversations[].pageUrl")
	}
	return c.err
}

func (r *wireConversation) turn() Conversation {
	sources := make([]ConversationSource, len(r.Sources))
	for i, s := range r.Sources {
		sources[i] = ConversationSource{Title: s.Title.s, URL: s.URL.s}
	}
	return Conversation{
		ID:               r.ID.s,
		Timestamp:        r.Timestamp.t,
		Query:            r.Query.s,
		Response:         r.Response.s,
		ResponseType:     cmp.Or(r.ResponseType.s, "answer"),
		Sources:          sources,
		ResolutionStatus: r.ResolutionStatus.s,
		QueryCategory:    r.QueryCategory.s,
		PageURL:          r.PageURL.s,
	}
}

// turnKey is a turn's identity: its thread's ID and when it was asked (the
// ID alone is shared by every turn of a thread), as one instant whatever
// offset the time was written with; for a time the SDK could not read, its
// query and response too.
func turnKey(seed maphash.Seed, r Conversation) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(r.ID)
	var at [8]byte
	binary.LittleEndian.PutUint64(at[:], uint64(r.Timestamp.UnixNano()))
	_, _ = h.Write(at[:])
	if r.Timestamp.IsZero() {
		// A time the SDK could not read: the text tells turns apart.
		h.WriteString(r.Query)
		h.WriteString(r.Response)
	}
	return h.Sum64()
}

var conversationsPager = &pager[wireConversationsPage, ConversationsPage, Conversation]{
	path:        analyticsPath + "assistant",
	cursorPaged: true,
	page: func(w *wireConversationsPage) *ConversationsPage {
		rows := make([]Conversation, len(w.Rows))
		for i := range w.Rows {
			rows[i] = w.Rows[i].turn()
		}
		return &ConversationsPage{Conversations: rows, NextCursor: w.NextCursor.s, HasMore: w.HasMore.v}
	},
	rows: func(p *ConversationsPage) *[]Conversation { return &p.Conversations },
	next: func(p *ConversationsPage) (string, bool) { return p.NextCursor, p.HasMore },
	key:  turnKey,
}

// GetConversations reads one page of assistant conversation turns (GET
// /v1/analytics/{projectId}/assistant) from p.Cursor. Each call is one
// request of the organization's 100 analytics requests an hour.
func (c *Client) GetConversations(ctx context.Context, p ConversationsParams) (*ConversationsPage, error) {
	q, err := p.encode()
	if err != nil {
		return nil, err
	}
	return conversationsPager.get(ctx, c, q, position{cursor: p.Cursor})
}

// ConversationPages walks the assistant export page by page from p.Cursor
// (GET /v1/analytics/{projectId}/assistant, one request per page of 1,000
// turns unless p.Limit says otherwise) while HasMore is set. Turns do not
// change once recorded and the cursor is a position among them, so a walk
// neither repeats nor skips one.
//
// The walk fetches lazily and yields a failure once as (nil, *[WalkError])
// whose Cursor resumes it. Guards against a misbehaving server: HasMore
// with no cursor, or a cursor the walk already followed, ends it with no
// further request; 10 pages in a row with no new turn end it after the
// 10th; no walk sends more than 1,000 requests ([WithMaxWalkRequests]). A
// turn already yielded (same ID and Timestamp) is dropped from its page.
func (c *Client) ConversationPages(ctx context.Context, p ConversationsParams) iter.Seq2[*ConversationsPage, error] {
	p.Limit = cmp.Or(p.Limit, maxConversationsLimit)
	q, err := p.encode()
	return conversationsPager.pages(ctx, c, q, position{cursor: p.Cursor}, err)
}

// Conversations walks every assistant turn from p.Cursor, fetching pages
// as [Client.ConversationPages] does. A failure is yielded once as (zero,
// *[WalkError]): walk again with Cursor set to its Cursor to resume.
func (c *Client) Conversations(ctx context.Context, p ConversationsParams) iter.Seq2[Conversation, error] {
	return rowsOf(c.ConversationPages(ctx, p), conversationsPager.rows)
}

// Thread is a whole assistant conversation.
type Thread struct {
	ID string `json:"threadId"`
	// CreatedAt is zero when the server sent a time it could not read.
	CreatedAt time.Time       `json:"createdAt"`
	Messages  []ThreadMessage `json:"messages"`
}

// ThreadMessage is one message of a thread, in order.
type ThreadMessage struct {
	ID string `json:"id"`
	// Role is "user" or "assistant".
	Role      string    `json:"role"`
	Content   string    `json:"content"`
	CreatedAt time.Time `json:"createdAt"`
}

type wireThread struct {
	ID        jsonString          `json:"threadId"`
	CreatedAt jsonTime            `json:"createdAt"`
	Messages  []wireThreadMessage `json:"messages"`
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
	t := &Thread{ID: w.ID.s, CreatedAt: w.CreatedAt.t, Messages: make([]ThreadMessage, len(w.Messages))}
	for i, m := range w.Messages {
		t.Messages[i] = ThreadMessage{ID: m.ID.s, Role: m.Role.s, Content: m.Content.s, CreatedAt: m.CreatedAt.t}
	}
	return t, nil
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
	q, err := encodeQuery(p.DateFrom, p.DateTo, 0, 0, "", nil)
	if err != nil {
		return nil, err
	}
	w, err := send[wireCallerStats](ctx, c, request{method: http.MethodGet, path: analyticsPath + "assistant/caller-stats", query: q})
	if err != nil {
		return nil, err
	}
	return &CallerStats{Web: w.Web.n, API: w.API.n, Other: w.Other.n, Total: w.Total.n}, nil
}
