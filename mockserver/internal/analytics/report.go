package analytics

import (
	"slices"
	"strings"
)

// report is a per-path export (visitors or views) for one date window,
// computed once and then served page by page: a page is a slice of its
// rows.
type report struct {
	kind     string // "visitors" or "views"
	from, to int64
	version  uint64
	totals   Traffic
	rows     []PathTraffic
}

type rowCount struct {
	path             uint32
	human, ai, total int32
}

// Traffic is a path's, or the site's, visitors or views: by humans, by AI
// agents, and all of them.
type Traffic struct {
	Human int32 `json:"human"`
	AI    int32 `json:"ai"`
	Total int32 `json:"total"`
}

// PathTraffic is a row of the visitors and views exports.
type PathTraffic struct {
	Path string `json:"path"`
	Traffic
}

// VisitorsPage is the answer of the visitors export.
type VisitorsPage struct {
	Totals   Traffic       `json:"totals"`
	Visitors []PathTraffic `json:"visitors"`
	HasMore  bool          `json:"hasMore"`
}

// ViewsPage is the answer of the views export.
type ViewsPage struct {
	Totals  Traffic       `json:"totals"`
	Views   []PathTraffic `json:"views"`
	HasMore bool          `json:"hasMore"`
}

// maxCachedReports bounds the cache per project; tests rarely use more
// than a few windows at once.
const maxCachedReports = 8

// Visitors is the visitors page for q: per path, distinct visitors seen as
// human, as AI, and either (each visitor once).
func (v *Visits) Visitors(q *Query) VisitorsPage {
	r := v.report("visitors", q.From, q.To)
	rows, hasMore := r.page(q.Offset, q.Limit)
	return VisitorsPage{Totals: r.totals, Visitors: rows, HasMore: hasMore}
}

// Views is the views page for q: per path, visits by humans, by AI
// agents, and all of them.
func (v *Visits) Views(q *Query) ViewsPage {
	r := v.report("views", q.From, q.To)
	rows, hasMore := r.page(q.Offset, q.Limit)
	return ViewsPage{Totals: r.totals, Views: rows, HasMore: hasMore}
}

// report returns the report for [from, to), from the cache when the data
// has not changed since it was computed.
func (v *Visits) report(kind string, from, to int64) *report {
	d, version := v.snapshot()
	defer v.mu.RUnlock()
	v.cacheMu.Lock()
	defer v.cacheMu.Unlock()
	for i, e := range v.cache {
		if e.kind == kind && e.from == from && e.to == to && e.version == version {
			copy(v.cache[1:i+1], v.cache[:i]) // most recent first
			v.cache[0] = e
			return e
		}
	}
	var totals rowCount
	var rows []rowCount
	if kind == "views" {
		totals, rows = countViews(d, from, to)
	} else {
		totals, rows = countVisitors(d, from, to)
	}
	// Highest total first; ties by path so that pages never overlap.
	slices.SortFunc(rows, func(a, b rowCount) int {
		if a.total != b.total {
			return int(b.total - a.total)
		}
		return strings.Compare(d.paths[a.path], d.paths[b.path])
	})
	e := encodeReport(kind, d, totals, rows)
	e.from, e.to, e.version = from, to, version
	v.cache = slices.DeleteFunc(v.cache, func(old *report) bool { return old.version != version })
	if len(v.cache) >= maxCachedReports {
		v.cache = v.cache[:maxCachedReports-1]
	}
	v.cache = slices.Insert(v.cache, 0, e)
	return e
}

// countViews counts visits per path and site-wide.
func countViews(d *visitData, from, to int64) (rowCount, []rowCount) {
	lo, hi := d.window(from, to)
	counts := make([]rowCount, len(d.paths))
	var totals rowCount
	for i := lo; i < hi; i++ {
		c := &counts[d.pathOf[i]]
		if d.who[i]&1 == 0 {
			c.human++
		} else {
			c.ai++
		}
		c.total++
	}
	rows := counts[:0]
	for p, c := range counts {
		if c.total > 0 {
			c.path = uint32(p)
			totals.human += c.human
			totals.ai += c.ai
			totals.total += c.total
			rows = append(rows, c)
		}
	}
	return totals, rows
}

// countVisitors counts distinct visitors per path and site-wide in linear
// time: visits in the window are bucketed by path (a counting sort), then
// each bucket is scanned with per-visitor stamps, so no set is ever built.
func countVisitors(d *visitData, from, to int64) (rowCount, []rowCount) {
	lo, hi := d.window(from, to)
	nPaths := len(d.paths)
	starts := make([]int32, nPaths+1)
	for i := lo; i < hi; i++ {
		starts[d.pathOf[i]+1]++
	}
	for p := 1; p <= nPaths; p++ {
		starts[p] += starts[p-1]
	}
	grouped := make([]uint32, hi-lo)
	next := slices.Clone(starts[:nPaths])
	for i := lo; i < hi; i++ {
		p := d.pathOf[i]
		grouped[next[p]] = d.who[i]
		next[p]++
	}

	nVisitors := len(d.visitorIDs)
	seenHuman := make([]uint32, nVisitors) // path+1 when seen as human on that path
	seenAI := make([]uint32, nVisitors)
	site := make([]uint8, nVisitors) // bit 0 human, bit 1 AI, anywhere in the window
	var rows []rowCount
	for p := range nPaths {
		stamp := uint32(p + 1)
		var row rowCount
		for _, w := range grouped[starts[p]:starts[p+1]] {
			v := w >> 1
			h, a := seenHuman[v] == stamp, seenAI[v] == stamp
			if w&1 == 0 {
				site[v] |= 1
				if !h {
					seenHuman[v] = stamp
					row.human++
				}
			} else {
				site[v] |= 2
				if !a {
					seenAI[v] = stamp
					row.ai++
				}
			}
			if !h && !a {
				row.total++
			}
		}
		if row.total > 0 {
			row.path = uint32(p)
			rows = append(rows, row)
		}
	}
	var totals rowCount
	for _, f := range site {
		totals.human += int32(f & 1)
		totals.ai += int32(f >> 1)
		if f != 0 {
			totals.total++
		}
	}
	return totals, rows
}

func encodeReport(kind string, d *visitData, totals rowCount, rows []rowCount) *report {
	e := &report{kind: kind, totals: Traffic{totals.human, totals.ai, totals.total}, rows: make([]PathTraffic, len(rows))}
	for i, r := range rows {
		e.rows[i] = PathTraffic{Path: d.paths[r.path], Traffic: Traffic{r.human, r.ai, r.total}}
	}
	return e
}

// page returns limit rows from offset, and hasMore exactly when rows
// remain after them.
func (e *report) page(offset, limit int) ([]PathTraffic, bool) {
	n := len(e.rows)
	first := min(offset, n)
	last := first + min(limit, n-first) // exclusive; no overflow for huge offsets
	return e.rows[first:last], last < n
}
