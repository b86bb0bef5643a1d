package analytics

import (
	"slices"
	"strings"
)

// report is a per-path export (visitors or views) for one date window,
// computed once and then served page by page: rows are pre-encoded as JSON
// and stored back to back, so a page is one contiguous slice of bytes.
type report struct {
	kind     string // "visitors" or "views": the rows' key
	from, to int64
	version  uint64
	head     []byte  // {"totals":{...},"<kind>":[
	rows     []byte  // encoded rows joined by commas
	ends     []int32 // ends[i]: offset just past row i in rows
}

type rowCount struct {
	path             uint32
	human, ai, total int32
}

// maxCachedReports bounds the cache per project; tests rarely use more
// than a few windows at once.
const maxCachedReports = 8

// Visitors appends the visitors page for q to dst: per path, distinct
// visitors seen as human, as AI, and either (each visitor once).
func (v *Visits) Visitors(dst []byte, q *Query) []byte {
	return v.report("visitors", q.From, q.To).page(dst, q.Offset, q.Limit)
}

// Views appends the views page for q to dst: per path, visits by humans, by
// AI agents, and all of them.
func (v *Visits) Views(dst []byte, q *Query) []byte {
	return v.report("views", q.From, q.To).page(dst, q.Offset, q.Limit)
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
	e := &report{kind: kind, ends: make([]int32, len(rows))}
	e.head = append(e.head, `{"totals":{"human":`...)
	e.head = AppendInt(e.head, int(totals.human))
	e.head = append(e.head, `,"ai":`...)
	e.head = AppendInt(e.head, int(totals.ai))
	e.head = append(e.head, `,"total":`...)
	e.head = AppendInt(e.head, int(totals.total))
	e.head = append(e.head, `},"`...)
	e.head = append(e.head, kind...)
	e.head = append(e.head, `":[`...)

	b := make([]byte, 0, len(rows)*64)
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = AppendString(b, d.paths[r.path])
		b = append(b, `,"human":`...)
		b = AppendInt(b, int(r.human))
		b = append(b, `,"ai":`...)
		b = AppendInt(b, int(r.ai))
		b = append(b, `,"total":`...)
		b = AppendInt(b, int(r.total))
		b = append(b, '}')
		e.ends[i] = int32(len(b))
	}
	e.rows = b
	return e
}

// page appends limit rows from offset, and hasMore exactly when rows remain
// after them.
func (e *report) page(b []byte, offset, limit int) []byte {
	n := len(e.ends)
	first := min(offset, n)
	last := first + min(limit, n-first) // exclusive; no overflow for huge offsets
	b = append(b, e.head...)
	if first < last {
		start := 0
		if first > 0 {
			start = int(e.ends[first-1]) + 1 // skip the separating comma
		}
		b = append(b, e.rows[start:e.ends[last-1]]...)
	}
	if last < n {
		return append(b, `],"hasMore":true}`...)
	}
	return append(b, `],"hasMore":false}`...)
}
