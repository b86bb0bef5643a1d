package mintlify

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/docsagent/mintlify-go/internal/redact"
)

// Sentinel errors, for use with errors.Is. Every *APIError matches exactly one
// of ErrBadRequest through ErrServer by its status code, and ErrOutcomeUnknown
// too when it answered a call that creates something (a job, a follow-up, a
// trigger, a static export) with 500, 502 or 504. ErrInvalidInput comes from
// the client itself, before any request.
var (
	// ErrInvalidInput reports input the API would reject, caught before any
	// request is sent.
	ErrInvalidInput = errors.New("mintlify: invalid input")
	// ErrBadRequest matches 400 and every other answer outside 2xx that no
	// other sentinel covers: 405, 409, 413, 422, ..., and a redirect, which
	// the API never sends and the default client does not follow.
	ErrBadRequest = errors.New("mintlify: bad request")
	// ErrUnauthorized matches 401: the key is missing, malformed or unknown.
	ErrUnauthorized = errors.New("mintlify: unauthorized")
	// ErrForbidden matches 403: the key does not give access to the project.
	ErrForbidden = errors.New("mintlify: forbidden")
	// ErrNotFound matches 404.
	ErrNotFound = errors.New("mintlify: not found")
	// ErrRateLimited matches 429. The *APIError's RetryAfter says how long
	// the server asked to wait.
	ErrRateLimited = errors.New("mintlify: rate limited")
	// ErrServer matches any 5xx answer.
	ErrServer = errors.New("mintlify: server error")
	// ErrOutcomeUnknown reports a call that creates something (CreateJob,
	// SendMessage, the triggers, StartStaticExport) whose request may have
	// reached the server but whose answer was lost (a reset connection, a
	// timeout, a truncated or malformed body) or was a 1xx, 500, 502 or
	// 504. The server may or may not have acted, so the SDK never retries
	// it by itself: a blind retry could start a second job. An error
	// before any byte of the request was sent is never ErrOutcomeUnknown.
	ErrOutcomeUnknown = errors.New("mintlify: outcome unknown, the server may have acted")
	// ErrMalformedResponse reports a 2xx answer that is not the documented
	// object: not JSON, a required field missing or null, a value of the
	// wrong type, another status code than documented, an answer about
	// another resource than the one asked for. A GET is retried on it; for
	// a POST it comes with ErrOutcomeUnknown.
	ErrMalformedResponse = errors.New("mintlify: malformed response")
)

// APIError is the error for every answer outside 2xx. Use errors.Is with the
// sentinels for the class of failure and errors.As for the fields.
type APIError struct {
	StatusCode int
	Message    string        // the body's "error" (the assistant API's "message"), or a snippet of a non-JSON body
	Details    []string      // the body's details[].message
	RetryAfter time.Duration // from Retry-After, 0 if absent
	RequestID  string        // from a request-id header, if any

	outcomeUnknown bool // a POST answered 500, 502 or 504: the server may have acted
}

// Error reads "mintlify: HTTP <status>: <message> (<details>)", then the
// wait the server asked for and its request ID when present: everything a
// support ticket needs, in one line.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mintlify: HTTP %d", e.StatusCode)
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if len(e.Details) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(e.Details, "; "))
		b.WriteString(")")
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, ", retry after %s", e.RetryAfter)
	}
	if e.RequestID != "" {
		b.WriteString(", request ID ")
		b.WriteString(e.RequestID)
	}
	if e.outcomeUnknown {
		b.WriteString(" (the server may have acted)")
	}
	return b.String()
}

// Is makes errors.Is(err, ErrNotFound) and its siblings work by status
// class. A 500, 502 or 504 answering a call that creates something (every
// POST but BundleStaticExport, which only mints a link) also matches
// ErrOutcomeUnknown, because it can follow a request the API acted on.
func (e *APIError) Is(target error) bool {
	if target == ErrOutcomeUnknown {
		return e.outcomeUnknown
	}
	return target != nil && target == sentinelFor(e.StatusCode)
}

func sentinelFor(status int) error {
	switch {
	case status == http.StatusUnauthorized:
		return ErrUnauthorized
	case status == http.StatusForbidden:
		return ErrForbidden
	case status == http.StatusNotFound:
		return ErrNotFound
	case status == http.StatusTooManyRequests:
		return ErrRateLimited
	case status >= 500 && status <= 599:
		return ErrServer
	case status >= 200 && status <= 299:
		return nil
	}
	return ErrBadRequest
}

// invalidf builds an ErrInvalidInput error. Callers must never pass the key.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidInput}, args...)...)
}

// answerText quotes a short text for an error, from an answer or the
// caller's input, and only describes a long one: the error stays one
// readable line, and a value cut short could end in a piece of the key
// that a proxy echoed, too short for the client's scrubber to know it.
func answerText(s string) string {
	const limit = 64
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("a value of %d bytes", len(s))
}

const (
	maxErrorBody    = 64 << 10 // read at most this much of an error body
	maxSnippetRunes = 200      // of a non-JSON body (an HTML page, say)
	maxMessageRunes = 1000     // of a message or detail from a JSON body
	maxIDRunes      = 128      // of a request ID
)

// newAPIError reads (a bounded part of) body, resp's. The key is scrubbed
// from everything kept, because some proxies echo request headers in error
// pages.
func newAPIError(resp *http.Response, r io.Reader, scrub redact.Scrubber) *APIError {
	e := &APIError{
		StatusCode: resp.StatusCode,
		RequestID:  safeText(requestID(resp.Header), scrub, maxIDRunes, false),
	}
	body, _ := io.ReadAll(io.LimitReader(r, maxErrorBody))

	var wire struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Details []struct {
			Message string `json:"message"`
		} `json:"details"`
	}
	if json.Unmarshal(body, &wire) == nil && (wire.Error != nil || wire.Message != "") {
		e.Message = safeText(wireMessage(wire.Error, wire.Message), scrub, maxMessageRunes, false)
		for _, d := range wire.Details {
			e.Details = append(e.Details, safeText(d.Message, scrub, maxMessageRunes, false))
		}
	} else {
		e.Message = safeText(string(body), scrub, maxSnippetRunes, true)
	}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	return e
}

// wireMessage accepts "error" as a string or as an object with a message, the
// two shapes seen in front of APIs like this one.
func wireMessage(raw json.RawMessage, fallback string) string {
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	return fallback
}

// safeText makes server-sent text fit for an error string: the key scrubbed
// (before cutting, so that no whole copy is cut in two), then one printable
// line of at most limit runes: runs of white space, control characters and
// invalid UTF-8 become one space, and markup too when stripTags is set. A
// text cut short loses a tail that starts the key.
func safeText(s string, scrub redact.Scrubber, limit int, stripTags bool) string {
	line, _ := safeLine(s, scrub, limit, stripTags)
	return line
}

// safeLine is safeText that also reports whether it cut s short, for a
// caller that marks the cut.
func safeLine(s string, scrub redact.Scrubber, limit int, stripTags bool) (string, bool) {
	line, cut := oneLine(scrub(s, false), limit, stripTags)
	return scrub(line, cut), cut
}

// oneLine also reports whether it cut s short: whether anything shown is
// left after the limit (white space and control characters are not).
func oneLine(s string, limit int, stripTags bool) (string, bool) {
	var b strings.Builder
	inTag, space, n := false, false, 0
	for len(s) > 0 && n < limit {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch {
		case stripTags && r == '<':
			inTag = true
		case inTag && r == '>':
			inTag, space = false, true
		case inTag:
		case unshown(r):
			space = true
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
				n++
			}
			space = false
			b.WriteRune(r)
			n++
		}
	}
	return b.String(), strings.TrimLeftFunc(s, unshown) != ""
}

// unshown is a rune oneLine shows as (part of) one space, or not at all.
func unshown(r rune) bool { return r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) }

// opError adds what the SDK was doing to an error, with the package prefix
// once: "mintlify: polling job "x": HTTP 404 ...".
type opError struct {
	op  string
	err error
}

func (e *opError) Error() string { return "mintlify: " + e.op + ": " + trimPrefix(e.err.Error()) }
func (e *opError) Unwrap() error { return e.err }

func wrapOp(op string, err error) error { return &opError{op: op, err: err} }

// unprefixed shows err without the package prefix, for a second error in
// one message.
type unprefixed struct{ err error }

func (u unprefixed) Error() string { return trimPrefix(u.err.Error()) }
func (u unprefixed) Unwrap() error { return u.err }

func trimPrefix(s string) string { return strings.TrimPrefix(s, "mintlify: ") }

func requestID(h http.Header) string {
	for _, name := range [...]string{"X-Request-Id", "Request-Id", "X-Amzn-Requestid"} {
		if v := h.Get(name); v != "" {
			return v
		}
	}
	return ""
}
