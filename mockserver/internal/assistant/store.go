package assistant

import (
	"math/rand/v2"
	"sync"

	"github.com/docsagent/mintlify-go/mockserver/internal/analytics"
)

// DefaultDomain is the site the mock serves unless told otherwise.
const DefaultDomain = "docs.example.com"

// CreditsPerMessage is what one answered message costs. Refused messages
// (validation, unknown thread) cost nothing; search and page content are
// free, as the vendor documents.
const CreditsPerMessage = 1

// Store is the assistant API's state for one mock server: the pages of
// each site, the threads and the credits spent. It is safe for concurrent
// use.
type Store struct {
	domain string // holds DefaultPages; Reset restores them

	// Lock order: mu, then pagesMu.
	pagesMu sync.RWMutex
	sites   map[string]*site
	bytes   int // content bytes of every site

	mu       sync.Mutex
	threads  threadBook
	credits  int64
	rng      *rand.Rand // thread and message IDs; thread keys come from crypto/rand
	recorder Recorder
}

// Recorder receives every answered turn. It is called under the store's
// lock, so a thread's turns arrive in their time order, which the
// analytics export requires. An [*analytics.Store] is one: the wiring
// passes the primary project's, so each turn shows in its /assistant
// export.
type Recorder interface {
	AddTurn(threadID string, caller analytics.Caller, turn analytics.Turn) error
}

// NewStore returns a store whose domain holds DefaultPages. The seed fixes
// the thread and message IDs it draws, so a test can expect them.
func NewStore(domain string, seed uint64) *Store {
	s := &Store{domain: domain, rng: rand.New(rand.NewPCG(seed, seed^0x61737369))}
	s.Reset()
	return s
}

// Reset returns to DefaultPages on the store's domain, no threads and no
// credits spent. The ID source is not rewound, so an ID given before Reset
// is never given again (an analytics store that was not reset still holds
// it).
func (s *Store) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.threads = newThreadBook()
	s.credits = 0
	s.pagesMu.Lock()
	defer s.pagesMu.Unlock()
	st := newSite()
	for _, p := range DefaultPages() {
		st.put(p)
	}
	s.sites = map[string]*site{domainKey(s.domain): st}
	s.bytes = st.bytes
}

// SetRecorder makes r receive every turn answered from now on; nil stops
// recording. A turn r refuses fails its message (a 500), so a bug never
// loses a turn silently.
func (s *Store) SetRecorder(r Recorder) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recorder = r
}

// Credits is the total the store's messages have spent.
func (s *Store) Credits() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.credits
}
