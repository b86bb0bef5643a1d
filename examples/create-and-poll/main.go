// Command create-and-poll starts an agent job from the prompt given as
// arguments and waits for it to end, printing the pull request it opened.
// With MINTLIFY_API_KEY unset it runs against the bundled mock server.
//
//	go run ./examples/create-and-poll "Document the new search filters"
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
)

func main() {
	var prompt string
	// Agent jobs take minutes; give up after half an hour or on Ctrl-C.
	demo.Main("create-and-poll", 30*time.Minute,
		func(args []string, errOut io.Writer) (err error) { prompt, err = parse(args, errOut); return err },
		func(ctx context.Context) error { return run(ctx, prompt) })
}

// parse reads the prompt from the arguments. There is no default: a job
// is real work, never started on a made-up prompt.
func parse(args []string, errOut io.Writer) (string, error) {
	fs := flag.NewFlagSet("create-and-poll", flag.ContinueOnError)
	fs.SetOutput(errOut)
	demo.Usage(fs, "create-and-poll PROMPT...",
		"Starts an agent job from PROMPT and waits for its pull request.\nWith MINTLIFY_API_KEY unset it runs against the bundled mock server.")
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	prompt := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if prompt == "" {
		fmt.Fprintln(errOut, "create-and-poll: a prompt is required")
		fs.Usage()
		return "", errors.New("a prompt is required")
	}
	return prompt, nil
}

func run(ctx context.Context, prompt string) error {
	s, err := demo.Connect(os.Stderr)
	if err != nil {
		return err
	}
	defer s.Close()

	job, err := s.Client.CreateJob(ctx, prompt)
	if errors.Is(err, mintlify.ErrOutcomeUnknown) {
		// The job may exist: check the dashboard before trying again.
		return fmt.Errorf("no answer from the API, the job may have started: %w", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "job", job.ID, "started")

	job, err = s.Client.PollJob(ctx, job.ID,
		mintlify.WithPollInterval(s.PollInterval),
		mintlify.WithPollObserver(func(j *mintlify.Job) { fmt.Fprint(os.Stderr, ".") }))
	fmt.Fprintln(os.Stderr)
	if err != nil {
		return err
	}
	switch {
	case job.Status != mintlify.JobCompleted:
		return fmt.Errorf("job %s ended %s", job.ID, job.Status)
	case job.PRLink == "":
		fmt.Println("completed: no file needed a change")
	default:
		fmt.Println(job.PRLink)
	}
	return nil
}
