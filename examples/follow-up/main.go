// Command follow-up sends an instruction to an existing agent job and waits
// for the job to end again. With MINTLIFY_API_KEY unset it runs against
// the bundled mock server, where no job exists yet: create one first with
// create-and-poll in the same mock, or use -job with a real key.
//
//	go run ./examples/follow-up -job job_7ugr6fbcqjmykd4kid5f3zpeai "Also cover the Python SDK"
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func main() {
	var jobID, prompt string
	demo.Main("follow-up", 0,
		func(args []string, errOut io.Writer) (err error) {
			jobID, prompt, err = parse(args, errOut)
			return err
		},
		func(ctx context.Context) error { return run(ctx, jobID, prompt) })
}

// parse reads -job and the prompt. Both are required: the example never
// makes up a job or an instruction.
func parse(args []string, errOut io.Writer) (jobID, prompt string, err error) {
	fs := flag.NewFlagSet("follow-up", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&jobID, "job", "", "the job to follow up on (required)")
	demo.Usage(fs, "follow-up -job ID PROMPT...",
		"Sends PROMPT to the job as a follow-up and waits until it ends again.")
	if err := fs.Parse(args); err != nil {
		return "", "", err
	}
	prompt = strings.TrimSpace(strings.Join(fs.Args(), " "))
	switch {
	case jobID == "":
		err = errors.New("-job is required")
	case prompt == "":
		err = errors.New("a prompt is required")
	}
	if err != nil {
		fmt.Fprintln(errOut, "follow-up:", err)
		fs.Usage()
	}
	return jobID, prompt, err
}

func run(ctx context.Context, jobID, prompt string) error {
	s, err := demo.Connect(os.Stderr)
	if err != nil {
		return err
	}
	defer s.Close()
	return followUp(ctx, s, jobID, prompt)
}

func followUp(ctx context.Context, s *demo.Session, jobID, prompt string) error {
	job, err := s.Client.SendMessage(ctx, jobID, prompt)
	if err != nil {
		return err // an archived job answers ErrBadRequest, an unknown one ErrNotFound
	}
	fmt.Fprintf(os.Stderr, "job %s is %s again\n", job.ID, job.Status)
	if job, err = s.Client.PollJob(ctx, job.ID, mintlify.WithPollInterval(s.PollInterval)); err != nil {
		return err
	}
	fmt.Println("after the follow-up:", job.Status, job.PRLink)
	return nil
}
