package main

import "strconv"

// resumePoint returns the flags that continue an export stopped after rows
// rows. For an offset route that is the start plus the rows received: after
// a repeat the SDK dropped it is a little early, so the rest may repeat a
// row but never skips one.
func resumePoint(r analyticsRoute, p exportParams, rows int, err error) ([]string, bool) {
	switch r.paging {
	case offsetPaging:
		return []string{"--offset", strconv.Itoa(p.offset + rows)}, true
	}
	return nil, false
}
