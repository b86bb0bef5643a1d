package analytics

import (
	"encoding/json"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestULIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	at := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 100 {
		id := newULID(at.Add(time.Duration(i)*time.Millisecond), rng)
		if !ValidULID(id) {
			t.Fatalf("newULID made %q, not a ULID", id)
		}
		ids = append(ids, id)
	}
	if !sort.StringsAreSorted(ids) {
		t.Error("ULIDs of later milliseconds must sort later")
	}
	for _, bad := range []string{"", "01ARZ3NDEKTSV4RRFFQ69G5FA", "01ARZ3NDEKTSV4RRFFQ69G5FAVV", "01ARZ3NDEKTSV4RRFFQ69G5FAU", "81ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FA!"} {
		if ValidULID(bad) {
			t.Errorf("ValidULID(%q) = true", bad)
		}
	}
	if !ValidULID("01arz3ndektsv4rrffq69g5fav") {
		t.Error("lower case is a valid ULID")
	}
}

func TestCursorsOpenOnlyForTheirQuery(t *testing.T) {
	s := NewSigner()
	q, err := ParseQuery(&FeedbackSpec, "source=agent&dateFrom=2025-01-01")
	if err != nil {
		t.Fatal(err)
	}
	c := s.seal(q.binding("p"), []byte("position"))
	if pos, err := s.open(q.binding("p"), c); err != nil || string(pos) != "position" {
		t.Fatalf("open = %q, %v", pos, err)
	}
	other, _ := ParseQuery(&FeedbackSpec, "source=agent&dateFrom=2025-01-02")
	for name, try := range map[string]func() *Error{
		"another window":  func() *Error { _, err := s.open(other.binding("p"), c); return err },
		"another project": func() *Error { _, err := s.open(q.binding("q"), c); return err },
		"another server":  func() *Error { _, err := NewSigner().open(q.binding("p"), c); return err },
		"malformed":       func() *Error { _, err := s.open(q.binding("p"), "!!"); return err },
	} {
		if err := try(); err == nil || err.NotFound {
			t.Errorf("%s: %v, want a 400", name, err)
		}
	}
}

// ctr, the top clicked page and the order, on events small enough to
// count by hand.
func TestSearchesByHand(t *testing.T) {
	st := NewStore("p", NewSigner())
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	err := st.AddSearches([]SearchEvent{
		{Query: "b", Time: at, ClickedPath: "/y"},
		{Query: "b", Time: at.Add(time.Hour), ClickedPath: "/x"},
		{Query: "b", Time: at.Add(2 * time.Hour)},
		{Query: "b", Time: at.Add(3 * time.Hour), ClickedPath: "/y"},
		{Query: "a", Time: at.Add(4 * time.Hour), ClickedPath: "/x"},
		{Query: "a", Time: at.Add(5 * time.Hour), ClickedPath: "/z"},
		{Query: "c", Time: at.Add(-time.Hour)}, // outside the window below
	})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := ParseQuery(&SearchesSpec, "dateFrom=2025-03-01")
	page, qerr := st.Searches(&q)
	if qerr != nil {
		t.Fatal(qerr)
	}
	body := encode(t, page)
	want := `{"searches":[` +
		`{"searchQuery":"b","hits":4,"ctr":0.75,"topClickedPage":"/y","lastSearchedAt":"2025-03-01T03:00:00.000Z"},` +
		`{"searchQuery":"a","hits":2,"ctr":1,"topClickedPage":"/x","lastSearchedAt":"2025-03-01T05:00:00.000Z"}` +
		`],"totalSearches":6,"nextCursor":null}`
	if string(body) != want {
		t.Errorf("got  %s\nwant %s", body, want)
	}
	if !json.Valid(body) {
		t.Error("not JSON")
	}
}

func TestParseQueryReportsEveryProblem(t *testing.T) {
	_, err := ParseQuery(&ConversationsSpec, "limit=0&cursor=x&dateFrom=2025-02-01&dateTo=2025-01-01&offset=-1")
	e, ok := err.(*Error)
	if !ok || len(e.Details) != 3 {
		t.Fatalf("got %v, want three details (limit, cursor, dates; offset is not an assistant parameter)", err)
	}
}

func TestParseQueryBoundsItsDetails(t *testing.T) {
	_, err := ParseQuery(&FeedbackSpec, "status="+strings.Repeat("x,", 10_000))
	e, ok := err.(*Error)
	if !ok || len(e.Details) != maxProblems+1 {
		t.Fatalf("got %d details, want %d and a count of the rest", len(e.Details), maxProblems+1)
	}
	if want := "... and 9981 more problems"; e.Details[maxProblems] != want {
		t.Errorf("last detail %q, want %q", e.Details[maxProblems], want)
	}
}

// encode is v as the server writes it.
func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
