// Package mockserver is a working, in-process implementation of the
// Mintlify admin API (agent jobs, the analytics export, deployments and
// static export), of the assistant API and of the Index API, for
// end-to-end tests of the SDK and of programs built on it.
//
// Spec-driven mocks answer every request with a canned example: jobs never
// move, a created job cannot be read back, nothing is counted. This server
// behaves like the service instead. Jobs are stored per project and run
// through active to completed or failed as the server's clock passes the
// job duration; analytics events (visits, searches, feedback, assistant
// threads) are stored and every analytics route is computed from them,
// deduplicated, filtered and paginated exactly, with keyset cursors that
// neither repeat nor skip while events arrive; keys, projects
// and rate limits are enforced with the service's status codes and error
// bodies. It does not import the SDK, so a bug in one cannot hide a bug in
// the other.
//
// # In Go tests
//
// Start a server per test; it is closed when the test ends and shares no
// state with other tests, so t.Parallel is safe:
//
//	clock := mockserver.NewFakeClock(time.Now())
//	srv := mockserver.Start(t, mockserver.WithClock(clock))
//	client, _ := mintlify.NewClient(
//		mintlify.WithBaseURL(srv.URL()),
//		mintlify.WithAPIKey(srv.APIKey()),
//		mintlify.WithProjectID(srv.ProjectID()),
//	)
//	job, _ := client.CreateJob(ctx, "Document the webhooks")
//	clock.Advance(mockserver.DefaultJobDuration) // the job is now completed
//
// Server.Client returns an http.Client that reaches the server in memory,
// without a socket; Server.Handler mounts it in a server of your own.
//
// Tests choose what happens: an agent function (WithAgent) or a per-job call
// (Server.SetOutcome) decides whether a run opens a pull request, changes
// nothing or fails; Server.FinishJob and Server.ArchiveJob move a job on;
// WithVisits, WithSearches, WithFeedback, WithThreads, WithSeed and the
// Server's Add methods supply analytics events. Afterwards, Server.Journal lists every request (never the key) to
// count calls and retries, and Server.Jobs lists what was created, with the
// prompts, to prove that no prompt produced two jobs.
//
// # Faults
//
// Fault rules (WithFaults, Server.InjectFault, ParseFault) make a route
// misbehave for the next N requests or with a seeded probability: an error
// status with or without Retry-After, added latency, a connection closed
// before the request is processed, a reset after it was processed, a
// truncated, non-JSON or trickling body. The journal records for each
// request whether it was processed, what the endpoint answered, what the
// client was sent and which fault struck, so a test can tell "the server
// did not act" from "the client did not hear".
//
// # Deployments and static export
//
// Keys belong to organizations (keys named together with WithProject share
// one) and may carry scopes, an expiry and an IP allowlist (WithKey,
// Server.NewKey). Deployments and previews run queued, in_progress, then
// success or failure on the same clock as jobs, with a commit, changed
// files, a growing log and a summary; the stored triggers that may start
// them count their runs; static exports render page by page and their
// bundle, a real tar.gz, is served from a second listener (StorageURL)
// behind presigned, expiring links, padded on request (WithBundleSize) to
// any size without being held in memory.
//
// # The assistant and Index APIs
//
// The same listener serves the assistant API under /discovery (for
// AssistantKey, which belongs to Domain) and the Index API under
// /api/universal-search (for IndexKey); each API refuses the other kinds
// of key and answers in its own error body. A message streams a
// deterministic answer from the site's pages (an AI SDK v5 UI message
// stream, or v4 on the deprecated v1 route) with a search step, the text
// and the cited pages, frame by frame (WithStreamDelay); threads continue
// only with their key, every turn shows in the primary project's
// analytics export, and Credits counts what messages spent. AddPages (or
// POST /_mock/pages) adds pages a search finds at once. The Index answers
// context, search and contents from a fixed corpus, with closed request
// bodies and its limits of 10 requests a second and 1,000 a day per
// organization on the server's clock.
//
// # Layout
//
// This package is the wire: the route table (routes.go), one request's way
// through auth, rate limit, fault, handler and journal (pipeline.go), fault
// rules (faults.go), the in-memory transport (transport.go), the storage
// host (bundlehost.go) and the control API (control*.go), beside one file
// per API area with its handlers and Server methods (jobs.go, analytics.go,
// deployments.go, staticexport.go, assistant.go, index.go). Each area's
// state and rules live in internal/jobs, internal/analytics,
// internal/deploy, internal/staticexport, internal/assistant and
// internal/index, and organizations and keys, rate-limit windows,
// the journal and the body reader in internal/access, internal/ratelimit,
// internal/journal and internal/reqbody: none of them knows HTTP, so each
// is tested without a server. "Where things are in the mock", in the
// repository's CONTRIBUTING.md, answers the usual questions with one file
// each.
//
// # Other languages
//
// The same server runs as a program, go run ./mockserver/cmd/mockserver,
// with a control API under /_mock/ (advance the clock, choose outcomes,
// archive jobs, add visits, inject faults, read the journal, reset) and
// override headers (OutcomeHeader, FaultHeader) that steer a single
// request. The repository's docs/mock.md documents both. The control API
// needs no key, so it answers no web page: a request to it with an Origin
// header, or addressed to a host name other than localhost, an IP address
// or a reserved test name, is refused (WithControlOrigins and
// WithControlHosts name exceptions).
package mockserver
