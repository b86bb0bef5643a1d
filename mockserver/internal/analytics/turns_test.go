package analytics

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// A thread answered one message at a time shows every turn in its
// transcript and the conversations route, and Reset forgets the turns
// added after Freeze without touching the frozen thread.
func TestAddTurnGrowsAThread(t *testing.T) {
	st := NewStore("p", NewSigner())
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	id := NewULID(at, rand.New(rand.NewPCG(1, 2)))
	if err := st.AddTurn(id, CallerAPI, Turn{Time: at, Query: "one", Response: "first"}); err != nil {
		t.Fatal(err)
	}
	st.Freeze()
	if err := st.AddTurn(id, CallerWeb, Turn{Time: at.Add(time.Second), Query: "two", Response: "second", ResolutionStatus: "unanswered"}); err != nil {
		t.Fatal(err)
	}
	if err := st.AddTurn(id, CallerAPI, Turn{Time: at.Add(time.Second), Query: "two"}); err == nil {
		t.Error("a turn of the previous turn's millisecond and query was stored")
	}
	transcript := func() (th struct {
		Messages []struct{ Role, Content string }
	}) {
		a, err := st.Thread(id)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(encode(t, a), &th); err != nil {
			t.Fatal(err)
		}
		return th
	}
	if got := transcript(); len(got.Messages) != 4 || got.Messages[2].Content != "two" || got.Messages[3].Content != "second" {
		t.Errorf("transcript %+v, want both turns", got.Messages)
	}
	q, _ := ParseQuery(&ConversationsSpec, "")
	a, err := st.Conversations(&q)
	if err != nil {
		t.Fatal(err)
	}
	b := encode(t, a)
	var page struct {
		Conversations []struct{ ID, Query, ResolutionStatus string }
	}
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Conversations) != 2 || page.Conversations[0].Query != "two" || page.Conversations[0].ResolutionStatus != "unanswered" ||
		page.Conversations[1].ID != id {
		t.Errorf("conversations %+v, want two rows of thread %s, newest first", page.Conversations, id)
	}
	if got := st.Counts(); got.Threads != 1 || got.Turns != 2 {
		t.Errorf("counts %+v, want 1 thread of 2 turns", got)
	}
	b = encode(t, st.CallerStats(&q))
	if string(b) != `{"web":0,"api":2,"other":0,"total":2}` {
		t.Errorf("caller stats %s: the thread keeps its first caller", b)
	}
	st.Reset()
	if got := transcript(); len(got.Messages) != 2 {
		t.Errorf("after Reset the transcript has %d messages, want the frozen turn's 2", len(got.Messages))
	}
}

// A turn is identified by its thread, its time and its query: two
// questions asked in one thread at the same millisecond are two
// rows of the conversations route and four messages of the transcript; the
// same question twice at one instant could not be told apart, and is
// refused.
func TestTwoTurnsOfAThreadAtOneInstantAreTwoRows(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	id := NewULID(at, rand.New(rand.NewPCG(3, 4)))
	st := NewStore("p", NewSigner())
	err := st.AddThreads([]Thread{{ID: id, Turns: []Turn{
		{Time: at, Query: "how do I deploy?", Response: "like so"},
		{Time: at.Add(time.Microsecond), Query: "and roll back?", Response: "like that"}, // the same millisecond
	}}})
	if err != nil {
		t.Fatalf("two turns at one instant: %v", err)
	}
	q, _ := ParseQuery(&ConversationsSpec, "")
	a, err := st.Conversations(&q)
	if err != nil {
		t.Fatal(err)
	}
	b := encode(t, a)
	var page struct {
		Conversations []struct{ ID, Timestamp, Query string }
	}
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Conversations) != 2 || page.Conversations[0].Timestamp != page.Conversations[1].Timestamp ||
		page.Conversations[0].ID != id || page.Conversations[1].ID != id || page.Conversations[0].Query == page.Conversations[1].Query {
		t.Errorf("conversations %+v, want two rows of thread %s at one timestamp", page.Conversations, id)
	}
	if err := st.AddTurn(id, CallerWeb, Turn{Time: at, Query: "and roll back?"}); err == nil {
		t.Error("AddTurn stored a turn of the same thread, time and query as a stored one")
	}
	if err := st.AddTurn(id, CallerWeb, Turn{Time: at, Query: "a third question"}); err != nil {
		t.Errorf("AddTurn at the thread's last instant with a new query: %v", err)
	}
	err = st.AddThreads([]Thread{{Turns: []Turn{{Time: at, Query: "same"}, {Time: at, Query: "same"}}}})
	if err == nil || !strings.Contains(err.Error(), "same timestamp and query") {
		t.Errorf("a thread with two turns of one time and query: %v, want a refusal naming the key", err)
	}
	err = st.AddThreads([]Thread{{Turns: []Turn{{Time: at, Query: "late"}, {Time: at.Add(-time.Second), Query: "early"}}}})
	if err == nil || !strings.Contains(err.Error(), "before the previous turn") {
		t.Errorf("turns out of time order: %v, want a refusal", err)
	}
	if got := st.Counts(); got.Threads != 1 || got.Turns != 3 {
		t.Errorf("counts %+v, want 1 thread of 3 turns", got)
	}
}
