// Package mockcmd is the mock server's command line: its flags and its run
// loop. The standalone program (mockserver/cmd/mockserver) and `mintctl mock`
// both run it, so the two accept the same flags and print the same banner.
package mockcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/docsagent/mintlify-go/internal/boundedfile"
	"github.com/docsagent/mintlify-go/mockserver"
)

// newServer is mockserver.New with its panic on an invalid option (a
// flag value that passed the checks above) turned into the error a command
// line reports, rather than a stack trace.
func newServer(opts ...mockserver.Option) (s *mockserver.Server, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return mockserver.New(opts...), nil
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

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// rateFlag reads a rate limit written as N/window, such as 100/1h.
type rateFlag struct {
	n   int
	per time.Duration
}

func (r *rateFlag) String() string {
	if r == nil {
		return ""
	}
	return strconv.Itoa(r.n) + "/" + r.per.String()
}

func (r *rateFlag) Set(v string) error {
	count, window, ok := strings.Cut(v, "/")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 0 {
		return errors.New("want N/window, such as 100/1h")
	}
	per, err := time.ParseDuration(window)
	if err != nil || per <= 0 {
		return errors.New("want N/window with a positive Go duration, such as 100/1h")
	}
	r.n, r.per = n, per
	return nil
}

// rateVar defines a rate-limit flag, n per window per by default, as
// fs.Int defines an int flag.
func rateVar(fs *flag.FlagSet, name string, n int, per time.Duration, usage string) *rateFlag {
	r := &rateFlag{n, per}
	fs.Var(r, name, usage)
	return r
}

// Run parses args (without the program name), starts the mock server and
// serves until ctx ends. The banner (URL, key, project) goes to stdout,
// request logs and flag errors to stderr. For -h it prints the usage to
// stderr and returns [flag.ErrHelp].
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mockserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	apiKey := fs.String("api-key", "", "admin key clients must send, starting with mint_ (default: random)")
	project := fs.String("project", "", "project ID (default: random)")
	seed := fs.Int("seed", 0, "generate a data set of `N` visits with proportionate searches, feedback and assistant threads (from 2025-01-01 to now)")
	jobDuration := fs.Duration("job-duration", 10*time.Second, "how long each run of a job stays active")
	outcome := fs.String("outcome", "", "outcome of every run: pull-request, no-change or failed (default pull-request)")
	noLimits := fs.Bool("no-rate-limits", false, "turn the service's rate limits off")
	analyticsLimit := rateVar(fs, "analytics-limit", mockserver.DefaultAnalyticsLimit, mockserver.DefaultLimitWindow, "analytics requests per organization, all routes together, as `N/window` (e.g. 100/1h; 0 turns it off)")
	jobLimit := rateVar(fs, "job-limit", mockserver.DefaultJobLimit, mockserver.DefaultLimitWindow, "job creations and follow-ups per project, as `N/window` (e.g. 100/1h; 0 turns it off)")
	deployLimit := rateVar(fs, "deploy-limit", mockserver.DefaultDeployLimit, mockserver.DefaultDeployWindow, "deployment plus automation triggers per organization, as `N/window` (e.g. 10/10s; 0 turns it off)")
	previewLimit := rateVar(fs, "preview-limit", mockserver.DefaultPreviewLimit, mockserver.DefaultPreviewWindow, "preview triggers per organization, as `N/window` (e.g. 5/1m; 0 turns it off)")
	previews := fs.Bool("previews", true, "the organization's plan includes preview deployments (false: trigger preview answers 403)")
	staticExport := fs.Bool("static-export", true, "static export is enabled for the organization (false: starting an export answers 403)")
	storageAddr := fs.String("storage-addr", "", "address of the storage host that serves export bundles (default: the -addr host, any port)")
	bundleSize := fs.Int64("bundle-size", 0, "pad every export bundle to `N` bytes (a valid tar.gz, streamed; 0: the real size)")
	assistantKey := fs.String("assistant-key", "", "assistant API key clients must send, starting with mint_dsc_ (default: random)")
	domain := fs.String("domain", mockserver.DefaultDomain, "the assistant API's site: the {domain} the assistant key belongs to")
	indexKey := fs.String("index-key", "", "Index API key clients must send, starting with mint_us_ (default: random)")
	streamDelay := fs.Duration("stream-delay", 20*time.Millisecond, "pause between the frames of a streamed assistant answer")
	indexAccess := fs.Bool("index-access", true, "the organization has Index access (false: its Index keys answer 401)")
	messageLimit := rateVar(fs, "assistant-limit", mockserver.DefaultMessageLimit, time.Hour, "assistant messages per organization, as `N/window` (e.g. 10000/1h; 0 turns it off)")
	messageIPLimit := rateVar(fs, "assistant-ip-limit", mockserver.DefaultMessageIPLimit, mockserver.DailyWindow, "assistant messages per client IP address, as `N/window` (e.g. 10000/24h; 0 turns it off)")
	docsLimit := rateVar(fs, "docs-limit", mockserver.DefaultDocsLimit, time.Hour, "docs searches, and apart page content requests, per organization, as `N/window` (e.g. 10000/1h; 0 turns it off)")
	indexLimit := rateVar(fs, "index-limit", mockserver.DefaultIndexLimit, time.Second, "Index requests per organization, every key together, as `N/window` (e.g. 10/1s; 0 turns it off)")
	indexDailyLimit := rateVar(fs, "index-daily-limit", mockserver.DefaultIndexDailyLimit, mockserver.DailyWindow, "Index requests per organization per day, as `N/window` (e.g. 1000/24h; 0 turns it off)")
	var faults faultFlags
	fs.Var(&faults, "fault", "fault `rule`, repeatable, e.g. route=create-job,status=503,times=2 (see docs/mock.md)")
	faultSeed := fs.Uint64("fault-seed", 1, "seed for probabilistic faults")
	var controlOrigins, controlHosts listFlag
	fs.Var(&controlOrigins, "control-origin", "let web pages of this `origin` (e.g. http://localhost:5173) use the control API, repeatable; any other request with an Origin header is refused")
	fs.Var(&controlHosts, "control-host", "a host `name` the control API answers to besides localhost, IP addresses and reserved test names, repeatable (the -addr host is one)")
	quiet := fs.Bool("quiet", false, "do not log requests")
	envFile := fs.String("env-file", "", "once listening, append the variables a client of each API needs (MINTLIFY_BASE_URL, MINTLIFY_API_KEY, MINTLIFY_PROJECT_ID; MINTLIFY_ASSISTANT_API_KEY, MINTLIFY_DOMAIN, MINTLIFY_ASSISTANT_BASE_URL; MINTLIFY_INDEX_API_KEY, MINTLIFY_INDEX_BASE_URL) to `PATH` (such as $GITHUB_ENV)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *apiKey != "" && !strings.HasPrefix(*apiKey, "mint_") {
		return errors.New("-api-key must start with mint_, as the service's admin keys do")
	}
	for name, key := range map[string]string{"-api-key": *apiKey, "-assistant-key": *assistantKey, "-index-key": *indexKey} {
		if strings.ContainsFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
			return fmt.Errorf("%s must not contain white space or control characters", name)
		}
	}
	if *project != "" && strings.ContainsFunc(*project, func(r rune) bool { return strings.ContainsRune("/?#", r) || unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return errors.New("-project must not contain /, ?, #, white space or control characters")
	}
	if *assistantKey != "" && !strings.HasPrefix(*assistantKey, "mint_dsc_") {
		return errors.New("-assistant-key must start with mint_dsc_, as the service's assistant keys do")
	}
	if *indexKey != "" && !strings.HasPrefix(*indexKey, "mint_us_") {
		return errors.New("-index-key must start with mint_us_, as the service's Index keys do")
	}
	if *apiKey != "" && (strings.HasPrefix(*apiKey, "mint_dsc_") || strings.HasPrefix(*apiKey, "mint_us_")) {
		return errors.New("-api-key must be an admin key: mint_dsc_ and mint_us_ are the assistant and Index keys' prefixes")
	}
	if *seed < 0 || *seed > mockserver.MaxSeed { // checked by WithSeed too; here the message names the flag
		return fmt.Errorf("-seed %d: want 0 to %d visits", *seed, mockserver.MaxSeed)
	}
	if *streamDelay < 0 {
		return errors.New("-stream-delay must not be negative")
	}
	if *bundleSize < 0 || *bundleSize > mockserver.MaxBundleSize {
		return fmt.Errorf("-bundle-size %d: want 0 to %d bytes (1 TiB)", *bundleSize, int64(mockserver.MaxBundleSize))
	}

	opts := []mockserver.Option{
		mockserver.WithJobDuration(*jobDuration),
		mockserver.WithSeed(*seed),
		mockserver.WithAnalyticsRateLimit(analyticsLimit.n, analyticsLimit.per),
		mockserver.WithJobRateLimit(jobLimit.n, jobLimit.per),
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
		opts = append(opts, mockserver.WithOutcome(o))
	}
	opts = append(opts,
		mockserver.WithDeployRateLimit(deployLimit.n, deployLimit.per),
		mockserver.WithPreviewRateLimit(previewLimit.n, previewLimit.per),
		mockserver.WithPreviews(*previews),
		mockserver.WithStaticExport(*staticExport),
		mockserver.WithBundleSize(*bundleSize),
		mockserver.WithDomain(*domain),
		mockserver.WithStreamDelay(*streamDelay),
		mockserver.WithAssistantRateLimit(messageLimit.n, messageLimit.per),
		mockserver.WithAssistantIPRateLimit(messageIPLimit.n, messageIPLimit.per),
		mockserver.WithDocsRateLimit(docsLimit.n, docsLimit.per),
		mockserver.WithIndexRateLimit(indexLimit.n, indexLimit.per),
		mockserver.WithIndexDailyRateLimit(indexDailyLimit.n, indexDailyLimit.per))
	if *assistantKey != "" {
		opts = append(opts, mockserver.WithAssistantKey(*assistantKey))
	}
	if *indexKey != "" {
		opts = append(opts, mockserver.WithIndexKey(*indexKey))
	}
	if !*indexAccess {
		opts = append(opts, mockserver.WithoutIndexAccess())
	}
	if *noLimits {
		opts = append(opts, mockserver.WithoutRateLimits())
	}
	// Requests addressed to the name the mock listens on are its own.
	if host, _, err := net.SplitHostPort(*addr); err == nil && host != "" && net.ParseIP(host) == nil {
		controlHosts = append(controlHosts, host)
	}
	opts = append(opts, mockserver.WithControlOrigins(controlOrigins...), mockserver.WithControlHosts(controlHosts...))
	if !*quiet {
		opts = append(opts, mockserver.WithLogger(slog.New(slog.NewTextHandler(stderr, nil))))
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if *storageAddr == "" {
		// Where the API listens: links must be reachable from wherever
		// the API is (with -addr 0.0.0.0:8080, from another machine).
		host, _, _ := net.SplitHostPort(ln.Addr().String())
		*storageAddr = net.JoinHostPort(host, "0")
	}
	storageLn, err := net.Listen("tcp", *storageAddr)
	if err != nil {
		ln.Close()
		return fmt.Errorf("-storage-addr: %w", err)
	}
	opts = append(opts, mockserver.WithStorageListener(storageLn))
	s, err := newServer(append(opts, mockserver.WithListener(ln))...)
	if err != nil {
		storageLn.Close() // ln is closed by the failed New
		return err
	}
	defer s.Close()
	// Generating the seed leaves garbage behind; hand it back now, so the
	// RSS a user sees is what the data hold.
	debug.FreeOSMemory()

	if w := exposedWarning(*addr, ln.Addr()); w != "" {
		fmt.Fprintln(stderr, w)
	}
	if *envFile != "" {
		if err := writeEnvFile(ctx, *envFile, s); err != nil {
			return fmt.Errorf("-env-file: %w", err)
		}
	}

	fmt.Fprintf(stdout, "mockserver %s listening\n", mockserver.Version)
	fmt.Fprintf(stdout, "  URL:      %s\n", s.URL())
	fmt.Fprintf(stdout, "  API key:  %s\n", s.APIKey())
	fmt.Fprintf(stdout, "  project:  %s\n", s.ProjectID())
	fmt.Fprintf(stdout, "  assistant key: %s\n", s.AssistantKey())
	fmt.Fprintf(stdout, "  domain:        %s (assistant base URL %s/discovery)\n", s.Domain(), s.URL())
	fmt.Fprintf(stdout, "  index key:     %s (Index base URL %s/api/universal-search)\n", s.IndexKey(), s.URL())
	fmt.Fprintf(stdout, "  control:  %s/_mock/\n", s.URL())
	if storage, err := s.StorageURL(); err == nil {
		fmt.Fprintf(stdout, "  storage:  %s (export bundles)\n", storage)
	}
	if *seed > 0 {
		c, _ := s.EventCounts(s.ProjectID())
		fmt.Fprintf(stdout, "  seeded:   %d visits, %d searches, %d feedback, %d threads (%d turns)\n",
			c.Visits, c.Searches, c.Feedback, c.Threads, c.Turns)
	}
	<-ctx.Done()
	fmt.Fprintln(stdout, "mockserver: shutting down")
	return nil
}

// exposedWarning warns when the mock listens beyond loopback (-addr :8080,
// 0.0.0.0, a LAN address): its control API (/_mock/) has no
// authentication, so anyone who reaches it can move its clock, inject
// faults and read its journal.
func exposedWarning(flag string, a net.Addr) string {
	if tcp, ok := a.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		return ""
	}
	return fmt.Sprintf("mockserver: warning: -addr %s is not a loopback address: anyone who can reach %s can drive the control API (/_mock/), which has no authentication", flag, a)
}

// writeEnvFile appends the settings a client of each of the three APIs
// (admin, assistant, Index) needs to reach s to path, in the NAME=value
// lines GitHub Actions reads from $GITHUB_ENV: with "mintctl mock
// -env-file "$GITHUB_ENV" &", the job's later steps talk to the mock with
// any of its keys. MINTLIFY_PROJECT_ID comes third and the Index's base
// URL last. One write, so a reader never sees part of them; a new file
// gets 0666 less the umask. In bounded time (see boundedfile.Append), as
// mintctl writes its step files: a FIFO nobody reads once hung the
// program before its banner, deaf to SIGINT and SIGTERM.
func writeEnvFile(ctx context.Context, path string, s *mockserver.Server) error {
	var text strings.Builder
	for _, kv := range [][2]string{
		{"MINTLIFY_BASE_URL", s.URL()},
		{"MINTLIFY_API_KEY", s.APIKey()},
		{"MINTLIFY_PROJECT_ID", s.ProjectID()},
		{"MINTLIFY_ASSISTANT_API_KEY", s.AssistantKey()},
		{"MINTLIFY_DOMAIN", s.Domain()},
		{"MINTLIFY_ASSISTANT_BASE_URL", s.URL() + "/discovery"},
		{"MINTLIFY_INDEX_API_KEY", s.IndexKey()},
		{"MINTLIFY_INDEX_BASE_URL", s.URL() + "/api/universal-search"},
	} {
		text.WriteString(kv[0] + "=" + kv[1] + "\n")
	}
	return boundedfile.Append(path, text.String(), ctx.Done())
}
