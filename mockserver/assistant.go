package mockserver

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/access"
	"github.com/docsagent/mintlify-go/mockserver/internal/assistant"
)

// The assistant API (the vendor's "discovery" API) under /discovery: a
// streamed answer (v2: an AI SDK v5 UI message stream; v1: an AI SDK v4
// data stream), docs search and page content, for mint_dsc_ keys of the
// path's domain. The pages, the score, the answers, the threads and the
// credits are internal/assistant's; this file is the wire: keys, bodies,
// the stream's headers and pacing, and how faults reach a stream.

// Page is a documentation page of a site the assistant API serves: its
// path (no leading slash), title, Markdown content, and optionally the
// groups that may see it and the version, language and tags the search
// filters match.
type Page = assistant.Page

// Headers of the assistant API's answers.
const (
	ThreadIDHeader  = "X-Thread-Id"  // every message's answer: the thread's ULID
	ThreadKeyHeader = "X-Thread-Key" // only the answer that started the thread: the key a follow-up sends as threadKey
)

// AssistantKey is the primary assistant key (mint_dsc_…), which belongs to
// Domain.
func (s *Server) AssistantKey() string { return s.assistantKey }

// Domain is the assistant API's site: the path's {domain} the primary
// assistant key may call.
func (s *Server) Domain() string { return s.domain }

// AddPages stores pages for a site (the mock's when domain is ""), all or
// none, as POST /_mock/pages does, and says how many it stored; a page at
// a stored path replaces it. Search, page content and answers see them at
// once; Reset returns to the default pages. Bounds: 100 pages a call, 500
// a site, 20 sites, 64 KiB a page, 32 MiB in all (see docs/mock.md).
func (s *Server) AddPages(domain string, pages ...Page) (int, error) {
	if domain == "" {
		domain = s.domain
	}
	n, err := s.assistant.AddPages(domain, pages)
	if err != nil {
		return 0, errors.New("mockserver: AddPages: " + assistantMessage(err))
	}
	return n, nil
}

// Pages lists the pages of a site (the mock's when domain is ""), in the
// order they were first added.
func (s *Server) Pages(domain string) []Page {
	if domain == "" {
		domain = s.domain
	}
	return s.assistant.Pages(domain)
}

// Credits is what the assistant's answered messages have spent (one credit
// each; refused messages, searches and page content cost nothing), as GET
// /_mock/credits answers it. Reset returns it to 0.
func (s *Server) Credits() int64 { return s.assistant.Credits() }

// newAssistant makes the assistant's store: the default pages on the
// mock's domain, every turn recorded in the primary project's analytics
// export (caller "api").
func (s *Server) newAssistant() {
	var seed [8]byte
	_, _ = rand.Read(seed[:]) // thread and message IDs; never fails
	s.assistant = assistant.NewStore(s.domain, binary.LittleEndian.Uint64(seed[:]))
	s.assistant.SetRecorder(s.projects[s.projectID].events)
}

// authorizeAssistant checks an assistant key of the path's domain: another
// kind of key, or an unknown or expired one, is 401; a request from outside
// the key's allowlist, or for another domain than the key's, 403.
func (s *Server) authorizeAssistant(r *http.Request) (*access.Key, reply, bool) {
	token, rep, ok := bearer(r, "assistant key")
	if !ok {
		return nil, rep, false
	}
	if kind := access.KindOf(token); kind != access.KindAssistant {
		return nil, unauthorized("the assistant API takes an assistant key, not an " + kind.String() + " key"), false
	}
	k := s.orgs.Lookup(token)
	if k == nil {
		return nil, unauthorized("invalid API key"), false
	}
	if rep, ok := s.checkKey(k, r, "Forbidden"); !ok {
		return nil, rep, false
	}
	if !strings.EqualFold(r.PathValue("domain"), k.Domain) {
		// The same answer whether the other domain exists or not.
		return nil, errorReply(http.StatusForbidden, "Forbidden", "this assistant key belongs to another domain"), false
	}
	return k, reply{}, true
}

// CORS: the assistant API answers any origin and lets a page read the
// thread headers; the Index API sends no CORS header at all.
func allowAnyOrigin(h http.Header) {
	h["Access-Control-Allow-Origin"] = anyOrigin
	h["Access-Control-Expose-Headers"] = exposedHeaders
}

var (
	anyOrigin      = []string{"*"}
	exposedHeaders = []string{ThreadIDHeader + ", " + ThreadKeyHeader}
)

// preflight answers a browser's CORS preflight on the assistant API: 204,
// any origin, POST with Authorization and Content-Type. It needs no key
// and is not journaled (it is not an API call).
func preflight(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h[VersionHeader] = versionValue
	allowAnyOrigin(h)
	h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}

// assistantReply is a refusal of internal/assistant as the API answers it.
func assistantReply(err error) reply {
	var e *assistant.Error
	if errors.As(err, &e) {
		return errorReply(e.Status, e.Message)
	}
	return errorReply(http.StatusInternalServerError, "Internal server error", err.Error())
}

func assistantMessage(err error) string {
	var e *assistant.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

func (s *Server) docsSearch(c *call) reply {
	var req assistant.SearchRequest
	if rep, ok := readBody(c, &req, ""); !ok {
		return rep
	}
	results, err := s.assistant.Search(c.r.PathValue("domain"), req)
	if err != nil {
		return assistantReply(err)
	}
	return jsonReply(http.StatusOK, mustJSON(results))
}

func (s *Server) pageContent(c *call) reply {
	var req struct {
		Path   string   `json:"path"`
		Groups []string `json:"groups"`
	}
	if rep, ok := readBody(c, &req, ""); !ok {
		return rep
	}
	page, err := s.assistant.PageContent(c.r.PathValue("domain"), req.Path, req.Groups)
	if err != nil {
		return assistantReply(err)
	}
	return jsonReply(http.StatusOK, mustJSON(page))
}

func (s *Server) assistantMessage(c *call) reply   { return s.message(c, false) }
func (s *Server) assistantMessageV1(c *call) reply { return s.message(c, true) }

// message answers a message as a stream: v2 the v5 UI message stream,
// v1 the v4 data stream. The turn, its credit and its analytics row are
// recorded here, before a frame is sent (a fault after this point hides
// the answer, not the turn).
func (s *Server) message(c *call, v1 bool) reply {
	var req assistant.MessageRequest
	if rep, ok := readBody(c, &req, ""); !ok {
		return rep
	}
	req.V1 = v1
	a, err := s.assistant.Message(c.r.PathValue("domain"), req, c.now)
	if err != nil {
		return assistantReply(err)
	}
	st := &stream{}
	if v1 {
		st.header = assistant.DataStreamHeaders()
		for _, p := range a.DataStream() {
			st.frames = append(st.frames, p.Line())
		}
		st.fail = [][]byte{assistant.ErrorPart(streamErrorText).Line()}
	} else {
		st.header = assistant.UIMessageStreamHeaders()
		for _, ch := range a.Chunks() {
			st.frames = append(st.frames, ch.Frame())
		}
		st.fail = [][]byte{assistant.ErrorChunk(streamErrorText).Frame(), assistant.Chunk{JSON: []byte(assistant.Done)}.Frame()}
	}
	st.header = append(st.header, [2]string{ThreadIDHeader, a.ThreadID})
	if a.ThreadKey != "" {
		st.header = append(st.header, [2]string{ThreadKeyHeader, a.ThreadKey})
	}
	return reply{status: http.StatusOK, stream: st}
}

// streamErrorText is the error chunk a stream-error fault sends.
const streamErrorText = "An error occurred while generating the answer (injected by the mock server: fault stream-error)"

// stream is an answer that is written frame by frame: v5 "data: …\n\n"
// events or v4 "<code>:<JSON>\n" lines. A message's answer is a few dozen
// frames of at most a few KB each.
type stream struct {
	header [][2]string
	frames [][]byte
	fail   [][]byte // what a stream-error fault sends after the first half of frames
}

// writeStream writes the stream, flushing each frame as it goes with the
// stream delay between frames, and stops as soon as the client leaves or
// the server closes. Faults that reach a stream (deliver sends reset and
// html as for any answer; status, latency and close act before it):
//
//   - stream-error: the first half of the frames, then the error frames
//     (v5: an error chunk and [DONE]; v1: a 3: part);
//   - truncate: the first half of the frames, then the connection closes
//     (the stream is cut: no finish, no [DONE]);
//   - slow: the frames spread over the fault's delay instead of the
//     stream delay.
func (s *Server) writeStream(w http.ResponseWriter, r *http.Request, rep reply, f Fault) {
	st := rep.stream
	frames, delay, cut := st.frames, s.cfg.streamDelay, false
	switch f.Kind {
	case FaultStreamError:
		frames = append(frames[:len(frames)/2:len(frames)/2], st.fail...)
	case FaultTruncate:
		frames, cut = frames[:len(frames)/2], true
	case FaultSlowBody:
		d := f.Delay
		if d <= 0 {
			d = defaultSlowBody
		}
		delay = d / time.Duration(len(frames))
	}
	h := w.Header()
	for _, kv := range st.header {
		h.Set(kv[0], kv[1])
	}
	w.WriteHeader(rep.status)
	rc := http.NewResponseController(w)
	for i, frame := range frames {
		if i > 0 && !sleep(r.Context(), s.ctx, delay) {
			// The client left, or the server is closing: a stream that
			// ends here must not look complete to whoever still reads it.
			cutShort(w, rc)
			return
		}
		if _, err := w.Write(frame); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
	if cut {
		cutShort(w, rc)
	}
}
