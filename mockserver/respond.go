package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/docsagent/mintlify-go/mockserver/internal/index"
	"github.com/docsagent/mintlify-go/mockserver/internal/journal"
)

// reply is what an endpoint produces. Endpoints return it instead of writing
// to the connection so that the fault layer can decide afterwards how (or
// whether) the client gets to see it.
type reply struct {
	status     int
	body       []byte
	retryAfter string // the Retry-After header ("0" is a valid value); "" sends none
	html       bool   // body is text/html rather than JSON

	// An error's message and details, which restyle writes again in the
	// body of the assistant or Index API; "" for other replies.
	message string
	details []string

	// stream, when set, is the answer (a message's frames) that deliver
	// writes frame by frame instead of body.
	stream *stream
}

// Shared header values: assigning a ready slice skips canonicalisation and
// an allocation on every response.
var (
	jsonContentType = []string{"application/json"}
	htmlContentType = []string{"text/html; charset=utf-8"}
	versionValue    = []string{Version}
)

// errorReply builds the service's error body:
// {"error": "...", "details": [{"message": "..."}]}. Every error the mock
// answers goes through here so the format cannot drift between endpoints.
func errorReply(status int, message string, details ...string) reply {
	body := errorBody{Error: message}
	for _, d := range details {
		body.Details = append(body.Details, errorDetail{journal.Clip(journal.AnyKey(d), maxDetail)})
	}
	return reply{status: status, body: mustJSON(body), message: message, details: details}
}

// errorBody is the admin API's error.
type errorBody struct {
	Error   string        `json:"error"`
	Details []errorDetail `json:"details,omitempty"`
}

type errorDetail struct {
	Message string `json:"message"`
}

// restyle writes an error reply again in the body of the route's API: the
// assistant API's {"message": "..."} (message and details in one text),
// the Index API's {"error": "..."} and nothing else (its schema allows no
// other member; the text is the vendor's for the statuses it documents).
// Admin-API replies and successes pass unchanged.
func restyle(api apiKind, rep reply) reply {
	if api == adminAPI || rep.message == "" {
		return rep
	}
	var body any
	switch api {
	case assistantAPI:
		text := rep.message
		if len(rep.details) > 0 {
			text += ": " + strings.Join(rep.details, "; ")
		}
		body = struct {
			Message string `json:"message"`
		}{journal.Clip(journal.AnyKey(text), maxDetail)}
	case indexAPI:
		body = struct {
			Error string `json:"error"`
		}{indexMessage(rep.status, rep.message)}
	}
	return reply{status: rep.status, body: mustJSON(body), retryAfter: rep.retryAfter}
}

// indexMessage is the Index API's text for an error: the vendor's own for
// the statuses it documents, else the mock's message (which echoes nothing
// the client sent).
func indexMessage(status int, message string) string {
	switch status {
	case http.StatusUnauthorized:
		return index.MsgUnauthorized
	case http.StatusForbidden:
		return index.MsgIPNotAllowed
	case http.StatusTooManyRequests:
		return index.MsgRateLimited
	case http.StatusInternalServerError:
		return index.MsgInternal
	}
	return message
}

// A hostile or careless client puts its key where no key belongs: in the
// query string, in the path, as the method, as the scheme of its
// Authorization header. The journal, the logs and the error details repeat
// what the client sent, so all of them pass through journal.AnyKey first;
// and they repeat at most maxEcho bytes of any one value, so a megabyte
// path is not sent back as a megabyte of error.

// maxEcho bounds how much of a client's own value an error detail repeats.
const maxEcho = 128

// maxDetail bounds one error detail, whatever it holds.
const maxDetail = 1024

// clipDetail shortens a client's value for an error detail, cutting on a
// rune boundary and saying how much was left out.
func clipDetail(s string) string { return journal.Clip(s, maxEcho) }

func jsonReply(status int, body []byte) reply { return reply{status: status, body: body} }

// mustJSON encodes values that cannot fail to encode (maps of strings,
// plain structs).
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
