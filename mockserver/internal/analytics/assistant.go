package analytics

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// threadData holds the threads and, for the conversations route, every
// turn in (time, user message ID) order.
type threadData struct {
	byID     map[string]*Thread
	turns    []turnRef
	messages map[string]int64 // message ID -> its turn's time (user messages) or notACursor
	sorted   bool
}

// notACursor marks assistant message IDs: unique like the others, but a
// conversations cursor is always a user message.
const notACursor = math.MinInt64

type turnRef struct {
	at     int64
	msg    string // the turn's user message ID: its cursor
	thread *Thread
	turn   int32
}

func compareTurns(a, b *turnRef) int {
	if c := cmpInt64(a.at, b.at); c != 0 {
		return c
	}
	return strings.Compare(a.msg, b.msg)
}

func (d *threadData) sort() {
	slices.SortFunc(d.turns, func(a, b turnRef) int { return compareTurns(&a, &b) })
	d.sorted = true
}

// addTurn adds turn i of t to the turns, noting whether they are still in
// order, and takes its two message IDs: the user message's as a cursor,
// the assistant message's as an ID only.
func (d *threadData) addTurn(t *Thread, i int) {
	turn := &t.Turns[i]
	ref := turnRef{at: turn.Time.UnixNano(), msg: turn.UserMessageID, thread: t, turn: int32(i)}
	if n := len(d.turns); n > 0 && compareTurns(&ref, &d.turns[n-1]) < 0 {
		d.sorted = false
	}
	d.turns = append(d.turns, ref)
	d.messages[turn.UserMessageID] = ref.at
	d.messages[turn.AssistantMessageID] = notACursor
}

// AddThreads stores threads, all or none, after filling in what may be
// left out (IDs, caller, response type, resolution status). Times keep
// only their UTC milliseconds, the precision the routes answer with; a
// thread's turns must be in time order, and two at one instant must differ
// in query, since a turn is identified by its thread, time and query.
func (st *Store) AddThreads(threads []Thread) error {
	return st.write(func(e *events) error {
		d := &e.threads
		fresh := map[string]bool{}
		taken := func(id string) bool {
			_, stored := d.messages[id]
			_, thread := d.byID[id]
			return stored || thread || fresh[id]
		}
		var errs []error
		prepared := make([]*Thread, 0, len(threads))
		for i := range threads {
			t, err := st.prepareThread(threads[i], taken)
			if err != nil {
				errs = append(errs, fmt.Errorf("thread %d: %w", i, err))
				if len(errs) >= 10 {
					break
				}
				continue
			}
			fresh[t.ID] = true
			for _, turn := range t.Turns {
				fresh[turn.UserMessageID], fresh[turn.AssistantMessageID] = true, true
			}
			prepared = append(prepared, t)
		}
		if len(errs) > 0 {
			return errors.Join(errs...)
		}
		for _, t := range prepared {
			d.byID[t.ID] = t
			for i := range t.Turns {
				d.addTurn(t, i)
			}
		}
		return nil
	})
}

// prepareThread validates a thread and returns the stored copy.
func (st *Store) prepareThread(in Thread, taken func(string) bool) (*Thread, error) {
	if len(in.Turns) == 0 {
		return nil, errors.New("has no turns")
	}
	t := &Thread{ID: strings.ToUpper(in.ID), Caller: in.Caller, Turns: slices.Clone(in.Turns)}
	if t.Caller == "" {
		t.Caller = CallerWeb
	}
	if !t.Caller.valid() {
		return nil, fmt.Errorf("caller %q is not web, api or other", t.Caller)
	}
	ms := func(x time.Time) time.Time { return x.UTC().Truncate(time.Millisecond) }
	if t.ID == "" {
		t.ID = newULID(in.Turns[0].Time, st.rng)
	}
	if !ValidULID(t.ID) {
		return nil, fmt.Errorf("id %q is not a ULID", in.ID)
	}
	if taken(t.ID) {
		return nil, fmt.Errorf("id %s is already stored", t.ID)
	}
	seen := map[string]bool{t.ID: true}
	for i := range t.Turns {
		turn := &t.Turns[i]
		turn.Time = ms(turn.Time)
		if turn.AnsweredAt.IsZero() {
			turn.AnsweredAt = turn.Time
		}
		turn.AnsweredAt = ms(turn.AnsweredAt)
		if turn.ResponseType == "" {
			turn.ResponseType = "answer"
		}
		if turn.ResolutionStatus == "" {
			turn.ResolutionStatus = "answered"
		}
		turn.Sources = slices.Clone(turn.Sources)
		switch {
		case !timeInRange(turn.Time) || !timeInRange(turn.AnsweredAt):
			return nil, fmt.Errorf("turn %d: timestamp is missing or out of range", i)
		case i > 0 && turn.Time.Before(t.Turns[i-1].Time):
			return nil, fmt.Errorf("turn %d: timestamp is before the previous turn's", i)
		case sameKey(t.Turns[:i], turn):
			return nil, fmt.Errorf("turn %d: the thread has a turn of the same timestamp and query (to the millisecond): a turn is identified by its thread, timestamp and query", i)
		case turn.AnsweredAt.Before(turn.Time):
			return nil, fmt.Errorf("turn %d: answeredAt is before the query", i)
		case turn.Query == "":
			return nil, fmt.Errorf("turn %d: query is empty", i)
		case turn.ResponseType != "answer" && turn.ResponseType != "clarifying_question":
			return nil, fmt.Errorf("turn %d: responseType %q is not answer or clarifying_question", i, turn.ResponseType)
		case turn.ResolutionStatus != "answered" && turn.ResolutionStatus != "unanswered":
			return nil, fmt.Errorf("turn %d: resolutionStatus %q is not answered or unanswered", i, turn.ResolutionStatus)
		}
		for _, id := range []*string{&turn.UserMessageID, &turn.AssistantMessageID} {
			at := turn.Time
			if id == &turn.AssistantMessageID {
				at = turn.AnsweredAt
			}
			if *id == "" {
				*id = newULID(at, st.rng)
			}
			*id = strings.ToUpper(*id)
			if !ValidULID(*id) {
				return nil, fmt.Errorf("turn %d: message ID %q is not a ULID", i, *id)
			}
			if seen[*id] || taken(*id) {
				return nil, fmt.Errorf("turn %d: message ID %s is already used", i, *id)
			}
			seen[*id] = true
		}
	}
	return t, nil
}

// sameKey reports whether one of before (a thread's turns in time order,
// times in milliseconds) has turn's time and query: the turn's identity,
// for a client as for the mock, since two turns of a thread may share an
// instant.
func sameKey(before []Turn, turn *Turn) bool {
	for i := len(before) - 1; i >= 0 && before[i].Time.Equal(turn.Time); i-- {
		if before[i].Query == turn.Query {
			return true
		}
	}
	return false
}

// Conversations is the conversations page for q: one row per turn,
// newest first (by time, then user message ID, both descending), each
// carrying its thread's ID. The cursor is the user message ID of the
// page's last turn: a keyset position, so turns that arrive during a walk
// never shift it.
func (st *Store) Conversations(q *Query) (*ConversationsPage, error) {
	var out *ConversationsPage
	var err *Error
	st.read(func(e *events, _ uint64) {
		turns := e.threads.turns
		start, _ := slices.BinarySearchFunc(turns, q.To, func(t turnRef, to int64) int { return cmpInt64(t.at, to) })
		if q.Cursor != "" {
			id := strings.ToUpper(q.Cursor)
			at, ok := e.threads.messages[id]
			switch {
			case !ok || at == notACursor:
				err = badCursor("it is no conversation of this project")
				return
			case !q.inWindow(at):
				err = badCursor("it lies outside this date window")
				return
			}
			start, _ = slices.BinarySearchFunc(turns, turnRef{at: at, msg: id}, func(a, b turnRef) int { return compareTurns(&a, &b) })
		}
		page := make([]*turnRef, 0, min(q.Limit+1, 256))
		for i := start - 1; i >= 0 && len(page) <= q.Limit && turns[i].at >= q.From; i-- {
			page = append(page, &turns[i])
		}
		hasMore := len(page) > q.Limit
		if hasMore {
			page = page[:q.Limit]
		}
		out = &ConversationsPage{Conversations: make([]Conversation, len(page))}
		for i, ref := range page {
			out.Conversations[i] = conversationOf(ref.thread, &ref.thread.Turns[ref.turn])
		}
		var cursor string
		if hasMore {
			cursor = page[len(page)-1].msg
		}
		out.keysetEnd = endAt(cursor, hasMore)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ConversationsPage is the answer of the conversations route.
type ConversationsPage struct {
	Conversations []Conversation `json:"conversations"`
	keysetEnd
}

// Conversation is a row of the conversations route: one turn.
type Conversation struct {
	ID               string       `json:"id"`
	Timestamp        string       `json:"timestamp"`
	Query            string       `json:"query"`
	Response         string       `json:"response"`
	ResponseType     string       `json:"responseType"`
	Sources          []TurnSource `json:"sources"`
	ResolutionStatus string       `json:"resolutionStatus"`
	QueryCategory    *string      `json:"queryCategory"`
	PageURL          *string      `json:"pageUrl"`
}

func conversationOf(t *Thread, turn *Turn) Conversation {
	return Conversation{ID: t.ID, Timestamp: timeText(turn.Time.UnixNano()), Query: turn.Query, Response: turn.Response,
		ResponseType: turn.ResponseType, Sources: append([]TurnSource{}, turn.Sources...),
		ResolutionStatus: turn.ResolutionStatus, QueryCategory: nullable(turn.QueryCategory), PageURL: nullable(turn.PageURL)}
}

// Thread is the transcript of thread id: for each turn the user's message
// then the assistant's. createdAt is the first query's time.
func (st *Store) Thread(id string) (*ThreadAnswer, error) {
	if !ValidULID(id) {
		return nil, &Error{Message: "Invalid thread ID",
			Details: []string{"threadId: must be a ULID (26 characters of Crockford base32), got " + quoteShort(id)}}
	}
	var out *ThreadAnswer
	st.read(func(e *events, _ uint64) {
		t := e.threads.byID[strings.ToUpper(id)]
		if t == nil {
			return
		}
		out = &ThreadAnswer{ThreadID: t.ID, CreatedAt: timeText(t.Turns[0].Time.UnixNano()), Messages: make([]Message, 0, 2*len(t.Turns))}
		for i := range t.Turns {
			turn := &t.Turns[i]
			out.Messages = append(out.Messages,
				Message{turn.UserMessageID, "user", turn.Query, timeText(turn.Time.UnixNano())},
				Message{turn.AssistantMessageID, "assistant", turn.Response, timeText(turn.AnsweredAt.UnixNano())})
		}
	})
	if out == nil {
		return nil, &Error{NotFound: true, Message: "Thread not found"}
	}
	return out, nil
}

// ThreadAnswer is the answer of the thread route.
type ThreadAnswer struct {
	ThreadID  string    `json:"threadId"`
	CreatedAt string    `json:"createdAt"`
	Messages  []Message `json:"messages"`
}

// Message is a message of a thread.
type Message struct {
	ID        string `json:"id"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	CreatedAt string `json:"createdAt"`
}

// CallerStats is the answer of the caller stats route.
type CallerStats struct {
	Web   int `json:"web"`
	API   int `json:"api"`
	Other int `json:"other"`
	Total int `json:"total"`
}

// CallerStats counts the assistant queries (turns) in q's window by their
// thread's caller, and their total.
func (st *Store) CallerStats(q *Query) CallerStats {
	var c CallerStats
	st.read(func(e *events, _ uint64) {
		turns := e.threads.turns
		lo, _ := slices.BinarySearchFunc(turns, q.From, func(t turnRef, from int64) int { return cmpInt64(t.at, from) })
		for i := lo; i < len(turns) && turns[i].at < q.To; i++ {
			switch turns[i].thread.Caller {
			case CallerWeb:
				c.Web++
			case CallerAPI:
				c.API++
			default:
				c.Other++
			}
		}
	})
	c.Total = c.Web + c.API + c.Other
	return c
}
