package mintlify

// Reading an assistant's answer: an AI SDK v5 UI message stream, taken
// frame by frame as the server sends it. The request that opens it lives
// with the assistant client; this file knows only the body and its headers.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/docsagent/mintlify-go/internal/redact"
	"github.com/docsagent/mintlify-go/internal/sse"
)

// ErrStream reports an answer that broke off before its end: the stream
// was cut before its finish chunk (a reset connection, a server that
// stopped writing) or after it but before its end, sent [DONE] without a
// finish chunk, carried an error chunk (the server's own report, quoted in
// the error), held a frame the SDK cannot read, or more than an answer
// holds (those two also match [ErrMalformedResponse]).
//
// The message had reached the server, which has spent its credits on it:
// an ErrStream is never [ErrOutcomeUnknown], and sending the message again
// asks, and pays, again. The end of the caller's context and
// [MessageStream.Close] are not ErrStream: those errors match the
// context's error and [net.ErrClosed].
var ErrStream = errors.New("mintlify: answer stream broken")

const (
	// maxStreamFrame bounds one server-sent event, its lines together, so
	// that a server sending a frame without end cannot fill memory: a
	// frame longer than this ends Events with an error before more of it
	// is held. The largest real chunk is a search step's output (at most
	// 50 results of a paragraph each), far below it.
	maxStreamFrame = 4 << 20
	// maxStreamKept bounds what a stream keeps for its accessors (the
	// text, the sources, the search steps' call IDs), for the same reason:
	// an answer is a few kilobytes of text and a few dozen pages.
	maxStreamKept = 16 << 20
	// streamEntryCost is what a kept source or call ID costs beyond its
	// bytes (map and slice overhead), so that a flood of tiny entries
	// counts too.
	streamEntryCost = 128
	// maxStreamSearchResults bounds a search step's output: the search
	// route answers at most 50 pages. A longer output is malformed, read
	// no further than the bound: a million empty results would otherwise
	// cost a Go value each.
	maxStreamSearchResults = 100
	// maxStreamErrorRunes bounds the server's text quoted in an error.
	maxStreamErrorRunes = 500
	// streamSearchTool is the tool whose outputs are search results, and
	// so sources.
	streamSearchTool = "search"
)

// MessageStream is an assistant's answer as it arrives, so that a chat
// shows text while the model writes it. [MessageStream.Events] reads it
// frame by frame, once; the accessors ([MessageStream.Text],
// [MessageStream.Sources], the thread's ID and key, the finish reason)
// keep what has arrived so far, may be called from any goroutine during or
// after Events, and keep it after an error too: a broken answer keeps its
// partial text. What they keep is bounded (16 MiB of text and sources),
// as is what a frame may hold (4 MiB), whatever the server sends.
//
// Events closes the answer when it ends. Call [MessageStream.Close] when
// you stop reading before that (as you would an http.Response's Body): it
// frees the connection and ends a running Events at once. The context
// given to the call that opened the stream bounds it the same way.
//
// All methods are safe on a nil *MessageStream: Events then yields one
// error and the accessors return zero values.
type MessageStream struct {
	ctx       context.Context
	body      io.ReadCloser
	domain    string
	scrub     redact.Scrubber // applied to every error text built from server content
	stopWatch func() bool     // stops the context's watch on the body
	maxFrame  int             // maxStreamFrame; tests shrink it
	maxKept   int             // maxStreamKept; tests shrink it

	used      atomic.Bool // Events has run
	closed    atomic.Bool // Close was called
	closeOnce sync.Once
	closeErr  error

	mu           sync.Mutex         // guards what follows: the accessors run on other goroutines
	parts        []*strings.Builder // the text parts, in the order they started
	openPart     map[string]int     // a text part's ID -> its index in parts, until its text-end
	sources      []streamSource
	sourceAt     map[string]int  // Source.Path -> index in sources
	searchCalls  map[string]bool // tool call IDs of search steps
	kept         int             // bytes held by text, sources and searchCalls, see maxKept
	headerThread string
	finishThread string
	threadKey    string
	finishReason string
	aborted      bool // an abort chunk came: FinishReason stays "abort"
}

// streamSource is a Source and where its URL and title came from: a
// source-url chunk outranks a search result, whatever the order.
type streamSource struct {
	Source
	citedURL, citedTitle bool
}

// StreamEvent is one chunk of an answer, in the AI SDK v5 UI message stream
// protocol that the vendor speaks and browser chat clients (useChat) read.
//
// Type is the chunk's type: "text-delta", "source-url", "finish", or one
// this SDK does not know, yielded all the same so that a newer server
// breaks nothing. Delta is the chunk's "delta" when it is a string: the
// text of a text-delta, and of a reasoning-delta too, so a program
// printing the answer alone checks Type == "text-delta" (a tool-input-delta
// carries JSON, in "inputTextDelta": read it from Raw). Raw is the chunk's
// JSON, the caller's own copy to keep: for what the fields leave out (tool
// calls, data-* parts, metadata), or to forward the chunk as it came. An
// error chunk is no event: it ends [MessageStream.Events] with an
// [ErrStream] that quotes its errorText.
type StreamEvent struct {
	Type, Delta string
	Raw         json.RawMessage
}

// Source is a documentation page an answer drew on: one the answer cites
// (a source-url chunk) or one its search step found (the search tool's
// output). Path names the page, so that one page met twice is one Source:
// the URL's path, or a search result's path, with one leading slash and no
// trailing one ("/quickstart"). URL is the cited link when it is absolute;
// for a relative one, and for a page only the search found, it is built on
// the site: https://<domain>/<path> when the domain is a host name (it has
// a dot), https://<domain>.mintlify.site/<path> for a bare site identifier
// (as the mock serves it). Title is the cited title, else the search
// result's metadata.title, else "". It marshals as {"url", "title",
// "path"}.
type Source struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	Path  string `json:"path"`
}

// Answer is a whole answer, read to its end by [AssistantClient.Ask]: the
// one-shot case, when nothing is shown before the answer is complete.
// ThreadID and ThreadKey continue the conversation (see [MessageParams]);
// FinishReason is the model's ("stop"; "length" when it ran out of room).
// It marshals with the API's names (threadId, finishReason...).
type Answer struct {
	Text         string   `json:"text"`
	Sources      []Source `json:"sources"`
	ThreadID     string   `json:"threadId"`
	ThreadKey    string   `json:"threadKey"`
	FinishReason string   `json:"finishReason"`
}

// newMessageStream reads body, an answer whose headers are header, for the
// site domain. scrub is applied to every error text built from what the
// server sent, so that a key it echoes never reaches an error.
// The end of ctx closes body, which ends a blocked read.
func newMessageStream(ctx context.Context, body io.ReadCloser, header http.Header, domain string, scrub redact.Scrubber) *MessageStream {
	if ctx == nil {
		ctx = context.Background()
	}
	s := &MessageStream{
		ctx:          ctx,
		body:         body,
		domain:       domain,
		scrub:        scrub,
		maxFrame:     maxStreamFrame,
		maxKept:      maxStreamKept,
		headerThread: header.Get("X-Thread-Id"),
		threadKey:    header.Get("X-Thread-Key"),
	}
	s.stopWatch = closeOnDone(ctx, closerFunc(s.closeBody))
	return s
}

var (
	errStreamNil    = errors.New("mintlify: nil MessageStream: streams come from AssistantClient.Message")
	errStreamReused = errors.New("mintlify: MessageStream.Events called twice: an answer is read once (its accessors keep what arrived)")
)

// Events yields the answer's chunks as the server sends them, to its end:
// [DONE], or the end of the body after a finish or abort chunk (chunks
// after the finish chunk are yielded too). It ends with an error instead,
// after which it yields nothing more, when the answer breaks off
// ([ErrStream]: cut before its finish chunk, or after it by a failed read,
// [DONE] without finish, an error chunk, or a malformed frame, which also
// matches [ErrMalformedResponse]), when the context ends (the context's
// error) or when Close is called ([net.ErrClosed]). Stopping the loop
// early closes the stream. An abort chunk (the server stopped the answer)
// is an end without error: [MessageStream.FinishReason] says "abort".
//
// The stream is read as the AI SDK's chat client reads it: lines end at
// CRLF, LF or a lone CR, a leading byte order mark is dropped, and an
// event no empty line ended is dropped at the end of the body.
//
// A stream is read once: a second Events yields one error. A chunk of an
// unknown type is yielded, never an error; a field of an unexpected type is
// read as absent (Raw still has it). Frames larger than 4 MiB are errors,
// so memory stays bounded whatever the server sends.
func (s *MessageStream) Events() iter.Seq2[StreamEvent, error] {
	return func(yield func(StreamEvent, error) bool) {
		if s == nil || s.body == nil {
			yield(StreamEvent{}, errStreamNil)
			return
		}
		if s.used.Swap(true) {
			yield(StreamEvent{}, errStreamReused)
			return
		}
		defer s.release()
		frames := sse.NewReader(s.body, s.maxFrame)
		finished := false
		for n := 1; ; n++ {
			data, err := frames.Next()
			if err == nil {
				err = s.stopped() // frames already buffered do not outlive Close or the context
			}
			if err != nil {
				if err == io.EOF && finished && s.stopped() == nil {
					return // finish, then the end of the body: whole, as the AI SDK reads it
				}
				yield(StreamEvent{}, s.readError(err, n, finished))
				return
			}
			if string(data) == "[DONE]" {
				if !finished {
					yield(StreamEvent{}, s.broken(nil, "[DONE] came without a finish chunk"))
				}
				return
			}
			ev, fin, err := s.apply(data, n)
			if err != nil {
				yield(StreamEvent{}, err)
				return
			}
			finished = finished || fin
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// Text is the answer's text so far: the text of each text part (its
// text-deltas, in order), the parts in the order they started, joined by a
// blank line, as a chat shows separate parts apart.
func (s *MessageStream) Text() string {
	return locked(s, (*MessageStream).textOf)
}

// textOf is Text, for a caller that holds the lock.
func (s *MessageStream) textOf() string {
	var b strings.Builder
	for _, p := range s.parts {
		if p.Len() == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Sources are the pages the answer drew on so far, each once, in the order
// they first appeared (see [Source]). The slice is the caller's.
func (s *MessageStream) Sources() []Source {
	return locked(s, (*MessageStream).sourceList)
}

// sourceList is Sources, for a caller that holds the lock.
func (s *MessageStream) sourceList() []Source {
	if len(s.sources) == 0 {
		return nil
	}
	out := make([]Source, len(s.sources))
	for i, src := range s.sources {
		out[i] = src.Source
	}
	return out
}

// ThreadID names the conversation, for a follow-up: the X-Thread-Id
// header, else the finish chunk's threadId (so it may be "" until the
// finish chunk has arrived).
func (s *MessageStream) ThreadID() string {
	return locked(s, (*MessageStream).threadID)
}

// threadID is ThreadID, for a caller that holds the lock.
func (s *MessageStream) threadID() string { return cmp.Or(s.headerThread, s.finishThread) }

// ThreadKey is the secret a follow-up sends with the thread's ID, from
// the X-Thread-Key header. Only the first answer of a thread carries it:
// keep it, it is not sent again.
func (s *MessageStream) ThreadKey() string {
	return locked(s, func(s *MessageStream) string { return s.threadKey })
}

// FinishReason is the finish chunk's finishReason ("stop"; "length" for an
// answer cut by the model's limit), "abort" after an abort chunk (the
// server stopped the answer), "" before either has arrived.
func (s *MessageStream) FinishReason() string {
	return locked(s, func(s *MessageStream) string { return s.finishReason })
}

// locked is what get reads of s under its lock: the accessors' answer so
// far, safe to call while Events runs; the zero value on a nil stream.
func locked[T any](s *MessageStream, get func(*MessageStream) T) T {
	if s == nil {
		return *new(T)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return get(s)
}

// Close closes the answer: it frees the connection and ends a running
// Events promptly, with an error matching [net.ErrClosed]. It may be
// called from any goroutine, any number of times; the accessors keep
// what arrived.
func (s *MessageStream) Close() error {
	if s == nil || s.body == nil {
		return nil
	}
	s.closed.Store(true)
	return s.release()
}

// answer reads the stream to its end, for Ask: no answer when it breaks
// off, as a partial one would read like a whole one.
func (s *MessageStream) answer() (*Answer, error) {
	for _, err := range s.Events() {
		if err != nil {
			return nil, err
		}
	}
	return locked(s, func(s *MessageStream) *Answer {
		return &Answer{Text: s.textOf(), Sources: s.sourceList(), ThreadID: s.threadID(), ThreadKey: s.threadKey, FinishReason: s.finishReason}
	}), nil
}

// release ends the stream for Close and at the end of Events: the
// context's watch first, then the body.
func (s *MessageStream) release() error {
	s.stopWatch()
	return s.closeBody()
}

// closeBody closes the body once, whoever asks first (Close, the end of
// Events, the end of the context, which may come before newMessageStream
// has returned). Closing is what unblocks a Read.
func (s *MessageStream) closeBody() error {
	s.closeOnce.Do(func() { s.closeErr = s.body.Close() })
	return s.closeErr
}

// stopped reports the caller's end of the stream, if any.
func (s *MessageStream) stopped() error {
	if err := s.ctx.Err(); err != nil {
		return &streamError{msg: "stopped: " + err.Error(), is: []error{err}}
	}
	if s.closed.Load() {
		return &streamError{msg: "closed before it finished", is: []error{net.ErrClosed}}
	}
	return nil
}

// readError classifies a failed read of the n-th frame: the caller's
// doing first (a closed body fails the read that Close or the context
// interrupted), then the server's.
func (s *MessageStream) readError(err error, n int, finished bool) error {
	if stop := s.stopped(); stop != nil {
		return stop
	}
	if err == sse.ErrTooLarge {
		return s.malformed("frame %d is larger than %d bytes", n, s.maxFrame)
	}
	where := "before its finish chunk"
	if finished {
		where = "after its finish chunk"
	}
	if err == io.EOF {
		return s.broken(nil, "cut %s", where)
	}
	return s.broken(err, "cut %s: %v", where, err)
}

// streamChunk holds the fields of a chunk that the accessors read; a chunk
// of another type leaves them empty or ignored. readStreamChunk fills it
// by the tags' exact names.
type streamChunk struct {
	Type         string          `json:"type"`
	ID           string          `json:"id"`           // text-*
	Delta        string          `json:"delta"`        // text-delta, reasoning-delta
	URL          string          `json:"url"`          // source-url
	Title        string          `json:"title"`        // source-url
	ToolCallID   string          `json:"toolCallId"`   // tool-*
	ToolName     string          `json:"toolName"`     // tool-input-start, tool-input-available
	Output       json.RawMessage `json:"output"`       // tool-output-available
	FinishReason string          `json:"finishReason"` // finish
	ThreadID     string          `json:"threadId"`     // finish, as the vendor documents
	ErrorText    string          `json:"errorText"`    // error
}

// apply reads the n-th frame, data, into an event and the accessors. It
// reports whether the chunk was a finish chunk.
func (s *MessageStream) apply(data []byte, n int) (StreamEvent, bool, error) {
	c, err := readStreamChunk(data)
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return StreamEvent{}, false, s.malformed("frame %d is not JSON (at byte %d)", n, syntax.Offset)
	case err != nil:
		return StreamEvent{}, false, s.malformed("frame %d cannot be read", n)
	case c.Type == "":
		return StreamEvent{}, false, s.malformed("frame %d is not a chunk: no string \"type\"", n)
	case c.Type == "error":
		text := s.quote(c.ErrorText)
		if text == "" {
			return StreamEvent{}, false, s.broken(nil, "the server reported an error (frame %d)", n)
		}
		return StreamEvent{}, false, s.broken(nil, "the server reported an error (frame %d): %s", n, text)
	}

	s.mu.Lock()
	switch c.Type {
	case "text-start":
		s.startPart(c.ID)
	case "text-delta":
		i, open := s.openPart[c.ID]
		if !open {
			i = s.startPart(c.ID) // a delta without its start: a part all the same
		}
		s.kept += len(c.Delta)
		if s.kept <= s.maxKept {
			s.parts[i].WriteString(c.Delta)
		}
	case "text-end":
		delete(s.openPart, c.ID)
	case "source-url":
		s.addSource(c.URL, c.Title, true)
	case "tool-input-start", "tool-input-available":
		if c.ToolName == streamSearchTool && c.ToolCallID != "" && !s.searchCalls[c.ToolCallID] {
			if s.searchCalls == nil {
				s.searchCalls = make(map[string]bool)
			}
			s.searchCalls[c.ToolCallID] = true
			s.kept += len(c.ToolCallID) + streamEntryCost
		}
	case "tool-output-available":
		if s.searchCalls[c.ToolCallID] {
			err = s.addResults(c.Output, n)
		}
	case "finish":
		if !s.aborted {
			s.finishReason = c.FinishReason
		}
		if c.ThreadID != "" {
			s.finishThread = c.ThreadID
		}
	case "abort":
		s.finishReason, s.aborted = "abort", true
	}
	over := s.kept > s.maxKept
	s.mu.Unlock()
	switch {
	case err != nil:
		return StreamEvent{}, false, err
	case over:
		return StreamEvent{}, false, s.malformed("the answer holds more than %d bytes of text and sources (frame %d)", s.maxKept, n)
	}
	return StreamEvent{Type: c.Type, Delta: c.Delta, Raw: bytes.Clone(data)}, c.Type == "finish" || c.Type == "abort", nil
}

// readStreamChunk reads a frame's members as JSON.parse, and so a
// browser's chat client, reads them: by their exact names, the last value
// of a name winning. encoding/json would also take "Delta" or "DELTA" for
// "delta", so that a server could show the Go reader a text no browser
// shows. A member of another type is read as absent. err is the frame's
// syntax error; a frame that is not an object has no type.
func readStreamChunk(data []byte) (c streamChunk, err error) {
	if !json.Valid(data) {
		return c, json.Unmarshal(data, &struct{}{}) // the syntax error
	}
	if data[skipSpace(data, 0)] != '{' {
		return c, nil
	}
	eachMember(data, func(name string, value []byte) bool {
		var field *string
		switch name {
		case "type":
			field = &c.Type
		case "id":
			field = &c.ID
		case "delta":
			field = &c.Delta
		case "url":
			field = &c.URL
		case "title":
			field = &c.Title
		case "toolCallId":
			field = &c.ToolCallID
		case "toolName":
			field = &c.ToolName
		case "finishReason":
			field = &c.FinishReason
		case "threadId":
			field = &c.ThreadID
		case "errorText":
			field = &c.ErrorText
		case "output":
			c.Output = value
		}
		if field != nil {
			*field = jsonText(value)
		}
		return true
	})
	return c, nil
}

// jsonText is the text of value, a JSON value, when it is a string (see
// jsonStringOf); "" for another type.
func jsonText(value []byte) string {
	if value[0] != '"' {
		return ""
	}
	return jsonStringOf(value)
}

// startPart begins a text part of the given ID and returns its index.
// s.mu is held.
func (s *MessageStream) startPart(id string) int {
	if s.openPart == nil {
		s.openPart = make(map[string]int)
	}
	s.parts = append(s.parts, &strings.Builder{})
	s.openPart[id] = len(s.parts) - 1
	s.kept += len(id) + streamEntryCost
	return len(s.parts) - 1
}

// addResults takes a search step's output, an array of search results, as
// sources, one result at a time: at most maxStreamSearchResults, beyond
// which the frame (the n-th) is malformed. Anything but an array is not a
// source and is left to Raw; so is a result that is not an object of the
// expected fields' types. s.mu is held.
func (s *MessageStream) addResults(output json.RawMessage, n int) error {
	if i := skipSpace(output, 0); i == len(output) || output[i] != '[' {
		return nil
	}
	var r struct {
		Path     string `json:"path"`
		Metadata struct {
			Title string `json:"title"`
		} `json:"metadata"`
	}
	err := eachItem(output, func(dec *json.Decoder, i int) error {
		if i >= maxStreamSearchResults {
			return errStreamTooManyResults
		}
		r.Path, r.Metadata.Title = "", ""
		if err := dec.Decode(&r); err != nil {
			if _, typ := err.(*json.UnmarshalTypeError); !typ {
				return err
			}
			// A field of another type: read as absent, as the decoder
			// has read past the result and kept the others.
		}
		if s.kept <= s.maxKept {
			s.addSource(r.Path, r.Metadata.Title, false)
		}
		return nil
	})
	switch {
	case err == errStreamTooManyResults:
		return s.malformed("frame %d: a search step found more than %d pages", n, maxStreamSearchResults)
	case err != nil:
		return s.malformed("frame %d: a search step's output cannot be read", n)
	}
	return nil
}

var errStreamTooManyResults = errors.New("too many search results")

// addSource records a page met in a source-url chunk (cited) or a search
// result, merging it with an earlier one of the same path: a cited URL or
// title outranks a search result's, and the first of a kind stays. s.mu is
// held.
func (s *MessageStream) addSource(link, title string, cited bool) {
	path, abs := streamSourcePath(link)
	if path == "" {
		return
	}
	u := link
	if !abs {
		u = streamSiteURL(s.domain, path)
	}
	i, seen := s.sourceAt[path]
	if !seen {
		if s.sourceAt == nil {
			s.sourceAt = make(map[string]int)
		}
		i = len(s.sources)
		s.sourceAt[path] = i
		s.sources = append(s.sources, streamSource{Source: Source{Path: path}})
		s.kept += len(path) + streamEntryCost
	}
	src := &s.sources[i]
	if src.URL == "" || cited && !src.citedURL {
		src.URL, src.citedURL = u, cited
		s.kept += len(u)
	}
	if title != "" && (src.Title == "" || cited && !src.citedTitle) {
		src.Title, src.citedTitle = title, cited
		s.kept += len(title)
	}
}

// streamSourcePath is the page a link names: the path of an http(s) URL
// (abs is then set), or a search result's path, percent-decoded, with one
// leading slash and no trailing one. "" means no page: an empty link, or
// another scheme.
func streamSourcePath(link string) (path string, abs bool) {
	if link == "" {
		return "", false
	}
	u, err := url.Parse(link)
	switch {
	case err == nil && (u.Scheme == "https" || u.Scheme == "http"):
		if u.Host == "" {
			return "", false
		}
		link, abs = u.Path, true
	case err == nil && u.Scheme != "":
		return "", false // mailto:, javascript:...: no page of the site
	default:
		link, _, _ = strings.Cut(link, "#")
		link, _, _ = strings.Cut(link, "?")
		if p, err := url.PathUnescape(link); err == nil {
			link = p
		}
	}
	return "/" + strings.Trim(link, "/"), abs
}

// streamSiteURL is where the site domain serves path: the domain itself
// when it is a host name, the vendor's hosted subdomain for a bare
// identifier; "" without a domain.
func streamSiteURL(domain, path string) string {
	if domain == "" {
		return ""
	}
	if !strings.Contains(domain, ".") {
		domain += ".mintlify.site"
	}
	return "https://" + domain + path
}

// quote makes server text fit for an error as every error's server text
// is (safeText), quoted, with "..." where it was cut.
func (s *MessageStream) quote(text string) string {
	line, cut := safeLine(text, s.scrub, maxStreamErrorRunes, false)
	if line == "" {
		return ""
	}
	if cut {
		line += "..."
	}
	return strconv.Quote(line)
}

// streamError is how a stream ends early. is lists what it matches: the
// sentinels of its class, and its cause.
type streamError struct {
	msg string
	is  []error
}

func (e *streamError) Error() string   { return "mintlify: answer stream: " + e.msg }
func (e *streamError) Unwrap() []error { return e.is }

// broken is an answer that broke off: ErrStream, with cause when a read
// failed.
func (s *MessageStream) broken(cause error, format string, args ...any) error {
	is := []error{ErrStream}
	if cause != nil {
		is = append(is, cause)
	}
	return &streamError{msg: s.scrub(fmt.Sprintf(format, args...), false), is: is}
}

// malformed is a frame the SDK cannot read, or more than it keeps.
func (s *MessageStream) malformed(format string, args ...any) error {
	return &streamError{msg: s.scrub(fmt.Sprintf(format, args...), false), is: []error{ErrStream, ErrMalformedResponse}}
}
