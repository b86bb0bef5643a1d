package journal

import (
	"strings"
	"testing"
)

// An entry keeps no key the client put anywhere, and at most 2 KB of a
// field, saying how much was cut.
func TestEntriesAreClippedAndRedacted(t *testing.T) {
	j := New(10)
	e := Entry{Method: "GET", Path: "/v1/" + strings.Repeat("a", 5000), Query: "k=mint_secret", Auth: Authorization([]string{"Bearer mint_secret"})}
	j.Add(&e)
	got := j.Snapshot()[0]
	if got.Query != "k=mint_***" || got.Auth != "Bearer mint_***" {
		t.Errorf("query %q, auth %q", got.Query, got.Auth)
	}
	if !strings.HasSuffix(got.Path, "...(2956 more bytes)") || len(got.Path) > maxJournalField+30 {
		t.Errorf("path of %d bytes ends %q", len(got.Path), got.Path[len(got.Path)-30:])
	}
	if e.Query != got.Query {
		t.Error("the caller's entry (for the log line) is not the redacted one")
	}
}

// The journal keeps the newest entries within its count.
func TestTheOldestEntriesGoFirst(t *testing.T) {
	j := New(3)
	for _, id := range []string{"1", "2", "3", "4", "5"} {
		j.Add(&Entry{RequestID: id})
	}
	var ids []string
	for _, e := range j.Snapshot() {
		ids = append(ids, e.RequestID)
	}
	if strings.Join(ids, ",") != "3,4,5" {
		t.Errorf("kept %v", ids)
	}
	j.Clear()
	if len(j.Snapshot()) != 0 {
		t.Error("Clear kept entries")
	}
}
