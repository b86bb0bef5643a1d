package mockserver

import (
	"net/http"
	"slices"
	"strings"
)

// export is the visitors report for one date window, computed once and
// then served page by page: rows are pre-encoded as JSON and stored
// back to back, so a page is one contiguous slice of bytes.
type export struct {
	from, to int64
	version  uint64
	head     []byte  // {"totals":{...},"visitors":[
	rows     []byte  // encoded rows joined by commas
	ends     []int32 // ends[i]: offset just past row i in rows
}

type rowCount struct {
	path             uint32
	human, ai, total int32
}

// maxCachedExports bounds the cache per project; tests rarely use more
// than a few windows at once.
const maxCachedExports = 8

// export returns the report for [from, to), from the cache when the data
// has not changed since it was computed.
func (v *visitStore) export(from, to int64) *export {
	d, version := v.snapshot()
	defer v.mu.RUnlock()
	v.cacheMu.Lock()
	defer v.cacheMu.Unlock()
	for i, e := range v.cache {
		if e.from == from && e.to == to && e.version == version {
			copy(v.cache[1:i+1], v.cache[:i]) // most recent first
			v.cache[0] = e
			return e
		}
	}
	e := computeExport(d, from, to)
	e.version = version
	v.cache = slices.DeleteFunc(v.cache, func(old *export) bool { return old.version != version })
	if len(v.cache) >= maxCachedExports {
		v.cache = v.cache[:maxCachedExports-1]
	}
	v.cache = slices.Insert(v.cache, 0, e)
	return e
}

// computeExport counts distinct visitors per path and site-wide in linear
// time: visits in the window are bucketed by path (a counting sort), then
// each bucket is scanned with per-visitor stamps, so no set is ever built.
func computeExport(d *visitData, from, to int64) *export {
	lo, _ := slices.BinarySearch(d.at, from)
	hi, _ := slices.BinarySearch(d.at, to)
	hi = max(hi, lo)
	// BinarySearch finds the first index >= target: [lo, hi) is the window.

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

	// Most visited first; ties by path so that pages never overlap.
	slices.SortFunc(rows, func(a, b rowCount) int {
		if a.total != b.total {
			return int(b.total - a.total)
		}
		return strings.Compare(d.paths[a.path], d.paths[b.path])
	})
	return encodeExport(d, from, to, totals, rows)
}

func encodeExport(d *visitData, from, to int64, totals rowCount, rows []rowCount) *export {
	e := &export{from: from, to: to, ends: make([]int32, len(rows))}
	e.head = append(e.head, `{"totals":{"human":`...)
	e.head = appendInt(e.head, int(totals.human))
	e.head = append(e.head, `,"ai":`...)
	e.head = appendInt(e.head, int(totals.ai))
	e.head = append(e.head, `,"total":`...)
	e.head = appendInt(e.head, int(totals.total))
	e.head = append(e.head, `},"visitors":[`...)

	b := make([]byte, 0, len(rows)*64)
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = appendJSONString(b, d.paths[r.path])
		b = append(b, `,"human":`...)
		b = appendInt(b, int(r.human))
		b = append(b, `,"ai":`...)
		b = appendInt(b, int(r.ai))
		b = append(b, `,"total":`...)
		b = appendInt(b, int(r.total))
		b = append(b, '}')
		e.ends[i] = int32(len(b))
	}
	e.rows = b
	return e
}

// page answers one request: limit rows from offset, and hasMore exactly
// when rows remain after them.
func (e *export) page(offset, limit int) reply {
	n := len(e.ends)
	first := min(offset, n)
	last := first + min(limit, n-first) // exclusive; no overflow for huge offsets
	buf := getBuf()
	b := append(*buf, e.head...)
	if first < last {
		start := 0
		if first > 0 {
			start = int(e.ends[first-1]) + 1 // skip the separating comma
		}
		b = append(b, e.rows[start:e.ends[last-1]]...)
	}
	if last < n {
		b = append(b, `],"hasMore":true}`...)
	} else {
		b = append(b, `],"hasMore":false}`...)
	}
	*buf = b
	return reply{status: http.StatusOK, body: b, buf: buf}
}

func (s *Server) visitors(c *call) reply {
	q, problems := parseVisitorsQuery(c.r.URL.RawQuery)
	if len(problems) > 0 {
		return errorReply(http.StatusBadRequest, "Invalid query parameters", problems...)
	}
	return c.project.visits.export(q.from, q.to).page(q.offset, q.limit)
}
