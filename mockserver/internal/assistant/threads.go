package assistant

import (
	"container/list"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"slices"
	"strings"
	"time"
)

// Bounds of the threads kept in memory. Past MaxThreads or MaxThreadBytes
// the least recently used thread is forgotten (a follow-up to it is then a
// 404); past MaxTurnsPerThread a thread forgets its oldest turns. The
// analytics export keeps its own copy of every turn.
const (
	MaxThreads        = 10_000
	MaxTurnsPerThread = 100
	MaxThreadBytes    = 32 << 20 // queries, answers and sources of every kept turn
	turnOverhead      = 256      // bytes a turn costs besides its text, for the count
)

type thread struct {
	id, key, domain string
	turns           []Turn
	last            time.Time // the latest turn's time, kept when turns are forgotten
	bytes           int
	elem            *list.Element
}

// threadBook is the threads, least recently used first.
type threadBook struct {
	byID  map[string]*thread
	lru   *list.List
	bytes int
}

func newThreadBook() threadBook { return threadBook{byID: map[string]*thread{}, lru: list.New()} }

// find returns the thread of domain with id and key, or nil. IDs are ULIDs
// and match without case; keys match exactly, in constant time.
func (b *threadBook) find(domain, id, key string) *thread {
	th := b.byID[strings.ToUpper(id)]
	if th == nil || th.domain != domainKey(domain) || subtle.ConstantTimeCompare([]byte(th.key), []byte(key)) != 1 {
		return nil
	}
	return th
}

func (b *threadBook) start(id, key, domain string) *thread {
	th := &thread{id: id, key: key, domain: domainKey(domain)}
	th.elem = b.lru.PushBack(th)
	b.byID[id] = th
	return th
}

// add appends t to th, then forgets what the bounds do not hold.
func (b *threadBook) add(th *thread, t Turn) {
	th.turns = append(th.turns, t)
	th.last = t.Time
	th.bytes += turnSize(&t)
	b.bytes += turnSize(&t)
	if len(th.turns) > MaxTurnsPerThread {
		gone := turnSize(&th.turns[0])
		th.turns = slices.Delete(th.turns, 0, 1)
		th.bytes -= gone
		b.bytes -= gone
	}
	b.lru.MoveToBack(th.elem)
	for len(b.byID) > MaxThreads || b.bytes > MaxThreadBytes {
		old := b.lru.Remove(b.lru.Front()).(*thread)
		delete(b.byID, old.id)
		b.bytes -= old.bytes
	}
}

func turnSize(t *Turn) int {
	n := turnOverhead + len(t.Query) + len(t.Response) + len(t.PageURL)
	for _, s := range t.Sources {
		n += len(s.ID) + len(s.URL) + len(s.Title) + len(s.Path)
	}
	return n
}

// newThreadKey is the secret that continues a thread: 128 random bits from
// crypto/rand, never from the seeded ID source, so knowing the seed (or an
// ID) does not give the key.
func newThreadKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b[:])
}

// Turns returns the turns the store keeps of thread id (at most
// MaxTurnsPerThread), oldest first; nil for an unknown thread.
func (s *Store) Turns(id string) []Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads.byID[strings.ToUpper(id)]
	if th == nil {
		return nil
	}
	out := slices.Clone(th.turns)
	for i := range out {
		out[i].Sources = slices.Clone(out[i].Sources)
	}
	return out
}
