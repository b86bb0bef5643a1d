package analytics

// Error is a refused request: what was not found, or else an invalid
// request, and the problems, one detail each, so a client fixes everything
// in one round. The server answers NotFound with 404, the rest with 400.
type Error struct {
	NotFound bool
	Message  string
	Details  []string
}

// Error is the message and the first detail, for logs and Go callers.
func (e *Error) Error() string {
	if len(e.Details) > 0 {
		return e.Message + ": " + e.Details[0]
	}
	return e.Message
}

func invalidQuery(problems ...string) *Error {
	return &Error{Message: "Invalid query parameters", Details: problems}
}
