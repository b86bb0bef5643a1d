// Command follow-up sends an instruction to an existing agent job and waits
// for the job to end again. Without a job ID it first creates one (which is
// what happens against the bundled mock server).
//
//	go run ./examples/follow-up [-job ID] "Also cover the Python SDK"
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func main() {
	jobID := flag.String("job", "", "the job to follow up on (default: a new one)")
	flag.Parse()
	prompt := strings.Join(flag.Args(), " ")
	if prompt == "" {
		prompt = "Also add a short example in Go"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *jobID, prompt); err != nil {
		fmt.Fprintln(os.Stderr, "follow-up:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, jobID, prompt string) error {
	s, err := demo.Connect(os.Stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	c := s.Client
	poll := mintlify.WithPollInterval(s.PollInterval)

	if jobID == "" {
		job, err := c.CreateJob(ctx, "Write a page about webhooks")
		if err != nil {
			return err
		}
		if job, err = c.PollJob(ctx, job.ID, poll); err != nil {
			return err
		}
		fmt.Println("first run:", job.Status, job.PRLink)
		jobID = job.ID
	}

	job, err := c.SendMessage(ctx, jobID, prompt)
	if err != nil {
		return err // an archived job answers ErrBadRequest
	}
	if job, err = c.PollJob(ctx, job.ID, poll); err != nil {
		return err
	}
	fmt.Println("after the follow-up:", job.Status, job.PRLink)
	return nil
}
