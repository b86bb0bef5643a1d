// Package journal is the mock's request journal: a bounded record of the
// requests the server answered, what it answered and which fault struck,
// with every key a client put anywhere in them redacted (AnyKey, and
// Authorization for the header, which need no list of keys). It knows
// nothing of HTTP; the server fills an Entry per request and adds it.
package journal

import (
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Entry records one API request as the server saw and answered it (it is
// mockserver.JournalEntry). It never holds the API key, so a journal can
// be printed in test output.
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
type Entry struct {
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

// Journal is a bounded queue: a long-lived standalone server must not grow
// without limit, and appending must stay cheap on the hot path.
type Journal struct {
	mu      sync.Mutex
	entries []Entry
	head    int // entries[:head] are dropped slots, reclaimed in bulk
	bytes   int
	size    int
}

// New returns a journal that keeps at most size entries.
func New(size int) *Journal {
	return &Journal{size: size}
}

// Clip shortens a client's value to n bytes, cut on a rune boundary, saying
// how much was left out: what the journal keeps of a path or a query, and
// what an error detail repeats of what the client sent.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "...(" + strconv.Itoa(len(s)-cut) + " more bytes)"
}

func entryBytes(e *Entry) int {
	return entryOverhead + len(e.Method) + len(e.Path) + len(e.Query) + len(e.Auth) + len(e.RequestID)
}

// Add records e. Its method, path, query and Auth are clipped first, so a
// hostile megabyte is not scanned; then no key the client put in them is
// kept. e is changed in place, so a log line written from it after Add is
// as safe as the journal.
func (j *Journal) Add(e *Entry) {
	for _, f := range []*string{&e.Method, &e.Path, &e.Query, &e.Auth} {
		*f = AnyKey(Clip(*f, maxJournalField))
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = append(j.entries, *e)
	j.bytes += entryBytes(e)
	for len(j.entries)-j.head > j.size || j.bytes > maxJournalBytes {
		j.bytes -= entryBytes(&j.entries[j.head])
		j.entries[j.head] = Entry{}
		j.head++
	}
	if j.head > len(j.entries)/2 {
		j.entries = append(j.entries[:0], j.entries[j.head:]...)
		j.head = 0
	}
}

// Snapshot returns the recorded entries, oldest first.
func (j *Journal) Snapshot() []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Entry(nil), j.entries[j.head:]...)
}

// Clear forgets every entry.
func (j *Journal) Clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries, j.head, j.bytes = nil, 0, 0
}
