package mintlify

// The one request path every call goes through, in the order a call meets
// it: the request an endpoint describes; Client.do, which builds it, runs
// the attempts through go-retryablehttp and maps the final answer; the
// retry layers and policies (which methods, statuses and errors are
// retried, and the no-duplicate rule for calls that create something);
// backoff and Retry-After; reading the answer; the errors of a call with no
// usable answer; and Client.Do, any path through the same machinery. Every
// rule of a call is a field of its request or a function here, never a
// context value.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// request describes one API call for send. Endpoints are a few lines on
// top of it: validate the input, build a request, send it.
type request struct {
	method string
	// path is relative to the base URL, as the vendor documents it;
	// "{projectId}" stands for the client's (escaped) project ID.
	path  string
	query string // encoded, without "?"
	body  []byte // nil: no body
	// want is the documented success status (201, 202); 0 means 200, and
	// -1 any 2xx (Client.Do). also is a second success status the route
	// may answer (the webhook route: 200 besides 202); 0 for none.
	want, also int
	// idempotent marks a POST that may be retried like a GET (it only
	// mints a link, say). GETs are always idempotent.
	idempotent bool
	// direct marks Client.Do: do describes the answer even without an
	// observer, and decodes into the caller's out as it is, where the
	// SDK's own out is cleared before each attempt's decoding, so that a
	// retry lets go of the last attempt's.
	direct bool
	// stream, when set, is handed the final answer when it is a 2xx of the
	// documented status, its body open and unread, instead of having it
	// decoded: a streamed answer, read as it arrives. It then owns the
	// body and must close it.
	stream func(resp *http.Response)
	// buf is the body buffer a poller's reads share (see pollBuffer); nil
	// takes one from answerBuffers for the call. It also marks a poller's
	// read (polling).
	buf *answerBuffer
	// refusalsBack hands a 429 of a call that may create something back
	// to the caller at once, with its Retry-After, instead of waiting it
	// out and trying again: the assistant proxy's browser does the
	// waiting.
	refusalsBack bool
}

// polling reports a poller's read: an answer with a Retry-After goes back
// to the poller, which owns the waits, instead of being slept on here.
func (r *request) polling() bool { return r.buf != nil }

func (r *request) retriedLikeGet() bool {
	return r.idempotent || r.method == http.MethodGet || r.method == http.MethodHead
}

// Response describes the final HTTP answer to one call: what a support
// ticket or quota planning needs. See [WithResponseObserver] and [Client.Do].
type Response struct {
	Method string
	// Path is the request's path and query, relative to the base URL.
	Path string
	// StatusCode is the final answer's status, 0 when none arrived.
	StatusCode int
	// Header holds the final answer's headers, with any copy of the API key
	// replaced by "[redacted]".
	Header    http.Header
	RequestID string // from a request-id header, if any
	// Attempts counts the HTTP requests the call sent, retries included:
	// each one counts against the API's quotas.
	Attempts int
}

// checker is implemented by wire types with required fields: check
// reports a decoded answer that is not the documented object.
type checker interface{ check() error }

// send is the one request path of the typed endpoints: it sends r and
// decodes a 2xx answer into a new T, checked (see checker).
func send[T any](ctx context.Context, c *Client, r request) (*T, error) {
	out := new(T)
	if _, err := c.do(ctx, r, out); err != nil {
		return nil, err
	}
	return out, nil
}

// sendAbout is send for an answer that names the thing it is about (its
// about method). id is the thing asked for: an answer about another is a
// confused proxy or cache, which the caller must not act on. An empty id
// (a create) or an empty name (a field the answer may leave out; check
// refuses it where it is required) is not compared. what names the thing
// in the error.
func sendAbout[W any, PW interface {
	*W
	about() string
}](ctx context.Context, c *Client, r request, what, id string) (*W, error) {
	w, err := send[W](ctx, c, r)
	if err != nil {
		return nil, err
	}
	if got := PW(w).about(); id != "" && got != "" && got != id {
		return nil, c.malformed(r, "asked for %s %q, the answer is about %s", what, id, answerText(got))
	}
	return w, nil
}

var jsonMediaType = []string{"application/json"}

// do is the one request path: build, send with retries by method, hand a
// 2xx body of the documented status to decode, map anything else to an
// error, redact the key from everything returned, and report the answer to
// the observer.
func (c *Client) do(ctx context.Context, r request, out any) (*Response, error) {
	if err := c.ready(ctx); err != nil {
		return nil, err
	}
	target := c.url(r)
	if err := ctx.Err(); err != nil {
		return nil, wrapOp("nothing sent", err)
	}
	// The retry layer: a read whose attempts nobody follows shares one of
	// the client's; any other call gets one of its own (see call).
	retry, cl, sendCtx := c.readers[r.polling()], (*call)(nil), ctx
	if !r.retriedLikeGet() || r.direct || c.observer != nil {
		cl = c.newCall(&r)
		retry = cl.retry
		if !r.retriedLikeGet() {
			sendCtx = cl.traced(ctx)
		}
	}

	var raw any // an untyped nil for no body: a nil []byte would still send one
	if r.body != nil {
		raw = r.body
	}
	req, err := retryablehttp.NewRequestWithContext(sendCtx, r.method, target, raw)
	if err != nil {
		return nil, c.redact(wrapOp("building request", err))
	}
	cred := c.cred()
	req.Header["Authorization"] = cred.header // shared read-only slices: no allocation
	req.Header["Accept"] = jsonMediaType
	req.Header["User-Agent"] = c.userAgent
	if r.body != nil {
		req.Header["Content-Type"] = jsonMediaType
	}
	want := r.want
	if want == 0 {
		want = http.StatusOK
	}
	// A 2xx is read inside the attempt, so that a body cut short or not the
	// documented object can be retried like a network error. Every attempt
	// reads into the call's one buffer: a retry reuses it rather than
	// holding a second.
	body := r.buf
	if body == nil {
		body = answerBuffers.Get().(*answerBuffer)
		defer answerBuffers.Put(body) // after the attempts: the handler below is theirs
	}
	req.SetResponseHandler(func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil // the final one becomes an *APIError below
		}
		if want > 0 && resp.StatusCode != want && (r.also == 0 || resp.StatusCode != r.also) {
			return &bodyError{status: resp.StatusCode, err: fmt.Errorf("the documented success status is %d", want)}
		}
		if want < 0 && (resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusResetContent) {
			return readSuccess(ctx, resp, nil, body, false) // Client.Do: an answer without content leaves out as it is
		}
		if r.stream != nil {
			return nil // read by the caller, after do (see request.stream)
		}
		return c.scrubCause(readSuccess(ctx, resp, out, body, !r.direct))
	})

	// The attempts. Only the final answer counts: the retry layer drains
	// and closes the others.
	resp, err := retry.Do(req)
	handed := false // the body went to r.stream, which closes it
	if resp != nil {
		defer func() {
			if !handed {
				resp.Body.Close()
			}
		}()
	}
	var info *Response
	if r.direct || c.observer != nil {
		info = c.describe(r.method, target[len(c.baseURL):], cl, resp)
		if c.observer != nil {
			c.observer(ctx, info)
		}
	}
	switch {
	case err != nil:
		return info, c.redact(c.sendError(&r, cl, err))
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return info, c.apiError(ctx, r, resp)
	}
	if r.stream != nil {
		handed = true
		r.stream(resp)
	}
	return info, nil
}

// url is r's absolute URL, "{projectId}" replaced by the client's
// project, built with one allocation.
func (c *Client) url(r request) string {
	path, seg, rest, sep := r.path, "", "", ""
	if before, after, found := strings.Cut(r.path, "{projectId}"); found {
		path, seg, rest = before, c.projectSeg, strings.ReplaceAll(after, "{projectId}", c.projectSeg)
	}
	if r.query != "" {
		sep = "?"
	}
	return c.baseURL + path + seg + rest + sep + r.query
}

// call is a call whose attempts are followed: one that may create
// something (did the server act?), or whose answer is described (how many
// attempts?). Its own retry layer runs startAttempt before each attempt
// and, for a create, createPolicy; the transport reports from its own
// goroutines, hence the atomics. Reads that nobody follows share the
// client's retry layers: one per call costs a GetJob about 8%.
type call struct {
	retry   *retryablehttp.Client
	maxWait time.Duration // the longest wait slept on, Retry-After included
	// refusalsBack: a 429 is not retried (request.refusalsBack).
	refusalsBack bool

	attempts atomic.Int32
	sawConn  atomic.Bool // the transport reports connection events (httptrace)
	wrote    atomic.Bool // this attempt wrote request headers: the server may have acted
	refused  atomic.Bool // this attempt was refused (429): the server did not act
}

func (c *Client) newCall(r *request) *call {
	cl := &call{maxWait: c.retryWaitMax, refusalsBack: r.refusalsBack}
	policy := c.readers[r.polling()].CheckRetry
	if !r.retriedLikeGet() {
		policy = cl.createPolicy
	}
	cl.retry = c.retrier(policy, cl.startAttempt)
	return cl
}

// retrier is a go-retryablehttp client with the client's transport, logger
// and bounds, the policy and the hook run before each attempt (if any).
func (c *Client) retrier(policy retryablehttp.CheckRetry, hook retryablehttp.RequestLogHook) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:     c.http,
		Logger:         c.logger,
		RetryWaitMin:   c.retryWaitMin,
		RetryWaitMax:   c.retryWaitMax,
		RetryMax:       c.maxRetries,
		CheckRetry:     policy,
		Backoff:        backoff,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
		RequestLogHook: hook,
	}
}

// traced follows the connection events of the call's attempts, which tell
// a request that never left from one the server may have acted on. Only
// calls that may create something need to know; the others skip the cost.
func (cl *call) traced(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GetConn:      func(string) { cl.sawConn.Store(true) },
		WroteHeaders: func() { cl.wrote.Store(true) },
	})
}

// startAttempt is the retry layer's RequestLogHook: it runs before each
// attempt.
func (cl *call) startAttempt(retryablehttp.Logger, *http.Request, int) {
	cl.attempts.Add(1)
	cl.sawConn.Store(false)
	cl.wrote.Store(false)
	cl.refused.Store(false)
}

// The retry policies decide whether the attempt that ended with resp or
// err is tried again. Once the context is done they stop and let the
// answer in hand, if any, be used; a Retry-After longer than the maximum
// wait is not slept on: the caller gets the answer at once.

// readPolicy is the policy of calls retried like a GET: they are retried
// on network errors, malformed 2xx answers and the retryable statuses. A
// poller's read (polling) hands an answer with a Retry-After back to the
// poller, which owns the waits.
func readPolicy(maxWait time.Duration, polling bool) retryablehttp.CheckRetry {
	return func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		switch {
		case ctx.Err() != nil:
			return false, nil
		case err != nil:
			return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
		case polling && resp.Header.Get("Retry-After") != "":
			return false, nil
		}
		return retryableStatus(resp.StatusCode) && !waitTooLong(resp, maxWait), nil
	}
}

// createPolicy is the policy of a call that may create something: it is
// retried only where the server cannot have acted, a request of which no
// byte left (a refused connection, a failed TLS handshake) and a 429 (the
// server refused it). Never a 5xx or a dropped answer: that could create a
// second job.
func (cl *call) createPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	switch {
	case ctx.Err() != nil:
		return false, nil
	case err != nil && cl.mayHaveActed(err):
		return false, nil
	case err != nil:
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	refused := resp.StatusCode == http.StatusTooManyRequests
	if refused {
		cl.refused.Store(true) // settled: the server did not act on this attempt
	}
	return refused && !cl.refusalsBack && !waitTooLong(resp, cl.maxWait), nil
}

// retryableStatus lists the answers a GET may be retried on.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// mayHaveActed reports whether the last attempt could have reached the
// server without a clear answer. Transports that report connection
// events say exactly whether any byte left; for others (a test double, a
// custom RoundTripper) only a failed dial is known not to have sent
// anything.
func (cl *call) mayHaveActed(err error) bool {
	if cl.refused.Load() {
		return false
	}
	var be *bodyError
	if errors.As(err, &be) {
		return true // a 2xx arrived: the server acted, its answer is lost
	}
	if cl.sawConn.Load() {
		return cl.wrote.Load()
	}
	var ue *url.Error
	return errors.As(err, &ue) && !isDialError(ue.Err)
}

func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// waitTooLong reports a Retry-After beyond what the client will sleep: the
// caller gets the error at once, with APIError.RetryAfter to plan by.
func waitTooLong(resp *http.Response, maxWait time.Duration) bool {
	d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	return ok && d > maxWait
}

// backoff waits as long as Retry-After asks (the policies have already
// refused waits beyond the maximum), else a random time between minWait and
// a ceiling that doubles with each attempt, so clients failing together do
// not retry together.
func backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, maxWait)
		}
	}
	ceiling := minWait
	for i := 0; i <= attempt && ceiling < maxWait; i++ {
		if ceiling > maxWait/2 {
			ceiling = maxWait // doubling would pass the maximum (or overflow)
			break
		}
		ceiling *= 2
	}
	return minWait + rand.N(ceiling-minWait+1)
}

// parseRetryAfter reads both forms of Retry-After: delta seconds and an
// HTTP date. A date in the past means "now" (0, true).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	secs, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err == nil || errors.Is(err, strconv.ErrRange) {
		// Too many digits for 64 bits is still a (very long) number of seconds.
		if err != nil || secs > uint64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	when, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return min(max(when.Sub(now), 0), maxRetryAfter), true
}

// maxRetryAfter caps absurd Retry-After values so the arithmetic never
// overflows; the client never sleeps on anything near it anyway.
const maxRetryAfter = 24 * time.Hour

// maxResponseBody bounds a success body: the largest the API sends (a page
// of 1,000 assistant turns) is well under a MiB.
const maxResponseBody = 16 << 20

var errBodyTooLarge = fmt.Errorf("body larger than %d MiB", maxResponseBody>>20)

// answerBuffer is a call's one body buffer, which its attempts share.
type answerBuffer struct{ b []byte }

// answerBuffers hands a call's buffer on to the next call when it is done
// (nothing decoded keeps a reference: encoding/json copies what it
// keeps), so that calls in a row, a poller's reads of a hostile answer
// above all, reuse one instead of each leaving one to the collector. The
// pool drops what no call took back within two collections.
var answerBuffers = sync.Pool{New: func() any { return new(answerBuffer) }}

// pollBuffer is the buffer of a poller's reads, which follow one another:
// a poll of a hostile answer then holds one, where the pool, emptied by
// the collections between reads, could let each read leave one more.
func pollBuffer() *answerBuffer { return new(answerBuffer) }

// readSuccess decodes a 2xx body into out (nil: none is wanted), cleared
// first when clear is set (see request.direct), and checks it (see
// checker), bounded in size and in time: a body that never ends is cut by
// the bound, one that stalls by the stall timeout or the context. The body
// is read whole into buf first, and decoded from there: a decoder reading
// the network itself grows its own buffer to twice the bound.
func readSuccess(ctx context.Context, resp *http.Response, out any, buf *answerBuffer, clear bool) error {
	defer closeOnDone(ctx, resp.Body)()
	var err error
	if out == nil {
		// Nothing to decode: to EOF, so the connection is reused.
		if _, err = io.Copy(io.Discard, &boundedBody{r: resp.Body, left: maxResponseBody}); err != nil {
			err = fmt.Errorf("reading body: %w", err)
		}
	} else if buf.b, err = readBody(resp.Body, resp.ContentLength, buf.b); err != nil {
		err = describeJSONError(err)
	} else {
		if clear {
			reflect.ValueOf(out).Elem().SetZero()
		}
		err = decodeJSON(buf.b, out)
		if ch, ok := out.(checker); ok && err == nil {
			err = ch.check()
		}
	}
	if cerr := ctx.Err(); err != nil && cerr != nil {
		return fmt.Errorf("reading the answer: %w", cerr) // not malformed: cut short by the caller
	}
	if err != nil {
		return &bodyError{status: resp.StatusCode, err: err}
	}
	return nil
}

// closeOnDone closes body when ctx ends, which unblocks a read stalled on
// a transport that ignores the context, until the returned stop is called.
// A context that cannot end (context.Background()) needs no watch, whose
// two allocations are a tenth of a fast call's.
func closeOnDone(ctx context.Context, body io.Closer) (stop func() bool) {
	if ctx.Done() == nil {
		return func() bool { return false }
	}
	return context.AfterFunc(ctx, func() { body.Close() })
}

// closerFunc is a func as an [io.Closer], for closeOnDone.
type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// readBody reads a body whole into buf's memory, at most maxResponseBody
// bytes: one buffer of at most the bound, sized by the Content-Length
// when it is within the bound, else grown by doubling up to growByDoubling
// and then to the bound at once (a read of the bound then allocates 18
// MiB, where doubling all the way would leave 16 MiB of garbage besides).
// A body whose first character cannot start a JSON value fails at once,
// unread.
func readBody(r io.Reader, size int64, buf []byte) ([]byte, error) {
	if size > maxResponseBody {
		return buf[:0], errBodyTooLarge
	}
	want := 512
	if size >= 0 {
		want = int(size) + 1 // the +1 sees the end without growing
	}
	if cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	buf, start := buf[:0], 0 // start: the bytes known to be white space
	for {
		if len(buf) == cap(buf) {
			grownCap := 2 * cap(buf)
			if grownCap > growByDoubling {
				grownCap = maxResponseBody + 1
			}
			grown := make([]byte, len(buf), grownCap)
			copy(grown, buf)
			buf = grown
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if start >= 0 {
			if start = skipSpace(buf, start); start < len(buf) {
				if !strings.ContainsRune(`{["-0123456789tfn`, rune(buf[start])) {
					return buf, &json.SyntaxError{Offset: int64(start)}
				}
				start = -1 // the value has begun: decodeJSON judges the rest
			}
		}
		switch {
		case len(buf) > maxResponseBody:
			return buf, errBodyTooLarge
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return buf, err
		}
	}
}

// growByDoubling is the largest body buffer readBody grows by doubling.
const growByDoubling = 1 << 20

// skipSpace returns the index of the first byte of b from i on that is not
// JSON white space (len(b) if none).
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scrubCause replaces the cause of a malformed answer by a copy of its
// text without the key when the text holds it (a check quoting a field a
// proxy filled with the key), so that no error of the chain shows the key
// to a reporter that walks it.
func (c *Client) scrubCause(err error) error {
	if err == nil {
		return nil
	}
	var be *bodyError
	if errors.As(err, &be) {
		if msg := be.err.Error(); c.scrub(msg, false) != msg {
			be.err = errors.New(c.scrub(msg, false))
		}
	}
	return err
}

// boundedBody reads at most maxResponseBody bytes, then fails with
// errBodyTooLarge.
type boundedBody struct {
	r    io.Reader
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errBodyTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left+1] // one byte more tells a body of exactly the bound from a longer one
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, errBodyTooLarge
	}
	return n, err
}

// decodeJSON decodes body, exactly one JSON value. Its errors never quote
// the body: a proxy may have echoed the key into it.
func decodeJSON(body []byte, v any) error {
	if skipSpace(body, 0) == len(body) {
		return errors.New("empty body")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) && syntax.Offset >= int64(len(body)) {
			return errors.New("body ends early")
		}
		return describeJSONError(err)
	}
	return nil
}

func describeJSONError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var timeErr *time.ParseError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("body ends early")
	case errors.As(err, &syntax):
		return fmt.Errorf("not JSON (at byte %d)", syntax.Offset)
	case errors.As(err, &timeErr):
		return errors.New("a date-time that is not RFC 3339") // its text quotes the value
	case errors.As(err, &typ):
		if typ.Field == "" {
			return fmt.Errorf("a JSON %s where an object was expected", typ.Value)
		}
		return fmt.Errorf("field %s: a JSON %s where %s was expected", typ.Field, typ.Value, typ.Type)
	case errors.Is(err, errBodyTooLarge), errors.As(err, new(*tooManyError)):
		return err
	}
	return fmt.Errorf("reading body: %w", err) // a network error, or a check of a wire type: it quotes no content
}

// apiError reads a non-2xx answer. A 1xx (a 101 Switching Protocols that
// hands over the raw connection, say) has no body to read: it is closed
// unread, so a server holding it open cannot hold the call.
func (c *Client) apiError(ctx context.Context, r request, resp *http.Response) error {
	var apiErr *APIError
	if resp.StatusCode < 200 {
		resp.Body.Close()
		apiErr = newAPIError(resp, bytes.NewReader(nil), c.scrub)
	} else {
		defer closeOnDone(ctx, resp.Body)()
		apiErr = newAPIError(resp, resp.Body, c.scrub)
	}
	apiErr.RetryAfter, _ = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	apiErr.outcomeUnknown = !r.retriedLikeGet() && gatewayMayHaveActed(resp.StatusCode)
	return apiErr
}

// gatewayMayHaveActed lists the answers that can follow a request the API
// already acted on: a crash midway, a proxy timing out on a slow answer, a
// connection switched to another protocol. 503 is left out: it is sent
// instead of acting.
func gatewayMayHaveActed(code int) bool {
	return code < 200 || code == http.StatusInternalServerError || code == http.StatusBadGateway ||
		code == http.StatusGatewayTimeout
}

// describe sums up a call's final answer, resp (nil if none arrived).
func (c *Client) describe(method, path string, cl *call, resp *http.Response) *Response {
	// The path carries a server's cursor, which may echo the key.
	info := &Response{Method: method, Path: c.scrub(path, false), Attempts: int(cl.attempts.Load())}
	if resp != nil {
		info.StatusCode = resp.StatusCode
		info.Header = c.redactHeader(resp.Header)
		info.RequestID = safeText(requestID(resp.Header), c.scrub, maxIDRunes, false)
	}
	return info
}

// sendError classifies a failure with no usable API answer. For a call
// that may create something it decides whether the server may have acted
// (ErrOutcomeUnknown).
func (c *Client) sendError(r *request, cl *call, err error) error {
	var be *bodyError
	malformed := errors.As(err, &be)
	if !r.retriedLikeGet() && cl.mayHaveActed(err) {
		return &outcomeError{err: err}
	}
	if malformed {
		return err
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text repeats the method and URL: say it once
		return wrapOp(fmt.Sprintf("%s %s", r.method, strings.ReplaceAll(r.path, "{projectId}", c.projectSeg)), err)
	}
	return wrapOp("sending request", err)
}

// outcomeError is a POST whose request may have reached the server
// without an answer that says what it did.
type outcomeError struct{ err error }

func (e *outcomeError) Error() string {
	return "mintlify: outcome unknown, the server may have acted: " + trimPrefix(e.err.Error())
}

func (e *outcomeError) Unwrap() []error { return []error{ErrOutcomeUnknown, e.err} }

// bodyError is a 2xx answer that is not the documented object: unreadable,
// not JSON, a required field missing, another status than documented.
type bodyError struct {
	status int
	err    error
}

func (e *bodyError) Error() string {
	return fmt.Sprintf("mintlify: malformed HTTP %d answer: %v", e.status, e.err)
}

func (e *bodyError) Unwrap() []error { return []error{ErrMalformedResponse, e.err} }

// malformed reports an answer whose content the endpoint rejects after
// decoding (another resource than the one asked for, say). For a call that
// may have acted, the outcome is unknown as well.
func (c *Client) malformed(r request, format string, args ...any) error {
	// The cause's own text is scrubbed, not only the whole error's: an
	// error reporter that walks the chain records each cause's text.
	var err error = &bodyError{status: http.StatusOK, err: errors.New(c.scrub(fmt.Sprintf(format, args...), false))}
	if r.want > 0 {
		err.(*bodyError).status = r.want
	}
	if !r.retriedLikeGet() {
		err = &outcomeError{err: err}
	}
	return c.redact(err)
}

// Do calls any API path through the client's one request path, for what
// the typed methods do not cover: the same key, retries by method (GET and
// HEAD like every GET; any other method only where the server cannot have
// acted), error mapping, key redaction and body bound. path is relative to
// the base URL and may carry a query ("/v1/analytics/{projectId}/views?limit=5");
// "{projectId}" stands for the client's project. An absolute URL, a
// "//host" path and dot segments are refused with ErrInvalidInput: the key
// must not reach another host or route. body is sent as JSON (a []byte or
// json.RawMessage as it is; nil sends none); a 2xx answer's JSON body is
// decoded into out, which must be nil (no decoding) or a non-nil pointer;
// a 204 or 205 leaves out as it is. The returned Response describes the
// final answer, also when err is an *APIError.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) (*Response, error) {
	if err := c.ready(ctx); err != nil {
		return nil, err
	}
	r := request{method: method, want: -1, direct: true}
	if method == "" || strings.IndexFunc(method, func(r rune) bool { return r <= ' ' || r >= 0x7f || r == '(' || r == ')' }) >= 0 {
		return nil, invalidf("method %q is not an HTTP method", method)
	}
	u, err := url.Parse(path)
	switch {
	case err != nil:
		return nil, invalidf("path is not a URL path")
	case u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//"):
		return nil, invalidf("path %q must be relative to the base URL and start with one /", c.scrub(path, false))
	case u.Fragment != "":
		return nil, invalidf("path %q has a fragment", c.scrub(path, false))
	}
	// Dot segments as servers read them: some take \ for / and drop a
	// ";param" ("..;" is ".." to Tomcat).
	for _, seg := range strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg, _, _ = strings.Cut(seg, ";"); seg == "." || seg == ".." {
			return nil, invalidf("path %q has a dot segment", c.scrub(path, false))
		}
	}
	if out != nil {
		if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
			return nil, invalidf("out is a %T: pass nil or a non-nil pointer", out)
		}
	}
	r.path, r.query, _ = strings.Cut(path, "?")
	switch b := body.(type) {
	case nil:
	case []byte:
		r.body = b
	case json.RawMessage:
		r.body = b
	default:
		if r.body, err = json.Marshal(b); err != nil {
			return nil, invalidf("body cannot be encoded as JSON: %v", err)
		}
	}
	if method == http.MethodHead {
		out = nil // no body to decode
	}
	return c.do(ctx, r, out)
}
