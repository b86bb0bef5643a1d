package mintlify_test

import (
	"context"
	"encoding/csv"
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

	srv := mockserver.New(mockserver.WithVisits(visits...))
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
