package index

// The Index API's error bodies are {"error": message} and nothing else (its
// Error schema allows no other member), so an Error's Detail is for the
// mock's journal and logs only: the wire layer must not add it to the body.

// Status codes the package answers with. No net/http here: the state and
// rules of an area know nothing of the wire.
const (
	StatusBadRequest = 400
)

// The vendor's error texts, one per status it documents. The wire layer
// uses the last four for authentication, IP allowlists, rate limits and
// failures; this package only ever answers the first two.
const (
	MsgInvalidBody  = "Invalid request body"
	MsgTooManyItems = "A request may reference at most 20 items across urls and ids"
	MsgUnauthorized = "Unauthorized"
	MsgIPNotAllowed = "IP address is not allowed for this API key"
	MsgRateLimited  = "Rate limit exceeded. Please try again later"
	MsgInternal     = "Internal server error" // the vendor gives no text for a 500
)

// Error is a refused request.
type Error struct {
	Status  int    // the HTTP status to answer
	Message string // the body's "error" text, worded as the vendor does
	Detail  string // which rule failed, for logs; never sent
}

// Error is the message and the detail, for logs and Go callers.
func (e *Error) Error() string {
	if e.Detail == "" {
		return e.Message
	}
	return e.Message + ": " + e.Detail
}

func invalid(detail string) *Error {
	return &Error{Status: StatusBadRequest, Message: MsgInvalidBody, Detail: detail}
}
