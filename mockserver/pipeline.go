package mockserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/access"
	"github.com/docsagent/mintlify-go/mockserver/internal/journal"
	"github.com/docsagent/mintlify-go/mockserver/internal/ratelimit"
	"github.com/docsagent/mintlify-go/mockserver/internal/reqbody"
)

// call carries one authorised API request to its endpoint.
type call struct {
	w       http.ResponseWriter
	r       *http.Request
	project *project
	org     *access.Organization // the key's
	now     time.Time
	forced  Outcome // OutcomeHeader's outcome, on the routes that read it; "" if none
}

// serve is the one path every API request takes: fault choice, auth, rate
// limit, endpoint, journal, delivery. Keeping it in one place is what makes
// the journal trustworthy: an entry says exactly what the client was sent.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, rt *route) {
	started := time.Now()
	e := journal.Entry{
		Method:    r.Method,
		Path:      r.URL.Path,
		Query:     r.URL.RawQuery,
		Route:     rt.name,
		RequestID: "req_" + strconv.FormatUint(s.requestSeq.Add(1), 10),
		Auth:      journal.Authorization(r.Header["Authorization"]),
	}
	w.Header()[RequestIDHeader] = []string{e.RequestID}
	api := apiOf(rt, r.URL.Path)
	if api == assistantAPI {
		allowAnyOrigin(w.Header())
	}

	o, rep, ok := s.readOverrides(r, rt)
	f := o.fault
	e.Fault = string(f.Kind) // "" when no fault strikes
	if ok && f.Kind == FaultLatency {
		bufferBody(r)
		if !sleep(r.Context(), s.ctx, f.Delay) {
			// The client left or the server is closing: drop the request
			// unanswered and unprocessed, as a dying server would.
			e.Time = s.Now()
			s.record(&e, started)
			closeConn(w, r, false)
			return
		}
	}
	e.Time = s.Now()
	switch {
	case !ok: // a bad override header; rep explains
	case f.Kind == FaultClose:
		s.record(&e, started)
		closeConn(w, r, false)
		return
	case f.Kind == FaultStatus && !f.AfterProcessing:
		rep = injectedStatus(f)
	default:
		rep = s.process(w, r, rt, e.Time, o.outcome)
		e.Processed, e.EndpointStatus = true, rep.status
		switch f.Kind {
		case FaultStatus: // AfterProcessing: the client gets the fault, the journal keeps both
			rep = injectedStatus(f)
		case FaultStatusValue:
			rep = withStatusValue(rep, f.Value)
		}
	}
	rep = restyle(api, rep) // every error in the body of the route's API
	e.Status = rep.status
	s.record(&e, started)
	s.deliver(w, r, rep, f)
}

func (s *Server) process(w http.ResponseWriter, r *http.Request, rt *route, now time.Time, forced Outcome) reply {
	if rt == unmatched {
		return s.notFound(r)
	}
	key, rep, ok := s.authorizeFor(rt, r)
	if !ok {
		return rep
	}
	c := &call{w: w, r: r, project: s.projects[r.PathValue("projectId")], org: key.Org, now: now, forced: forced}
	if rep, ok := s.admit(rt.outer, c); !ok {
		return rep
	}
	if rep, ok := s.admit(rt.limit, c); !ok {
		s.giveBack(rt.outer, c) // refused: the longer window keeps its slot
		return rep
	}
	return rt.handle(s, c)
}

// giveBack returns the slot c took of a limit kind that admitted it.
func (s *Server) giveBack(kind ratelimit.Kind, c *call) {
	if kind != noLimit {
		s.limiter.GiveBack(kind, limits[kind].bucket(c), c.now)
	}
}

// authorizeFor checks the key the route's API takes: the assistant and
// Index routes have their own (assistant.go, index.go).
func (s *Server) authorizeFor(rt *route, r *http.Request) (*access.Key, reply, bool) {
	switch rt.api {
	case assistantAPI:
		return s.authorizeAssistant(r)
	case indexAPI:
		return s.authorizeIndex(r)
	}
	return s.authorize(r, r.PathValue("projectId"))
}

// keyPrefix marks the service's admin keys; any other key is refused before
// it is even looked up.
const keyPrefix = access.KeyPrefix

// authorize checks the Bearer key and that it owns projectID. A key that
// does not own the project gets the same 403 whether the project exists or
// not, so the answer never reveals other customers' project IDs.
func (s *Server) authorize(r *http.Request, projectID string) (*access.Key, reply, bool) {
	token, rep, ok := bearer(r, "admin key")
	if !ok {
		return nil, rep, false
	}
	if !strings.HasPrefix(token, keyPrefix) {
		return nil, unauthorized("the API key is not an admin key (admin keys start with " + keyPrefix + ")"), false
	}
	if kind := access.KindOf(token); kind != access.KindAdmin {
		return nil, unauthorized("the API key is an " + kind.String() + " key; these routes take an admin key"), false
	}
	k := s.orgs.Lookup(token)
	if k == nil {
		return nil, unauthorized("invalid API key"), false
	}
	if rep, ok := s.checkKey(k, r, "Forbidden"); !ok {
		return nil, rep, false
	}
	// Routes without a project (deployment status, static export) act
	// within the key's organization.
	if projectID != "" && !k.Org.Owns(projectID) {
		return nil, errorReply(http.StatusForbidden, "Forbidden", "this API key has no access to the requested project"), false
	}
	return k, reply{}, true
}

// checkKey applies a known key's own restrictions, the same for every
// kind of key: an expired key is 401; a request from outside its
// allowlist, or with a method beyond its scopes, is 403 with the message
// the key's API gives (forbidden).
func (s *Server) checkKey(k *access.Key, r *http.Request, forbidden string) (reply, bool) {
	switch denial, detail := k.Check(r.Method, r.RemoteAddr, s.Now()); denial {
	case access.Expired:
		return unauthorized(detail), false
	case access.NotFromHere, access.NoScope:
		return errorReply(http.StatusForbidden, forbidden, detail), false
	}
	return reply{}, true
}

// bearer reads the one Bearer token of r; what names the key the route
// wants, for the 401's hint.
func bearer(r *http.Request, what string) (string, reply, bool) {
	values := r.Header["Authorization"]
	if len(values) == 0 || values[0] == "" {
		return "", unauthorized("missing Authorization header; send \"Authorization: Bearer <" + what + ">\""), false
	}
	if len(values) > 1 {
		// Which one counts is up to each server and proxy on the way: a
		// request that two of them read differently must not pass.
		return "", errorReply(http.StatusBadRequest, "Invalid Authorization header", "send exactly one Authorization header"), false
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", unauthorized("the Authorization header must use the Bearer scheme"), false
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", unauthorized("the Bearer token is empty"), false
	}
	return token, reply{}, true
}

// bearerChallenge is sent with every 401.
var bearerChallenge = []string{"Bearer"}

func unauthorized(detail string) reply {
	return errorReply(http.StatusUnauthorized, "Unauthorized", detail)
}

// admit applies the endpoint's limit (see limits in routes.go). A request
// uses its slot once admitted, whatever its answer turns out to be.
func (s *Server) admit(kind ratelimit.Kind, c *call) (reply, bool) {
	if kind == noLimit {
		return reply{}, true
	}
	k := &limits[kind]
	lim := s.cfg.limits[kind]
	if lim.N <= 0 || lim.Per <= 0 {
		return reply{}, true
	}
	what := k.what
	wait, ok := s.limiter.Take(kind, k.bucket(c), c.now, lim)
	if ok {
		return reply{}, true
	}
	secs := ratelimit.RetryAfterSeconds(wait)
	rep := errorReply(http.StatusTooManyRequests, "Rate limit exceeded",
		fmt.Sprintf("at most %d %s every %s; retry in %d seconds", lim.N, what, lim.Per, secs))
	rep.retryAfter = strconv.Itoa(secs)
	return rep, false
}

func (s *Server) notFound(r *http.Request) reply {
	hint := closestRoute(apiRoutes, r.Method, r.URL.Path)
	return errorReply(http.StatusNotFound, "Not found",
		"no route for "+clipDetail(r.Method)+" "+clipDetail(r.URL.Path),
		"closest route: "+hint.pattern)
}

func (s *Server) record(e *journal.Entry, started time.Time) {
	e.Duration = time.Since(started)
	s.journal.Add(e) // clips, and redacts every key the client put anywhere
	if s.cfg.logger != nil {
		s.logRequest(e)
	}
}

// JournalEntry records one API request as the server saw and answered it.
// It never holds the API key, so a journal can be printed in test output.
// Control-API requests are not journaled, so counts reflect only what the
// client under test did.
//
// Processed and EndpointStatus let a test prove whether the server acted:
// Processed is false when a fault answered or dropped the request before the
// endpoint ran (close, status without AfterProcessing, a client that left
// during a latency delay, an invalid FaultHeader); EndpointStatus is what
// the endpoint answered (201: the job was created), whatever the client got.
// Status is the status sent to the client: for a status fault the injected
// one, so under AfterProcessing it differs from EndpointStatus (504 and
// 201); for reset, the endpoint's status that the reset kept from the
// client; 0 when no response was produced.
type JournalEntry = journal.Entry

// Journal returns the recorded API requests, oldest first: at most the
// journal size (see WithJournalSize) and 16 MB, with paths and queries cut
// to 2 KB each. Use it to count calls and retries.
func (s *Server) Journal() []JournalEntry { return s.journal.Snapshot() }

// ClearJournal forgets the recorded requests, typically after test setup so
// that later counts cover only the code under test.
func (s *Server) ClearJournal() { s.journal.Clear() }

func (s *Server) logRequest(e *journal.Entry) {
	attrs := []slog.Attr{
		slog.String("method", e.Method),
		slog.String("path", e.Path),
		slog.Int("status", e.Status),
		slog.String("route", e.Route),
		slog.String("request_id", e.RequestID),
		slog.Duration("duration", e.Duration),
	}
	if e.Query != "" {
		attrs = append(attrs, slog.String("query", e.Query))
	}
	if e.Auth != "" {
		attrs = append(attrs, slog.String("auth", e.Auth))
	}
	if e.Fault != "" {
		attrs = append(attrs, slog.String("fault", e.Fault), slog.Bool("processed", e.Processed))
		if e.EndpointStatus != 0 && e.EndpointStatus != e.Status {
			attrs = append(attrs, slog.Int("endpoint_status", e.EndpointStatus))
		}
	}
	s.cfg.logger.LogAttrs(context.Background(), slog.LevelInfo, "request", attrs...)
}

func writeReply(w http.ResponseWriter, rep reply) {
	setHeaders(w, rep)
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body) // a client that hung up is not our error
}

func setHeaders(w http.ResponseWriter, rep reply) {
	h := w.Header()
	if rep.html {
		h["Content-Type"] = htmlContentType
	} else {
		h["Content-Type"] = jsonContentType
	}
	h["Content-Length"] = []string{strconv.Itoa(len(rep.body))}
	if rep.retryAfter != "" {
		h["Retry-After"] = []string{rep.retryAfter}
	}
	if rep.status == http.StatusUnauthorized {
		h["Www-Authenticate"] = bearerChallenge // RFC 6750: say which scheme works
	}
}

// bufferBody reads the request body into memory and puts an identical
// stream back for the endpoint. net/http watches the connection (and
// cancels r.Context() when the client goes) only once the handler has read
// the body to its end, so without this a POST under an injected delay would
// sit out the whole delay and then be processed for a client long gone.
// A body declared over the limit is left alone: the endpoint refuses it
// unread. The read stops one byte past the limit, as MaxBytesReader does.
func bufferBody(r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength > maxBodyBytes {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	var rest io.Reader = r.Body // what is left past the limit, if anything
	if err != nil {
		rest = errReader{err} // the endpoint sees the same failure
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), rest), r.Body}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// sleep waits d unless the request or the server ends first; it reports
// whether the full wait happened. Injected delays must never outlive Close.
func sleep(req, server context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-req.Done():
		return false
	case <-server.Done():
		return false
	}
}

// maxBodyBytes is the largest request body accepted; larger ones are
// refused without being read whole.
const maxBodyBytes = 1 << 20

// readBody reads a JSON object body into v, bounded like every API body:
// through http.MaxBytesReader, so an oversized body costs at most the
// limit. whenEmpty, if set, is the detail for an empty body.
func readBody(c *call, v any, whenEmpty string) (reply, bool) {
	body, rep, ok := readObject(c, whenEmpty)
	if !ok {
		return rep, false
	}
	// Keys as the schema spells them; others are ignored, as the service
	// ignores them.
	if err := reqbody.Decode(body, v); err != nil {
		return invalidBody(bodyProblem(err)), false
	}
	return reply{}, true
}

// readObject reads a body that must be a JSON object, bounded like every
// API body (through http.MaxBytesReader, so an oversized body costs at
// most the limit), and returns it undecoded.
func readObject(c *call, whenEmpty string) ([]byte, reply, bool) {
	if c.r.ContentLength > maxBodyBytes {
		return nil, tooLarge(), false
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, maxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, tooLarge(), false
		}
		return nil, invalidBody("the request body could not be read: " + err.Error()), false
	}
	if len(body) == 0 && whenEmpty != "" {
		return nil, invalidBody(whenEmpty), false
	}
	if trimmed := bytes.TrimSpace(body); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, invalidBody("the request body must be a JSON object"), false
	}
	return body, reply{}, true
}

// bodyProblem is the detail for a body reqbody refused: a key the client
// sent is echoed only in part. Too many items is a bound of the schema's
// kind (maxItems): a 400 like the others, where a control body's is a 413
// decided before this.
func bodyProblem(err error) string {
	var ke *reqbody.KeyError
	var tooMany *reqbody.ItemsError
	switch {
	case errors.As(err, &ke):
		return ke.Path + clipDetail(ke.Key) + ": " + ke.Problem
	case errors.As(err, &tooMany):
		return fmt.Sprintf("%s: at most %d items", clipDetail(tooMany.Path), tooMany.Max)
	}
	return err.Error()
}

func invalidBody(detail string) reply {
	return errorReply(http.StatusBadRequest, "Invalid request body", detail)
}

func tooLarge() reply {
	return errorReply(http.StatusRequestEntityTooLarge, "Request body too large",
		"the limit is "+strconv.Itoa(maxBodyBytes)+" bytes")
}
