package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/docsagent/mintlify-go/internal/boundedfile"
	"github.com/docsagent/mintlify-go/internal/redact"
)

// What mintctl adds in a GitHub Actions step (GITHUB_ACTIONS=true): the
// logs of a failed deployment in a collapsible group, one error
// annotation for a failed verdict, and a short Markdown report in the
// step summary. Every workflow command here is mintctl's own, with any
// server text in it made printable first and then escaped by the
// runner's rules.

// appendStepFile appends text to a file the runner reads after the step
// ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY) in bounded time, given up at once
// on SIGINT or SIGTERM (see boundedfile.Append).
func (a *app) appendStepFile(path, text string) error {
	var interrupted <-chan struct{}
	if a.ctx != nil && a.ctx.Err() == nil {
		interrupted = a.ctx.Done() // a signal that came before is no reason not to try
	}
	return boundedfile.Append(path, text, interrupted)
}

// warnf tells the user something went wrong that does not change the
// exit code: a warning annotation in Actions, a line on stderr elsewhere.
// The format is mintctl's; its text arguments are made printable.
func (a *app) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, printableArgs(args)...)
	if a.actions {
		fmt.Fprintln(a.stderr, workflowCommand("warning", "mintctl", msg))
		return
	}
	fmt.Fprintln(a.stderr, "mintctl: warning: "+msg)
}

// workflowCommand builds "::NAME title=TITLE::DATA" escaped by the
// runner's rules: % CR LF in the data, and also : and , in a property.
// title and data must be printable already (no line break, no "##[").
func workflowCommand(name, title, data string) string {
	data = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(data)
	if title == "" {
		return "::" + name + "::" + data
	}
	title = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(title)
	return "::" + name + " title=" + title + "::" + data
}

// summaryf appends Markdown to the step summary ($GITHUB_STEP_SUMMARY),
// when the runner gives one. The format is mintctl's Markdown; every text
// argument is server text, made printable and escaped for Markdown and
// HTML (md); an mdLink renders as a link only when it is a plain http(s)
// URL, and an mdRaw is passed as it is. A summary that cannot be written is a warning.
func (a *app) summaryf(format string, args ...any) {
	path, _ := a.lookupEnv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return
	}
	// The runner shows the summary on the run's page: a key a server
	// echoed into a link or a summary is redacted there as in the log,
	// before the Markdown escapes, which would hide it from the scrubber
	// ("mint\_..." renders as "mint_...").
	scrub := redact.New(a.redactKeys...)
	for i, v := range args {
		if l, ok := v.(mdLink); ok {
			args[i] = mdLink(scrub(string(l), false)).String()
		} else if m, ok := v.(mdRaw); ok {
			args[i] = string(m)
		} else if s, ok := printableArgs([]any{v})[0].(string); ok {
			args[i] = md(scrub(s, false))
		}
	}
	text := scrub(fmt.Sprintf(format, args...), false)
	if err := a.appendStepFile(path, text); err != nil {
		a.warnf("the step summary was not written to $GITHUB_STEP_SUMMARY: %v", err)
	}
}

// mdRaw is Markdown of mintctl's own, built from escaped parts: summaryf
// passes it as it is.
type mdRaw string

// mdLink is a pull request or preview link for the summary: a Markdown
// link when u is a plain http(s) URL, else the escaped text (a javascript:
// link or one that would break out of the link's syntax is never a link).
type mdLink string

// md escapes text for the step summary: HTML's special characters become
// entities (no tag, comment or entity of the server's reaches the page),
// every other ASCII punctuation mark is backslash-escaped (no emphasis,
// link, image, table cell or heading).
func md(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r < 0x80 && strings.ContainsRune("!#$%()*+,-./:;=?@[\\]^_`{|}~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// String renders the link.
func (l mdLink) String() string {
	s := string(l)
	if s == "" {
		return "none"
	}
	u, err := url.Parse(s)
	plain := err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil &&
		!strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r >= 0x7f || strings.ContainsRune("()<>[]\\\"'`", r) })
	if !plain {
		return md(printable(s))
	}
	return "[" + md(s) + "](" + s + ")"
}

// isRegularFile reports whether w is a file on disk (a redirect to a
// file), rather than a pipe or a terminal that a CI runner reads.
func isRegularFile(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

// stdoutIsLog reports whether stdout reaches the log of a GitHub Actions
// step (it is not a file), where the runner reads every line for
// workflow commands: what the server wrote may go there only escaped.
func (a *app) stdoutIsLog() bool { return a.actions && !isRegularFile(a.rawStdout) }
