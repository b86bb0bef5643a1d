package analytics

import "net/http"

// Error is a refused request: the status to answer and the problems, one
// detail each, so a client fixes everything in one round.
type Error struct {
	Status  int
	Message string
	Details []string
}

// Error is the message and the first detail, for logs and Go callers.
func (e *Error) Error() string {
	if len(e.Details) > 0 {
		return e.Message + ": " + e.Details[0]
	}
	return e.Message
}

func invalidQuery(problems ...string) *Error {
	return &Error{Status: http.StatusBadRequest, Message: "Invalid query parameters", Details: problems}
}
