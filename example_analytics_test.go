package mintlify_test

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// analyticsExampleClient starts the bundled mock server with a month of
// visits to a small documentation site, and a client for it. With a real
// project, use mintlify.NewClient() with $MINTLIFY_API_KEY and
// $MINTLIFY_PROJECT_ID instead.
func analyticsExampleClient() (*mintlify.Client, func()) {
	jan := func(day int) time.Time { return time.Date(2025, 1, day, 9, 0, 0, 0, time.UTC) }
	var visits []mockserver.Visit
	read := func(who, path string, ai bool, day int) {
		visits = append(visits, mockserver.Visit{VisitorID: who, Path: path, AI: ai, Time: jan(day)})
	}
	for i, who := range []string{"ann", "bo", "cy", "di", "ed"} {
		read(who, "/quickstart", false, i+1)
	}
	read("ann", "/api/visitors", false, 6)
	read("bo", "/api/visitors", false, 7)
	read("gptbot", "/api/visitors", true, 7)
	read("cy", "/changelog", false, 8)
	read("cy", "/changelog", true, 9) // cy's assistant: the same visitor, once in Total
	read("crawler", "/changelog", true, 9)
	read("di", "/pricing", false, 10)
	read("ed", "/pricing", false, 31)

	srv := mockserver.New(mockserver.WithVisits(visits...), mockserver.WithSearches(exampleSearches()...),
		mockserver.WithFeedback(exampleFeedback()...), mockserver.WithThreads(exampleThreads()...))
	c, err := mintlify.NewClient(
		mintlify.WithAPIKey(srv.APIKey()),
		mintlify.WithProjectID(srv.ProjectID()),
		mintlify.WithBaseURL(srv.URL()),
	)
	if err != nil {
		log.Fatal(err)
	}
	return c, srv.Close
}

// January 2025: DateTo is exclusive, so it is the first of February.
var (
	january1 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	february = time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
)

func ExampleClient_GetVisitors() {
	c, stop := analyticsExampleClient()
	defer stop()

	page, err := c.GetVisitors(context.Background(), mintlify.VisitorsParams{
		DateFrom: january1,
		DateTo:   february,
		Limit:    3,
	})
	if err != nil {
		log.Fatal(err)
	}
	t := page.Totals
	// cy was seen as human and as AI: Total counts cy once.
	fmt.Printf("%d visitors: %d human, %d AI\n", t.Total, t.Human, t.AI)
	for _, row := range page.Visitors {
		fmt.Printf("%-14s %d (%d human, %d AI)\n", row.Path, row.Total, row.Human, row.AI)
	}
	fmt.Println("more pages:", page.HasMore)
	// Output:
	// 7 visitors: 5 human, 3 AI
	// /quickstart    5 (5 human, 0 AI)
	// /api/visitors  3 (2 human, 1 AI)
	// /changelog     2 (1 human, 2 AI)
	// more pages: true
}

func ExampleClient_VisitorPages() {
	c, stop := analyticsExampleClient()
	defer stop()

	// Pages keep the site-wide Totals; each is one request of the hourly
	// analytics quota (Limit 0 would ask for 250 rows at a time).
	p := mintlify.VisitorsParams{DateFrom: january1, DateTo: february, Limit: 2}
	for page, err := range c.VisitorPages(context.Background(), p) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("offset %d: %d rows of %d visitors\n", p.Offset, len(page.Visitors), page.Totals.Total)
		p.Offset += len(page.Visitors) // where a new walk would resume
	}
	// Output:
	// offset 0: 2 rows of 7 visitors
	// offset 2: 2 rows of 7 visitors
}

func ExampleClient_Visitors() {
	c, stop := analyticsExampleClient()
	defer stop()

	// Export every row as CSV. On failure, a new walk with Offset set to
	// p.Offset + rows resumes the export where it stopped.
	p := mintlify.VisitorsParams{DateFrom: january1, DateTo: february}
	w := csv.NewWriter(os.Stdout)
	_ = w.Write([]string{"path", "human", "ai", "total"})
	rows := 0
	for row, err := range c.Visitors(context.Background(), p) {
		if err != nil {
			log.Fatalf("export stopped: resume at offset %d: %v", p.Offset+rows, err)
		}
		_ = w.Write([]string{row.Path, strconv.Itoa(row.Human), strconv.Itoa(row.AI), strconv.Itoa(row.Total)})
		rows++
	}
	w.Flush()
	if err := w.Error(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// path,human,ai,total
	// /quickstart,5,0,5
	// /api/visitors,2,1,3
	// /changelog,1,2,2
	// /pricing,2,0,2
}

// exampleSearches: "install" three times (two followed by a click),
// "rate limit" twice (no click), "webhooks" once (clicked).
func exampleSearches() []mockserver.SearchEvent {
	jan := func(day, hour int) time.Time { return time.Date(2025, 1, day, hour, 0, 0, 0, time.UTC) }
	return []mockserver.SearchEvent{
		{Query: "install", Time: jan(2, 9), ClickedPath: "/quickstart"},
		{Query: "install", Time: jan(3, 9), ClickedPath: "/quickstart"},
		{Query: "install", Time: jan(20, 9)},
		{Query: "rate limit", Time: jan(4, 9)},
		{Query: "rate limit", Time: jan(5, 9)},
		{Query: "webhooks", Time: jan(6, 9), ClickedPath: "/api/webhooks"},
	}
}

// exampleFeedback: one entry of each source.
func exampleFeedback() []mockserver.Feedback {
	jan := func(day int) time.Time { return time.Date(2025, 1, day, 12, 0, 0, 0, time.UTC) }
	return []mockserver.Feedback{
		{ID: "fb-1", Path: "/quickstart", Source: mockserver.FeedbackContextual, Comment: "Step 3 fails on Windows",
			CreatedAt: jan(5), Helpful: false, Contact: "ann@example.com"},
		{ID: "fb-2", Path: "/api/visitors", Source: mockserver.FeedbackCodeSnippet, Status: mockserver.FeedbackInProgress,
			Comment: "The auth header is missing", CreatedAt: jan(6), Code: "curl https://api.mintlify.com/v1/analytics", Lang: "bash"},
		{ID: "fb-3", Path: "/changelog", Source: mockserver.FeedbackThumbsOnly, CreatedAt: jan(7), Helpful: true},
		{ID: "fb-4", Path: "/pricing", Source: mockserver.FeedbackAgent, Status: mockserver.FeedbackResolved,
			Comment: "Prices are out of date", CreatedAt: jan(8)},
	}
}

// The two assistant threads of the examples.
const (
	authThread    = "01JH5Y3V2ZQ8K4M6N7P9R0S1T2"
	webhookThread = "01JH5Y3V2ZQ8K4M6N7P9R0S1T3"
)

func exampleThreads() []mockserver.Thread {
	at := func(day, minute int) time.Time { return time.Date(2025, 1, day, 10, minute, 0, 0, time.UTC) }
	return []mockserver.Thread{
		{ID: authThread, Caller: mockserver.CallerWeb, Turns: []mockserver.Turn{
			{Time: at(3, 0), Query: "How do I authenticate?", Response: "Pass an admin key to NewClient.",
				Sources: []mockserver.TurnSource{{Title: "Quickstart", URL: "https://docs.example.com/quickstart"}},
				PageURL: "https://docs.example.com/api"},
			{Time: at(3, 2), Query: "Where is the key?", Response: "Under Settings, API keys."},
		}},
		{ID: webhookThread, Caller: mockserver.CallerAPI, Turns: []mockserver.Turn{
			{Time: at(4, 0), Query: "Do you send webhooks?", Response: "The docs do not cover webhooks.",
				ResolutionStatus: "unanswered", QueryCategory: "integrations"},
		}},
	}
}

func ExampleClient_GetViews() {
	c, stop := analyticsExampleClient()
	defer stop()

	page, err := c.GetViews(context.Background(), mintlify.ViewsParams{DateFrom: january1, DateTo: february, Limit: 3})
	if err != nil {
		log.Fatal(err)
	}
	t := page.Totals
	// Every view counts: cy's two views of /changelog are two.
	fmt.Printf("%d views: %d human, %d AI\n", t.Total, t.Human, t.AI)
	for _, row := range page.Views {
		fmt.Printf("%-14s %d (%d human, %d AI)\n", row.Path, row.Total, row.Human, row.AI)
	}
	fmt.Println("more pages:", page.HasMore)
	// Output:
	// 13 views: 10 human, 3 AI
	// /quickstart    5 (5 human, 0 AI)
	// /api/visitors  3 (2 human, 1 AI)
	// /changelog     3 (1 human, 2 AI)
	// more pages: true
}

func ExampleClient_ViewPages() {
	c, stop := analyticsExampleClient()
	defer stop()

	// Each page is one request of the hourly quota (Limit 0: 250 rows).
	p := mintlify.ViewsParams{DateFrom: january1, DateTo: february, Limit: 3}
	for page, err := range c.ViewPages(context.Background(), p) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d rows of %d views\n", len(page.Views), page.Totals.Total)
	}
	// Output:
	// 3 rows of 13 views
	// 1 rows of 13 views
}

func ExampleClient_Views() {
	c, stop := analyticsExampleClient()
	defer stop()

	p := mintlify.ViewsParams{DateFrom: january1, DateTo: february}
	for row, err := range c.Views(context.Background(), p) {
		var we *mintlify.WalkError
		if errors.As(err, &we) {
			log.Fatalf("stopped: resume with Offset %d: %v", we.Offset, err)
		}
		fmt.Println(row.Path, row.Total)
	}
	// Output:
	// /quickstart 5
	// /api/visitors 3
	// /changelog 3
	// /pricing 2
}

func ExampleClient_GetSearches() {
	c, stop := analyticsExampleClient()
	defer stop()

	page, err := c.GetSearches(context.Background(), mintlify.SearchesParams{DateFrom: january1, DateTo: february, Limit: 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.TotalSearches, "searches")
	for _, s := range page.Searches {
		fmt.Printf("%-10s %d hits, CTR %.2f, top page %q, last %s\n",
			s.Query, s.Hits, s.CTR, s.TopClickedPage, s.LastSearchedAt.Format(time.DateOnly))
	}
	fmt.Println("next page:", page.NextCursor != "")
	// Output:
	// 6 searches
	// install    3 hits, CTR 0.67, top page "/quickstart", last 2025-01-20
	// rate limit 2 hits, CTR 0.00, top page "", last 2025-01-05
	// next page: true
}

func ExampleClient_SearchPages() {
	c, stop := analyticsExampleClient()
	defer stop()

	p := mintlify.SearchesParams{DateFrom: january1, DateTo: february, Limit: 2}
	for page, err := range c.SearchPages(context.Background(), p) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(page.Searches), "terms; last page:", page.NextCursor == "")
	}
	// Output:
	// 2 terms; last page: false
	// 1 terms; last page: true
}

func ExampleClient_Searches() {
	c, stop := analyticsExampleClient()
	defer stop()

	p := mintlify.SearchesParams{DateFrom: january1, DateTo: february}
	for term, err := range c.Searches(context.Background(), p) {
		var we *mintlify.WalkError
		if errors.As(err, &we) {
			log.Fatalf("stopped: resume with Cursor %q: %v", we.Cursor, err)
		}
		fmt.Println(term.Query, term.Hits)
	}
	// Output:
	// install 3
	// rate limit 2
	// webhooks 1
}

func ExampleClient_GetFeedback() {
	c, stop := analyticsExampleClient()
	defer stop()

	page, err := c.GetFeedback(context.Background(), mintlify.FeedbackParams{
		DateFrom: january1, DateTo: february, Source: mintlify.FeedbackContextual,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range page.Feedback {
		fmt.Printf("%s %s helpful=%t %q from %s\n", f.Path, f.Status, *f.Helpful, f.Comment, f.Contact)
	}
	// Output:
	// /quickstart pending helpful=false "Step 3 fails on Windows" from ann@example.com
}

func ExampleClient_FeedbackPages() {
	c, stop := analyticsExampleClient()
	defer stop()

	p := mintlify.FeedbackParams{DateFrom: january1, DateTo: february, Limit: 3}
	for page, err := range c.FeedbackPages(context.Background(), p) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(page.Feedback), "entries; more:", page.HasMore)
	}
	// Output:
	// 3 entries; more: true
	// 1 entries; more: false
}

func ExampleClient_Feedback() {
	c, stop := analyticsExampleClient()
	defer stop()

	// Entries still to handle, of every source.
	p := mintlify.FeedbackParams{
		DateFrom: january1, DateTo: february,
		Statuses: []mintlify.FeedbackStatus{mintlify.FeedbackPending, mintlify.FeedbackInProgress},
	}
	for f, err := range c.Feedback(context.Background(), p) {
		if err != nil {
			log.Fatal(err)
		}
		switch f.Source {
		case mintlify.FeedbackCodeSnippet:
			fmt.Printf("%s: %q on a %s snippet\n", f.Path, f.Comment, f.Lang)
		case mintlify.FeedbackContextual:
			fmt.Printf("%s: %q, helpful=%t, contact %s\n", f.Path, f.Comment, *f.Helpful, f.Contact)
		default: // agent or thumbs_only: the common fields only
			fmt.Printf("%s: %s %q\n", f.Path, f.Source, f.Comment)
		}
	}
	// Output:
	// /changelog: thumbs_only ""
	// /api/visitors: "The auth header is missing" on a bash snippet
	// /quickstart: "Step 3 fails on Windows", helpful=false, contact ann@example.com
}

func ExampleClient_GetFeedbackByPage() {
	c, stop := analyticsExampleClient()
	defer stop()

	report, err := c.GetFeedbackByPage(context.Background(), mintlify.FeedbackByPageParams{DateFrom: january1, DateTo: february})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range report.Pages {
		fmt.Printf("%-14s up %d, down %d, code %d, total %d\n", p.Path, p.ThumbsUp, p.ThumbsDown, p.Code, p.Total)
	}
	// Output:
	// /api/visitors  up 0, down 0, code 1, total 1
	// /changelog     up 0, down 0, code 0, total 1
	// /pricing       up 0, down 0, code 0, total 1
	// /quickstart    up 0, down 1, code 0, total 1
}

func ExampleClient_GetConversations() {
	c, stop := analyticsExampleClient()
	defer stop()

	page, err := c.GetConversations(context.Background(), mintlify.ConversationsParams{DateFrom: january1, DateTo: february})
	if err != nil {
		log.Fatal(err)
	}
	for _, turn := range page.Conversations {
		fmt.Printf("%s %q: %s, %d sources\n", turn.Timestamp.Format(time.DateTime), turn.Query, turn.ResolutionStatus, len(turn.Sources))
	}
	// Output:
	// 2025-01-04 10:00:00 "Do you send webhooks?": unanswered, 0 sources
	// 2025-01-03 10:02:00 "Where is the key?": answered, 0 sources
	// 2025-01-03 10:00:00 "How do I authenticate?": answered, 1 sources
}

func ExampleClient_ConversationPages() {
	c, stop := analyticsExampleClient()
	defer stop()

	p := mintlify.ConversationsParams{DateFrom: january1, DateTo: february, Limit: 2}
	for page, err := range c.ConversationPages(context.Background(), p) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(page.Conversations), "turns; more:", page.HasMore)
	}
	// Output:
	// 2 turns; more: true
	// 1 turns; more: false
}

func ExampleClient_Conversations() {
	c, stop := analyticsExampleClient()
	defer stop()

	// The questions the docs could not answer, with the page they were asked on.
	p := mintlify.ConversationsParams{DateFrom: january1, DateTo: february}
	for turn, err := range c.Conversations(context.Background(), p) {
		if err != nil {
			log.Fatal(err)
		}
		if turn.ResolutionStatus == "unanswered" {
			fmt.Printf("%q (%s) in thread %s\n", turn.Query, turn.QueryCategory, turn.ID)
		}
	}
	// Output:
	// "Do you send webhooks?" (integrations) in thread 01JH5Y3V2ZQ8K4M6N7P9R0S1T3
}

func ExampleClient_GetThread() {
	c, stop := analyticsExampleClient()
	defer stop()

	thread, err := c.GetThread(context.Background(), authThread)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range thread.Messages {
		fmt.Printf("%-9s %s\n", m.Role+":", m.Content)
	}
	// Output:
	// user:     How do I authenticate?
	// assistant: Pass an admin key to NewClient.
	// user:     Where is the key?
	// assistant: Under Settings, API keys.
}

func ExampleClient_GetCallerStats() {
	c, stop := analyticsExampleClient()
	defer stop()

	stats, err := c.GetCallerStats(context.Background(), mintlify.CallerStatsParams{DateFrom: january1, DateTo: february})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d assistant queries: %d from the site, %d from the API, %d other\n", stats.Total, stats.Web, stats.API, stats.Other)
	// Output:
	// 3 assistant queries: 2 from the site, 1 from the API, 0 other
}

func ExampleWithMaxWalkRequests() {
	// A walk stops after 1,000 requests unless told otherwise: enough for
	// 250,000 views, and ten times the hourly analytics quota.
	c, err := mintlify.NewClient(mintlify.WithAPIKey("mint_example"), mintlify.WithProjectID("docs"),
		mintlify.WithMaxWalkRequests(5_000))
	fmt.Println(c != nil, err)
	// Output:
	// true <nil>
}
