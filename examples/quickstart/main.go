// Command quickstart runs an agent job from start to end, sends it a
// follow-up, and lists the most visited pages. With MINTLIFY_API_KEY unset
// it runs against the bundled mock server, with demo prompts; against the
// real API it runs only the prompts you give it.
//
//	go run ./examples/quickstart
//	go run ./examples/quickstart -prompt "Add a troubleshooting section" [-follow-up "Also ..."]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

// prompts are what the quickstart asks the agent.
type prompts struct{ first, followUp string }

// The demo prompts, used only against the bundled mock server: a real job
// is real work, never started on a made-up prompt.
var demoPrompts = prompts{
	first:    "Add a troubleshooting section to the quickstart page",
	followUp: "Also mention how to reset an API key",
}

func main() {
	var p prompts
	demo.Main("quickstart", 0,
		func(args []string, errOut io.Writer) (err error) {
			p, err = parse(args, errOut, demo.OnMock())
			return err
		},
		func(ctx context.Context) error { return run(ctx, p) })
}

// parse reads the prompts. On the mock they default to the demo's; with a
// real key -prompt is required, and a follow-up is sent only if given.
func parse(args []string, errOut io.Writer, onMock bool) (prompts, error) {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(errOut)
	var p prompts
	fs.StringVar(&p.first, "prompt", "", "the job's prompt (required with a real key)")
	fs.StringVar(&p.followUp, "follow-up", "", "a follow-up to send once the job ends (optional)")
	demo.Usage(fs, "quickstart [-prompt PROMPT] [-follow-up PROMPT]", `
Runs an agent job to its pull request, sends a follow-up, and lists the most
visited pages. With MINTLIFY_API_KEY unset it runs against the bundled mock
server with demo prompts; with a key it runs only the prompts you give.`)
	if err := fs.Parse(args); err != nil {
		return prompts{}, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments %q: pass the prompt with -prompt", fs.Args())
		fmt.Fprintln(errOut, "quickstart:", err)
		fs.Usage()
		return prompts{}, err
	}
	if onMock && p.first == "" {
		return demoPrompts, nil
	}
	if p.first == "" {
		err := errors.New("-prompt is required with a real key: the quickstart starts a real job")
		if demo.EmptyKey() {
			err = demo.ErrEmptyKey
		}
		fmt.Fprintln(errOut, "quickstart:", err)
		fs.Usage()
		return prompts{}, err
	}
	return p, nil
}

func run(ctx context.Context, p prompts) error {
	s, err := demo.Connect(os.Stderr, mintlify.WithUserAgent("quickstart"))
	if err != nil {
		return err
	}
	defer s.Close()
	c := s.Client

	job, err := c.CreateJob(ctx, p.first)
	if err != nil {
		return err
	}
	fmt.Printf("created job %s on %s\n", job.ID, job.Source.Repository)
	if job, err = poll(ctx, s, job.ID); err != nil {
		return err
	}
	report(job)

	if p.followUp != "" {
		if job, err = c.SendMessage(ctx, job.ID, p.followUp); err != nil {
			return err
		}
		fmt.Printf("sent a follow-up: job %s is %s again\n", job.ID, job.Status)
		if job, err = poll(ctx, s, job.ID); err != nil {
			return err
		}
		report(job)
	}

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
