package analytics

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// Visit is one content view, the raw material of the visitors and views
// exports.
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

// window returns [lo, hi), the visits in the query's dates.
func (d *visitData) window(from, to int64) (int, int) {
	lo, _ := slices.BinarySearch(d.at, from)
	hi, _ := slices.BinarySearch(d.at, to)
	return lo, max(hi, lo)
}

// Visits is one project's visits. The initial data set (from options) is
// kept frozen and shared until the first write, so Reset is cheap and a
// large seed is not held twice until then (after it, Reset needs the copy).
type Visits struct {
	mu      sync.RWMutex
	data    *visitData
	shared  bool // data is the frozen initial set: copy before writing
	initial *visitData
	version uint64 // bumped on every write; cached reports carry it

	cacheMu sync.Mutex
	cache   []*report // most recent first
}

// NewVisits returns an empty store.
func NewVisits() *Visits { return &Visits{data: newVisitData()} }

// ValidateVisits reports what makes visits unstorable, at most ten problems.
func ValidateVisits(visits []Visit) error {
	var errs []error
	for i, v := range visits {
		if v.VisitorID == "" {
			errs = append(errs, fmt.Errorf("visit %d: visitor ID is empty", i))
		}
		if v.Path == "" {
			errs = append(errs, fmt.Errorf("visit %d: path is empty", i))
		}
		if !timeInRange(v.Time) {
			errs = append(errs, fmt.Errorf("visit %d: time %s is out of range", i, v.Time.Format(time.RFC3339)))
		}
		if len(errs) >= 10 {
			break
		}
	}
	return errors.Join(errs...)
}

// timeInRange excludes times whose unix nanoseconds overflow; a zero Time
// is the usual cause.
func timeInRange(t time.Time) bool {
	y := t.Year()
	return y >= 1700 && y <= 2200
}

// Add stores visits, all or none.
func (v *Visits) Add(visits []Visit) error {
	if err := ValidateVisits(visits); err != nil {
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

// addGenerated stores visits a generator yields, without holding them all
// at once: a million seeded visits must not cost a million Visit values.
func (v *Visits) addGenerated(gen func(yield func(Visit))) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.own()
	gen(v.data.add)
	v.version++
}

// AddSynthetic stores n more synthetic visits ending at end (see
// GenerateVisits).
func (v *Visits) AddSynthetic(n int, end time.Time) {
	if n > 0 {
		v.addGenerated(func(yield func(Visit)) { GenerateVisits(n, end, yield) })
	}
}

// own makes data private before a write; the caller holds v.mu.
func (v *Visits) own() {
	if v.shared {
		v.data, v.shared = v.data.clone(), false
	}
}

// Freeze makes the current visits the set Reset returns to.
func (v *Visits) Freeze() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.data.sorted {
		v.data.sort()
	}
	v.initial, v.shared = v.data, true
}

// Reset returns to the frozen set, or to none.
func (v *Visits) Reset() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.initial != nil {
		v.data, v.shared = v.initial, true
	} else {
		v.data, v.shared = newVisitData(), false
	}
	v.version++
}

// Len is how many visits are stored.
func (v *Visits) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.data.at)
}

// snapshot returns sorted data for reading with v.mu read-locked; the caller
// must RUnlock. Sorting is deferred to the first read after unordered
// writes, so bulk inserts do not sort repeatedly.
func (v *Visits) snapshot() (*visitData, uint64) {
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
