// Command mockserver runs the mock Mintlify API as a standalone server, for
// tests written in any language and for trying the API by hand.
//
//	go run ./mockserver/cmd/mockserver -seed 100000
//
// It prints the URL, API key and project ID to use, logs one line per
// request (the key redacted) and stops cleanly on SIGINT or SIGTERM. The
// control API under /_mock/ drives it from tests; see mockserver/README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/docsagent/mintlify-go/mockserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockserver:", err)
		os.Exit(2)
	}
}

// faultFlags collects repeated -fault flags.
type faultFlags []mockserver.FaultRule

func (f *faultFlags) String() string { return fmt.Sprint(*f) }

func (f *faultFlags) Set(spec string) error {
	rule, err := mockserver.ParseFault(spec)
	if err != nil {
		return err
	}
	*f = append(*f, rule)
	return nil
}

// run is main without the process: it serves until ctx ends, so tests can
// drive it in-process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mockserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	apiKey := fs.String("api-key", "", "admin key clients must send, starting with mint_ (default: random)")
	project := fs.String("project", "", "project ID (default: random)")
	seed := fs.Int("seed", 0, "generate `N` synthetic visits over the last 90 days")
	jobDuration := fs.Duration("job-duration", 10*time.Second, "how long each run of a job stays active")
	outcome := fs.String("outcome", "", "outcome of every run: pull-request, no-change or failed (default pull-request)")
	noLimits := fs.Bool("no-rate-limits", false, "turn the service's rate limits off")
	var faults faultFlags
	fs.Var(&faults, "fault", "fault `rule`, repeatable, e.g. route=create-job,status=503,times=2 (see README)")
	faultSeed := fs.Uint64("fault-seed", 1, "seed for probabilistic faults")
	quiet := fs.Bool("quiet", false, "do not log requests")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *apiKey != "" && !strings.HasPrefix(*apiKey, "mint_") {
		return errors.New("-api-key must start with mint_, as the service's admin keys do")
	}
	if *project != "" && strings.ContainsAny(*project, "/?#") {
		return errors.New("-project must not contain /, ? or #")
	}

	opts := []mockserver.Option{
		mockserver.WithJobDuration(*jobDuration),
		mockserver.WithSyntheticVisits(*seed),
		mockserver.WithFaults(faults...),
		mockserver.WithFaultSeed(*faultSeed),
	}
	if *apiKey != "" {
		opts = append(opts, mockserver.WithAPIKey(*apiKey))
	}
	if *project != "" {
		opts = append(opts, mockserver.WithProjectID(*project))
	}
	if *outcome != "" {
		o := mockserver.Outcome(*outcome)
		switch o {
		case mockserver.OutcomePullRequest, mockserver.OutcomeNoChange, mockserver.OutcomeFailed:
		default:
			return fmt.Errorf("-outcome %q: want pull-request, no-change or failed", *outcome)
		}
		opts = append(opts, mockserver.WithAgent(func(string) mockserver.Outcome { return o }))
	}
	if *noLimits {
		opts = append(opts, mockserver.WithoutRateLimits())
	}
	if !*quiet {
		opts = append(opts, mockserver.WithLogger(slog.New(slog.NewTextHandler(stderr, nil))))
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	s := mockserver.New(append(opts, mockserver.WithListener(ln))...)
	defer s.Close()

	fmt.Fprintf(stdout, "mockserver %s listening\n", mockserver.Version)
	fmt.Fprintf(stdout, "  URL:      %s\n", s.URL())
	fmt.Fprintf(stdout, "  API key:  %s\n", s.APIKey())
	fmt.Fprintf(stdout, "  project:  %s\n", s.ProjectID())
	fmt.Fprintf(stdout, "  control:  %s/_mock/\n", s.URL())
	if *seed > 0 {
		fmt.Fprintf(stdout, "  visits:   %d synthetic\n", *seed)
	}
	<-ctx.Done()
	fmt.Fprintln(stdout, "mockserver: shutting down")
	return nil
}
