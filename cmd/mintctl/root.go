package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/redact"
)

// The exit codes scripts branch on: part of the command line's interface, so a
// code never changes its meaning and a new one takes a new number.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2 // bad flags or arguments, missing or invalid configuration
	exitFailed   = 3 // the awaited work failed: job failed, deployment failure, export failed
	exitArchived = 4 // the job was archived
	exitUnknown  = 5 // outcome unknown: the job, deployment or run may exist
	// exitKeyRefused: the API refused the key (401 or 403): wrong,
	// expired, beyond its scopes or not allowed from this address.
	exitKeyRefused = 6
	// exitTimeout: --timeout ran out while waiting; the work goes on.
	exitTimeout = 7
	// exitInterrupted and exitTerminated: SIGINT and SIGTERM (128 plus the
	// signal's number, as a shell reports a program a signal ended).
	exitInterrupted = 130
	exitTerminated  = 143
)

// codeError is an error with the exit code it ends the program with.
type codeError struct {
	code int
	err  error
}

func (e *codeError) Error() string { return e.err.Error() }
func (e *codeError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &codeError{exitUsage, fmt.Errorf(format, args...)}
}

// exitCode maps an error to the program's exit code (finalCode adds the
// signals and a --timeout the error does not name). A possible outcome
// comes first: a script must learn that a job may exist whatever else
// went wrong.
func exitCode(err error) int {
	var ce *codeError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, mintlify.ErrOutcomeUnknown):
		return exitUnknown
	case errors.As(err, &ce):
		return ce.code
	case errors.Is(err, mintlify.ErrInvalidInput):
		return exitUsage
	case keyRefused(err):
		return exitKeyRefused
	}
	return exitError
}

// app is one run of the command line: its streams, its environment and
// what the commands share.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer // with every copy of the key redacted
	// rawStdout is for a static export's bundle, which comes from the
	// storage host (never sent the key) and must reach the pipe unaltered.
	rawStdout, rawStderr io.Writer
	// redactKeys are the keys the output must not hold (see outputKeys):
	// everything written goes through a redact.Writer of them.
	redactKeys []string
	lookupEnv  func(string) (string, bool)
	// started is set once cobra has parsed flags and arguments: an error
	// before that is a usage error.
	started bool
	quiet   bool
	// term reports whether stderr is a terminal: a live bar or spinner
	// there, plain lines every few seconds otherwise.
	term bool
	// ctx is the run's context, which SIGINT and SIGTERM end.
	ctx context.Context
	// actions is set in a GitHub Actions step (GITHUB_ACTIONS=true): log
	// groups, an error annotation and the step summary.
	actions bool
	// project (--project) overrides MINTLIFY_PROJECT_ID; maxRetryWait
	// (--max-retry-wait) is the longest Retry-After mintctl waits.
	project      string
	maxRetryWait time.Duration
	// clientExtras are options added to every API client (doctor's own
	// transport and retry count).
	clientExtras []mintlify.Option
	// keyVar is the environment variable of the key the command uses,
	// which a refusal names.
	keyVar string
	// unknownSeen are the statuses this version does not know that the
	// run has reported (once each).
	unknownSeen map[string]bool
}

// defaultMaxRetryWait is the longest Retry-After mintctl waits by default:
// longer than the SDK's 30 seconds, as a CI step has minutes to spare and
// a retry spends none of the quota; an hour-long wait is still refused.
const defaultMaxRetryWait = 2 * time.Minute

// minRedactedKey is the shortest key mintctl looks for in its output: a
// shorter one is no admin key (the client refuses it before sending), and
// hunting for a few common letters would garble every message.
const minRedactedKey = 8

// outputKeys are the keys mintctl keeps out of everything it writes: each
// of MINTLIFY_API_KEY, MINTLIFY_ASSISTANT_API_KEY and
// MINTLIFY_INDEX_API_KEY without surrounding white space, unless too short
// to be a key.
func outputKeys(lookupEnv func(string) (string, bool)) []string {
	var keys []string
	for _, name := range []string{mintlify.EnvAPIKey, mintlify.EnvAssistantAPIKey, mintlify.EnvIndexAPIKey} {
		key, _ := lookupEnv(name)
		if key = strings.TrimSpace(key); len(key) >= minRedactedKey {
			keys = append(keys, key)
		}
	}
	return keys
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, lookupEnv func(string) (string, bool)) int {
	keys := outputKeys(lookupEnv)
	rout, rerr := redact.NewWriter(stdout, keys...), redact.NewWriter(stderr, keys...)
	defer rout.Flush()
	defer rerr.Flush()
	ghActions, _ := lookupEnv("GITHUB_ACTIONS")
	a := &app{stdin: stdin, stdout: rout, stderr: rerr, rawStdout: stdout, rawStderr: stderr,
		redactKeys: keys, lookupEnv: lookupEnv, term: isTerminal(stderr), ctx: ctx, actions: ghActions == "true"}
	stdout, stderr = rout, rerr
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	_ = rout.Flush() // before the error message, which follows the results
	if err == nil {
		return exitOK
	}
	code := finalCode(ctx, cmd, err)
	if !a.started {
		if code == exitError {
			code = exitUsage // an unknown command or flag, a wrong number of arguments
		}
		// cobra's own words ("Did you mean this?" and its list) stay
		// readable; nothing from a server is in them.
		lines := strings.Split(strings.TrimRight(err.Error(), "\n"), "\n")
		for i, line := range lines {
			if i == 0 {
				line = "mintctl: " + printable(line)
			} else {
				line = printable(line)
			}
			fmt.Fprintln(stderr, line)
		}
		if code == exitUsage {
			fmt.Fprintln(stderr, "Run 'mintctl --help' for usage.")
		}
		if a.actions {
			fmt.Fprintln(stderr, workflowCommand("error", "mintctl", annotationText(
				fmt.Sprintf("%s (exit %d). Next: see 'mintctl --help'", printable(lines[0]), code), a.redactKeys)))
		}
		return code
	}
	msg := printable(err.Error()) // it may quote the server: one printable line
	if sig := stoppedBy(ctx); sig != nil {
		msg = sig.Error() + ": " + msg // first, whatever the chain below says ("context canceled")
	}
	fmt.Fprintf(stderr, "mintctl: %s\n", msg)
	a.reportFailure(cmd, err, code, msg)
	return code
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "mintctl",
		Short: "Drive the Mintlify admin API from a shell or a CI pipeline",
		Long: `mintctl runs agent jobs, exports analytics, deploys the site and its previews,
triggers the other runs and makes static exports with the Mintlify admin API.

Credentials come only from the environment, never from flags (flags show in
process lists and CI logs):

  MINTLIFY_API_KEY     an admin key, mint_... (required)
  MINTLIFY_PROJECT_ID  the project (required)
  MINTLIFY_BASE_URL    another address, such as a mock server (optional)
  MINTLIFY_ALLOW_HTTP  1 allows an http:// base URL (this one, and the
                       assistant's and the Index's) to a host other than
                       loopback, the key then crossing the network in
                       clear text (optional; http to 127.0.0.1 or localhost
                       needs nothing)

ask and docs use the assistant API's own: MINTLIFY_ASSISTANT_API_KEY,
MINTLIFY_DOMAIN (and MINTLIFY_ASSISTANT_BASE_URL); see 'mintctl ask --help'.
index uses the Index API's own: MINTLIFY_INDEX_API_KEY (and
MINTLIFY_INDEX_BASE_URL); see 'mintctl index --help'.

Results go to stdout, progress and messages to stderr. Text from the server
(IDs, links, summaries, logs, errors, analytics text) is printed with its
control characters escaped and can never start a GitHub Actions workflow
command; --json and --format jsonl stay valid JSON with the same values.

In GitHub Actions: commands write their results as step outputs when
$GITHUB_OUTPUT is set (once the resource was read, never after an error
before that), a short Markdown report to $GITHUB_STEP_SUMMARY, a failed
deployment's logs in a collapsible group, and one error annotation for
any failure, which says what to do next (GITHUB_ACTIONS=true). An outputs or summary file that
cannot be written within seconds is a warning, never the exit code.

--project ID stands in for MINTLIFY_PROJECT_ID (the project is no
secret; the key stays in the environment). --max-retry-wait D (default
2m) is the longest Retry-After mintctl waits out; a longer one stops the
command at once with what the server asked for. Every command that talks
to a server takes --timeout D: past it, the command stops (exit 7, or 5
when what it sent may have been acted on).

Exit codes:
  0  success (a waited job completed, a deployment succeeded, an export completed)
  1  error
  2  usage or configuration
  3  the awaited work failed (job failed, deployment failure, export failed)
  4  the job was archived
  5  outcome unknown: the job, deployment or run may exist; look before retrying
  6  the API refused the key (401 or 403): wrong, expired, beyond its
     scopes, not allowed from this address; the message names the variable
  7  --timeout ran out while waiting: the work goes on, and the command
     that picks it up is printed
  130, 143  SIGINT, SIGTERM: the work goes on, and the command that picks
     it up is printed where there is one

In GitHub Actions every failure also prints one error annotation: what
failed and what to do next.`,
		Example: `  export MINTLIFY_API_KEY=mint_... MINTLIFY_PROJECT_ID=my-project
  mintctl job create --wait -- "Document the new rate limits"
  mintctl analytics visitors --from 2025-01-01 --to 2025-02-01 --output january.csv
  mintctl --project docs-staging deploy --wait
  mintctl mock -seed 10000   # a local server to try it on`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			a.started = true
			if a.maxRetryWait <= 0 {
				return usageErrorf("--max-retry-wait %s: want a positive duration, such as 2m", a.maxRetryWait)
			}
			return nil
		},
	}
	root.PersistentFlags().BoolVarP(&a.quiet, "quiet", "q", false, "no progress on stderr")
	root.PersistentFlags().StringVar(&a.project, "project", "", "the project's ID, instead of $MINTLIFY_PROJECT_ID (the key stays environment-only)")
	root.PersistentFlags().DurationVar(&a.maxRetryWait, "max-retry-wait", defaultMaxRetryWait,
		"the longest Retry-After (and wait between retries) mintctl waits; a longer one stops the command")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &codeError{exitUsage, err}
	})
	root.AddCommand(a.jobCommand(), a.analyticsCommand(), a.staticExportCommand(), a.mockCommand())
	root.AddCommand(a.triggerCommands()...)
	root.AddCommand(a.indexCommand())
	root.AddCommand(a.askCommand(), a.docsCommand()) // the assistant API (assistant.go)
	root.AddCommand(a.doctorCommand())
	a.addVersion(root)
	// cobra's own help and completion commands answer an unknown topic or
	// shell with text and exit 0: a script would not notice the typo.
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return usageErrorf("no help topic %q: run 'mintctl --help' for the commands", strings.Join(args, " "))
			}
			return cmd.Help()
		},
	})
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			group(c)
		}
	}
	addTimeouts(root) // timeout.go
	return root
}

// client builds the API client from the environment only. A missing or
// empty key is a configuration error (exit 2) before anything is sent:
// never a silent fallback to a mock server, which would make a CI run
// from a fork (which gets an empty secret) look green.
func (a *app) client() (*mintlify.Client, error) {
	key, err := a.apiKey(mintlify.EnvAPIKey, "an admin API key (mint_...)")
	if err != nil {
		return nil, err
	}
	project, set := a.lookupEnv(mintlify.EnvProjectID)
	source := mintlify.EnvProjectID
	if a.project != "" {
		project, set, source = a.project, true, "--project"
	}
	switch {
	case !set || project == "":
		return nil, usageErrorf("%s is not set: set it (or --project) to your project's ID", mintlify.EnvProjectID)
	case strings.TrimSpace(project) != project:
		// Sent as is, "  " would reach the API as a project called "%20%20".
		return nil, usageErrorf("%s %q has white space around it: set it to your project's ID alone", source, project)
	}
	opts := a.clientOptions(key, mintlify.EnvBaseURL, mintlify.DefaultBaseURL)
	c, err := mintlify.NewClient(append(opts, mintlify.WithProjectID(project))...)
	if err != nil {
		return nil, &codeError{exitUsage, insecureHTTPHint(err)}
	}
	return c, nil
}

// apiKey reads an API's key from the environment variable env, and only
// there. A missing or empty key is a configuration error (exit 2) before
// anything is sent; what names the kind of key the variable should hold.
func (a *app) apiKey(env, what string) (string, error) {
	a.keyVar = env
	key, set := a.lookupEnv(env)
	switch {
	case !set:
		return "", usageErrorf("%s is not set: set it to %s; for a local mock server run 'mintctl mock'", env, what)
	case strings.TrimSpace(key) == "":
		return "", usageErrorf("%s is set but empty: set it to %s; in CI, check that the secret exists and is passed to this step", env, what)
	}
	return key, nil
}

// envAllowHTTP, set to 1, lets mintctl send the key over plain http to a
// host other than loopback (mintlify.WithInsecureHTTP).
const envAllowHTTP = "MINTLIFY_ALLOW_HTTP"

// insecureHTTPHint names mintctl's way past the SDK's refusal of plain
// http, which speaks of the Go option.
func insecureHTTPHint(err error) error {
	if errors.Is(err, mintlify.ErrInvalidInput) && strings.Contains(err.Error(), "WithInsecureHTTP") {
		return fmt.Errorf("%w (%s=1 allows it)", err, envAllowHTTP)
	}
	return err
}

// group makes cmd a command of subcommands that refuses unknown ones with
// a usage error (cobra would print help and exit 0).
func group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
		}
		return cmd.Help()
	}
	return cmd
}

// infof writes a message on stderr, unless --quiet. The format is
// mintctl's; its text arguments (IDs, statuses, links) are made printable.
func (a *app) infof(format string, args ...any) {
	if !a.quiet {
		_, _ = textf(a.stderr, format+"\n", args...)
	}
}

// exactArgs is cobra.ExactArgs with the arguments named in the message.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == len(names):
		case len(names) == 0:
			return usageErrorf("%s takes no arguments, got %q", cmd.CommandPath(), args)
		default:
			return usageErrorf("%s takes %s, got %d argument(s)", cmd.CommandPath(), strings.Join(names, " "), len(args))
		}
		return nil
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && termIsTerminal(int(f.Fd()))
}
