package mockserver_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/docsagent/mintlify-go/mockserver"
)

// This file is the spec written as a naive reference: each route's answer
// computed from the raw events in the plainest way, sharing nothing with
// the mock's code. The route tests compare the mock with it.

const timeLayout = "2006-01-02T15:04:05.000Z"

func stamp(t time.Time) string { return t.UTC().Format(timeLayout) }

// window is a date window as a client sends it; zero times are not sent.
type window struct{ from, to time.Time }

func (w window) query() string {
	q := ""
	if !w.from.IsZero() {
		q += "&dateFrom=" + w.from.UTC().Format(time.RFC3339Nano)
	}
	if !w.to.IsZero() {
		q += "&dateTo=" + w.to.UTC().Format(time.RFC3339Nano)
	}
	return q
}

func (w window) has(t time.Time) bool {
	return (w.from.IsZero() || !t.Before(w.from)) && (w.to.IsZero() || t.Before(w.to))
}

func modelViews(visits []mockserver.Visit, w window) (counts, []row) {
	byPath := map[string]*row{}
	var totals counts
	for _, v := range visits {
		if !w.has(v.Time) {
			continue
		}
		r := byPath[v.Path]
		if r == nil {
			r = &row{Path: v.Path}
			byPath[v.Path] = r
		}
		if v.AI {
			r.AI++
			totals.AI++
		} else {
			r.Human++
			totals.Human++
		}
		r.Total++
		totals.Total++
	}
	rows := make([]row, 0, len(byPath))
	for _, r := range byPath {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Path, b.Path))
	})
	return totals, rows
}

// modelVisitors counts distinct visitors: per path and site-wide, human
// and AI separately, and total once per visitor whichever way it was seen.
func modelVisitors(visits []mockserver.Visit, w window) (counts, []row) {
	type seen struct{ human, ai bool }
	byPath := map[string]map[string]*seen{}
	site := map[string]*seen{}
	mark := func(m map[string]*seen, who string, ai bool) {
		v := m[who]
		if v == nil {
			v = &seen{}
			m[who] = v
		}
		if ai {
			v.ai = true
		} else {
			v.human = true
		}
	}
	tally := func(m map[string]*seen) counts {
		var c counts
		for _, v := range m {
			if v.human {
				c.Human++
			}
			if v.ai {
				c.AI++
			}
			c.Total++
		}
		return c
	}
	for _, v := range visits {
		if !w.has(v.Time) {
			continue
		}
		if byPath[v.Path] == nil {
			byPath[v.Path] = map[string]*seen{}
		}
		mark(byPath[v.Path], v.VisitorID, v.AI)
		mark(site, v.VisitorID, v.AI)
	}
	var rows []row
	for path, m := range byPath {
		c := tally(m)
		rows = append(rows, row{Path: path, Human: c.Human, AI: c.AI, Total: c.Total})
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Path, b.Path))
	})
	return tally(site), rows
}

type searchRow struct {
	SearchQuery    string  `json:"searchQuery"`
	Hits           int     `json:"hits"`
	CTR            float64 `json:"ctr"`
	TopClickedPage *string `json:"topClickedPage"`
	LastSearchedAt string  `json:"lastSearchedAt"`
}

func modelSearches(events []mockserver.SearchEvent, w window) (int, []searchRow) {
	type agg struct {
		hits, clicks int
		last         time.Time
		pages        map[string]int
	}
	terms := map[string]*agg{}
	total := 0
	for _, e := range events {
		if !w.has(e.Time) {
			continue
		}
		total++
		a := terms[e.Query]
		if a == nil {
			a = &agg{pages: map[string]int{}, last: e.Time}
			terms[e.Query] = a
		}
		a.hits++
		if e.Time.After(a.last) {
			a.last = e.Time
		}
		if e.ClickedPath != "" {
			a.clicks++
			a.pages[e.ClickedPath]++
		}
	}
	var rows []searchRow
	for term, a := range terms {
		r := searchRow{SearchQuery: term, Hits: a.hits, CTR: float64(a.clicks) / float64(a.hits), LastSearchedAt: stamp(a.last)}
		best, bestN := "", 0
		for p, n := range a.pages {
			if n > bestN || (n == bestN && p < best) {
				best, bestN = p, n
			}
		}
		if bestN > 0 {
			r.TopClickedPage = &best
		}
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b searchRow) int {
		return cmp.Or(cmp.Compare(b.Hits, a.Hits), cmp.Compare(a.SearchQuery, b.SearchQuery))
	})
	return total, rows
}

// feedbackRow holds every field any source may carry; absent ones stay nil.
type feedbackRow struct {
	ID        string  `json:"id"`
	Path      string  `json:"path"`
	Comment   *string `json:"comment"`
	CreatedAt *string `json:"createdAt"`
	Source    string  `json:"source"`
	Status    string  `json:"status"`
	Helpful   *bool   `json:"helpful,omitempty"`
	Contact   *string `json:"contact,omitempty"`
	Code      *string `json:"code,omitempty"`
	Filename  *string `json:"filename,omitempty"`
	Lang      *string `json:"lang,omitempty"`
}

func strOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

type feedbackFilter struct {
	source   string
	statuses []string
}

func (f feedbackFilter) query() string {
	q := ""
	if f.source != "" {
		q += "&source=" + f.source
	}
	if len(f.statuses) > 0 {
		q += "&status="
		for i, s := range f.statuses {
			if i > 0 {
				q += ","
			}
			q += s
		}
	}
	return q
}

func (f feedbackFilter) keeps(e mockserver.Feedback) bool {
	return (f.source == "" || string(e.Source) == f.source) &&
		(len(f.statuses) == 0 || slices.Contains(f.statuses, string(e.Status)))
}

func modelFeedback(entries []mockserver.Feedback, w window, f feedbackFilter) []feedbackRow {
	var kept []mockserver.Feedback
	for _, e := range entries {
		if w.has(e.CreatedAt) && f.keeps(e) {
			kept = append(kept, e)
		}
	}
	slices.SortFunc(kept, func(a, b mockserver.Feedback) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.ID, a.ID))
	})
	rows := make([]feedbackRow, len(kept))
	for i, e := range kept {
		created := stamp(e.CreatedAt)
		r := feedbackRow{ID: e.ID, Path: e.Path, Comment: strOrNil(e.Comment), CreatedAt: &created, Source: string(e.Source), Status: string(e.Status)}
		switch e.Source {
		case mockserver.FeedbackContextual:
			helpful := e.Helpful
			r.Helpful, r.Contact = &helpful, strOrNil(e.Contact)
		case mockserver.FeedbackCodeSnippet:
			code := e.Code
			r.Code, r.Filename, r.Lang = &code, strOrNil(e.Filename), strOrNil(e.Lang)
		}
		rows[i] = r
	}
	return rows
}

type pageFeedbackRow struct {
	Path       string `json:"path"`
	ThumbsUp   int    `json:"thumbsUp"`
	ThumbsDown int    `json:"thumbsDown"`
	Code       int    `json:"code"`
	Total      int    `json:"total"`
}

func modelFeedbackByPage(entries []mockserver.Feedback, w window, f feedbackFilter) []pageFeedbackRow {
	byPath := map[string]*pageFeedbackRow{}
	for _, e := range entries {
		if !w.has(e.CreatedAt) || !f.keeps(e) {
			continue
		}
		r := byPath[e.Path]
		if r == nil {
			r = &pageFeedbackRow{Path: e.Path}
			byPath[e.Path] = r
		}
		r.Total++
		switch e.Source {
		case mockserver.FeedbackCodeSnippet:
			r.Code++
		case mockserver.FeedbackContextual: // "contextual feedback entries"; thumbs_only votes count in Total only
			if e.Helpful {
				r.ThumbsUp++
			} else {
				r.ThumbsDown++
			}
		}
	}
	var rows []pageFeedbackRow
	for _, r := range byPath {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(a, b pageFeedbackRow) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Path, b.Path))
	})
	return rows
}

type conversationRow struct {
	ID               string       `json:"id"`
	Timestamp        string       `json:"timestamp"`
	Query            string       `json:"query"`
	Response         string       `json:"response"`
	ResponseType     string       `json:"responseType"`
	Sources          []sourceLink `json:"sources"`
	ResolutionStatus string       `json:"resolutionStatus"`
	QueryCategory    *string      `json:"queryCategory"`
	PageURL          *string      `json:"pageUrl"`
	cursor           string       // the turn's user message ID
}

type sourceLink struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func modelConversations(threads []mockserver.Thread, w window) []conversationRow {
	var rows []conversationRow
	for _, t := range threads {
		for _, turn := range t.Turns {
			if !w.has(turn.Time) {
				continue
			}
			sources := []sourceLink{}
			for _, s := range turn.Sources {
				sources = append(sources, sourceLink{s.Title, s.URL})
			}
			rows = append(rows, conversationRow{
				ID: t.ID, Timestamp: stamp(turn.Time), Query: turn.Query, Response: turn.Response,
				ResponseType: orDefault(turn.ResponseType, "answer"), Sources: sources,
				ResolutionStatus: orDefault(turn.ResolutionStatus, "answered"),
				QueryCategory:    strOrNil(turn.QueryCategory), PageURL: strOrNil(turn.PageURL),
				cursor: turn.UserMessageID,
			})
		}
	}
	slices.SortFunc(rows, func(a, b conversationRow) int {
		return cmp.Or(cmp.Compare(b.Timestamp, a.Timestamp), cmp.Compare(b.cursor, a.cursor))
	})
	return rows
}

type callerStats struct {
	Web   int `json:"web"`
	API   int `json:"api"`
	Other int `json:"other"`
	Total int `json:"total"`
}

func modelCallerStats(threads []mockserver.Thread, w window) callerStats {
	var s callerStats
	for _, t := range threads {
		for _, turn := range t.Turns {
			if !w.has(turn.Time) {
				continue
			}
			switch t.Caller {
			case mockserver.CallerAPI:
				s.API++
			case mockserver.CallerOther:
				s.Other++
			default:
				s.Web++
			}
			s.Total++
		}
	}
	return s
}

// dataset is a set of events built by the test itself: random events plus
// hand-made ones at the edges.
type dataset struct {
	visits   []mockserver.Visit
	searches []mockserver.SearchEvent
	feedback []mockserver.Feedback
	threads  []mockserver.Thread
}

var day0 = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)

// ulidFor makes a ULID for t whose random part is n: deterministic, unique
// per n, independent of the mock's generator.
func ulidFor(t time.Time, n uint64) string {
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	var out [26]byte
	ms := uint64(t.UnixMilli()) // 48 bits in 10 characters, the top 2 bits zero
	for i := 9; i >= 0; i-- {
		out[i] = alphabet[ms&31]
		ms >>= 5
	}
	for i := 25; i >= 10; i-- { // 80 bits of "randomness": n
		out[i] = alphabet[n&31]
		n >>= 5
	}
	return string(out[:])
}

func buildDataset(seed uint64) dataset {
	rng := rand.New(rand.NewPCG(seed, 42))
	var d dataset
	at := func(maxDays int) time.Time {
		return day0.Add(time.Duration(rng.Int64N(int64(maxDays) * int64(24*time.Hour))))
	}
	paths := make([]string, 40)
	for i := range paths {
		paths[i] = "/p/" + strconv.Itoa(i)
	}
	for range 3000 {
		d.visits = append(d.visits, mockserver.Visit{
			VisitorID: "v" + strconv.Itoa(rng.IntN(500)), Path: paths[rng.IntN(1+rng.IntN(len(paths)))],
			AI: rng.IntN(4) == 0, Time: at(60),
		})
	}
	// A visitor on many paths, and visits on midnight.
	for i, p := range paths {
		d.visits = append(d.visits, mockserver.Visit{VisitorID: "everywhere", Path: p, Time: day0.Add(time.Duration(i) * 24 * time.Hour)})
	}

	terms := make([]string, 30)
	for i := range terms {
		terms[i] = "term " + strconv.Itoa(i)
	}
	for range 800 {
		e := mockserver.SearchEvent{Query: terms[rng.IntN(1+rng.IntN(len(terms)))], Time: at(60)}
		if rng.IntN(10) < 4 {
			e.ClickedPath = paths[rng.IntN(10)]
		}
		d.searches = append(d.searches, e)
	}
	// The same term with and without clicks; two terms tied on hits; a
	// search at midnight and one a nanosecond before.
	midnight := day0.Add(10 * 24 * time.Hour)
	d.searches = append(d.searches,
		mockserver.SearchEvent{Query: "both ways", Time: midnight},
		mockserver.SearchEvent{Query: "both ways", Time: midnight.Add(-1), ClickedPath: "/p/1"},
		mockserver.SearchEvent{Query: "both ways", Time: midnight.Add(time.Hour), ClickedPath: "/p/2"},
		mockserver.SearchEvent{Query: "tie b", Time: midnight.Add(2 * time.Hour)},
		mockserver.SearchEvent{Query: "tie a", Time: midnight.Add(3 * time.Hour)},
		mockserver.SearchEvent{Query: "Tie a", Time: midnight.Add(3 * time.Hour)}, // another term: case counts
	)

	sources := []mockserver.FeedbackSource{mockserver.FeedbackCodeSnippet, mockserver.FeedbackContextual, mockserver.FeedbackAgent, mockserver.FeedbackThumbsOnly}
	statuses := []mockserver.FeedbackStatus{mockserver.FeedbackPending, mockserver.FeedbackInProgress, mockserver.FeedbackResolved, mockserver.FeedbackDismissed}
	for i := range 300 {
		f := mockserver.Feedback{
			ID: "f" + strconv.Itoa(1000+i), Path: paths[rng.IntN(12)], Source: sources[rng.IntN(4)], Status: statuses[rng.IntN(4)],
			CreatedAt: at(60).Truncate(time.Millisecond), Helpful: rng.IntN(2) == 0,
		}
		if rng.IntN(3) > 0 {
			f.Comment = "comment " + strconv.Itoa(i)
		}
		if rng.IntN(2) == 0 {
			f.Contact = "a@b.c"
		}
		f.Code = "code()"
		if rng.IntN(2) == 0 {
			f.Filename, f.Lang = "x.go", "go"
		}
		d.feedback = append(d.feedback, f)
	}
	// Ties on createdAt, at midnight.
	for i, src := range sources {
		d.feedback = append(d.feedback, mockserver.Feedback{ID: "tie" + strconv.Itoa(i), Path: "/p/0", Source: src, Status: statuses[i], CreatedAt: midnight})
	}

	callers := []mockserver.Caller{mockserver.CallerWeb, mockserver.CallerAPI, mockserver.CallerOther}
	var n uint64
	for i := range 60 {
		start := at(60).Truncate(time.Millisecond)
		if i < 3 {
			start = midnight // turns of different threads at the same instant
		}
		n++
		t := mockserver.Thread{ID: ulidFor(start, n), Caller: callers[rng.IntN(3)]}
		for k := range 1 + rng.IntN(5) {
			n++
			turn := mockserver.Turn{
				Time: start.Add(time.Duration(k) * time.Minute), Query: "q" + strconv.Itoa(i) + "." + strconv.Itoa(k),
				Response: "r", UserMessageID: ulidFor(start, n), AssistantMessageID: ulidFor(start, n+1000000),
			}
			if rng.IntN(3) == 0 {
				turn.ResponseType = "clarifying_question"
				turn.ResolutionStatus = "unanswered"
			}
			if rng.IntN(2) == 0 {
				turn.QueryCategory, turn.PageURL = "cat", "https://docs.example.com/p"
				turn.Sources = []mockserver.TurnSource{{Title: "T", URL: "https://docs.example.com/s"}}
			}
			t.Turns = append(t.Turns, turn)
		}
		d.threads = append(d.threads, t)
	}
	return d
}

func (d dataset) options() []mockserver.Option {
	return []mockserver.Option{
		mockserver.WithVisits(d.visits...), mockserver.WithSearches(d.searches...),
		mockserver.WithFeedback(d.feedback...), mockserver.WithThreads(d.threads...),
		mockserver.WithoutRateLimits(),
	}
}

// windows are the date windows every route is checked over: none, open on
// either side, a day bounded by midnights (an event sits on the exclusive
// end), instants that fall exactly on events, and random spans.
func (d dataset) windows(rng *rand.Rand) []window {
	midnight := day0.Add(10 * 24 * time.Hour)
	ws := []window{
		{},
		{from: midnight},
		{to: midnight},
		{from: midnight.Add(-24 * time.Hour), to: midnight},
		{from: midnight, to: midnight.Add(24 * time.Hour)},
		{from: midnight.Add(-1), to: midnight.Add(1)},
		{from: d.feedback[0].CreatedAt, to: d.feedback[1].CreatedAt.Add(time.Hour)},
	}
	for range 4 {
		a := day0.Add(time.Duration(rng.Int64N(int64(60 * 24 * time.Hour))))
		ws = append(ws, window{from: a, to: a.Add(time.Duration(1 + rng.Int64N(int64(20*24*time.Hour))))})
	}
	return slices.DeleteFunc(ws, func(w window) bool { return !w.from.IsZero() && !w.to.IsZero() && !w.from.Before(w.to) })
}
