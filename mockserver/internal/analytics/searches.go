package analytics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// searchData stores search events column-wise with interned strings: 20
// bytes an event. seq is the order of arrival, which lets a cursor pin its
// walk to the events that existed when the walk began.
type searchData struct {
	terms   []string
	termIDs map[string]uint32
	pages   []string // clicked pages; pages[0] is "", no click
	pageIDs map[string]uint32
	at      []int64
	term    []uint32
	click   []uint32
	seq     []uint32
	sorted  bool
}

func newSearchData() searchData {
	return searchData{termIDs: map[string]uint32{}, pages: []string{""}, pageIDs: map[string]uint32{"": 0}, sorted: true}
}

func intern(ids map[string]uint32, list *[]string, s string) uint32 {
	id, ok := ids[s]
	if !ok {
		id = uint32(len(*list))
		ids[s] = id
		*list = append(*list, s)
	}
	return id
}

func (d *searchData) add(e SearchEvent) {
	t := e.Time.UnixNano()
	if n := len(d.at); n > 0 && t < d.at[n-1] {
		d.sorted = false
	}
	d.seq = append(d.seq, uint32(len(d.at)))
	d.at = append(d.at, t)
	d.term = append(d.term, intern(d.termIDs, &d.terms, e.Query))
	d.click = append(d.click, intern(d.pageIDs, &d.pages, e.ClickedPath))
}

func (d *searchData) sort() {
	idx := make([]int32, len(d.at))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return cmpInt64(d.at[a], d.at[b]) })
	at, term, click, seq := make([]int64, len(idx)), make([]uint32, len(idx)), make([]uint32, len(idx)), make([]uint32, len(idx))
	for i, j := range idx {
		at[i], term[i], click[i], seq[i] = d.at[j], d.term[j], d.click[j], d.seq[j]
	}
	d.at, d.term, d.click, d.seq, d.sorted = at, term, click, seq, true
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ValidateSearches reports what makes search events unstorable.
func ValidateSearches(searches []SearchEvent) error {
	var errs []error
	for i, e := range searches {
		if e.Query == "" {
			errs = append(errs, fmt.Errorf("search %d: query is empty", i))
		}
		if !timeInRange(e.Time) {
			errs = append(errs, fmt.Errorf("search %d: timestamp is missing or out of range", i))
		}
		if len(errs) >= 10 {
			break
		}
	}
	return errors.Join(errs...)
}

// AddSearches stores search events, all or none.
func (st *Store) AddSearches(searches []SearchEvent) error {
	if err := ValidateSearches(searches); err != nil {
		return err
	}
	return st.write(func(e *events) error {
		for _, s := range searches {
			e.searches.add(s)
		}
		return nil
	})
}

// searchReport is the ranking of search terms over the events of one date
// window that had arrived by snap, computed once and served page by page.
type searchReport struct {
	from, to int64
	snap     uint32
	gen      uint64
	total    int
	rows     []SearchTerm
}

// SearchTerm is a row of the searches export.
type SearchTerm struct {
	SearchQuery    string  `json:"searchQuery"`
	Hits           int32   `json:"hits"`
	CTR            float64 `json:"ctr"`
	TopClickedPage *string `json:"topClickedPage"`
	LastSearchedAt string  `json:"lastSearchedAt"`
}

// SearchesPage is the answer of the searches export.
type SearchesPage struct {
	Searches      []SearchTerm `json:"searches"`
	TotalSearches int          `json:"totalSearches"`
	NextCursor    *string      `json:"nextCursor"`
}

const maxCachedSearchReports = 8

// Searches is the searches page for q: one row per term, by hits
// descending then term ascending (byte order).
//
// A walk is pinned to the events that had arrived when its first page was
// asked: the cursor carries that count (and the store's reset generation),
// so rankings that move as searches arrive can neither repeat nor skip a
// term within the walk. The next walk sees the new events.
func (st *Store) Searches(q *Query) (*SearchesPage, error) {
	var out *SearchesPage
	var err *Error
	st.read(func(e *events, gen uint64) {
		snap, offset := uint32(len(e.searches.at)), 0
		if q.Cursor != "" {
			pos, cerr := st.signer.open(q.binding(st.project), q.Cursor)
			if cerr != nil {
				err = cerr
				return
			}
			if len(pos) != 16 {
				err = badCursor("it is malformed")
				return
			}
			if binary.BigEndian.Uint64(pos) != gen {
				err = badCursor("the server was reset since it was issued")
				return
			}
			snap = binary.BigEndian.Uint32(pos[8:])
			offset = int(binary.BigEndian.Uint32(pos[12:]))
		}
		r := st.searchReport(&e.searches, gen, q.From, q.To, snap)
		n := len(r.rows)
		first := min(offset, n)
		last := first + min(q.Limit, n-first)
		out = &SearchesPage{Searches: r.rows[first:last], TotalSearches: r.total}
		if last < n {
			pos := binary.BigEndian.AppendUint64(make([]byte, 0, 16), gen)
			pos = binary.BigEndian.AppendUint32(pos, snap)
			pos = binary.BigEndian.AppendUint32(pos, uint32(last))
			out.NextCursor = nullable(st.signer.seal(q.binding(st.project), pos))
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (st *Store) searchReport(d *searchData, gen uint64, from, to int64, snap uint32) *searchReport {
	st.cacheMu.Lock()
	defer st.cacheMu.Unlock()
	for _, r := range st.searchCache {
		if r.from == from && r.to == to && r.snap == snap && r.gen == gen {
			return r
		}
	}
	r := rankSearches(d, from, to, snap)
	r.gen = gen
	st.searchCache = slices.DeleteFunc(st.searchCache, func(old *searchReport) bool { return old.gen != gen })
	if len(st.searchCache) >= maxCachedSearchReports {
		st.searchCache = st.searchCache[1:]
	}
	st.searchCache = append(st.searchCache, r)
	return r
}

type termRow struct {
	term   uint32
	hits   int32
	clicks int32
	last   int64
	top    uint32 // clicked page with the most clicks; 0 = none
	topN   int32
}

// rankSearches aggregates the window's events with seq < snap per term.
// ctr is the share of the term's searches followed by a click; the top
// clicked page is the one clicked most often from the term's results, the
// lowest path in byte order among equals.
func rankSearches(d *searchData, from, to int64, snap uint32) *searchReport {
	lo, _ := slices.BinarySearch(d.at, from)
	hi, _ := slices.BinarySearch(d.at, to)
	hi = max(hi, lo)
	rows := make([]termRow, len(d.terms))
	pairs := map[uint64]int32{}
	total := 0
	for i := lo; i < hi; i++ {
		if d.seq[i] >= snap {
			continue
		}
		total++
		r := &rows[d.term[i]]
		r.hits++
		if r.hits == 1 || d.at[i] > r.last {
			r.last = d.at[i]
		}
		if c := d.click[i]; c != 0 {
			r.clicks++
			pairs[uint64(d.term[i])<<32|uint64(c)]++
		}
	}
	for k, n := range pairs {
		r := &rows[k>>32]
		p := uint32(k)
		if n > r.topN || (n == r.topN && d.pages[p] < d.pages[r.top]) {
			r.top, r.topN = p, n
		}
	}
	kept := rows[:0]
	for t, r := range rows {
		if r.hits > 0 {
			r.term = uint32(t)
			kept = append(kept, r)
		}
	}
	slices.SortFunc(kept, func(a, b termRow) int {
		if a.hits != b.hits {
			return int(b.hits - a.hits)
		}
		return strings.Compare(d.terms[a.term], d.terms[b.term])
	})

	rep := &searchReport{from: from, to: to, snap: snap, total: total, rows: make([]SearchTerm, len(kept))}
	for i, r := range kept {
		rep.rows[i] = SearchTerm{SearchQuery: d.terms[r.term], Hits: r.hits, CTR: float64(r.clicks) / float64(r.hits),
			TopClickedPage: nullable(d.pages[r.top]), LastSearchedAt: timeText(r.last)}
	}
	return rep
}
