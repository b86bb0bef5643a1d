package staticexport

import "sync"

// Bounds of the jobs a store keeps. Starting an export has no rate limit,
// so past MaxJobs jobs, or MaxBytes of their pages, versions and built
// bundles, the oldest job is forgotten (its status and bundle routes then
// answer 404, as do its links).
const (
	MaxJobs      = 1_000
	MaxBytes     = 64 << 20
	jobOverhead  = 512 // bytes a job costs besides its pages and bundle, for the count
	pageOverhead = 16  // a page's string header
)

// Store keeps the export jobs of one server. It is safe for concurrent use.
type Store struct {
	mu    sync.RWMutex
	jobs  map[string]*Job
	order []*Job // oldest first
	bytes int    // what the kept jobs cost, as size counts it
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{jobs: map[string]*Job{}} }

// Reset forgets every job.
func (st *Store) Reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.jobs, st.order, st.bytes = map[string]*Job{}, nil, 0
}

// Add stores j, and forgets the oldest jobs past the bounds. Its cost is
// summed before the lock is taken: up to MaxPaths pages.
func (st *Store) Add(j *Job) {
	cost := jobOverhead + len(j.ID) + len(j.Org) + len(j.Domain) + len(j.Version)
	for _, p := range j.Pages {
		cost += pageOverhead + len(p)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	j.cost = cost
	st.jobs[j.ID] = j
	st.order = append(st.order, j)
	st.bytes += j.cost
	st.trim()
}

// Bundle is j's tar.gz, built once on first use (the routes ask only for a
// completed job's). The store counts its bytes when it is built and
// forgets the oldest jobs past the bounds. A bundle already built costs no
// lock. It is the one way to a job's bundle.
func (st *Store) Bundle(j *Job) []byte {
	j.once.Do(func() {
		j.bundle = buildBundle(j)
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.jobs[j.ID] == j { // not forgotten meanwhile
			j.cost += len(j.bundle)
			st.bytes += len(j.bundle)
			st.trim()
		}
	})
	return j.bundle
}

// trim forgets the oldest jobs until the bounds hold.
func (st *Store) trim() {
	for len(st.order) > 0 && (len(st.order) > MaxJobs || st.bytes > MaxBytes) {
		old := st.order[0]
		st.order[0] = nil
		st.order = st.order[1:]
		delete(st.jobs, old.ID)
		st.bytes -= old.cost
	}
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
