// Package demo connects the example programs to the real API when
// MINTLIFY_API_KEY is set, and to the bundled mock server when it is unset,
// so every example runs on a fresh machine with nothing but Go. A key that
// is set but empty (what a CI run from a fork gets) is an error: an example
// never falls back to the mock when a real key was meant.
package demo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// Session is a connected client and how to poll with it.
type Session struct {
	Client *mintlify.Client
	// PollInterval is the first wait between polls: the SDK's default for
	// the real API, shorter for the mock's quick jobs.
	PollInterval time.Duration
	closeMock    func()
}

// Close stops the mock server, if one was started.
func (s *Session) Close() {
	if s.closeMock != nil {
		s.closeMock()
	}
}

// ErrEmptyKey reports a MINTLIFY_API_KEY that is set but empty.
var ErrEmptyKey = errors.New(mintlify.EnvAPIKey + " is set but empty: set it to an admin API key (mint_...), or unset it to run against the bundled mock server")

// OnMock reports whether Connect will start the mock server: only when
// MINTLIFY_API_KEY is unset. Examples use it to decide whether a demo
// prompt may stand in for one the user did not give.
func OnMock() bool {
	_, set := os.LookupEnv(mintlify.EnvAPIKey)
	return !set
}

// EmptyKey reports a MINTLIFY_API_KEY that is set but empty.
func EmptyKey() bool {
	key, set := os.LookupEnv(mintlify.EnvAPIKey)
	return set && strings.TrimSpace(key) == ""
}

// Connect reads MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID (and
// MINTLIFY_BASE_URL). Only when the key is unset does it start the mock
// server in-process, and it says so on log; a key set but empty is
// ErrEmptyKey.
func Connect(log io.Writer, opts ...mintlify.Option) (*Session, error) {
	if !OnMock() {
		if EmptyKey() {
			return nil, ErrEmptyKey
		}
		c, err := mintlify.NewClient(opts...)
		if err != nil {
			return nil, err
		}
		return &Session{Client: c, PollInterval: 5 * time.Second}, nil
	}
	mock := mockserver.New(
		mockserver.WithJobDuration(2*time.Second),
		mockserver.WithSyntheticVisits(20_000),
	)
	fmt.Fprintf(log, "%s is unset: using the bundled mock server at %s\n", mintlify.EnvAPIKey, mock.URL())
	opts = append([]mintlify.Option{
		mintlify.WithBaseURL(mock.URL()),
		mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()),
	}, opts...)
	c, err := mintlify.NewClient(opts...)
	if err != nil {
		mock.Close()
		return nil, err
	}
	return &Session{Client: c, PollInterval: 250 * time.Millisecond, closeMock: mock.Close}, nil
}

// Usage sets fs's usage text: a synopsis, a description and the flags.
// With flag.ExitOnError, -h and --help print it and exit 0 before anything
// is sent.
func Usage(fs *flag.FlagSet, synopsis, description string) {
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "usage: %s\n\n%s\n", synopsis, strings.TrimSpace(description))
		var n int
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(out, "\nflags:")
			fs.PrintDefaults()
		}
	}
}

// ExitCode is the exit status for an example's error, as mintctl's: 2 for
// configuration (a key set but empty, input refused before sending), so
// that a script can tell "fix the setup" from "the call failed" (1).
func ExitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrEmptyKey), errors.Is(err, mintlify.ErrInvalidInput):
		return 2
	}
	return 1
}

// Main is an example's main function: parse reads the arguments (-h and
// --help exit 0, any other refusal 2, both before anything is sent), then
// run gets a context that Ctrl-C ends, and timeout too when it is not
// zero. An error from run is printed after the example's name and sets
// the exit status by ExitCode.
func Main(name string, timeout time.Duration, parse func(args []string, errOut io.Writer) error, run func(context.Context) error) {
	if err := parse(os.Args[1:], os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	os.Exit(runMain(name, timeout, run))
}

// runMain is Main after parsing, returning the exit status so that its
// deferred cancels run before os.Exit.
func runMain(name string, timeout time.Duration, run func(context.Context) error) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if err := run(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return ExitCode(err)
	}
	return 0
}
