package analytics

import (
	"math/rand/v2"
	"strconv"
	"time"
)

// SyntheticPaths is how many distinct pages the synthetic data draw from.
const SyntheticPaths = 2000

// SyntheticStart is where synthetic data begin, unless the clock is within
// 90 days of it: documented commands that export a fixed past range
// (January 2025) find rows, whatever day the server starts.
var SyntheticStart = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// syntheticSpan is the window synthetic events cover, ending at end.
func syntheticSpan(end time.Time) (time.Time, time.Duration) {
	start := SyntheticStart
	if min90 := end.Add(-90 * 24 * time.Hour); min90.Before(start) {
		start = min90
	}
	return start, end.Sub(start)
}

// Ratios of the synthetic data set, per visit: the other events are
// proportionate to -seed N so that one number sizes everything.
const (
	visitsPerVisitor = 8   // N/8 visitors
	visitsPerSearch  = 5   // N/5 search events
	visitsPerEntry   = 50  // N/50 feedback entries
	visitsPerThread  = 200 // N/200 threads of 1 to 5 turns (3 on average)
)

// GenerateVisits yields n visits from SyntheticStart (or 90 days before end
// if later) up to end, in time order. The same n and end always give the
// same visits. The shape is that of a documentation site: a few pages take
// most views and a long tail is rarely read; some visitors are AI agents,
// and some are seen both as human and as AI (to exercise the deduplicated
// total).
func GenerateVisits(n int, end time.Time, yield func(Visit)) {
	if n <= 0 {
		return
	}
	rng := rand.New(rand.NewPCG(0x6d696e746c696679, uint64(n)))
	paths := syntheticPaths()
	popularity := rand.NewZipf(rng, 1.1, 4, SyntheticPaths-1)

	nVisitors := max(1, n/visitsPerVisitor)
	kinds := make([]uint8, nVisitors) // 0 human, 1 AI, 2 both
	for i := range kinds {
		switch r := rng.IntN(100); {
		case r < 75:
			kinds[i] = 0
		case r < 93:
			kinds[i] = 1
		default:
			kinds[i] = 2
		}
	}
	start, span := syntheticSpan(end)
	step := span / time.Duration(n)
	var id []byte
	for i := range n {
		v := rng.IntN(nVisitors)
		ai := kinds[v] == 1 || (kinds[v] == 2 && rng.IntN(2) == 0)
		// One slot per visit keeps the output in time order.
		at := start.Add(time.Duration(i) * step)
		if step > 1 {
			at = at.Add(time.Duration(rng.Int64N(int64(step))))
		}
		id = strconv.AppendInt(append(id[:0], "visitor-"...), int64(v+1), 10)
		yield(Visit{VisitorID: string(id), Path: paths[popularity.Uint64()], AI: ai, Time: at})
	}
}

// syntheticPaths lists plausible documentation pages, most-read first.
func syntheticPaths() []string {
	paths := []string{
		"/", "/quickstart", "/installation", "/api-reference/introduction",
		"/guides/authentication", "/guides/pagination", "/concepts/projects",
		"/changelog",
	}
	sections := []string{"guides", "api-reference", "concepts", "integrations", "sdks", "troubleshooting"}
	for i := 1; len(paths) < SyntheticPaths; i++ {
		paths = append(paths, "/"+sections[i%len(sections)]+"/topic-"+strconv.Itoa(i))
	}
	return paths
}

// Seed stores the synthetic data set for n visits ending at end: the
// visits, and proportionate searches, feedback and threads over the same
// pages and window (see the ratios above), then freezes it as the set
// Reset returns to. Text comes from small shared pools, so a million
// visits' worth of events stays within tens of megabytes.
func (st *Store) Seed(n int, end time.Time) error {
	if n <= 0 {
		return nil
	}
	st.Visits.addGenerated(func(yield func(Visit)) { GenerateVisits(n, end, yield) })
	if err := st.AddSearches(SyntheticSearches(n, end)); err != nil {
		return err
	}
	if err := st.AddFeedback(SyntheticFeedback(n, end)); err != nil {
		return err
	}
	if err := st.AddThreads(SyntheticThreads(n, end)); err != nil {
		return err
	}
	st.Freeze()
	return nil
}

// slot spreads count events over the synthetic window in time order.
type slotter struct {
	start time.Time
	step  time.Duration
	rng   *rand.Rand
}

func newSlotter(count int, end time.Time, rng *rand.Rand) slotter {
	start, span := syntheticSpan(end)
	return slotter{start: start, step: span / time.Duration(max(count, 1)), rng: rng}
}

func (s slotter) at(i int) time.Time {
	t := s.start.Add(time.Duration(i) * s.step)
	if s.step > 1 {
		t = t.Add(time.Duration(s.rng.Int64N(int64(s.step))))
	}
	return t
}

var searchTopics = []string{
	"authentication", "api key", "rate limit", "pagination", "webhooks", "deploy",
	"custom domain", "analytics", "search", "openapi", "navigation", "components",
	"mdx", "theme", "redirects", "sso", "preview", "localization", "feedback", "assistant",
}

// SyntheticSearches returns the search events of the -seed data set: N/5
// events over 200 terms (a few frequent, most rare). About 40% are
// followed by a click, usually on the term's own page; one term in seven is
// never clicked (ctr 0, no top page).
func SyntheticSearches(n int, end time.Time) []SearchEvent {
	count := n / visitsPerSearch
	if count == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(0x7365617263686573, uint64(n)))
	paths := syntheticPaths()
	terms := make([]string, 200)
	for i := range terms {
		terms[i] = searchTopics[i%len(searchTopics)]
		if i >= len(searchTopics) {
			terms[i] += " " + strconv.Itoa(i/len(searchTopics))
		}
	}
	pick := rand.NewZipf(rng, 1.2, 2, uint64(len(terms)-1))
	slots := newSlotter(count, end, rng)
	out := make([]SearchEvent, count)
	for i := range out {
		t := int(pick.Uint64())
		e := SearchEvent{Query: terms[t], Time: slots.at(i)}
		if t%7 != 3 && rng.IntN(100) < 40 {
			if rng.IntN(100) < 70 {
				e.ClickedPath = paths[(t*13)%len(paths)]
			} else {
				e.ClickedPath = paths[rng.IntN(20)]
			}
		}
		out[i] = e
	}
	return out
}

var (
	feedbackComments = []string{
		"This page answered my question.", "The example does not compile.",
		"Please add a section on error handling.", "Outdated screenshot.",
		"Great guide, thanks!", "The link to the API reference is broken.",
		"Could you explain the pagination limits?", "Typo in the second paragraph.",
	}
	snippetCode  = []string{"curl -H \"Authorization: Bearer $KEY\" https://api.example.com", "const client = new Client({ apiKey })", "pip install example-sdk", "go get example.com/sdk"}
	snippetFiles = []string{"example.sh", "client.ts", "", "main.go"}
	snippetLangs = []string{"bash", "typescript", "bash", "go"}
)

// SyntheticFeedback returns the feedback of the -seed data set: N/50
// entries on the visits' pages, contextual 40%, thumbs_only 30%,
// code_snippet 20%, agent 10%; pending 40%, in_progress 20%, resolved 30%,
// dismissed 10%; about two votes in three helpful. Comments, contacts,
// filenames and languages are sometimes absent, so every nullable field
// shows both ways.
func SyntheticFeedback(n int, end time.Time) []Feedback {
	count := n / visitsPerEntry
	if count == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(0x666565646261636b, uint64(n)))
	paths := syntheticPaths()
	popularity := rand.NewZipf(rng, 1.1, 4, SyntheticPaths-1)
	slots := newSlotter(count, end, rng)
	out := make([]Feedback, count)
	for i := range out {
		f := Feedback{
			ID:        "fb_" + strconv.Itoa(i+1),
			Path:      paths[popularity.Uint64()],
			CreatedAt: slots.at(i),
			Helpful:   rng.IntN(3) > 0,
		}
		switch r := rng.IntN(100); {
		case r < 40:
			f.Source = SourceContextual
		case r < 70:
			f.Source = SourceThumbsOnly
		case r < 90:
			f.Source = SourceCodeSnippet
		default:
			f.Source = SourceAgent
		}
		switch r := rng.IntN(100); {
		case r < 40:
			f.Status = StatusPending
		case r < 60:
			f.Status = StatusInProgress
		case r < 90:
			f.Status = StatusResolved
		default:
			f.Status = StatusDismissed
		}
		if f.Source != SourceThumbsOnly || rng.IntN(4) == 0 {
			if rng.IntN(5) > 0 {
				f.Comment = feedbackComments[rng.IntN(len(feedbackComments))]
			}
		}
		switch f.Source {
		case SourceContextual:
			if rng.IntN(4) == 0 {
				f.Contact = "reader" + strconv.Itoa(rng.IntN(1000)) + "@example.com"
			}
		case SourceCodeSnippet:
			k := rng.IntN(len(snippetCode))
			f.Code, f.Filename, f.Lang = snippetCode[k], snippetFiles[k], snippetLangs[k]
			if rng.IntN(5) == 0 {
				f.Lang = ""
			}
		}
		out[i] = f
	}
	return out
}

var (
	assistantQueries = []string{
		"How do I authenticate API requests?", "What is the rate limit?",
		"How do I add a custom domain?", "Can I export analytics?",
		"How do I paginate results?", "Which plans include previews?",
		"How do I set up SSO?", "Why does my deployment fail?",
	}
	assistantAnswers = []string{
		"Send your admin key in the Authorization header as a Bearer token.",
		"Analytics routes allow 100 requests per hour per organization.",
		"Add the domain in the dashboard, then create a CNAME record.",
		"Yes: the analytics export has routes for views, searches and more.",
		"Follow the cursor in each page until it is null.",
		"Could you tell me which plan you are on?",
	}
	assistantCategories = []string{"authentication", "billing", "deployment", "analytics", ""}
)

// SyntheticThreads returns the assistant threads of the -seed data set:
// N/200 threads of 1 to 5 turns a few minutes apart; callers web 70%, api
// 20%, other 10%; one response in ten a clarifying question, about one in
// seven unanswered; a category and a page URL most of the time.
func SyntheticThreads(n int, end time.Time) []Thread {
	count := n / visitsPerThread
	if count == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(0x617373697374616e, uint64(n)))
	paths := syntheticPaths()
	slots := newSlotter(count, end.Add(-time.Hour), rng) // room for the last thread's turns
	out := make([]Thread, count)
	for i := range out {
		t := Thread{Caller: CallerWeb}
		switch r := rng.IntN(100); {
		case r >= 90:
			t.Caller = CallerOther
		case r >= 70:
			t.Caller = CallerAPI
		}
		at := slots.at(i).Truncate(time.Millisecond)
		t.ID = newULID(at, rng)
		turns := 1 + rng.IntN(5)
		for range turns {
			turn := Turn{
				Time:          at,
				Query:         assistantQueries[rng.IntN(len(assistantQueries))],
				Response:      assistantAnswers[rng.IntN(len(assistantAnswers))],
				QueryCategory: assistantCategories[rng.IntN(len(assistantCategories))],
				AnsweredAt:    at.Add(time.Duration(500+rng.IntN(4000)) * time.Millisecond),
			}
			if rng.IntN(10) == 0 {
				turn.ResponseType = "clarifying_question"
			}
			if rng.IntN(7) == 0 {
				turn.ResolutionStatus = "unanswered"
			}
			if rng.IntN(5) > 0 {
				turn.PageURL = "https://docs.example.com" + paths[rng.IntN(50)]
			}
			for range rng.IntN(4) {
				p := paths[rng.IntN(100)]
				turn.Sources = append(turn.Sources, TurnSource{Title: "Docs " + p, URL: "https://docs.example.com" + p})
			}
			turn.UserMessageID = newULID(turn.Time, rng)
			turn.AssistantMessageID = newULID(turn.AnsweredAt, rng)
			t.Turns = append(t.Turns, turn)
			at = turn.AnsweredAt.Add(time.Duration(30+rng.IntN(300)) * time.Second)
		}
		out[i] = t
	}
	return out
}
