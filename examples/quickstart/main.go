// Command quickstart runs an agent job from start to end, sends it a
// follow-up, and lists the most visited pages. With no MINTLIFY_API_KEY it
// runs against the bundled mock server.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	s, err := demo.Connect(os.Stderr, mintlify.WithUserAgent("quickstart"))
	if err != nil {
		return err
	}
	defer s.Close()
	c := s.Client

	job, err := c.CreateJob(ctx, "Add a troubleshooting section to the quickstart page")
	if err != nil {
		return err
	}
	fmt.Printf("created job %s on %s\n", job.ID, job.Source.Repository)
	if job, err = poll(ctx, s, job.ID); err != nil {
		return err
	}
	report(job)

	if job, err = c.SendMessage(ctx, job.ID, "Also mention how to reset an API key"); err != nil {
		return err
	}
	fmt.Printf("sent a follow-up: job %s is %s again\n", job.ID, job.Status)
	if job, err = poll(ctx, s, job.ID); err != nil {
		return err
	}
	report(job)

	// One request with a small limit: the top rows are the first page,
	// and the analytics quota is 100 requests an hour.
	page, err := c.GetVisitors(ctx, mintlify.VisitorsParams{
		DateFrom: time.Now().AddDate(0, 0, -30),
		Limit:    5,
	})
	if err != nil {
		return err
	}
	fmt.Printf("\nlast 30 days: %d visitors (%d human, %d AI)\n", page.Totals.Total, page.Totals.Human, page.Totals.AI)
	fmt.Println("top pages:")
	for _, row := range page.Visitors {
		fmt.Printf("  %6d  %s\n", row.Total, row.Path)
	}
	return nil
}

// poll waits for the job to stop, printing each state it sees.
func poll(ctx context.Context, s *demo.Session, jobID string) (*mintlify.Job, error) {
	start := time.Now()
	return s.Client.PollJob(ctx, jobID,
		mintlify.WithPollInterval(s.PollInterval),
		mintlify.WithPollObserver(func(j *mintlify.Job) {
			fmt.Printf("  %5.1fs  %s\n", time.Since(start).Seconds(), j.Status)
		}))
}

func report(job *mintlify.Job) {
	switch {
	case job.Status == mintlify.JobCompleted && job.PRLink != "":
		fmt.Println("pull request:", job.PRLink)
	case job.Status == mintlify.JobCompleted:
		fmt.Println("completed without changing any file")
	default:
		fmt.Println("job ended:", job.Status)
	}
}
