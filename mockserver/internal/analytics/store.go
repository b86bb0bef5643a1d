package analytics

import (
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
)

// Store is one project's analytics events and the answers computed from
// them. It is safe for concurrent use.
type Store struct {
	Visits  *Visits
	project string
	signer  *Signer

	mu      sync.RWMutex
	ev      *events
	initial *events // the set Reset returns to; nil = none
	shared  bool    // ev is initial: copy before writing
	gen     uint64  // bumped by Reset: a searches cursor from before it no longer opens
	rng     *rand.Rand

	cacheMu     sync.Mutex
	searchCache []*searchReport
}

// events are the stored searches, feedback and threads.
type events struct {
	searches searchData
	feedback feedbackData
	threads  threadData
}

// NewStore returns an empty store for the project; cursors are sealed
// with signer.
func NewStore(project string, signer *Signer) *Store {
	return &Store{
		Visits:  NewVisits(),
		project: project,
		signer:  signer,
		ev:      newEvents(),
		rng:     rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())),
	}
}

func newEvents() *events {
	return &events{
		searches: newSearchData(),
		feedback: feedbackData{ids: map[string]struct{}{}, sorted: true},
		threads:  threadData{byID: map[string]*Thread{}, messages: map[string]int64{}, sorted: true},
	}
}

func (e *events) clone() *events {
	s := e.searches
	return &events{
		searches: searchData{
			terms: slices.Clone(s.terms), termIDs: maps.Clone(s.termIDs),
			pages: slices.Clone(s.pages), pageIDs: maps.Clone(s.pageIDs),
			at: slices.Clone(s.at), term: slices.Clone(s.term), click: slices.Clone(s.click), seq: slices.Clone(s.seq),
			sorted: s.sorted,
		},
		feedback: feedbackData{
			entries: slices.Clone(e.feedback.entries), ids: maps.Clone(e.feedback.ids), sorted: e.feedback.sorted,
		},
		threads: threadData{
			byID: maps.Clone(e.threads.byID), turns: slices.Clone(e.threads.turns),
			messages: maps.Clone(e.threads.messages), sorted: e.threads.sorted,
		},
	}
}

// write runs f on events the store owns, under the write lock.
func (st *Store) write(f func(*events) error) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.shared {
		st.ev, st.shared = st.ev.clone(), false
	}
	return f(st.ev)
}

// read runs f on sorted events under the read lock. Sorting waits for the
// first read after unordered writes, so bulk inserts do not sort
// repeatedly.
func (st *Store) read(f func(*events, uint64)) {
	for {
		st.mu.RLock()
		if st.ev.sorted() {
			defer st.mu.RUnlock()
			f(st.ev, st.gen)
			return
		}
		st.mu.RUnlock()
		_ = st.write(func(e *events) error {
			e.sort()
			return nil
		})
	}
}

func (e *events) sorted() bool {
	return e.searches.sorted && e.feedback.sorted && e.threads.sorted
}

func (e *events) sort() {
	if !e.searches.sorted {
		e.searches.sort()
	}
	if !e.feedback.sorted {
		e.feedback.sort()
	}
	if !e.threads.sorted {
		e.threads.sort()
	}
}

// Freeze makes the current events, visits included, the set Reset returns
// to.
func (st *Store) Freeze() {
	st.Visits.Freeze()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.ev.sort()
	st.initial, st.shared = st.ev, true
}

// Reset returns to the frozen events, or to none.
func (st *Store) Reset() {
	st.Visits.Reset()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.initial != nil {
		st.ev, st.shared = st.initial, true
	} else {
		st.ev, st.shared = newEvents(), false
	}
	st.gen++
}

// Counts says how many events of each kind are stored.
type Counts struct {
	Visits   int `json:"visits"`
	Searches int `json:"searches"`
	Feedback int `json:"feedback"`
	Threads  int `json:"threads"`
	Turns    int `json:"turns"`
}

// Counts reports the stored events.
func (st *Store) Counts() Counts {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return Counts{
		Visits:   st.Visits.Len(),
		Searches: len(st.ev.searches.at),
		Feedback: len(st.ev.feedback.entries),
		Threads:  len(st.ev.threads.byID),
		Turns:    len(st.ev.threads.turns),
	}
}
