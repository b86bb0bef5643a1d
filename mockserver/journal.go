package mockserver

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

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
type JournalEntry struct {
	Time           time.Time     `json:"time"`                     // server clock when the request was handled
	Method         string        `json:"method"`                   // as sent
	Path           string        `json:"path"`                     // decoded, as routed
	Query          string        `json:"query,omitempty"`          // raw, as sent
	Route          string        `json:"route"`                    // a Route* name; "" when no route matched
	Status         int           `json:"status"`                   // sent to the client; 0 when no response was produced
	Processed      bool          `json:"processed"`                // the endpoint ran (see above)
	EndpointStatus int           `json:"endpointStatus,omitempty"` // the endpoint's answer, even if replaced; 0 if it did not run
	Fault          string        `json:"fault,omitempty"`          // the FaultKind applied, if any
	RequestID      string        `json:"requestId"`                // also sent in RequestIDHeader
	Auth           string        `json:"auth,omitempty"`           // the Authorization scheme, secret redacted
	Duration       time.Duration `json:"durationNs"`               // wall time spent serving, before delivery
}

// Journal bounds: an entry keeps at most maxJournalField bytes of its path
// and of its query (a 1 MB query string is a hostile client's, not a
// record worth keeping), and the journal at most maxJournalBytes in all,
// dropping the oldest entries first, whatever the entry count allows.
const (
	maxJournalField = 2 << 10
	maxJournalBytes = 16 << 20
	entryOverhead   = 256 // the fixed fields and the slot, roughly
)

// journal is a bounded queue: a long-lived standalone server must not grow
// without limit, and appending must stay cheap on the hot path.
type journal struct {
	mu      sync.Mutex
	entries []JournalEntry
	head    int // entries[:head] are dropped slots, reclaimed in bulk
	bytes   int
	size    int
}

func newJournal(size int) *journal {
	if size <= 0 {
		size = DefaultJournalSize
	}
	return &journal{size: size}
}

// clip shortens s to the field bound, saying how much was cut.
func clip(s string) string {
	if len(s) <= maxJournalField {
		return s
	}
	cut := maxJournalField
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "...(" + strconv.Itoa(len(s)-cut) + " more bytes)"
}

func entryBytes(e *JournalEntry) int {
	return entryOverhead + len(e.Method) + len(e.Path) + len(e.Query) + len(e.Auth) + len(e.RequestID)
}

func (j *journal) add(e JournalEntry) {
	e.Path, e.Query = clip(e.Path), clip(e.Query)
	e.Method, e.Auth = clip(e.Method), clip(e.Auth)
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = append(j.entries, e)
	j.bytes += entryBytes(&e)
	for len(j.entries)-j.head > j.size || j.bytes > maxJournalBytes {
		j.bytes -= entryBytes(&j.entries[j.head])
		j.entries[j.head] = JournalEntry{}
		j.head++
	}
	if j.head > len(j.entries)/2 {
		j.entries = append(j.entries[:0], j.entries[j.head:]...)
		j.head = 0
	}
}

func (j *journal) snapshot() []JournalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]JournalEntry(nil), j.entries[j.head:]...)
}

func (j *journal) clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries, j.head, j.bytes = nil, 0, 0
}

// Journal returns the recorded API requests, oldest first: at most the
// journal size (see WithJournalSize) and 16 MB, with paths and queries cut
// to 2 KB each. Use it to count calls and retries.
func (s *Server) Journal() []JournalEntry { return s.journal.snapshot() }

// ClearJournal forgets the recorded requests, typically after test setup so
// that later counts cover only the code under test.
func (s *Server) ClearJournal() { s.journal.clear() }

func (s *Server) logRequest(e *JournalEntry) {
	attrs := []slog.Attr{
		slog.String("method", e.Method),
		slog.String("path", clip(e.Path)),
		slog.Int("status", e.Status),
		slog.String("route", e.Route),
		slog.String("request_id", e.RequestID),
		slog.Duration("duration", e.Duration),
	}
	if e.Query != "" {
		attrs = append(attrs, slog.String("query", clip(e.Query)))
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
