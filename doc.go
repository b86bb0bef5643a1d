// Package mintlify is a client for Mintlify's three APIs: the admin API
// (documentation-editing agent jobs, deployments and previews,
// automations, static exports, and the analytics export), the assistant
// API (a docs site's AI assistant, streamed, and a proxy that serves it to
// a browser) and the Index API (search for coding agents). Each takes its
// own key type and has its own client: [Client], [AssistantClient],
// [IndexClient].
//
// A [Client] addresses one project with an admin key (it starts with
// "mint_"):
//
//	c, err := mintlify.NewClient() // $MINTLIFY_API_KEY, $MINTLIFY_PROJECT_ID
//	if err != nil {
//		return err
//	}
//	job, err := c.CreateJob(ctx, "Document the new /v2/search endpoint")
//	if err != nil {
//		return err
//	}
//	job, err = c.PollJob(ctx, job.ID) // until it stops
//	if err != nil {
//		return err
//	}
//	fmt.Println(job.Status, job.PRLink)
//
// # Agent jobs, deployments and static exports
//
// Agent jobs run for minutes: [Client.CreateJob] starts one,
// [Client.PollJob] waits for a terminal status, [Client.SendMessage] sends a
// follow-up that makes the job active again. [Client.TriggerDeployment] and
// [Client.TriggerPreview] deploy the site, [Client.PollDeployment] waits for
// the verdict; [Client.TriggerAutomation] runs an automation, and
// [Client.TriggerAutomationWebhook] one whose trigger is a webhook;
// [Client.StartStaticExport], [Client.PollStaticExport],
// [Client.BundleStaticExport] and [Client.DownloadStaticExport] make a
// static export for self-hosting. The three pollers share one schedule and
// its options (see [PollOption]).
//
// # Analytics
//
// Every analytics list route (visitors, views, searches, feedback,
// assistant conversations) has the same three shapes: [Client.GetViews]
// reads one page, [Client.ViewPages] walks every page and [Client.Views]
// every row, and so on. The walks ask for each route's largest page (all
// analytics routes share 100 requests an hour per organization), fetch
// lazily, never yield a row twice, and yield a failure once as a
// [*WalkError] whose Offset or Cursor resumes the walk. A server that
// repeats a cursor, says more follow with nothing to follow, or sends
// nothing new ends the walk with an error after a few requests, and no walk
// sends more than 1,000 ([WithMaxWalkRequests]).
//
// # The assistant API
//
// An [AssistantClient] ([NewAssistantClient], an assistant key
// "mint_dsc_..." and the site's domain) asks the site's AI assistant:
// [AssistantClient.Ask] reads one answer to its end, [AssistantClient.Message]
// returns a [MessageStream] whose [MessageStream.Events] yields the answer
// as it is written, and [AssistantClient.SearchDocs] and
// [AssistantClient.GetPageContent] search and read the pages. A message
// spends credits and is never sent twice. [AssistantProxy] serves the
// message route to a browser while the key stays on the server.
//
// # The Index API
//
// An [IndexClient] (an Index key, "mint_us_...": [NewIndexClient]) searches
// documentation Mintlify hosts and the web, for coding agents:
// [IndexClient.BuildContext] assembles context for a question within a
// token budget, [IndexClient.Search] ranks documents and
// [IndexClient.Contents] fetches them by ID or URL, with a status per
// item. The API allows 10 requests a second and 1,000 a day per
// organization: the SDK refuses out-of-range input before sending it, and
// every retry counts.
//
// # Errors
//
// Every answer outside 2xx is an [*APIError]; errors.Is matches it against
// [ErrBadRequest], [ErrUnauthorized], [ErrForbidden], [ErrNotFound],
// [ErrRateLimited] or [ErrServer] by status. A 2xx that is not the
// documented object is [ErrMalformedResponse]. Input the API would reject,
// a nil context and a nil or zero Client fail with [ErrInvalidInput] before
// any request is sent; nothing panics. The API key never appears in an
// error, a log line or a formatted Client, whatever a server or proxy
// echoes back.
//
// # Retries
//
// Requests go through go-retryablehttp with exponential, jittered backoff
// that honours Retry-After (see [WithMaxRetries] and [WithRetryWait]):
//
//   - GETs (and BundleStaticExport, which only mints a link, and the Index
//     calls, which change nothing) are retried on
//     network errors, on 429, 500, 502, 503 and 504, and on a 2xx whose
//     body arrives truncated or is not the documented object.
//   - Calls that create something (CreateJob, SendMessage, the triggers,
//     StartStaticExport) are retried only where the server cannot have
//     acted: a 429, or a request of which no byte was sent. When the request
//     may have reached the server but the answer was lost, malformed, or a
//     1xx, 500, 502 or 504, the error wraps [ErrOutcomeUnknown] and nothing
//     is retried, so one call never starts two jobs or spends two
//     automation runs.
//   - A Retry-After longer than the maximum wait is not slept on: the call
//     returns at once with [APIError].RetryAfter set. Pollers weigh a
//     Retry-After against their own maximum interval instead.
//
// Every call returns promptly when its context ends: while it waits between
// retries or polls, and while it waits for or reads an answer, whatever the
// answer (a 101 that holds the connection, a body that never ends). A
// request that receives no byte for the stall timeout (60s,
// [WithStallTimeout]) fails as a network error, retried where the method
// allows. No call follows a redirect, whatever http.Client it was given (the
// API sends none, and a redirect would carry the key along), and plain
// http to a host other than loopback is refused unless [WithInsecureHTTP]
// allows it.
//
// # Bounds
//
// An answer costs little memory whatever a server sends: a success body is
// read into one buffer of at most 16 MiB, which a call's retries reuse, and
// each array of an answer holds at most what the API sends (a page its
// route's largest page of rows, a turn 100 sources, a thread 10,000
// messages, a commit 100,000 paths a set, a log 16 MiB counting 128 bytes a
// line); more is [ErrMalformedResponse], read without allocating the rest.
// So is an identifier with white space or a control character, or a job,
// deployment or export status (or an analytics row's enum value) that is
// not a token of lower-case letters, digits, _ and -, at most 64 bytes. A
// token the SDK does not know is a status the vendor may have added: it is
// kept as sent and is not terminal, so a poller waits through it.
//
// # Beyond the typed methods
//
// [WithResponseObserver] sees the final answer of every call (status,
// headers, request ID, and how many requests it took, retries included),
// successes included. [Client.Do] calls any API path through the same
// request path: the same key, retries by method, error mapping and
// redaction. Every result type marshals with encoding/json as the API
// sends it (the vendor's names, null where the API sends null), and
// unmarshals back.
package mintlify
