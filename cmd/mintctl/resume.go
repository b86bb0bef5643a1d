package main

import (
	"errors"
	"strconv"

	mintlify "github.com/docsagent/mintlify-go"
)

// resumePoint returns the flags that continue a stopped export from where
// the SDK's walk says it stopped: every row before that point was written.
func resumePoint(r analyticsRoute, err error) ([]string, bool) {
	var we *mintlify.WalkError
	if !errors.As(err, &we) {
		return nil, false
	}
	switch r.paging {
	case offsetPaging:
		return []string{"--offset", strconv.Itoa(we.Offset)}, true
	case cursorPaging:
		return []string{"--cursor", we.Cursor}, true
	}
	return nil, false
}
