// Package mintlify is a client for the Mintlify API: documentation-editing
// agent jobs and the analytics export.
//
// A Client addresses one project with an admin key (it starts with "mint_"):
//
//	c, err := mintlify.NewClient() // $MINTLIFY_API_KEY, $MINTLIFY_PROJECT_ID
//	job, err := c.CreateJob(ctx, "Document the new /v2/search endpoint")
//	job, err = c.PollJob(ctx, job.ID)                      // until it stops
//	fmt.Println(job.Status, job.PRLink)
//
// Agent jobs run for minutes: CreateJob starts one, PollJob waits for a
// terminal status, SendMessage sends a follow-up that makes the job active
// again.
//
// # Analytics
//
// Every analytics list route (visitors, views, searches, feedback,
// assistant conversations) has the same three shapes: GetViews reads one
// page, ViewPages walks every page and Views every row, and so on. The
// walks ask for each route's largest page (all analytics routes share 100
// requests an hour per organization), fetch lazily, never yield a row twice,
// and yield a failure once as a *WalkError whose Offset or Cursor resumes
// the walk. A server that repeats a cursor, says more follow with nothing
// to follow, or sends nothing new ends the walk with an error after a few
// requests, and no walk sends more than 1,000 (WithMaxWalkRequests).
//
// # Errors
//
// Every answer outside 2xx is an *APIError; errors.Is matches it against
// ErrBadRequest, ErrUnauthorized, ErrForbidden, ErrNotFound, ErrRateLimited
// or ErrServer by status. Input the API would reject fails with
// ErrInvalidInput before any request is sent. The API key never appears in
// an error, a log line or a formatted Client.
//
// # Retries
//
// Requests go through go-retryablehttp with exponential, jittered backoff
// that honours Retry-After (see WithMaxRetries and WithRetryWait):
//
//   - GET (GetJob, GetVisitors, the iterators, each poll of PollJob) is
//     retried on network errors, on 429, 500, 502, 503 and 504, and on a 2xx
//     whose body arrives truncated or undecodable.
//   - POST (CreateJob, SendMessage) is retried only where the server cannot
//     have acted: a 429, or a connection that could not be opened. When the
//     request was sent but the answer was lost (or was a 500, 502 or 504),
//     the error wraps ErrOutcomeUnknown and nothing is retried, so one call
//     never starts two jobs.
//   - A Retry-After longer than the maximum wait is not slept on: the call
//     returns at once with APIError.RetryAfter set.
//
// Every call returns promptly when its context ends, also while it waits
// between retries or polls. The default HTTP client follows no redirects
// (the API sends none, and a redirect would carry the key along) and a
// success body larger than 16 MiB is an error.
package mintlify
