package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
)

// The assistant API's commands: ask (a streamed answer), docs search and
// docs page. Their credentials are the assistant's own, from the
// environment only.

const assistantCredentials = `Credentials come only from the environment, never from flags:

  MINTLIFY_ASSISTANT_API_KEY   an assistant key, mint_dsc_... (required)
  MINTLIFY_DOMAIN              the docs site's domain identifier (required)
  MINTLIFY_ASSISTANT_BASE_URL  another address, such as a mock server's
                               URL + /discovery (optional)`

// assistantClient builds the assistant API's client from the environment
// only. A missing or empty key or domain is a configuration error (exit
// 2) before anything is sent.
func (a *app) assistantClient() (*mintlify.AssistantClient, error) {
	key, err := a.apiKey(mintlify.EnvAssistantAPIKey, "an assistant API key (mint_dsc_...)")
	if err != nil {
		return nil, err
	}
	domain, _ := a.lookupEnv(mintlify.EnvDomain)
	switch {
	case domain == "":
		return nil, usageErrorf("%s is not set: set it to your docs site's domain identifier (docs.example.com)", mintlify.EnvDomain)
	case strings.TrimSpace(domain) != domain:
		return nil, usageErrorf("%s %q has white space around it: set it to the domain alone", mintlify.EnvDomain, domain)
	}
	opts := a.clientOptions(key, mintlify.EnvAssistantBaseURL, mintlify.DefaultAssistantBaseURL)
	c, err := mintlify.NewAssistantClient(append(opts, mintlify.WithDomain(domain))...)
	if err != nil {
		return nil, &codeError{exitUsage, insecureHTTPHint(err)}
	}
	return c, nil
}

func (a *app) askCommand() *cobra.Command {
	var threadID, threadKey string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ask [--thread-id ID --thread-key KEY] [--json] QUESTION",
		Short: "Ask the docs site's AI assistant a question",
		Long: `Ask the docs site's AI assistant (the assistant API) a question and print its
answer as it is written, then the pages it drew on. Each question spends
the organization's assistant credits: it is never sent twice (exit 5 when
the answer to it was lost: it may have been spent).

The first answer starts a thread; its ID and key are printed on stderr.
To ask a follow-up in it, pass both: --thread-id ID --thread-key KEY.
QUESTION "-" reads the question from stdin; put it after -- when it comes
from a variable. --json prints the whole answer, once read, as one JSON
object: text, sources, threadId, threadKey, finishReason.

The answer is the server's text: on a terminal and in a CI log, its
control characters are shown escaped and no line of it can start a GitHub
Actions workflow command. In GitHub Actions, the thread's ID is written
as the step output thread_id (never its key); with --json, the key is in
the JSON for a later step (jq -r .threadKey) and masked in the log first,
or left out when it is not one token of at least 16 characters.

` + assistantCredentials,
		Example: `  mintctl ask "How do I authenticate?"
  mintctl ask --thread-id 01JD3Z8X6N6Q7V9W2Y4T5R8K0M --thread-key "$KEY" -- "And the rate limits?"
  mintctl ask --json -- "$QUESTION" | jq -r .text`,
		Args: exactArgs("QUESTION"),
		PreRunE: func(*cobra.Command, []string) error {
			if (threadID == "") != (threadKey == "") {
				return usageErrorf("--thread-id and --thread-key go together: pass both to continue a thread, neither to start one")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			question, err := a.textArg(args[0], "question", "ask the assistant something")
			if err != nil {
				return err
			}
			c, err := a.assistantClient()
			if err != nil {
				return err
			}
			s, err := c.Message(cmd.Context(), mintlify.MessageParams{
				Messages:  []mintlify.ChatMessage{{Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: question}}}},
				ThreadID:  threadID,
				ThreadKey: threadKey,
			})
			if err != nil {
				return fmt.Errorf("asking: %w", err)
			}
			defer s.Close()
			return a.printAnswer(s, asJSON, threadKey == "")
		},
	}
	cmd.Flags().StringVar(&threadID, "thread-id", "", "continue this thread (with --thread-key)")
	cmd.Flags().StringVar(&threadKey, "thread-key", "", "the key of the thread, which its first answer gave")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole answer as one JSON object")
	return cmd
}

// printAnswer prints the answer as it arrives (its text, then its
// sources), or once read as JSON, and writes the thread_id output once the
// thread is known, even when the answer then breaks off: the question was
// asked.
func (a *app) printAnswer(s *mintlify.MessageStream, asJSON, newThread bool) error {
	text := newStreamText(a.stdout)
	var streamErr error
	for ev, err := range s.Events() {
		if err != nil {
			streamErr = err
			break
		}
		if ev.Type == "text-delta" && !asJSON {
			text.write(ev.Delta)
		}
	}
	threadErr := checkThreadID(s.ThreadID())
	if id := s.ThreadID(); id != "" && threadErr == nil {
		a.writeOutputs(output{"thread_id", id})
	}
	if asJSON {
		if streamErr != nil {
			return fmt.Errorf("reading the answer: %w", streamErr)
		}
		if threadErr != nil {
			return threadErr
		}
		ans := mintlify.Answer{Text: s.Text(), Sources: s.Sources(), ThreadID: s.ThreadID(), ThreadKey: s.ThreadKey(), FinishReason: s.FinishReason()}
		if ans.Sources == nil {
			ans.Sources = []mintlify.Source{}
		}
		if a.actions && ans.ThreadKey != "" {
			// The key is for a later step (jq -r .threadKey), not for the
			// log: the runner masks it. One it could not mask is left out.
			if !maskable(ans.ThreadKey) {
				ans.ThreadKey = ""
			} else {
				fmt.Fprintln(a.stderr, workflowCommand("add-mask", "", ans.ThreadKey))
			}
		}
		return printJSON(a.stdout, ans)
	}
	text.end()
	if streamErr != nil {
		return fmt.Errorf("the answer broke off: %w", streamErr)
	}
	if sources := s.Sources(); len(sources) > 0 {
		fmt.Fprintln(a.stdout, "\nSources:")
		for _, src := range sources {
			if src.Title != "" {
				fmt.Fprintf(a.stdout, "  %s  %s\n", printable(src.Title), printable(src.URL))
			} else {
				fmt.Fprintf(a.stdout, "  %s\n", printable(src.URL))
			}
		}
	}
	if threadErr != nil {
		return threadErr
	}
	switch {
	case s.ThreadID() == "":
	case newThread && isToken(s.ThreadKey()) && !a.actions:
		a.infof("thread %s; to ask a follow-up: mintctl ask --thread-id %s --thread-key %s QUESTION", s.ThreadID(), s.ThreadID(), s.ThreadKey())
	default:
		a.infof("thread %s", s.ThreadID())
	}
	return nil
}

// streamText writes an answer's text as it arrives, delta by delta, under
// printable's rules for the whole of each line: the deltas split the text
// anywhere (a line break, "\r\n", "::" or "##[" may straddle two), so the
// rules are kept across writes by what this line has shown so far.
//
//   - A line ends at "\n" and at "\r\n" (written "\n"); a lone "\r", which
//     the runner would read as a line break, is shown as ^M.
//   - A ':' that is the first character of a line but white space (the
//     runner's, see isRunnerSpace) is written "\:", so no line starts a
//     workflow command.
//   - A '[' after "##" on the same line is written "\[", so no line holds
//     "##[".
//   - Control characters are shown as printable shows them (tab stays).
type streamText struct {
	w       io.Writer
	lead    bool // the line holds white space only, so far
	hashes  int  // '#'s that end the line so far (0, 1 or 2)
	cr      bool // a '\r' waits for the next character: "\r\n" is one line break
	written bool // anything was written
	newline bool // the last thing written ended a line
	buf     []byte
}

func newStreamText(w io.Writer) *streamText { return &streamText{w: w, lead: true} }

// write shows delta, at once.
func (t *streamText) write(delta string) {
	b := t.buf[:0]
	for _, r := range delta {
		if t.cr {
			t.cr = false
			if r == '\n' {
				b = t.lineBreak(b)
				continue
			}
			b = t.visible(b, "^M")
		}
		switch {
		case r == '\r':
			t.cr = true
		case r == '\n':
			b = t.lineBreak(b)
		case r == '\t':
			b = append(b, '\t')
			t.hashes = 0
		case r == utf8.RuneError:
			b = t.visible(b, `\ufffd`)
		case r < 0x20:
			b = t.visible(b, "^"+string(rune(r+64)))
		case r == 0x7f:
			b = t.visible(b, "^?")
		case isControl(r):
			b = t.visible(b, fmt.Sprintf(`\u%04x`, r))
		case t.lead && isRunnerSpace(r):
			b = utf8.AppendRune(b, r)
		case t.lead && r == ':':
			b = t.visible(b, `\:`)
		case r == '[' && t.hashes >= 2:
			b = t.visible(b, `\[`)
		case r == '#':
			b = utf8.AppendRune(b, r)
			t.lead, t.hashes = false, min(t.hashes+1, 2)
		default:
			b = utf8.AppendRune(b, r)
			t.lead, t.hashes = false, 0
		}
	}
	if len(b) > 0 {
		_, _ = t.w.Write(b)
		t.written, t.newline = true, b[len(b)-1] == '\n'
	}
	t.buf = b
}

func (t *streamText) lineBreak(b []byte) []byte {
	t.lead, t.hashes = true, 0
	return append(b, '\n')
}

// visible appends an escape, which ends the line's lead and its run of '#'.
func (t *streamText) visible(b []byte, s string) []byte {
	t.lead, t.hashes = false, 0
	return append(b, s...)
}

// end finishes the text: a '\r' still waiting is a line break, and the
// text ends with one.
func (t *streamText) end() {
	if t.cr {
		t.cr = false
		t.written, t.newline = true, true
		_, _ = io.WriteString(t.w, "\n")
		return
	}
	if t.written && !t.newline {
		_, _ = io.WriteString(t.w, "\n")
		t.newline = true
	}
}

func (a *app) docsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "docs",
		Short: "Search the docs site and read its pages",
		Long: `Search the docs site with the assistant API and read its pages' text. Neither
spends credits.

` + assistantCredentials,
	}
	cmd.AddCommand(a.docsSearchCommand(), a.docsPageCommand())
	return group(cmd)
}

// maxDocsLimit is the search route's largest page.
const maxDocsLimit = 50

func (a *app) docsSearchCommand() *cobra.Command {
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "search [--limit N] [--json] QUERY",
		Short: "Search the docs site",
		Long: `Search the docs site and print the pages found, best first: each page's path
and title, then the passage that matched. --limit N asks for at most N
results (1 to 50; the API's default is 10). --json prints the results as
one JSON array with the API's field names (path, content, metadata).`,
		Example: `  mintctl docs search "rate limits"
  mintctl docs search --limit 3 --json -- "$QUERY" | jq -r '.[].path'`,
		Args: exactArgs("QUERY"),
		PreRunE: func(*cobra.Command, []string) error {
			if limit < 0 || limit > maxDocsLimit {
				return usageErrorf("--limit %d: want 1 to %d", limit, maxDocsLimit)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(args[0]) == "" || !utf8.ValidString(args[0]) {
				return usageErrorf("the query is empty or not valid UTF-8")
			}
			c, err := a.assistantClient()
			if err != nil {
				return err
			}
			results, err := c.SearchDocs(cmd.Context(), mintlify.DocSearchParams{Query: args[0], PageSize: limit})
			if err != nil {
				return fmt.Errorf("searching: %w", err)
			}
			if asJSON {
				return printJSON(a.stdout, results)
			}
			if len(results) == 0 {
				a.infof("no page matched")
			}
			for i, r := range results {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				title, _ := r.Metadata["title"].(string)
				if title != "" {
					fmt.Fprintf(a.stdout, "%s  %s\n", printable(r.Path), printable(title))
				} else {
					fmt.Fprintln(a.stdout, printable(r.Path))
				}
				printLines(a.stdout, "  ", r.Content)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, "at most N results, 1 to 50 (default: the API's, 10)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as one JSON array with the API's field names")
	return cmd
}

func (a *app) docsPageCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "page [--json] PATH",
		Short: "Print a page's text",
		Long: `Print the whole text of a page of the docs site: PATH is a search result's
path (a leading slash is fine). A page that does not exist, or that is
protected, is not found (exit 1). --json prints {"path", "content"}.`,
		Example: `  mintctl docs page quickstart
  mintctl docs page --json guides/authentication | jq -r .content`,
		Args: exactArgs("PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "" {
				return usageErrorf("the path is empty: pass a search result's path")
			}
			c, err := a.assistantClient()
			if err != nil {
				return err
			}
			page, err := c.GetPageContent(cmd.Context(), args[0])
			if err != nil {
				if errors.Is(err, mintlify.ErrNotFound) {
					return fmt.Errorf("no page %q on the site (or not a public one): %w", args[0], err)
				}
				return fmt.Errorf("reading the page: %w", err)
			}
			if asJSON {
				return printJSON(a.stdout, page)
			}
			printLines(a.stdout, "", page.Content)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the page as one JSON object, {"path", "content"}`)
	return cmd
}

// maxThreadID bounds a thread ID mintctl prints: the API's are ULIDs, 26
// characters.
const maxThreadID = 128

// checkThreadID refuses a thread ID from the server that is not one
// before it is printed or written as a step output: a thread ID is a
// token (letters, digits, '-' and '_'), which a later step may pass on
// to a shell or a workflow command. "" (no thread) passes.
func checkThreadID(id string) error {
	if id == "" || len(id) <= maxThreadID && isToken(id) {
		return nil
	}
	return fmt.Errorf("the server's thread ID is not one (%d bytes, not only letters, digits, '-' and '_'): it is not shown", len(id))
}

// isToken reports whether s is a non-empty run of ASCII letters, digits,
// '-' and '_': a thread ID or key fit to print in a command line.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return s != ""
}

// minMaskedKey is the shortest thread key mintctl has the runner mask: a
// key is a random token (the mock's are 32 characters), and masking a
// short one would let a server blank any common word in the log.
const minMaskedKey = 16

// maskable reports whether the runner can mask key as one token: plain
// text without spaces, and long enough to be a secret rather than a word.
func maskable(key string) bool {
	return len(key) >= minMaskedKey && isPlain(key) && !strings.ContainsAny(key, " \t")
}
