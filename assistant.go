package mintlify

// The assistant API (keys "mint_dsc_"): the AI assistant of one docs site,
// its search and its pages. The stream its answers come in is read by
// [MessageStream] (stream.go); [AssistantProxy] (proxy.go) serves it to a
// browser without the key.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"unicode/utf8"
)

// DefaultAssistantBaseURL is where the assistant API lives, used unless
// WithBaseURL or $MINTLIFY_ASSISTANT_BASE_URL says otherwise.
const DefaultAssistantBaseURL = "https://api.mintlify.com/discovery"

// AssistantClient calls the assistant API of one docs site (its domain)
// with an assistant key. It is safe for concurrent use; make one and share
// it. Its calls go through the same request path as [Client]'s: the same
// retries, errors, redaction and observers.
type AssistantClient struct {
	c         *Client
	domain    string
	domainSeg string // domain, path-escaped
}

// WithDomain sets the docs site the assistant API answers for: its domain
// identifier (as in the dashboard, e.g. "docs.example.com"). Without it,
// NewAssistantClient reads $MINTLIFY_DOMAIN. Other clients ignore it.
func WithDomain(domain string) Option { return func(c *config) { c.domain = domain } }

// NewAssistantClient builds an [AssistantClient]. The key comes from
// WithAPIKey or $MINTLIFY_ASSISTANT_API_KEY and must be an assistant key
// ("mint_dsc_..."); the domain from WithDomain or $MINTLIFY_DOMAIN; the
// address from WithBaseURL or $MINTLIFY_ASSISTANT_BASE_URL, else
// [DefaultAssistantBaseURL] ($MINTLIFY_BASE_URL, the admin API's, is not
// read). A missing or malformed key or domain fails with ErrInvalidInput
// before anything is sent; the key never appears in the error.
func NewAssistantClient(opts ...Option) (*AssistantClient, error) {
	cfg := defaults(assistantAPI)
	cfg.domain = os.Getenv(EnvDomain)
	cfg.apply(opts)
	c, err := newClient(assistantAPI, cfg)
	if err != nil {
		return nil, err
	}
	return &AssistantClient{c: c, domain: cfg.domain, domainSeg: url.PathEscape(cfg.domain)}, nil
}

// checkDomain refuses a domain that cannot be the site's identifier: the
// API names sites by a hostname-like identifier, and anything else would
// change the path it is sent in.
func checkDomain(domain string) error {
	switch {
	case domain == "":
		return invalidf("missing domain: use WithDomain or set $%s", EnvDomain)
	case len(domain) > 253:
		return invalidf("domain is %d bytes: at most 253", len(domain))
	case strings.Trim(domain, ".-") != domain || strings.Contains(domain, ".."):
		return invalidf("domain %q: a hostname-like identifier neither starts nor ends with a dot or hyphen, and has no empty label", domain)
	case strings.IndexFunc(domain, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-')
	}) >= 0:
		return invalidf("domain %q: only letters, digits, dots and hyphens (no scheme, port or path)", domain)
	}
	return nil
}

// Domain returns the docs site the client answers for.
func (a *AssistantClient) Domain() string {
	if a == nil {
		return ""
	}
	return a.domain
}

// ready refuses a nil or zero AssistantClient and a nil context.
func (a *AssistantClient) ready(ctx context.Context) error {
	if a == nil || a.c == nil {
		return invalidf("nil or zero AssistantClient: make one with NewAssistantClient")
	}
	return a.c.ready(ctx)
}

// Format prints the client's domain and base URL, never its key, for
// every verb.
func (a *AssistantClient) Format(f fmt.State, verb rune) {
	if a == nil || a.c == nil {
		fmt.Fprint(f, "<nil>")
		return
	}
	fmt.Fprintf(f, "mintlify.AssistantClient{domain: %q, baseURL: %q}", a.domain, a.c.baseURL)
}

// The assistant API's routes, relative to the base URL; the site's domain
// follows each.
const (
	assistantPathSearch  = "/v1/search/"
	assistantPathPage    = "/v1/page/"
	assistantPathMessage = "/v2/assistant/"
)

// The documented ranges, and the SDK's bounds on an answer.
const (
	maxDocSearchPageSize  = 50 // pageSize 1..50
	defaultAskFP          = "anonymous"
	maxRetrievalPageSize  = 50  // retrievalPageSize 1..50, as the message route allows
	maxCurrentPathRunes   = 200 // currentPath, as the vendor documents it
	maxDocSearchMetadata  = 64 << 10
	assistantMessageIDLen = 16 // random bytes of a message ID the SDK makes
)

// DocSearchParams is a search of the site's documentation for
// [AssistantClient.SearchDocs]. Only Query is needed: the zero value of
// every other field is the API's default and is not sent.
type DocSearchParams struct {
	// Query is what to search for; "" is refused.
	Query string
	// PageSize is the most results wanted: 1..50, or 0 for the API's
	// default (10).
	PageSize int
	// ScoreThreshold keeps only results whose relevance score is at or
	// above it: 0..1, or nil for none.
	ScoreThreshold *float64
	// Version, Language and Tag keep only pages of that version, language
	// or tag; "" is no filter.
	Version, Language, Tag string
	// Groups are the documentation groups the caller may see, on a site
	// whose pages are protected by group: results are limited to the pages
	// they may view. None: public pages only. Each must be non-empty.
	Groups []string
}

// DocSearchResult is one page found by [AssistantClient.SearchDocs]. It
// marshals as the API sends it.
type DocSearchResult struct {
	// Path names the page on the site, as [AssistantClient.GetPageContent]
	// takes it (the API sends it without a leading slash).
	Path string `json:"path"`
	// Content is the part of the page that matched best.
	Content string `json:"content"`
	// Metadata is what else the API says of the result, such as "title"
	// and "score"; nil when it says nothing. A result's metadata larger
	// than 64 KiB is refused as malformed.
	Metadata map[string]any `json:"metadata,omitempty"`
}

// PageContent is a page's whole text, from [AssistantClient.GetPageContent].
// It marshals as the API sends it.
type PageContent struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// ChatMessage is one message of a conversation sent to
// [AssistantClient.Message]: the user's questions and the assistant's
// earlier answers, oldest first.
type ChatMessage struct {
	// ID names the message; "" lets the SDK make a random one (the API
	// requires an ID).
	ID string
	// Role is "user", "assistant" or "system".
	Role string
	// Parts are the message's text, in order: at least one.
	Parts []ChatPart
}

// ChatPart is a part of a [ChatMessage]. Only text parts are sent: Type is
// "text" ("" means "text"), anything else is refused.
type ChatPart struct {
	Type, Text string
}

// MessageParams is a message for [AssistantClient.Message]: the
// conversation so far, ending with the user's new question. Only Messages
// is needed.
type MessageParams struct {
	// FP names the person asking, for the site's analytics: a stable ID
	// of your own, or "anonymous" (what "" sends).
	FP string
	// Messages is the conversation, oldest first; the last message must be
	// the user's, with some text. The API answers the last message in the
	// light of the others.
	Messages []ChatMessage
	// ThreadID and ThreadKey continue a thread: the [MessageStream.ThreadID]
	// and [MessageStream.ThreadKey] of its first answer. Both or neither:
	// without them the message starts a new thread, whose answer carries
	// its ID and key.
	ThreadID, ThreadKey string
	// RetrievalPageSize is how many search results the answer is drawn
	// from: 1..50, or 0 for the API's default (5).
	RetrievalPageSize int
	// CurrentPath is the page the user is reading, at most 200
	// characters; "" sends none.
	CurrentPath string
	// Version and Language keep the answer to pages of that version or
	// language; "" is no filter.
	Version, Language string
	// Groups are the documentation groups the user may see, as in
	// [DocSearchParams]. Take them from your own record of the user, never
	// from the user's request: a group unlocks the pages it protects.
	Groups []string
}

// SearchDocs searches the site's documentation (POST /v1/search/{domain})
// and returns the pages found, best first: at most p.PageSize (default
// 10). A search costs no credits and is retried like a GET. Input outside
// the documented ranges is ErrInvalidInput, before anything is sent; an
// answer that is not an array of results, or holds more than 50, is
// ErrMalformedResponse.
func (a *AssistantClient) SearchDocs(ctx context.Context, p DocSearchParams) ([]DocSearchResult, error) {
	if err := a.ready(ctx); err != nil {
		return nil, err
	}
	body, err := p.body()
	if err != nil {
		return nil, a.c.redact(err)
	}
	r := request{method: http.MethodPost, path: assistantPathSearch + a.domainSeg, body: body, idempotent: true}
	w, err := send[wireDocSearch](ctx, a.c, r)
	if err != nil {
		return nil, err
	}
	return each(w.results, (*wireDocSearchResult).result), nil
}

// GetPageContent reads a page's whole text (POST /v1/page/{domain}): path
// is a [DocSearchResult]'s Path (a leading slash is accepted); groups are
// those the caller may see, as in [DocSearchParams]. A page that does not
// exist, or that groups may not see, is ErrNotFound. It costs no credits
// and is retried like a GET.
func (a *AssistantClient) GetPageContent(ctx context.Context, path string, groups ...string) (*PageContent, error) {
	if err := a.ready(ctx); err != nil {
		return nil, err
	}
	if path == "" {
		return nil, invalidf("empty page path: pass a search result's Path")
	}
	if err := checkGroups(groups); err != nil {
		return nil, err
	}
	body, err := requestBody(pageContentBody{Path: path, Groups: groups})
	if err != nil {
		return nil, a.c.redact(err)
	}
	r := request{method: http.MethodPost, path: assistantPathPage + a.domainSeg, body: body, idempotent: true}
	w, err := send[wirePageContent](ctx, a.c, r)
	if err != nil {
		return nil, err
	}
	got := w.Path.s
	switch {
	case got == "":
		got = path // the answer does not say: it is the page asked for
	case strings.Trim(got, "/") != strings.Trim(path, "/"):
		return nil, a.c.malformed(r, "asked for page %s, the answer is about %s", answerText(path), answerText(got))
	}
	return &PageContent{Path: got, Content: w.Content.s}, nil
}

// Message sends a message to the site's assistant (POST
// /v2/assistant/{domain}/message) and returns its answer as it arrives:
// read it with [MessageStream.Events], or its accessors once Events has
// ended, and Close it if you stop early. Input outside the documented
// ranges is ErrInvalidInput, before anything is sent.
//
// A message spends credits, so it is never sent twice: it is retried only
// on a 429 or when no byte of the request left. When the request may have
// reached the server without an answer saying what became of it (a reset
// connection, a 500, 502 or 504), the error wraps [ErrOutcomeUnknown]. An
// unknown thread, or a ThreadKey that is not the thread's, is ErrNotFound.
// Once the answer has begun, a break in it ends Events with [ErrStream].
func (a *AssistantClient) Message(ctx context.Context, p MessageParams) (*MessageStream, error) {
	if err := a.ready(ctx); err != nil {
		return nil, err
	}
	body, err := p.body()
	if err != nil {
		return nil, a.c.redact(err)
	}
	resp, err := a.openMessage(ctx, body, false)
	if err != nil {
		return nil, err
	}
	return newMessageStream(ctx, resp.Body, resp.Header, a.domain, a.c.scrub), nil
}

// Ask asks the site's assistant one question, as an anonymous user (fp
// "anonymous") in a new thread, and reads the answer to its end: the
// one-shot case. It fails as [AssistantClient.Message] does, and with the
// stream's error (no answer) when the answer breaks off. To show the text
// as it arrives, or to continue the thread, use Message.
func (a *AssistantClient) Ask(ctx context.Context, question string) (*Answer, error) {
	if err := a.ready(ctx); err != nil {
		return nil, err
	}
	if strings.TrimSpace(question) == "" {
		return nil, invalidf("empty question")
	}
	s, err := a.Message(ctx, MessageParams{Messages: []ChatMessage{{Role: "user", Parts: []ChatPart{{Type: "text", Text: question}}}}})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.answer()
}

// openMessage sends a message body and hands back the answer with its
// body open: the caller reads and closes it. Message and the proxy share
// it, so both spend credits under the same rule. With refusalsBack, a 429
// is the caller's at once (an *APIError with its RetryAfter), not waited
// out: the proxy's browser waits, not the proxy.
func (a *AssistantClient) openMessage(ctx context.Context, body []byte, refusalsBack bool) (*http.Response, error) {
	var resp *http.Response
	r := request{method: http.MethodPost, path: assistantPathMessage + a.domainSeg + "/message", body: body,
		stream: func(answer *http.Response) { resp = answer }, refusalsBack: refusalsBack}
	if _, err := a.c.do(ctx, r, nil); err != nil {
		return nil, err
	}
	return resp, nil
}

// scrub removes the key from a text built from what the server sent.
func (a *AssistantClient) scrub(s string) string { return a.c.scrub(s, false) }

// --- Requests -------------------------------------------------------------

type docSearchBody struct {
	Query          string     `json:"query"`
	PageSize       int        `json:"pageSize,omitempty"`
	ScoreThreshold *float64   `json:"scoreThreshold,omitempty"`
	Filter         *docFilter `json:"filter,omitempty"`
}

// docFilter is the filter of a search or a message (a message's has no
// tag).
type docFilter struct {
	Version  string   `json:"version,omitempty"`
	Language string   `json:"language,omitempty"`
	Tag      string   `json:"tag,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

// filterOf is nil when every field is empty: no filter is sent.
func filterOf(f docFilter) *docFilter {
	if f.Version == "" && f.Language == "" && f.Tag == "" && len(f.Groups) == 0 {
		return nil
	}
	return &f
}

type pageContentBody struct {
	Path   string   `json:"path"`
	Groups []string `json:"groups,omitempty"`
}

// messageBody is the message route's body; the proxy builds one too, with
// the browser's context items.
type messageBody struct {
	FP                string          `json:"fp"`
	Messages          []wireUIMessage `json:"messages"`
	ThreadID          string          `json:"threadId,omitempty"`
	ThreadKey         string          `json:"threadKey,omitempty"`
	RetrievalPageSize int             `json:"retrievalPageSize,omitempty"`
	Filter            *docFilter      `json:"filter,omitempty"`
	Context           []wireContext   `json:"context,omitempty"`
	CurrentPath       string          `json:"currentPath,omitempty"`
}

type wireUIMessage struct {
	ID    string     `json:"id"`
	Role  string     `json:"role"`
	Parts []wirePart `json:"parts"`
}

type wirePart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// wireContext is a piece of the page the reader pointed at (code or a
// text selection): only the proxy forwards them.
type wireContext struct {
	Type      string `json:"type"`
	Value     string `json:"value"`
	Path      string `json:"path,omitempty"`
	ElementID string `json:"elementId,omitempty"`
}

// body checks p against the search route's schema and encodes it.
func (p DocSearchParams) body() ([]byte, error) {
	switch {
	case p.Query == "":
		return nil, invalidf("empty Query")
	case p.PageSize < 0 || p.PageSize > maxDocSearchPageSize:
		return nil, invalidf("PageSize %d outside 1..%d (0 for the API's default, 10)", p.PageSize, maxDocSearchPageSize)
	case p.ScoreThreshold != nil && !(*p.ScoreThreshold >= 0 && *p.ScoreThreshold <= 1): // NaN too
		return nil, invalidf("ScoreThreshold %v outside 0..1", *p.ScoreThreshold)
	}
	if err := checkGroups(p.Groups); err != nil {
		return nil, err
	}
	return requestBody(docSearchBody{
		Query:          p.Query,
		PageSize:       p.PageSize,
		ScoreThreshold: p.ScoreThreshold,
		Filter:         filterOf(docFilter{Version: p.Version, Language: p.Language, Tag: p.Tag, Groups: p.Groups}),
	})
}

// body checks p against the message route's schema and the SDK's rules
// and encodes it.
func (p MessageParams) body() ([]byte, error) {
	if len(p.Messages) == 0 {
		return nil, invalidf("no Messages: send at least the user's question")
	}
	msgs := make([]wireUIMessage, len(p.Messages))
	for i, m := range p.Messages {
		switch m.Role {
		case "user", "assistant", "system":
		default:
			return nil, invalidf("Messages[%d].Role %s: want user, assistant or system", i, answerText(m.Role))
		}
		if len(m.Parts) == 0 {
			return nil, invalidf("Messages[%d] has no Parts", i)
		}
		parts := make([]wirePart, len(m.Parts))
		for j, part := range m.Parts {
			if part.Type != "" && part.Type != "text" {
				return nil, invalidf("Messages[%d].Parts[%d].Type %s: only text parts are sent", i, j, answerText(part.Type))
			}
			parts[j] = wirePart{Type: "text", Text: part.Text}
		}
		id := m.ID
		if id == "" {
			id = newMessageID()
		}
		msgs[i] = wireUIMessage{ID: id, Role: m.Role, Parts: parts}
	}
	last := p.Messages[len(p.Messages)-1]
	switch {
	case last.Role != "user":
		return nil, invalidf("the last message is the %s's: the last must be the user's question", last.Role)
	case strings.TrimSpace(chatText(last)) == "":
		return nil, invalidf("the user's question (the last message) has no text")
	case (p.ThreadID == "") != (p.ThreadKey == ""):
		return nil, invalidf("ThreadID and ThreadKey go together: pass both to continue a thread, neither to start one")
	case p.RetrievalPageSize < 0 || p.RetrievalPageSize > maxRetrievalPageSize:
		return nil, invalidf("RetrievalPageSize %d outside 1..%d (0 for the API's default, 5)", p.RetrievalPageSize, maxRetrievalPageSize)
	}
	if n := utf8.RuneCountInString(p.CurrentPath); n > maxCurrentPathRunes {
		return nil, invalidf("CurrentPath has %d characters: at most %d", n, maxCurrentPathRunes)
	}
	if err := checkGroups(p.Groups); err != nil {
		return nil, err
	}
	fp := p.FP
	if fp == "" {
		fp = defaultAskFP
	}
	return requestBody(messageBody{
		FP:                fp,
		Messages:          msgs,
		ThreadID:          p.ThreadID,
		ThreadKey:         p.ThreadKey,
		RetrievalPageSize: p.RetrievalPageSize,
		Filter:            filterOf(docFilter{Version: p.Version, Language: p.Language, Groups: p.Groups}),
		CurrentPath:       p.CurrentPath,
	})
}

// chatText is a message's text, its parts together.
func chatText(m ChatMessage) string {
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func checkGroups(groups []string) error {
	for i, g := range groups {
		if g == "" {
			return invalidf("Groups[%d] is empty", i)
		}
	}
	return nil
}

// newMessageID makes a message's ID: random, so that two messages never
// share one.
func newMessageID() string {
	var b [assistantMessageIDLen]byte
	_, _ = rand.Read(b[:]) // never fails
	return "msg_" + hex.EncodeToString(b[:])
}

// --- Answers --------------------------------------------------------------

// wireDocSearch is the search answer: a bare array of at most 50 results
// (the largest page), a bounded list, so that a longer one is refused
// before the rest is decoded. null is refused by check.
type wireDocSearch struct {
	results list[wireDocSearchResult, docSearchMax]
}

// docSearchMax bounds the results of a search.
type docSearchMax struct{}

func (docSearchMax) max() (int, string) {
	return maxDocSearchPageSize, "results, the route's largest page"
}

func (w *wireDocSearch) UnmarshalJSON(b []byte) error { return w.results.UnmarshalJSON(b) }

func (w *wireDocSearch) check() error {
	if w.results == nil {
		return errors.New("the answer is null, not an array of results")
	}
	return checkItems("results", w.results)
}

type wireDocSearchResult struct {
	Content  jsonString      `json:"content"`
	Path     jsonString      `json:"path"`
	Metadata json.RawMessage `json:"metadata"`
}

// check insists on a path; metadata, when sent, is an object of at most
// maxDocSearchMetadata bytes.
func (r *wireDocSearchResult) check() error {
	var c fieldCheck
	c.need(r.Path.present(), "path")
	m := r.Metadata
	switch {
	case c.err != nil:
		return c.err
	case len(m) > maxDocSearchMetadata:
		return fmt.Errorf("metadata larger than %d KiB", maxDocSearchMetadata>>10)
	case len(m) > 0 && string(m) != "null" && m[0] != '{':
		return errors.New("metadata is not an object")
	}
	return nil
}

func (r *wireDocSearchResult) result() DocSearchResult {
	out := DocSearchResult{Path: r.Path.s, Content: r.Content.s}
	_ = json.Unmarshal(r.Metadata, &out.Metadata) // an object, checked
	return out
}

// wirePageContent is the page answer; a path null or absent is "".
type wirePageContent struct {
	Path    jsonString `json:"path"`
	Content jsonString `json:"content"`
}

func (w *wirePageContent) check() error {
	var c fieldCheck
	c.need(w.Content.present(), "content")
	return c.err
}
