package assistant

import (
	"fmt"
	"strings"
)

// Error is a refused request: the HTTP status to answer and the message of
// the discovery API's error body, {"message": Message}.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Message) }

// The statuses this package answers with; numbers rather than net/http's
// names keep the package free of HTTP.
const (
	statusBadRequest = 400
	statusNotFound   = 404
	statusInternal   = 500
)

// maxProblems bounds the problems one error lists: a client fixes them all
// in one round, but a body of 10,000 bad items does not make a 1 MB error.
const maxProblems = 10

// problems collects what is wrong with a request: the first maxProblems
// written out, the rest only counted (a body of 10,000 bad items once
// formatted 10,000 texts to send ten).
type problems struct {
	list []string
	more int
}

func (p *problems) add(format string, args ...any) {
	if len(p.list) == maxProblems {
		p.more++
		return
	}
	p.list = append(p.list, fmt.Sprintf(format, args...))
}

// err is nil when nothing was wrong, else a 400 listing the problems.
func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	list := p.list
	if p.more > 0 {
		list = append(list, fmt.Sprintf("and %d more problems", p.more))
	}
	return &Error{Status: statusBadRequest, Message: strings.Join(list, "; ")}
}

func notFound(what string) *Error {
	return &Error{Status: statusNotFound, Message: what + " not found"}
}
