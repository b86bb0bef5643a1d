package mintlify_test

// Failure as a tested feature: every fault the mock server can inject, on
// every endpoint, over loopback, with the journal as the witness of what the
// server did. Names here start with "rel" so they cannot clash with other
// test files of the package.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// relEnv is a mock server and a client that reaches it over loopback.
type relEnv struct {
	srv    *mockserver.Server
	client *mintlify.Client
}

// relStart starts a mock server without rate limits (srvOpts may add them
// back) and a client with millisecond retry waits. The maximum wait is 2s so
// that the mock's shortest Retry-After (1s) is honoured rather than refused.
// Each attempt is bounded by timeout. The client's idle connections are
// closed when the test ends, before the server is.
func relStart(t testing.TB, timeout time.Duration, srvOpts []mockserver.Option, clientOpts ...mintlify.Option) *relEnv {
	t.Helper()
	srv := mockserver.Start(t, append([]mockserver.Option{mockserver.WithoutRateLimits()}, srvOpts...)...)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	t.Cleanup(tr.CloseIdleConnections)
	opts := append([]mintlify.Option{
		mintlify.WithAPIKey(srv.APIKey()),
		mintlify.WithProjectID(srv.ProjectID()),
		mintlify.WithBaseURL(srv.URL()),
		mintlify.WithHTTPClient(&http.Client{Transport: tr, Timeout: timeout}),
		mintlify.WithRetryWait(time.Millisecond, 2*time.Second),
	}, clientOpts...)
	c, err := mintlify.NewClient(opts...)
	require.NoError(t, err)
	return &relEnv{srv: srv, client: c}
}

// relContext bounds a test's calls, so that a regression fails instead of
// hanging.
func relContext(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// relJournal waits until the server has recorded at least want requests (a
// request the client gave up on is recorded when the server notices), then
// returns them all.
func relJournal(srv *mockserver.Server, want int) []mockserver.JournalEntry {
	deadline := time.Now().Add(3 * time.Second)
	for {
		j := srv.Journal()
		if len(j) >= want || time.Now().After(deadline) {
			return j
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// relVisits are a few visits, so that the visitors answer is not empty.
func relVisits() []mockserver.Visit {
	day := time.Date(2025, 4, 2, 10, 0, 0, 0, time.UTC)
	var vs []mockserver.Visit
	for i := range 40 {
		vs = append(vs, mockserver.Visit{
			VisitorID: fmt.Sprintf("reader-%d", i%13),
			Path:      fmt.Sprintf("/guides/page-%d", i%9),
			AI:        i%4 == 0,
			Time:      day.Add(time.Duration(i) * time.Minute),
		})
	}
	return vs
}

var relVisitorsParams = mintlify.VisitorsParams{
	DateFrom: time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC),
	DateTo:   time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC),
	Limit:    4,
	Offset:   2,
}

// relCall is an endpoint made ready to call: do calls it, check verifies a
// successful answer against the server, acted counts how many times the
// server carried out this very call (-1 for reads, which change nothing).
type relCall struct {
	do    func(ctx context.Context) (any, error)
	check func(t *testing.T, got any)
	acted func() int
}

type relEndpoint struct {
	name  string
	route string
	post  bool
	// prepare sets up what the call needs, fault-free, and returns it.
	prepare func(t *testing.T, ctx context.Context, e *relEnv, prompt string) relCall
}

func relPromptCount(srv *mockserver.Server, prompt string) int {
	n := 0
	for _, j := range srv.Jobs() {
		if j.Prompt == prompt {
			n++
		}
	}
	return n
}

var relEndpoints = []relEndpoint{
	{
		name: "create job", route: mockserver.RouteCreateJob, post: true,
		prepare: func(t *testing.T, ctx context.Context, e *relEnv, prompt string) relCall {
			return relCall{
				do: func(ctx context.Context) (any, error) { return e.client.CreateJob(ctx, prompt) },
				check: func(t *testing.T, got any) {
					job := got.(*mintlify.Job)
					stored, ok := e.srv.Job(job.ID)
					require.True(t, ok, "the returned job exists on the server")
					assert.Equal(t, prompt, stored.Prompt)
					assert.Equal(t, mintlify.JobActive, job.Status)
				},
				acted: func() int { return relPromptCount(e.srv, prompt) },
			}
		},
	},
	{
		name: "get job", route: mockserver.RouteGetJob,
		prepare: func(t *testing.T, ctx context.Context, e *relEnv, prompt string) relCall {
			created, err := e.client.CreateJob(ctx, prompt)
			require.NoError(t, err)
			return relCall{
				do: func(ctx context.Context) (any, error) { return e.client.GetJob(ctx, created.ID) },
				check: func(t *testing.T, got any) {
					job := got.(*mintlify.Job)
					assert.Equal(t, created.ID, job.ID)
					assert.Equal(t, created.Source, job.Source)
					assert.True(t, created.CreatedAt.Equal(job.CreatedAt))
				},
				acted: func() int { return -1 },
			}
		},
	},
	{
		name: "follow-up", route: mockserver.RouteFollowUp, post: true,
		prepare: func(t *testing.T, ctx context.Context, e *relEnv, prompt string) relCall {
			created, err := e.client.CreateJob(ctx, "set up: "+prompt)
			require.NoError(t, err)
			count := func() int {
				j, _ := e.srv.Job(created.ID)
				n := 0
				for _, p := range j.FollowUps {
					if p == prompt {
						n++
					}
				}
				return n
			}
			return relCall{
				do: func(ctx context.Context) (any, error) { return e.client.SendMessage(ctx, created.ID, prompt) },
				check: func(t *testing.T, got any) {
					job := got.(*mintlify.Job)
					assert.Equal(t, created.ID, job.ID)
					assert.Equal(t, mintlify.JobActive, job.Status)
				},
				acted: count,
			}
		},
	},
	{
		name: "visitors", route: mockserver.RouteVisitors,
		prepare: func(t *testing.T, ctx context.Context, e *relEnv, prompt string) relCall {
			want, err := e.client.GetVisitors(ctx, relVisitorsParams)
			require.NoError(t, err)
			require.Len(t, want.Visitors, relVisitorsParams.Limit)
			return relCall{
				do: func(ctx context.Context) (any, error) { return e.client.GetVisitors(ctx, relVisitorsParams) },
				check: func(t *testing.T, got any) {
					assert.Equal(t, want, got.(*mintlify.VisitorsPage), "the same page as without the fault")
				},
				acted: func() int { return -1 },
			}
		},
	},
}

// relWant is the documented outcome of one call.
type relWant struct {
	ok         bool          // the call returns the right answer
	attempts   int           // requests the server saw
	is, isNot  []error       // for a failed call, what errors.Is says
	retryAfter time.Duration // for a failed call, APIError.RetryAfter
}

// relFault is one row of the fault table: the fault, struck on the next
// times requests, and what the SDK does about it on a GET and on a POST.
type relFault struct {
	name      string
	fault     mockserver.Fault
	times     int
	processed bool // the server carried out the faulted request
	// A POST may be carried out after the client gave up: the server has
	// not read its body, so it does not notice that the client left.
	postMayProcessLate bool
	get, post          relWant
}

// The per-attempt timeout of the table's client; the "past the timeout"
// rows outlast it.
const relAttemptTimeout = time.Second

var (
	relOutcomeUnknown = relWant{attempts: 1, is: []error{mintlify.ErrOutcomeUnknown}, isNot: []error{mintlify.ErrServer}}
	relServerMayHave  = relWant{attempts: 1, is: []error{mintlify.ErrServer, mintlify.ErrOutcomeUnknown}}
)

func relStatus(code int, processed bool) mockserver.Fault {
	return mockserver.Fault{Kind: mockserver.FaultStatus, Status: code, AfterProcessing: processed}
}

var relFaults = []relFault{
	{
		name: "429 with Retry-After", fault: relStatus(429, false), times: 1,
		get:  relWant{ok: true, attempts: 2},
		post: relWant{ok: true, attempts: 2},
	},
	{
		name: "429 with Retry-After beyond the maximum wait", times: 1,
		fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 429, RetryAfter: 30 * time.Second},
		get:   relWant{attempts: 1, is: []error{mintlify.ErrRateLimited}, isNot: []error{mintlify.ErrOutcomeUnknown}, retryAfter: 30 * time.Second},
		post:  relWant{attempts: 1, is: []error{mintlify.ErrRateLimited}, isNot: []error{mintlify.ErrOutcomeUnknown}, retryAfter: 30 * time.Second},
	},
	{name: "500", fault: relStatus(500, false), times: 2, get: relWant{ok: true, attempts: 3}, post: relServerMayHave},
	{name: "500 after processing", fault: relStatus(500, true), times: 2, processed: true, get: relWant{ok: true, attempts: 3}, post: relServerMayHave},
	{name: "502", fault: relStatus(502, false), times: 2, get: relWant{ok: true, attempts: 3}, post: relServerMayHave},
	{name: "502 after processing", fault: relStatus(502, true), times: 2, processed: true, get: relWant{ok: true, attempts: 3}, post: relServerMayHave},
	{
		name: "503", fault: relStatus(503, false), times: 2,
		get:  relWant{ok: true, attempts: 3},
		post: relWant{attempts: 1, is: []error{mintlify.ErrServer}, isNot: []error{mintlify.ErrOutcomeUnknown}},
	},
	{name: "504", fault: relStatus(504, false), times: 2, get: relWant{ok: true, attempts: 3}, post: relServerMayHave},
	{name: "504 after processing", fault: relStatus(504, true), times: 2, processed: true, get: relWant{ok: true, attempts: 3}, post: relServerMayHave},
	{
		name: "latency", fault: mockserver.Fault{Kind: mockserver.FaultLatency, Delay: 30 * time.Millisecond}, times: 2, processed: true,
		get: relWant{ok: true, attempts: 1}, post: relWant{ok: true, attempts: 1},
	},
	{
		name: "latency past the client's timeout", fault: mockserver.Fault{Kind: mockserver.FaultLatency, Delay: relAttemptTimeout * 3 / 2}, times: 1,
		postMayProcessLate: true,
		get:                relWant{ok: true, attempts: 2}, post: relOutcomeUnknown,
	},
	{
		name: "close before response", fault: mockserver.Fault{Kind: mockserver.FaultClose}, times: 2,
		get: relWant{ok: true, attempts: 3}, post: relOutcomeUnknown,
	},
	{
		name: "reset after processing", fault: mockserver.Fault{Kind: mockserver.FaultReset}, times: 2, processed: true,
		get: relWant{ok: true, attempts: 3}, post: relOutcomeUnknown,
	},
	{
		name: "truncated body", fault: mockserver.Fault{Kind: mockserver.FaultTruncate}, times: 2, processed: true,
		get: relWant{ok: true, attempts: 3}, post: relOutcomeUnknown,
	},
	{
		name: "non-JSON body", fault: mockserver.Fault{Kind: mockserver.FaultHTML}, times: 2, processed: true,
		get: relWant{ok: true, attempts: 3}, post: relOutcomeUnknown,
	},
	{
		name: "slow trickling body", fault: mockserver.Fault{Kind: mockserver.FaultSlowBody, Delay: 100 * time.Millisecond}, times: 2, processed: true,
		get: relWant{ok: true, attempts: 1}, post: relWant{ok: true, attempts: 1},
	},
	{
		name: "slow body past the client's timeout", fault: mockserver.Fault{Kind: mockserver.FaultSlowBody, Delay: time.Minute}, times: 1, processed: true,
		get: relWant{ok: true, attempts: 2}, post: relOutcomeUnknown,
	},
}

// TestFaultsOnEveryEndpoint injects each fault kind into each endpoint and
// checks the documented outcome: a GET is retried and gives the right
// answer; a POST is retried only when the server provably did not act (a
// 429), and otherwise returns a typed error that says whether the outcome is
// unknown. The journal proves what the server did with every attempt.
func TestFaultsOnEveryEndpoint(t *testing.T) {
	t.Parallel()
	for _, ep := range relEndpoints {
		for _, f := range relFaults {
			t.Run(ep.name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				want := f.get
				if ep.post {
					want = f.post
				}
				e := relStart(t, relAttemptTimeout, []mockserver.Option{mockserver.WithVisits(relVisits()...)})
				ctx := relContext(t, 20*time.Second)
				prompt := "Document " + ep.name + " under " + f.name
				call := ep.prepare(t, ctx, e, prompt)
				e.srv.ClearJournal()
				require.NoError(t, e.srv.InjectFault(mockserver.FaultRule{Route: ep.route, Fault: f.fault, Times: f.times}))

				started := time.Now()
				got, err := call.do(ctx)
				elapsed := time.Since(started)

				if want.ok {
					require.NoError(t, err)
					call.check(t, got)
				} else {
					require.Error(t, err)
					assert.Nil(t, got, "no answer with an error")
					for _, target := range want.is {
						assert.ErrorIs(t, err, target)
					}
					for _, target := range want.isNot {
						assert.NotErrorIs(t, err, target)
					}
					if errors.Is(err, mintlify.ErrOutcomeUnknown) {
						assert.Contains(t, err.Error(), "may have acted", "the message says so")
					}
					if want.retryAfter > 0 {
						var apiErr *mintlify.APIError
						require.ErrorAs(t, err, &apiErr)
						assert.Equal(t, want.retryAfter, apiErr.RetryAfter)
						assert.Less(t, elapsed, time.Second, "a Retry-After beyond the maximum wait is not slept on")
					}
					assert.NotContains(t, err.Error(), e.srv.APIKey())
				}

				journal := relJournal(e.srv, want.attempts)
				require.Len(t, journal, want.attempts, "requests the server saw")
				// Not in order: a request the client gave up on is recorded
				// when the server notices, maybe after the retry.
				faulted, processed := 0, f.processed
				for _, entry := range journal {
					assert.Equal(t, ep.route, entry.Route)
					if entry.Fault != "" {
						faulted++
						assert.Equal(t, string(f.fault.Kind), entry.Fault)
						if ep.post && f.postMayProcessLate {
							processed = entry.Processed
						}
						assert.Equal(t, processed, entry.Processed, "the faulted request was processed")
					} else {
						assert.True(t, entry.Processed, "the clean request was processed")
					}
				}
				assert.Equal(t, min(f.times, want.attempts), faulted, "faulted requests")

				if acted := call.acted(); acted >= 0 {
					wantActed := 0
					if want.ok || processed {
						wantActed = 1
					}
					assert.Equal(t, wantActed, acted, "times the server carried out the call")
				}
			})
		}
	}
}

// relMix spreads probability total evenly over faults on route: rules are
// tried in order, so each rule's probability is conditional on the earlier
// ones not firing.
func relMix(route string, total float64, faults []mockserver.Fault) []mockserver.FaultRule {
	each := total / float64(len(faults))
	rules := make([]mockserver.FaultRule, len(faults))
	for i, f := range faults {
		rules[i] = mockserver.FaultRule{Route: route, Fault: f, Probability: each / (1 - float64(i)*each)}
	}
	return rules
}

// relEveryFault is one of each fault kind, with short delays.
var relEveryFault = []mockserver.Fault{
	relStatus(429, false),
	relStatus(500, false), relStatus(500, true),
	relStatus(502, false), relStatus(502, true),
	relStatus(503, false),
	relStatus(504, false), relStatus(504, true),
	{Kind: mockserver.FaultLatency, Delay: 5 * time.Millisecond},
	{Kind: mockserver.FaultClose},
	{Kind: mockserver.FaultReset},
	{Kind: mockserver.FaultTruncate},
	{Kind: mockserver.FaultHTML},
	{Kind: mockserver.FaultSlowBody, Delay: 16 * time.Millisecond},
}

// relFaultsStruck counts the faulted requests on route by kind (statuses
// by code).
func relFaultsStruck(journal []mockserver.JournalEntry, route string) map[string]int {
	struck := map[string]int{}
	for _, e := range journal {
		if e.Route != route || e.Fault == "" {
			continue
		}
		k := e.Fault
		if e.Fault == string(mockserver.FaultStatus) {
			k = fmt.Sprintf("%s %d processed=%t", e.Fault, e.Status, e.Processed)
		}
		struck[k]++
	}
	return struck
}

// TestCreateJobUnderFaultsNeverDuplicates is the acceptance test for POST
// safety: 1,000 CreateJob calls with distinct prompts while 20% of requests
// fail in every way the mock knows. No prompt may produce two jobs, every
// job returned exists, the number of jobs is bounded by what the calls
// reported, and every failure that is not "outcome unknown" is one where the
// server provably did not act.
func TestCreateJobUnderFaultsNeverDuplicates(t *testing.T) {
	t.Parallel()
	const calls, workers = 1000, 8
	e := relStart(t, 5*time.Second, []mockserver.Option{
		mockserver.WithFaultSeed(20250405),
		mockserver.WithFaults(relMix(mockserver.RouteCreateJob, 0.2, relEveryFault)...),
	})
	ctx := relContext(t, 60*time.Second)

	type result struct {
		prompt string
		job    *mintlify.Job
		err    error
	}
	results := make([]result, calls)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				prompt := fmt.Sprintf("Document endpoint %04d", i)
				job, err := e.client.CreateJob(ctx, prompt)
				results[i] = result{prompt, job, err}
			}
		}()
	}
	for i := range calls {
		next <- i
	}
	close(next)
	wg.Wait()
	require.NoError(t, ctx.Err(), "the calls finished in time")

	jobs := e.srv.Jobs()
	byPrompt := map[string][]mockserver.Job{}
	for _, j := range jobs {
		byPrompt[j.Prompt] = append(byPrompt[j.Prompt], j)
	}
	for p, js := range byPrompt {
		assert.Len(t, js, 1, "jobs for prompt %q", p)
	}

	journal := e.srv.Journal()
	byRequestID := map[string]mockserver.JournalEntry{}
	created := 0
	for _, entry := range journal {
		byRequestID[entry.RequestID] = entry
		// Every prompt is valid and there is no rate limit, so a processed
		// request created a job. (A "status after processing" fault records
		// its injected status, not the endpoint's 201.)
		if entry.Processed {
			created++
		}
	}
	assert.Equal(t, len(jobs), created, "every job on the server comes from one processed request")

	var ok, unknown, unknownActed, refused int
	for _, r := range results {
		switch {
		case r.err == nil:
			ok++
			require.NotNil(t, r.job)
			stored, found := e.srv.Job(r.job.ID)
			if assert.True(t, found, "job %s returned for %q exists", r.job.ID, r.prompt) {
				assert.Equal(t, r.prompt, stored.Prompt)
			}
		case errors.Is(r.err, mintlify.ErrOutcomeUnknown):
			unknown++
			unknownActed += len(byPrompt[r.prompt])
		default:
			refused++
			var apiErr *mintlify.APIError
			if assert.ErrorAs(t, r.err, &apiErr, "a failure that is not outcome-unknown is an API answer") {
				assert.Contains(t, []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}, apiErr.StatusCode)
				entry, found := byRequestID[apiErr.RequestID]
				if assert.True(t, found, "the journal has request %q", apiErr.RequestID) {
					assert.False(t, entry.Processed, "the server did not act on %q", r.prompt)
				}
			}
			assert.Empty(t, byPrompt[r.prompt], "no job for %q, which failed with %v", r.prompt, r.err)
		}
	}
	assert.GreaterOrEqual(t, len(jobs), ok)
	assert.LessOrEqual(t, len(jobs), ok+unknown)

	struck := relFaultsStruck(journal, mockserver.RouteCreateJob)
	total := 0
	for _, n := range struck {
		total += n
	}
	assert.Len(t, struck, len(relEveryFault), "every kind of fault struck: %v", struck)
	assert.InDelta(t, 0.2, float64(total)/float64(len(journal)), 0.05, "share of faulted requests")
	t.Logf("%d calls, %d requests, %d faulted %v: %d jobs returned, %d outcome unknown (%d of them acted), %d refused, %d jobs on the server",
		calls, len(journal), total, struck, ok, unknown, unknownActed, refused, len(jobs))
}

// relExportVisits gives each of paths pages between 1 and 5 distinct
// visitors, human and AI, on one day in the past.
func relExportVisits(paths int) []mockserver.Visit {
	day := time.Date(2025, 1, 10, 0, 0, 0, 0, time.UTC)
	var vs []mockserver.Visit
	for i := range paths {
		for v := range 1 + (i*7919)%5 {
			vs = append(vs, mockserver.Visit{
				VisitorID: fmt.Sprintf("v%d", (i+v*131)%3000),
				Path:      fmt.Sprintf("/docs/page-%04d", i),
				AI:        v%3 == 2,
				Time:      day.Add(time.Duration(i*5+v) * time.Second),
			})
		}
	}
	return vs
}

// TestVisitorsExportUnderFaultsIsExact is the acceptance test for GET
// safety: a visitors export of 5,000 paths walked while 20% of requests
// fail yields every row exactly once and equals the fault-free export.
func TestVisitorsExportUnderFaultsIsExact(t *testing.T) {
	t.Parallel()
	const paths = 5000
	params := mintlify.VisitorsParams{
		DateFrom: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		DateTo:   time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC), // in the past: the data cannot change
	}
	for _, limit := range []int{0, 50} {
		t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
			t.Parallel()
			e := relStart(t, 5*time.Second,
				[]mockserver.Option{mockserver.WithVisits(relExportVisits(paths)...), mockserver.WithFaultSeed(uint64(7 + limit))},
				mintlify.WithMaxRetries(8))
			ctx := relContext(t, 60*time.Second)
			p := params
			p.Limit = limit

			walk := func() []mintlify.PathVisitors {
				var rows []mintlify.PathVisitors
				for row, err := range e.client.Visitors(ctx, p) {
					require.NoError(t, err)
					rows = append(rows, row)
				}
				return rows
			}
			clean := walk()
			require.Len(t, clean, paths)

			e.srv.ClearJournal()
			getFaults := slices.DeleteFunc(slices.Clone(relEveryFault), func(f mockserver.Fault) bool { return f.AfterProcessing })
			require.NoError(t, e.srv.InjectFault(relMix(mockserver.RouteVisitors, 0.2, getFaults)...))
			faulty := walk()

			seen := map[string]int{}
			for _, r := range faulty {
				seen[r.Path]++
			}
			assert.Len(t, seen, paths, "every path")
			for path, n := range seen {
				assert.Equal(t, 1, n, "rows for %s", path)
			}
			assert.Equal(t, clean, faulty, "the export under faults equals the fault-free one")

			journal := e.srv.Journal()
			struck := relFaultsStruck(journal, mockserver.RouteVisitors)
			total := 0
			for _, n := range struck {
				total += n
			}
			assert.Positive(t, total)
			t.Logf("%d requests, %d faulted: %v", len(journal), total, struck)
		})
	}
}

// TestLoadCreatePollFollowUp is the bounded load test: 50 goroutines
// create, poll and follow up jobs at once for a few seconds at most, while
// some reads fail. Every job each goroutine made must exist on the server
// with its prompts and the terminal state its prompts asked for.
func TestLoadCreatePollFollowUp(t *testing.T) {
	t.Parallel()
	const goroutines, jobsEach = 50, 3
	outcomeOf := func(prompt string) mockserver.Outcome {
		switch {
		case strings.Contains(prompt, "[fail]"):
			return mockserver.OutcomeFailed
		case strings.Contains(prompt, "[no change]"):
			return mockserver.OutcomeNoChange
		}
		return mockserver.OutcomePullRequest
	}
	e := relStart(t, 5*time.Second, []mockserver.Option{
		mockserver.WithJobDuration(30 * time.Millisecond),
		mockserver.WithAgent(outcomeOf),
		mockserver.WithVisits(relVisits()...),
		mockserver.WithFaultSeed(50),
		mockserver.WithFaults(relMix(mockserver.RouteGetJob, 0.05, []mockserver.Fault{
			relStatus(503, false), {Kind: mockserver.FaultReset}, {Kind: mockserver.FaultTruncate},
		})...),
	})
	ctx := relContext(t, 10*time.Second)
	poll := []mintlify.PollOption{mintlify.WithPollInterval(5 * time.Millisecond), mintlify.WithMaxPollInterval(20 * time.Millisecond)}
	tags := []string{"[pr]", "[fail]", "[no change]"}
	wantStatus := func(prompt string) mintlify.JobStatus {
		if outcomeOf(prompt) == mockserver.OutcomeFailed {
			return mintlify.JobFailed
		}
		return mintlify.JobCompleted
	}

	type made struct{ id, prompt, followUp string }
	madeBy := make([][]made, goroutines)
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- func() error {
				for j := range jobsEach {
					prompt := fmt.Sprintf("Load g%02d job %d %s", g, j, tags[(g+j)%3])
					followUp := fmt.Sprintf("Load g%02d job %d follow-up %s", g, j, tags[(g+j+1)%3])
					job, err := e.client.CreateJob(ctx, prompt)
					if err != nil {
						return fmt.Errorf("create %q: %w", prompt, err)
					}
					madeBy[g] = append(madeBy[g], made{job.ID, prompt, followUp})
					for _, step := range []struct{ prompt, send string }{{prompt, followUp}, {followUp, ""}} {
						done, err := e.client.PollJob(ctx, job.ID, poll...)
						if err != nil {
							return fmt.Errorf("poll %s: %w", job.ID, err)
						}
						if done.ID != job.ID || done.Status != wantStatus(step.prompt) {
							return fmt.Errorf("job %s after %q: %s, want %s", job.ID, step.prompt, done.Status, wantStatus(step.prompt))
						}
						if step.send == "" {
							break
						}
						again, err := e.client.SendMessage(ctx, job.ID, step.send)
						if err != nil {
							return fmt.Errorf("follow-up %s: %w", job.ID, err)
						}
						if again.Status != mintlify.JobActive {
							return fmt.Errorf("job %s after a follow-up: %s, want active", job.ID, again.Status)
						}
					}
					if g%10 == 0 {
						if _, err := e.client.GetVisitors(ctx, relVisitorsParams); err != nil {
							return fmt.Errorf("visitors: %w", err)
						}
					}
				}
				return nil
			}()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}

	stored := e.srv.Jobs()
	assert.Len(t, stored, goroutines*jobsEach, "jobs on the server: none lost, none extra")
	for g, jobs := range madeBy {
		assert.Len(t, jobs, jobsEach, "jobs of goroutine %d", g)
		for _, m := range jobs {
			j, ok := e.srv.Job(m.id)
			if !assert.True(t, ok, "job %s exists", m.id) {
				continue
			}
			assert.Equal(t, m.prompt, j.Prompt)
			assert.Equal(t, []string{m.followUp}, j.FollowUps)
			assert.Equal(t, string(wantStatus(m.followUp)), string(j.Status), "job %s", m.id)
		}
	}
	t.Logf("%d requests, faulted: %v", len(e.srv.Journal()), relFaultsStruck(e.srv.Journal(), mockserver.RouteGetJob))
}
