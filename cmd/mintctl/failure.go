package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/redact"
)

// How a run of mintctl ends when it fails: the exit code, the signal that
// stopped it, and one line that says what to do next, which in GitHub
// Actions is also the run's one error annotation.

// signalError is the cause of the run's context when SIGINT or SIGTERM
// ended it.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string {
	if e.sig == os.Interrupt {
		return "interrupted (SIGINT)"
	}
	return "terminated (SIGTERM)"
}

// code is 128 plus the signal's number, as a shell reports a program the
// signal ended: 130 for SIGINT, 143 for SIGTERM. A script that runs
// mintctl then stops as it would had mintctl been killed.
func (e *signalError) code() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitInterrupted
}

// withSignals returns a context that SIGINT and SIGTERM end, with a
// *signalError as its cause, and the function that stops listening.
// Further signals are caught too, so that the run still ends the way it
// chose (its outputs written, its exit code said).
func withSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			cancel(&signalError{sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// stoppedBy returns the signal that ended ctx, or nil.
func stoppedBy(ctx context.Context) *signalError {
	var sig *signalError
	if ctx != nil && errors.As(context.Cause(ctx), &sig) {
		return sig
	}
	return nil
}

// pickUpError is a command that stopped while the work it started goes
// on at the server: again is the command line that picks it up (waits
// again, downloads again, appends the rest of an export). printed is set
// when the command printed it already.
type pickUpError struct {
	err     error
	again   string
	printed bool
}

func (e *pickUpError) Error() string { return e.err.Error() }
func (e *pickUpError) Unwrap() error { return e.err }

// pickUp marks err as one after which again picks the work up, where
// running again can get further (the network, a 429, a 5xx, an ended
// context); after a 400, 401, 403 or 404 it would fail the same way.
func pickUp(err error, again string) error {
	if again == "" || !canResume(err) {
		return err
	}
	return &pickUpError{err: err, again: again}
}

// finalCode is the exit code of a run that failed with err: exitCode's,
// then 7 when the command's --timeout ended it, and 130 or 143 whatever
// the error when a signal did.
func finalCode(ctx context.Context, cmd *cobra.Command, err error) int {
	if sig := stoppedBy(ctx); sig != nil {
		return sig.code()
	}
	code := exitCode(err)
	if code == exitError && errors.Is(err, context.DeadlineExceeded) && cmd != nil {
		if f := cmd.Flags().Lookup("timeout"); f != nil && f.Changed {
			code = exitTimeout
		}
	}
	return code
}

// keyRefused reports a 401 or 403 from the API: the key is wrong,
// expired, lacks the scope, or is not allowed from this address (or the
// organization's plan lacks the feature, which the API also answers 403).
// The storage host's refusals of a bundle link are not the key's (it is
// never sent there).
func keyRefused(err error) bool {
	var host *storageHostError
	return (errors.Is(err, mintlify.ErrUnauthorized) || errors.Is(err, mintlify.ErrForbidden)) && !errors.As(err, &host)
}

// storageHostError is a download of a bundle that failed: a 403 there is
// an expired or altered link, not a refused key.
type storageHostError struct{ err error }

func (e *storageHostError) Error() string { return e.err.Error() }
func (e *storageHostError) Unwrap() error { return e.err }

// next is what to do after a failure: say, and the command line that
// picks the work up, if any (it may quote the server: an ID).
type next struct{ say, run string }

// nextStep says what to do after err ended the run with code: what picks
// the work up, where to look, which setting to check.
func (a *app) nextStep(cmd *cobra.Command, err error, code int) next {
	path := "mintctl"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	var pu *pickUpError
	picked := errors.As(err, &pu)
	pickItUp := func() next {
		if pu.printed {
			return next{say: "run the command printed above to pick it up"}
		}
		return next{say: "the work goes on; to pick it up, run:", run: pu.again}
	}
	switch {
	case code == exitUnknown || (code >= 128 && errors.Is(err, mintlify.ErrOutcomeUnknown)):
		return next{say: "the request was sent but no answer came back, so " + maybeStarted(path) +
			": look at the dashboard before running it again"}
	case picked && (code == exitTimeout || code >= 128):
		return pickItUp()
	case code >= 128:
		return next{say: "nothing is left running here; run the command again when ready"}
	case code == exitTimeout:
		return next{say: "run it again with a longer --timeout"}
	case code == exitKeyRefused:
		return next{say: a.keyHint(err)}
	case code == exitUsage:
		return next{say: "see '" + path + " --help'"}
	case code == exitFailed:
		return next{say: "read why above (and a deployment's logs), fix the cause, then run it again"}
	case code == exitArchived:
		return next{say: "an archived job takes no follow-ups: start a new one with 'mintctl job create'"}
	case picked:
		return pickItUp()
	}
	var ae *mintlify.APIError
	switch {
	case errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound:
		return next{say: "check the ID and the project (" + mintlify.EnvProjectID + " or --project)"}
	case errors.As(err, &ae) && ae.StatusCode == http.StatusTooManyRequests:
		return next{say: "the rate limit was reached: run it again later"}
	case errors.As(err, &ae) && ae.StatusCode >= 500:
		return next{say: "the service failed: run it again later"}
	case errors.As(err, &ae):
		return next{say: "fix what the server names above, then run it again"}
	case errors.Is(err, mintlify.ErrMalformedResponse):
		return next{say: "the answer is not what the API documents: check the base URL, or report it with its request ID"}
	}
	return next{say: "check the network and the base URL, then run it again"}
}

// maybeStarted names what may exist after a create or trigger whose
// answer was lost, by the command.
func maybeStarted(path string) string {
	fields := strings.Fields(path)
	noun := ""
	if len(fields) > 1 {
		noun = fields[1]
	}
	switch noun {
	case "job":
		return "the job may exist"
	case "deploy":
		return "a deployment may be queued"
	case "preview":
		return "a preview may be queued"
	case "automation":
		return "the run may have started and spent credits"
	case "static-export":
		return "the export may have started"
	case "ask":
		return "the message may have been answered and spent credits"
	}
	return "the request may have acted"
}

// keyHint says which key was refused and why it may have been.
func (a *app) keyHint(err error) string {
	name := a.keyVar
	if name == "" {
		name = mintlify.EnvAPIKey
	}
	if errors.Is(err, mintlify.ErrUnauthorized) {
		return "the key in " + name + " was refused (HTTP 401): check that the secret holds a current key of this kind"
	}
	return "the key in " + name + " was refused (HTTP 403): check its scopes (write for anything that starts work) " +
		"and IP allowlist, and that the organization's plan includes this feature"
}

// reportFailure writes what to do next on stderr, after the error's own
// line, and in GitHub Actions one error annotation with both. msg is the
// error's text, made printable.
func (a *app) reportFailure(cmd *cobra.Command, err error, code int, msg string) {
	n := a.nextStep(cmd, err, code)
	if n.run != "" {
		// On a line of its own, to copy, as an export's resume command.
		fmt.Fprintf(a.stderr, "mintctl: %s\n  %s\n", n.say, printable(n.run))
	} else {
		fmt.Fprintf(a.stderr, "mintctl: %s\n", n.say)
	}
	if !a.actions {
		return
	}
	title := "mintctl"
	if cmd != nil {
		title = cmd.CommandPath()
	}
	data := strings.TrimSpace(fmt.Sprintf("%s (exit %d). Next: %s %s", msg, code, n.say, printable(n.run)))
	fmt.Fprintln(a.stderr, workflowCommand("error", title, annotationText(data, a.redactKeys)))
}

// annotationText keeps data from acting in an annotation: no key, no
// "::" that could read as the start of a workflow command, one printable
// line (workflowCommand escapes the rest).
func annotationText(data string, keys []string) string {
	data = printable(redact.New(keys...)(data, false))
	for strings.Contains(data, "::") {
		data = strings.ReplaceAll(data, "::", ": :")
	}
	return data
}
