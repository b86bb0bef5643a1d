package assistant

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/analytics"
)

func TestThreadsContinueOnlyWithTheirKey(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	first, err := s.Message(DefaultDomain, ask("How do previews work?"), t0)
	if err != nil {
		t.Fatal(err)
	}
	if !analytics.ValidULID(first.ThreadID) || len(first.ThreadKey) != 32 {
		t.Fatalf("new thread %q key %q: want a ULID and a 128-bit key", first.ThreadID, first.ThreadKey)
	}
	follow := func(id, key, domain string) (*Answer, error) {
		req := ask("And what about rate limits?")
		req.ThreadID, req.ThreadKey = id, key
		return s.Message(domain, req, t0)
	}
	next, err := follow(strings.ToLower(first.ThreadID), first.ThreadKey, DefaultDomain)
	if err != nil {
		t.Fatalf("a follow-up with the key (ID in lower case): %v", err)
	}
	if next.ThreadID != first.ThreadID || next.ThreadKey != "" {
		t.Errorf("follow-up thread %q key %q, want %q and no key", next.ThreadID, next.ThreadKey, first.ThreadID)
	}
	if _, err := s.AddPages("other.example", []Page{{Path: "x", Title: "X", Content: "rate limits"}}); err != nil {
		t.Fatal(err)
	}
	other, _ := s.Message("other.example", ask("rate limits"), t0)
	for name, c := range map[string]struct{ id, key, domain string }{
		"no key":         {first.ThreadID, "", DefaultDomain},
		"wrong key":      {first.ThreadID, other.ThreadKey, DefaultDomain},
		"another's key":  {other.ThreadID, first.ThreadKey, DefaultDomain},
		"another domain": {other.ThreadID, other.ThreadKey, DefaultDomain},
		"unknown thread": {"01ARZ3NDEKTSV4RRFFQ69G5FAV", first.ThreadKey, DefaultDomain},
		"not a ULID":     {"../../etc", first.ThreadKey, DefaultDomain},
		"the key twice":  {first.ThreadID, first.ThreadKey + first.ThreadKey, DefaultDomain},
	} {
		_, err := follow(c.id, c.key, c.domain)
		mustStatus(t, err, 404, name)
	}

	if fresh, err := follow("", first.ThreadKey, DefaultDomain); err != nil || fresh.ThreadID == first.ThreadID || fresh.ThreadKey == "" {
		t.Errorf("a key without a thread ID starts a new thread: %+v, %v", fresh, err)
	}

	turns := s.Turns(first.ThreadID)
	if len(turns) != 2 || turns[0].Query != "How do previews work?" || turns[1].Query != "And what about rate limits?" {
		t.Fatalf("turns %+v", turns)
	}
	// Asked at the same instant, the follow-up is recorded 1 ms later.
	if !turns[0].Time.Equal(t0) || !turns[1].Time.Equal(t0.Add(time.Millisecond)) {
		t.Errorf("turn times %v, %v", turns[0].Time, turns[1].Time)
	}
	if turns[1].Response != next.Response || turns[1].AssistantMessageID != next.AssistantMessageID {
		t.Error("the thread did not record the answer given")
	}
	if s.Turns("01ARZ3NDEKTSV4RRFFQ69G5FAV") != nil {
		t.Error("turns of an unknown thread")
	}
}

func TestCredits(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	for i := range 3 {
		if _, err := s.Message(DefaultDomain, ask(fmt.Sprint("question ", i)), t0); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = s.Message(DefaultDomain, MessageRequest{}, t0) // 400
	req := ask("x")
	req.ThreadID = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	_, _ = s.Message(DefaultDomain, req, t0) // 404
	_, _ = s.Search(DefaultDomain, SearchRequest{Query: "deployment"})
	_, _ = s.PageContent(DefaultDomain, "quickstart", nil)
	if got := s.Credits(); got != 3*CreditsPerMessage {
		t.Errorf("credits %d, want %d: answered messages only", got, 3*CreditsPerMessage)
	}
	s.Reset()
	if got := s.Credits(); got != 0 {
		t.Errorf("credits after Reset: %d", got)
	}
}

// Every turn reaches the analytics export of the recorder: both turns of
// a thread (asked at the same instant), unanswered ones marked, the caller
// the API.
func TestTurnsReachTheAnalyticsExport(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	export := analytics.NewStore("project", analytics.NewSigner())
	s.SetRecorder(export)
	first, err := s.Message(DefaultDomain, ask("How do I rotate a key?"), t0)
	if err != nil {
		t.Fatal(err)
	}
	req := ask("What is the capital of France?")
	req.ThreadID, req.ThreadKey = first.ThreadID, first.ThreadKey
	if _, err := s.Message(DefaultDomain, req, t0); err != nil {
		t.Fatal(err)
	}
	transcript, err := export.Thread(first.ThreadID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(transcript)
	var th struct {
		Messages []struct{ ID, Role, Content string }
	}
	if err := json.Unmarshal(b, &th); err != nil || len(th.Messages) != 4 {
		t.Fatalf("transcript %s (%v), want 4 messages", b, err)
	}
	if th.Messages[1].ID != first.AssistantMessageID || th.Messages[1].Content != first.Response || th.Messages[2].Content != req.Messages[1].Parts[0].Text {
		t.Errorf("transcript %+v", th.Messages)
	}
	q, _ := analytics.ParseQuery(&analytics.ConversationsSpec, "")
	conversations, _ := export.Conversations(&q)
	b, _ = json.Marshal(conversations)
	var page struct {
		Conversations []struct {
			ID, ResolutionStatus string
			Sources              []analytics.TurnSource
		}
	}
	_ = json.Unmarshal(b, &page)
	if c := page.Conversations; len(c) != 2 || c[0].ResolutionStatus != "unanswered" || c[1].ResolutionStatus != "answered" ||
		len(c[1].Sources) == 0 || !strings.HasPrefix(c[1].Sources[0].URL, "https://docs.example.com/") {
		t.Errorf("conversations %s", b)
	}
	if got, _ := json.Marshal(export.CallerStats(&q)); string(got) != `{"web":0,"api":2,"other":0,"total":2}` {
		t.Errorf("caller stats %s, want two API turns", got)
	}

	// A turn the recorder refuses fails its message and changes nothing.
	s.SetRecorder(refuse{})
	_, err = s.Message(DefaultDomain, ask("previews"), t0)
	mustStatus(t, err, 500, "a refused turn")
	if s.Credits() != 2 {
		t.Errorf("credits %d after a refused turn, want 2", s.Credits())
	}
}

type refuse struct{}

func (refuse) AddTurn(string, analytics.Caller, analytics.Turn) error { return errors.New("full") }

func TestThreadBounds(t *testing.T) {
	b := newThreadBook()
	turn := Turn{Time: t0, Query: "q", Response: "r"}
	first := b.start("T0", "k", DefaultDomain)
	b.add(first, turn)
	for i := 1; i <= MaxThreads; i++ {
		b.add(b.start(fmt.Sprint("T", i), "k", DefaultDomain), turn)
	}
	if len(b.byID) != MaxThreads || b.find(DefaultDomain, "T0", "k") != nil || b.find(DefaultDomain, "T1", "k") == nil {
		t.Errorf("%d threads kept; the least recently used should be gone", len(b.byID))
	}
	// Using a thread keeps it: T1 is touched, so T2 goes next.
	b.add(b.byID["T1"], turn)
	b.add(b.start("NEW", "k", DefaultDomain), turn)
	if b.byID["T1"] == nil || b.byID["T2"] != nil {
		t.Error("eviction is not least recently used")
	}

	b = newThreadBook()
	th := b.start("T", "k", DefaultDomain)
	for i := range MaxTurnsPerThread + 5 {
		b.add(th, Turn{Time: t0.Add(time.Duration(i) * time.Millisecond), Query: fmt.Sprint(i)})
	}
	if len(th.turns) != MaxTurnsPerThread || th.turns[0].Query != "5" || !th.last.Equal(t0.Add((MaxTurnsPerThread+4)*time.Millisecond)) {
		t.Errorf("%d turns kept from %q", len(th.turns), th.turns[0].Query)
	}
	want := 0
	for _, x := range th.turns {
		want += turnSize(&x)
	}
	if th.bytes != want || b.bytes != want {
		t.Errorf("bytes %d / %d, want %d", th.bytes, b.bytes, want)
	}

	b = newThreadBook()
	big := Turn{Time: t0, Response: strings.Repeat("x", 1<<20)}
	for i := range MaxThreadBytes>>20 + 8 {
		b.add(b.start(fmt.Sprint("B", i), "k", DefaultDomain), big)
	}
	if b.bytes > MaxThreadBytes || b.byID["B0"] != nil || len(b.byID) == 0 {
		t.Errorf("%d bytes in %d threads, want at most %d", b.bytes, len(b.byID), MaxThreadBytes)
	}

	s := NewStore(DefaultDomain, 1)
	a, _ := s.Message(DefaultDomain, ask(strings.Repeat("long question ", 1000)), t0)
	if len(a.Query) > MaxQueryBytes+len("…") || a.Turn.Analytics().Query != a.Query {
		t.Errorf("a query of %d bytes was kept", len(a.Query))
	}
}

func TestStoreIsSafeForConcurrentUse(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	s.SetRecorder(analytics.NewStore("p", analytics.NewSigner()))
	first, err := s.Message(DefaultDomain, ask("previews"), t0)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				req := ask("deployment preview")
				req.ThreadID, req.ThreadKey = first.ThreadID, first.ThreadKey
				if _, err := s.Message(DefaultDomain, req, t0); err != nil {
					t.Error(err)
				}
				_, _ = s.Search(DefaultDomain, SearchRequest{Query: "rate limits"})
				_, _ = s.AddPages(DefaultDomain, []Page{{Path: fmt.Sprintf("g%d/%d", g, i), Title: "T", Content: "concurrent page"}})
				_, _ = s.PageContent(DefaultDomain, "quickstart", nil)
			}
		}()
	}
	wg.Wait()
	if got := len(s.Turns(first.ThreadID)); got != 81 {
		t.Errorf("%d turns, want 81", got)
	}
	if s.Credits() != 81 {
		t.Errorf("credits %d, want 81", s.Credits())
	}
}
