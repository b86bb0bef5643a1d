package staticexport

import "sync"

// Store keeps the export jobs of one server. It is safe for concurrent use.
type Store struct {
	mu   sync.RWMutex
	jobs map[string]*Job
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{jobs: map[string]*Job{}} }

// Reset forgets every job.
func (st *Store) Reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.jobs = map[string]*Job{}
}

// Add stores j.
func (st *Store) Add(j *Job) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.jobs[j.ID] = j
}

// Get returns the job of org with the ID, or nil: another organization's
// job is as unknown as one that never existed.
func (st *Store) Get(org, id string) *Job {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if j := st.jobs[id]; j != nil && j.Org == org {
		return j
	}
	return nil
}

// Lookup returns the job with the ID whatever its organization, for the
// storage host, which trusts its signature instead of a key.
func (st *Store) Lookup(id string) *Job {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.jobs[id]
}
