package mockserver

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// Visit is one content view, the raw material of the visitors export.
type Visit struct {
	VisitorID string    `json:"visitorId"` // one reader or agent, across visits
	Path      string    `json:"path"`      // the page, as the export reports it
	AI        bool      `json:"ai"`        // AI agent traffic rather than a human reader
	Time      time.Time `json:"timestamp"` // filtered by dateFrom (inclusive) and dateTo (exclusive)
}

// visitData stores visits column-wise with interned strings: a visit costs
// 16 bytes (time, path index, visitor index with the AI bit), so a million
// of them fit in about 16 MB plus the distinct strings.
type visitData struct {
	pathIDs    map[string]uint32
	paths      []string
	visitorIDs map[string]uint32
	at         []int64  // unix nanoseconds
	pathOf     []uint32 // index into paths
	who        []uint32 // visitor index << 1 | AI bit
	sorted     bool     // at is ascending, so a date window is two binary searches
}

func newVisitData() *visitData {
	return &visitData{pathIDs: map[string]uint32{}, visitorIDs: map[string]uint32{}, sorted: true}
}

func (d *visitData) clone() *visitData {
	return &visitData{
		pathIDs:    maps.Clone(d.pathIDs),
		paths:      slices.Clone(d.paths),
		visitorIDs: maps.Clone(d.visitorIDs),
		at:         slices.Clone(d.at),
		pathOf:     slices.Clone(d.pathOf),
		who:        slices.Clone(d.who),
		sorted:     d.sorted,
	}
}

func (d *visitData) add(v Visit) {
	p, ok := d.pathIDs[v.Path]
	if !ok {
		p = uint32(len(d.paths))
		d.pathIDs[v.Path] = p
		d.paths = append(d.paths, v.Path)
	}
	who, ok := d.visitorIDs[v.VisitorID]
	if !ok {
		who = uint32(len(d.visitorIDs))
		d.visitorIDs[v.VisitorID] = who
	}
	who <<= 1
	if v.AI {
		who |= 1
	}
	t := v.Time.UnixNano()
	if n := len(d.at); n > 0 && t < d.at[n-1] {
		d.sorted = false
	}
	d.at = append(d.at, t)
	d.pathOf = append(d.pathOf, p)
	d.who = append(d.who, who)
}

// sort orders visits by time; stable, so equal times keep insertion order.
func (d *visitData) sort() {
	idx := make([]int32, len(d.at))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		switch {
		case d.at[a] < d.at[b]:
			return -1
		case d.at[a] > d.at[b]:
			return 1
		}
		return 0
	})
	at, pathOf, who := make([]int64, len(idx)), make([]uint32, len(idx)), make([]uint32, len(idx))
	for i, j := range idx {
		at[i], pathOf[i], who[i] = d.at[j], d.pathOf[j], d.who[j]
	}
	d.at, d.pathOf, d.who, d.sorted = at, pathOf, who, true
}

// visitStore is one project's visits. The initial data set (from options)
// is kept frozen and shared until the first write, so Reset is cheap and a
// large seed is not held twice until then (after it, Reset needs the copy).
type visitStore struct {
	mu      sync.RWMutex
	data    *visitData
	shared  bool // data is the frozen initial set: copy before writing
	initial *visitData
	version uint64 // bumped on every write; export results carry it

	cacheMu sync.Mutex
	cache   []*export // most recent first
}

func newVisitStore() *visitStore { return &visitStore{data: newVisitData()} }

func validateVisits(visits []Visit) error {
	var errs []error
	for i, v := range visits {
		if v.VisitorID == "" {
			errs = append(errs, fmt.Errorf("visit %d: visitor ID is empty", i))
		}
		if v.Path == "" {
			errs = append(errs, fmt.Errorf("visit %d: path is empty", i))
		}
		if y := v.Time.Year(); y < 1700 || y > 2200 {
			// Outside this range unix nanoseconds overflow; a zero Time is
			// the usual cause.
			errs = append(errs, fmt.Errorf("visit %d: time %s is out of range", i, v.Time.Format(time.RFC3339)))
		}
		if len(errs) >= 10 {
			break
		}
	}
	return errors.Join(errs...)
}

// add stores visits, all or none.
func (v *visitStore) add(visits []Visit) error {
	if err := validateVisits(visits); err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.own()
	for _, visit := range visits {
		v.data.add(visit)
	}
	v.version++
	return nil
}

// own makes data private before a write; the caller holds v.mu.
func (v *visitStore) own() {
	if v.shared {
		v.data, v.shared = v.data.clone(), false
	}
}

// freeze makes the current visits the set Reset returns to.
func (v *visitStore) freeze() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.data.sorted {
		v.data.sort()
	}
	v.initial, v.shared = v.data, true
}

func (v *visitStore) reset() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.initial != nil {
		v.data, v.shared = v.initial, true
	} else {
		v.data, v.shared = newVisitData(), false
	}
	v.version++
}

// snapshot returns sorted data for reading with v.mu read-locked; the caller
// must RUnlock. Sorting is deferred to the first read after unordered
// writes, so bulk inserts do not sort repeatedly.
func (v *visitStore) snapshot() (*visitData, uint64) {
	for {
		v.mu.RLock()
		if v.data.sorted {
			return v.data, v.version
		}
		v.mu.RUnlock()
		v.mu.Lock()
		if !v.data.sorted {
			v.own()
			v.data.sort()
		}
		v.mu.Unlock()
	}
}

// AddVisits stores visits for a project; the visitors export reflects them
// at once.
func (s *Server) AddVisits(projectID string, visits ...Visit) error {
	p := s.projects[projectID]
	if p == nil {
		return fmt.Errorf("%w: %q", ErrUnknownProject, projectID)
	}
	return p.visits.add(visits)
}

func (s *Server) seedVisits() error {
	p := s.projects[s.projectID]
	visits := s.cfg.visits
	if s.cfg.synthetic > 0 {
		visits = append(slices.Clip(visits), SyntheticVisits(s.cfg.synthetic, s.Now())...)
	}
	if len(visits) == 0 {
		return nil
	}
	if err := p.visits.add(visits); err != nil {
		return fmt.Errorf("mockserver: WithVisits: %w", err)
	}
	p.visits.freeze()
	return nil
}
