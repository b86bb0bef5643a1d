package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
)

// The Index API (Universal Search): index search, context and contents,
// with an Index key from $MINTLIFY_INDEX_API_KEY.

// defaultIndexResults is --limit's default: half the API's most, enough
// for an agent to choose from.
const defaultIndexResults = 10

// indexLimits is the help's paragraph on the API's limits, from the SDK's
// constants so that it says what the SDK checks.
var indexLimits = fmt.Sprintf(`The Index API allows %d requests a second and %s a day per organization,
every Index key together. Flags outside the documented ranges are refused
(exit 2) before anything is sent, as the API would count the request it
refuses. A 429 whose Retry-After is within --max-retry-wait is waited out
and the request sent again (it counts again); a longer one stops the
command at once (exit 1), saying how long the API asked to wait.`,
	mintlify.IndexRequestsPerSecond, thousands(mintlify.IndexRequestsPerDay))

const indexCredentials = `Credentials come only from the environment, never from flags:

  MINTLIFY_INDEX_API_KEY   an Index key, mint_us_... (required)
  MINTLIFY_INDEX_BASE_URL  another address, such as a mock server's
                           http://127.0.0.1:8080/api/universal-search (optional)`

// thousands writes n with a comma every three digits (1,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func (a *app) indexCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Search documentation with the Index API (Universal Search)",
		Long: `Search the technical documentation Mintlify hosts, and the web, with the
Index API, made for coding agents: search ranks documents, context
assembles Markdown (or JSON) context for a question within a token budget,
contents fetches documents by ID or URL.

` + indexCredentials + `

` + indexLimits,
	}
	cmd.AddCommand(a.indexSearchCommand(), a.indexContextCommand(), a.indexContentsCommand())
	return group(cmd)
}

// indexClient builds the Index client from the environment only: a
// missing or empty key is a configuration error (exit 2) before anything
// is sent, and so is a key of another API.
func (a *app) indexClient() (*mintlify.IndexClient, error) {
	key, err := a.apiKey(mintlify.EnvIndexAPIKey, "an Index API key (mint_us_...)")
	if err != nil {
		return nil, err
	}
	x, err := mintlify.NewIndexClient(a.clientOptions(key, mintlify.EnvIndexBaseURL, mintlify.DefaultIndexBaseURL)...)
	if err != nil {
		return nil, &codeError{exitUsage, insecureHTTPHint(err)}
	}
	return x, nil
}

// indexQueryClient refuses an empty QUERY (exit 2), then builds the Index
// client as indexClient does.
func (a *app) indexQueryClient(query string) (*mintlify.IndexClient, error) {
	if query == "" {
		return nil, usageErrorf("QUERY is empty")
	}
	return a.indexClient()
}

// indexError adds the limits to a 429 that was not waited out: the day's
// quota is the likely cause.
func indexError(err error) error {
	if errors.Is(err, mintlify.ErrRateLimited) {
		return fmt.Errorf("%w (the Index API allows %d requests a second and %s a day per organization, every key together)",
			err, mintlify.IndexRequestsPerSecond, thousands(mintlify.IndexRequestsPerDay))
	}
	return err
}

// domainFlags are --include-domain and --exclude-domain.
type domainFlags struct{ include, exclude []string }

func (d *domainFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&d.include, "include-domain", nil, "keep to this domain (and its subdomains), repeatable")
	cmd.Flags().StringArrayVar(&d.exclude, "exclude-domain", nil, "leave this domain out, repeatable")
}

func (d *domainFlags) check() error {
	for _, l := range [...]struct {
		flag    string
		domains []string
	}{{"--include-domain", d.include}, {"--exclude-domain", d.exclude}} {
		for _, v := range l.domains {
			if strings.TrimSpace(v) == "" {
				return usageErrorf("%s %q: want a domain, such as docs.example.com", l.flag, v)
			}
		}
	}
	return nil
}

func (a *app) indexSearchCommand() *cobra.Command {
	var (
		limit, maxChars int
		text, asJSON    bool
		domains         domainFlags
	)
	cmd := &cobra.Command{
		Use:   "search [--limit N] [--text] [--max-characters N] [--include-domain D]... [--exclude-domain D]... [--json] QUERY",
		Short: "Rank documents for a query",
		Long: fmt.Sprintf(`Rank documents for QUERY, best first: for each its title and score, its URL,
its ID (a Mintlify-hosted page's; a web page's ID is its URL), where it
comes from, and with --text or --max-characters its content. Pass an ID or
URL to 'mintctl index contents' for a document's content.

--limit N is the most results: 1 to %d (default %d). --max-characters N
(at least 1) prints at most N characters of each result's content;
--text all of it. --json prints the API's answer as one JSON object.

`, mintlify.IndexMaxNumResults, defaultIndexResults) + indexCredentials + "\n\n" + indexLimits + `

Exit codes: 0 (no result is not an error), 1 error, 2 usage or configuration.`,
		Example: `  export MINTLIFY_INDEX_API_KEY=mint_us_...
  mintctl index search "Next.js caching and revalidation"
  mintctl index search --limit 3 --max-characters 500 --include-domain nextjs.org -- "revalidate a path"
  mintctl index search --json --limit 20 "rate limits" | jq -r '.results[].url'`,
		Args: exactArgs("QUERY"),
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case limit < 1 || limit > mintlify.IndexMaxNumResults:
				return usageErrorf("--limit %d: want 1 to %d results", limit, mintlify.IndexMaxNumResults)
			case cmd.Flags().Changed("max-characters") && maxChars < 1:
				return usageErrorf("--max-characters %d: want at least 1 (or --text for all of it)", maxChars)
			}
			return domains.check()
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			x, err := a.indexQueryClient(args[0])
			if err != nil {
				return err
			}
			found, err := x.Search(cmd.Context(), mintlify.IndexSearchParams{Query: args[0], NumResults: limit, Text: text,
				MaxCharacters: maxChars, IncludeDomains: domains.include, ExcludeDomains: domains.exclude})
			if err != nil {
				return indexError(err)
			}
			if asJSON {
				return printJSON(a.stdout, found)
			}
			if len(found.Results) == 0 {
				a.infof("no results")
			}
			for i, r := range found.Results {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				_, _ = textf(a.stdout, "%d. %s (score %s)\n", i+1, r.Title, strconv.FormatFloat(r.Score, 'g', 4, 64))
				printIndexResult(a.stdout, r)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&limit, "limit", defaultIndexResults, fmt.Sprintf("the most results, 1 to %d", mintlify.IndexMaxNumResults))
	cmd.Flags().BoolVar(&text, "text", false, "print each result's content in full")
	cmd.Flags().IntVar(&maxChars, "max-characters", 0, "print at most N characters of each result's content (at least 1)")
	domains.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the answer as one JSON object with the API's field names")
	return cmd
}

func (a *app) indexContextCommand() *cobra.Command {
	var (
		format, product string
		budget          int
		asJSON          bool
		domains         domainFlags
	)
	cmd := &cobra.Command{
		Use:   "context [--format txt|json] [--token-budget N] [--product P] [--include-domain D]... [--exclude-domain D]... [--json] QUERY",
		Short: "Assemble context for a question within a token budget",
		Long: fmt.Sprintf(`Assemble source-cited context for QUERY, an implementation question, ready to
hand to a model: Markdown sections (--format txt, the default) or a
serialized JSON object of result items (--format json), printed to stdout;
how many sources and tokens it holds goes to stderr. Nothing found, or
nothing that fits, prints nothing on stdout and exits 0.

--token-budget N bounds the answer: 1 to %d tokens (default: the API's,
%d). --product P names a product or company as a retrieval hint. --json
prints the API's whole answer (requestId, query, response, resultsCount,
outputTokens) as one JSON object.

`, mintlify.IndexMaxTokenBudget, mintlify.IndexDefaultTokenBudget) + indexCredentials + "\n\n" + indexLimits + `

Exit codes: 0, 1 error, 2 usage or configuration.`,
		Example: `  mintctl index context "How do I cache a fetch in Next.js 16?" > context.md
  mintctl index context --token-budget 1500 --product Next.js --include-domain nextjs.org -- "$QUESTION"
  mintctl index context --format json --json "rate limits" | jq -r .response | jq .`,
		Args: exactArgs("QUERY"),
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case format != "txt" && format != "json":
				return usageErrorf("--format %q: want txt or json", format)
			case cmd.Flags().Changed("token-budget") && (budget < 1 || budget > mintlify.IndexMaxTokenBudget):
				return usageErrorf("--token-budget %d: want 1 to %d tokens", budget, mintlify.IndexMaxTokenBudget)
			case cmd.Flags().Changed("product") && product == "":
				return usageErrorf("--product is empty")
			}
			return domains.check()
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			x, err := a.indexQueryClient(args[0])
			if err != nil {
				return err
			}
			got, err := x.BuildContext(cmd.Context(), mintlify.ContextParams{Query: args[0], Format: format, Product: product,
				TokenBudget: budget, IncludeDomains: domains.include, ExcludeDomains: domains.exclude})
			if err != nil {
				return indexError(err)
			}
			if asJSON {
				return printJSON(a.stdout, got)
			}
			if got.Response == "" {
				a.infof("nothing matched, or nothing fitted within the token budget")
				return nil
			}
			printServerText(a.stdout, got.Response, format == "json")
			a.infof("%d source(s), %d tokens", got.ResultsCount, got.OutputTokens)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "txt", "the response's form: txt (Markdown) or json")
	cmd.Flags().IntVar(&budget, "token-budget", 0, fmt.Sprintf("the most tokens, 1 to %d (default: the API's, %d)", mintlify.IndexMaxTokenBudget, mintlify.IndexDefaultTokenBudget))
	cmd.Flags().StringVar(&product, "product", "", "a product or company name, as a retrieval hint")
	domains.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole answer as one JSON object with the API's field names")
	return cmd
}

func (a *app) indexContentsCommand() *cobra.Command {
	var (
		maxChars int
		query    string
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "contents [--max-characters N] [--query Q] [--json] ID_OR_URL...",
		Short: "Fetch documents by ID or URL",
		Long: fmt.Sprintf(`Fetch the content of 1 to %d documents, each named by the ID a search gave
(a Mintlify-hosted page's, such as nextjs:/docs/app/caching) or by URL.
An argument that parses as an absolute http or https URL (a scheme and a
host) is sent as a URL; any other as an ID.

--max-characters N (at least 1) bounds each document's content; --query Q
then picks the sections most relevant to Q. --json prints the API's
answer (requestId, results, statuses) as one JSON object.

The API answers partly: a document it could not fetch is a warning on
stderr (its ID or URL and why), not an error. The exit code is 0 when at
least one document was fetched, and 1 when none was (the documents
fetched, or with --json the whole answer, are printed first).

`, mintlify.IndexMaxContentsItems) + indexCredentials + "\n\n" + indexLimits + `

Exit codes: 0, 1 error or nothing fetched, 2 usage or configuration.`,
		Example: `  mintctl index contents example:/guides/caching
  mintctl index contents --max-characters 4000 --query revalidate nextjs:/docs/app/caching https://blog.example.org/http-caching-headers
  mintctl index contents --json "$ID" > page.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > mintlify.IndexMaxContentsItems {
				return usageErrorf("%s takes 1 to %d IDs or URLs, got %d", cmd.CommandPath(), mintlify.IndexMaxContentsItems, len(args))
			}
			return nil
		},
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case cmd.Flags().Changed("max-characters") && maxChars < 1:
				return usageErrorf("--max-characters %d: want at least 1", maxChars)
			case cmd.Flags().Changed("query") && query == "":
				return usageErrorf("--query is empty")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			p := mintlify.ContentsParams{MaxCharacters: maxChars, Query: query}
			for _, arg := range args {
				if isIndexURL(arg) {
					p.URLs = append(p.URLs, arg)
				} else {
					p.IDs = append(p.IDs, arg)
				}
			}
			x, err := a.indexClient()
			if err != nil {
				return err
			}
			got, err := x.Contents(cmd.Context(), p)
			if err != nil {
				return indexError(err)
			}
			if asJSON {
				if err := printJSON(a.stdout, got); err != nil {
					return err
				}
			} else {
				for i, r := range got.Results {
					if i > 0 {
						fmt.Fprintln(a.stdout)
					}
					_, _ = textf(a.stdout, "%s\n", r.Title)
					printIndexResult(a.stdout, r)
				}
			}
			for _, s := range got.Statuses {
				if s.Status != "error" {
					continue
				}
				why := s.ErrorTag
				if s.HTTPStatusCode != 0 {
					why += fmt.Sprintf(", HTTP %d", s.HTTPStatusCode)
				}
				a.warnf("not fetched: %s (%s)", s.ID, why)
			}
			if len(got.Results) == 0 {
				return fmt.Errorf("no document was fetched (%d asked for): see the warnings above", len(args))
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&maxChars, "max-characters", 0, "the most characters of each document's content (at least 1)")
	cmd.Flags().StringVar(&query, "query", "", "with --max-characters, keep the sections most relevant to this")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the answer as one JSON object with the API's field names")
	return cmd
}

// isIndexURL reports an argument of index contents that is a URL: one
// that parses as an absolute http or https URL with a host. Anything else
// is an ID (Mintlify IDs look like "site:/path").
func isIndexURL(arg string) bool {
	u, err := url.Parse(arg)
	if err != nil || u.Host == "" {
		return false
	}
	return u.Scheme == "http" || u.Scheme == "https" // url.Parse lowers it
}

// printIndexResult prints a result's URL, ID and provenance, then its
// text, if any, each line indented and made printable.
func printIndexResult(w io.Writer, r mintlify.IndexResult) {
	_, _ = textf(w, "   %s\n", r.URL)
	var about []string
	if r.ID != r.URL {
		about = append(about, "id "+r.ID)
	}
	about = append(about, r.Source, r.SiteName)
	if len(r.Breadcrumbs) > 0 {
		about = append(about, strings.Join(r.Breadcrumbs, " > "))
	}
	if !r.PublishedDate.IsZero() {
		about = append(about, "published "+r.PublishedDate.UTC().Format(time.DateOnly))
	}
	_, _ = textf(w, "   %s\n", strings.Join(about, " · "))
	if r.Text == "" {
		return
	}
	fmt.Fprintln(w)
	printLines(w, "   ", r.Text)
	if r.Truncated {
		fmt.Fprintf(w, "   [%d of %d characters]\n", utf8.RuneCountInString(r.Text), r.TotalCharacters)
	}
}

// printServerText prints a text from the server that has many lines (a
// context's Markdown) line by line, each made printable. A JSON response
// that is valid JSON (and UTF-8) is printed compact on one line through
// printJSON instead, so that it stays valid JSON.
func printServerText(w io.Writer, s string, isJSON bool) {
	if isJSON && utf8.ValidString(s) && printJSON(w, json.RawMessage(s)) == nil {
		return
	}
	printLines(w, "", s)
}
