package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
)

// waitFlags are the flags of every command that can wait for a result.
type waitFlags struct {
	wait    bool
	timeout time.Duration
	json    bool
	// pollInterval is hidden: the SDK's default suits the real API; tests
	// against a fast mock shorten it.
	pollInterval time.Duration
	// waitsAnyway reports whether the command waits without --wait
	// (static-export --output).
	waitsAnyway func() bool
}

func (w *waitFlags) register(cmd *cobra.Command, canWait bool) {
	if canWait {
		cmd.Flags().BoolVar(&w.wait, "wait", false, "wait until it ends; the exit code says how")
	}
	cmd.Flags().DurationVar(&w.timeout, "timeout", 0, "give up after this long, the create or start call included, e.g. 30m (0: no limit)")
	cmd.Flags().BoolVar(&w.json, "json", false, "print the result as one JSON object with the API's field names")
	cmd.Flags().DurationVar(&w.pollInterval, "poll-interval", 0, "first wait between reads")
	_ = cmd.Flags().MarkHidden("poll-interval")
	cmd.PreRunE = func(*cobra.Command, []string) error { return w.check() }
}

// check refuses a --timeout that would be silently ignored: a CI step
// written "job create --timeout 30m" expects a wait, not an exit 0 at once.
// Like every numeric flag it is checked before anything is printed.
func (w *waitFlags) check() error {
	switch {
	case w.timeout < 0:
		return usageErrorf("--timeout %s is negative", w.timeout)
	case w.timeout > 0 && !w.wait && (w.waitsAnyway == nil || !w.waitsAnyway()):
		return usageErrorf("--timeout bounds a wait: add --wait")
	case w.pollInterval < 0:
		return usageErrorf("--poll-interval %s is negative", w.pollInterval)
	}
	return nil
}

func (w *waitFlags) pollOptions() []mintlify.PollOption {
	if w.pollInterval <= 0 {
		return nil
	}
	return []mintlify.PollOption{mintlify.WithPollInterval(w.pollInterval), mintlify.WithMaxPollInterval(max(w.pollInterval, time.Second))}
}

// run builds the client and calls do with the command's context, which
// --timeout bounds as a whole (commandContext).
func (w *waitFlags) run(a *app, cmd *cobra.Command, do func(ctx context.Context, c *mintlify.Client) error) error {
	c, err := a.client()
	if err != nil {
		return err
	}
	ctx, cancel := w.commandContext(cmd.Context())
	defer cancel()
	return do(ctx, c)
}

// commandContext bounds the whole command by --timeout: the create or
// start call, the wait, and a download after it.
func (w *waitFlags) commandContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if w.timeout > 0 {
		return context.WithTimeout(ctx, w.timeout)
	}
	return context.WithCancel(ctx)
}

// gaveUp explains a command that --timeout or a signal ended: what it
// waited for and the status last seen. A timeout is exit 7. When again is
// set, it is the command that picks the work up (see pickUp). No status
// and no again: a create or start call that had no answer. Any other
// error passes with again attached where running it can get further.
func (w *waitFlags) gaveUp(err error, what, status, again string) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded) && w.timeout > 0:
		if status == "" && again == "" {
			return &codeError{exitTimeout, fmt.Errorf("gave up after --timeout %s, before %s was answered: %w", w.timeout, what, err)}
		}
		err = &codeError{exitTimeout, fmt.Errorf("gave up waiting after %s (%s is %s): %w", w.timeout, what, orUnknown(status), err)}
	case errors.Is(err, context.Canceled) && (status != "" || again != ""):
		err = fmt.Errorf("stopped waiting (%s is %s): %w", what, orUnknown(status), err)
	}
	return pickUp(err, again)
}

// pollShown runs poll with the --poll-interval options and an observer
// that shows each state read on a spinner labelled what, and says once
// when a status is one this version does not know (one the vendor added
// since: the wait goes on through it). It returns the final state, and the last state
// seen (start if none was), which a caller still reports when the wait
// fails.
func pollShown[T any](a *app, f *waitFlags, what string, start *T, label func(*T) string,
	poll func(...mintlify.PollOption) (*T, error)) (done, last *T, err error) {
	last = start
	sp := a.newSpinner(what)
	opts := append(f.pollOptions(), mintlify.WithPollObserver(func(v *T) {
		last = v
		if s, known := statusOf(v); !known {
			a.unknownStatus(what, s)
		}
		sp.update(label(v))
	}))
	done, err = poll(opts...)
	sp.done()
	return done, last, err
}

// statusOf is the status of a polled job, deployment or export, and
// whether this version knows it.
func statusOf(v any) (status string, known bool) {
	switch v := v.(type) {
	case *mintlify.Job:
		return string(v.Status), v.Status.Known()
	case *mintlify.Deployment:
		return string(v.Status), v.Status.Known()
	case *mintlify.StaticExport:
		return string(v.Status), v.Status.Known()
	}
	return "", true
}

// waitFailed ends a wait that failed. Once the resource was read (status
// set), the step outputs of the state last seen are still written; the
// error says what was awaited, its last status and the command that waits
// again.
func (a *app) waitFailed(f *waitFlags, err error, what, status string, outs []output, again ...string) error {
	if status != "" {
		a.writeOutputs(outs...)
	}
	return f.gaveUp(err, what, status, shellJoin(again))
}

// failedError is the exit code 3 of a run that was awaited and failed,
// with why, the reason the API gave, when it gave one.
func failedError(what, why string) error {
	if why != "" {
		return &codeError{exitFailed, fmt.Errorf("%s failed: %s", what, why)}
	}
	return &codeError{exitFailed, fmt.Errorf("%s failed", what)}
}

func (a *app) jobCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "job",
		Short: "Run documentation agent jobs",
		Long: `Run the documentation agent: start a job from a prompt, wait for its pull
request, send follow-ups. With --wait the exit code says how the job ended:
0 completed, 3 failed, 4 archived.`,
	}
	cmd.AddCommand(a.jobCreateCommand(), a.jobGetCommand(), a.jobWaitCommand(), a.jobMessageCommand())
	return group(cmd)
}

func (a *app) jobCreateCommand() *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "create [--wait] [--timeout D] [--json] PROMPT",
		Short: "Start an agent job from a prompt",
		Long: `Start an agent job from a prompt. Without --wait it prints the job and exits;
with --wait it waits until the job ends and prints its pull request.
PROMPT "-" reads the prompt from stdin. Put the prompt after -- when it
comes from a variable: a prompt that reads --help is then a prompt. An
empty prompt, or one that is not valid UTF-8, is refused (exit 2) before
anything is sent. --timeout bounds the whole command, the create included.

If the answer to the create request is lost (exit 5), the job may exist:
look in the dashboard before running the command again.`,
		Example: `  mintctl job create "Document the new search filters"
  mintctl job create --wait --timeout 30m -- "$PROMPT"
  git log -1 --format=%B | mintctl job create --wait -`,
		Args: exactArgs("PROMPT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			prompt, err := a.prompt(args[0])
			if err != nil {
				return err
			}
			return f.run(a, cmd, func(ctx context.Context, c *mintlify.Client) error {
				job, err := c.CreateJob(ctx, prompt)
				if err != nil {
					return f.gaveUp(fmt.Errorf("creating the job: %w", err), "the create", "", "")
				}
				return a.followJob(ctx, c, job, &f, "started")
			})
		},
	}
	f.register(cmd, true)
	return cmd
}

func (a *app) jobGetCommand() *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "get [--json] ID",
		Short: "Show a job",
		Long: `Show a job's status and pull request. The exit code is 0 whatever the status
(use 'mintctl job wait' to branch on how it ended).`,
		Example: `  mintctl job get job_7ugr6fbcqjmykd4kid5f3zpeai
  mintctl job get --json job_7ugr6fbcqjmykd4kid5f3zpeai | jq -r .prLink`,
		Args: exactArgs("ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			job, err := c.GetJob(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			return a.reportJob(job, &f, false)
		},
	}
	cmd.Flags().BoolVar(&f.json, "json", false, "print the job as one JSON object with the API's field names")
	return cmd
}

func (a *app) jobWaitCommand() *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "wait [--timeout D] [--json] ID",
		Short: "Wait for a job to end",
		Long: `Wait until a job ends and print its pull request. The exit code says how it
ended: 0 completed, 3 failed, 4 archived; 7 when --timeout ran out, 1 if
the wait itself failed (the job goes on: wait again).`,
		Example: `  mintctl job wait --timeout 30m job_7ugr6fbcqjmykd4kid5f3zpeai`,
		Args:    exactArgs("ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(a, cmd, func(ctx context.Context, c *mintlify.Client) error {
				return a.waitJob(ctx, c, &mintlify.Job{ID: args[0]}, &f)
			})
		},
	}
	f.register(cmd, false)
	f.wait = true
	return cmd
}

func (a *app) jobMessageCommand() *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "message [--wait] [--timeout D] [--json] ID PROMPT",
		Short: "Send a follow-up to a job",
		Long: `Send a follow-up instruction to a job, which makes it active again. With
--wait, wait until it ends again. An archived job refuses follow-ups.
PROMPT "-" reads the prompt from stdin.`,
		Example: `  mintctl job message --wait job_7ugr6fbcqjmykd4kid5f3zpeai "Also cover the Python SDK"
  mintctl job message --wait -- "$JOB_ID" "$PROMPT"`,
		Args: exactArgs("ID", "PROMPT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			prompt, err := a.prompt(args[1])
			if err != nil {
				return err
			}
			return f.run(a, cmd, func(ctx context.Context, c *mintlify.Client) error {
				job, err := c.SendMessage(ctx, args[0], prompt)
				if err != nil {
					return f.gaveUp(fmt.Errorf("sending the follow-up: %w", err), "the follow-up", "", "")
				}
				return a.followJob(ctx, c, job, &f, "sent the follow-up to")
			})
		},
	}
	f.register(cmd, true)
	return cmd
}

// maxPrompt bounds a prompt or a question read from stdin.
const maxPrompt = 1 << 20

// prompt returns a job's prompt: see textArg.
func (a *app) prompt(arg string) (string, error) {
	return a.textArg(arg, "prompt", "give the agent an instruction")
}

// textArg returns arg, or stdin when arg is "-": a prompt or a question,
// as what names it. One that is empty (or white space) or not valid UTF-8
// is a usage error before anything is sent (or any credit spent): JSON
// would turn each bad byte into U+FFFD, a text other than the one given.
// emptyHint says what to give instead. A text that reads like a flag goes
// after -- (mintctl job create -- "$PROMPT").
func (a *app) textArg(arg, what, emptyHint string) (string, error) {
	t := arg
	if arg == "-" {
		b, err := io.ReadAll(io.LimitReader(a.stdin, maxPrompt+1))
		if err != nil {
			return "", fmt.Errorf("reading the %s from stdin: %w", what, err)
		}
		if len(b) > maxPrompt {
			return "", usageErrorf("the %s on stdin is longer than %d bytes", what, maxPrompt)
		}
		t = strings.TrimSpace(string(b))
	}
	switch {
	case strings.TrimSpace(t) == "":
		return "", usageErrorf("empty %s: %s", what, emptyHint)
	case !utf8.ValidString(t):
		return "", usageErrorf("the %s is not valid UTF-8: check the encoding of its source", what)
	}
	return t, nil
}

// followJob follows a job just created or sent a follow-up (done says
// which): without --wait it reports the job as it is; with --wait it says
// what was done and waits for the job to end.
func (a *app) followJob(ctx context.Context, c *mintlify.Client, job *mintlify.Job, f *waitFlags, done string) error {
	if !f.wait {
		return a.reportJob(job, f, false)
	}
	a.infof("%s job %s", done, job.ID)
	return a.waitJob(ctx, c, job, f)
}

// waitJob polls the job to a terminal status, showing progress, then
// reports it. When the wait fails after the job was read, it still writes
// the last status it saw.
func (a *app) waitJob(ctx context.Context, c *mintlify.Client, job *mintlify.Job, f *waitFlags) error {
	done, last, err := pollShown(a, f, "job "+job.ID, job,
		func(j *mintlify.Job) string { return string(j.Status) },
		func(opts ...mintlify.PollOption) (*mintlify.Job, error) { return c.PollJob(ctx, job.ID, opts...) })
	if err != nil {
		return a.waitFailed(f, err, "job "+job.ID, string(last.Status), jobOutputs(last), "mintctl", "job", "wait", job.ID)
	}
	return a.reportJob(done, f, true)
}

// unknownStatus says, once per status and run, that what has a status
// this version does not know: the API added one. It is no verdict, so the
// wait goes on.
func (a *app) unknownStatus(what, status string) {
	if a.unknownSeen[status] {
		return
	}
	if a.unknownSeen == nil {
		a.unknownSeen = map[string]bool{}
	}
	a.unknownSeen[status] = true
	a.warnf("%s has the status %q, which this version of mintctl does not know: it is no verdict, so the wait goes on (a newer mintctl may know it)", what, status)
}

func orUnknown(s string) string {
	if s == "" {
		return "in an unknown state"
	}
	return s
}

func jobOutputs(j *mintlify.Job) []output {
	return []output{{"job_id", j.ID}, {"status", string(j.Status)}, {"pr_link", j.PRLink}}
}

// reportJob prints the job, writes the step outputs and, after a wait,
// turns how the job ended into the exit code.
func (a *app) reportJob(j *mintlify.Job, f *waitFlags, waited bool) error {
	// The job was read: its outputs are written whatever becomes of stdout.
	a.writeOutputs(jobOutputs(j)...)
	a.summaryf("#### Job %s\n\n- status: **%s**\n- pull request: %s\n\n", j.ID, j.Status, mdLink(j.PRLink))
	if f.json {
		if err := printJSON(a.stdout, j); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(a.stdout, "job %s %s\n", printable(j.ID), printable(string(j.Status)))
		switch {
		case j.PRLink != "":
			fmt.Fprintln(a.stdout, printable(j.PRLink))
		case j.Status == mintlify.JobCompleted:
			fmt.Fprintln(a.stdout, "no pull request: no file needed a change")
		case j.Status == mintlify.JobActive:
			fmt.Fprintln(a.stdout, "no pull request yet")
		default:
			fmt.Fprintln(a.stdout, "no pull request")
		}
	}
	if !waited {
		return nil
	}
	switch j.Status {
	case mintlify.JobFailed:
		return failedError("job "+j.ID, "")
	case mintlify.JobArchived:
		return &codeError{exitArchived, fmt.Errorf("job %s was archived", j.ID)}
	}
	return nil
}

// printJSON prints v, an SDK value (which marshals as the API spells it),
// as one line made safe for a CI log (safeJSON): still valid, and decoding
// to the same values.
func printJSON(w io.Writer, v any) error {
	b, err := encodeJSON(v)
	if err != nil {
		return err
	}
	_, err = w.Write(safeJSON(append(b, '\n')))
	return err
}

// encodeJSON is v's JSON without HTML escapes (a link keeps its &).
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}
