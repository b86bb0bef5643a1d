package index

// Page is one document of the corpus.
type Page struct {
	ID          string // "site:/path" for a Mintlify page; the URL for a web page
	URL         string
	Title       string
	Text        string // paragraphs separated by a blank line
	Source      string // SourceMintlify or SourceWeb
	SiteName    string // the site's short name (Mintlify) or the host (web)
	Breadcrumbs []string
	// Published is the date as the source writes it, "" when it gives none.
	// Search answers normalize it; contents by URL pass it through as is,
	// which is why some are date-only or carry an offset.
	Published string
}

// The two retrieval sources of the schema.
const (
	SourceMintlify = "mintlify"
	SourceWeb      = "web"
)

// corpus is the fixed document set: three small Mintlify-hosted sites
// (acme, example, widget) and three web pages. Every word is the mock's
// own. Each of the topics a test or a demo is likely to try (caching,
// authentication, rate limits, deployment) has at least two pages, on
// different sites, so that domain filters change the answer.
func corpus() []Page {
	return []Page{
		// docs.acme.dev: a payments API.
		{
			ID: "acme:/quickstart", URL: "https://docs.acme.dev/quickstart",
			Title: "Quickstart", SiteName: "acme", Source: SourceMintlify,
			Breadcrumbs: []string{"Get started"}, Published: "2026-01-12T09:00:00Z",
			Text: `Acme Payments lets you charge cards, issue refunds and keep a ledger of every transfer through one JSON API. This page takes you from an empty project to your first test charge in about five minutes.

Create a sandbox account in the Acme console and copy the test secret key from the Developers tab. Test keys start with sk_test_ and never move real money, so you can experiment freely.

Install the client library for your language, set the ACME_SECRET_KEY environment variable, and create a charge of 500 against the test card number 4000 0000 0000 0077. Amounts are in the smallest currency unit, so 500 means €5.00 or ¥500. The response carries the charge ID and a status of succeeded.

When you are ready for production, read the authentication guide to learn how to rotate keys, and the rate limits page before you run a bulk import.`,
		},
		{
			ID: "acme:/authentication", URL: "https://docs.acme.dev/authentication",
			Title: "Authentication", SiteName: "acme", Source: SourceMintlify,
			Breadcrumbs: []string{"Get started"}, Published: "2026-02-03T15:30:00Z",
			Text: `Every request to the Acme API must be authenticated with a secret key sent as a bearer token in the Authorization header. Requests without a key, or with a revoked key, receive a 401 response with the code invalid_api_key.

Secret keys grant full access to your account. Keep them on your servers, load them from a secrets manager or environment variables, and never embed them in mobile apps or browser code. For code that runs on a customer's device, use a publishable key, which can only create payment tokens.

Authentication failures are not retried by the client libraries, because sending the same bad key again cannot succeed. Rotate a key from the console: the old key keeps working for 24 hours so that you can roll out the new one without downtime.

Restricted keys narrow access to a list of resources, such as read-only access to refunds. Give each service its own restricted key so that a leak exposes as little as possible.`,
		},
		{
			ID: "acme:/api-reference/rate-limits", URL: "https://docs.acme.dev/api-reference/rate-limits",
			Title: "Rate limits", SiteName: "acme", Source: SourceMintlify,
			Breadcrumbs: []string{"API reference"},
			Text: `The Acme API allows 100 requests per second per account in live mode and 25 per second in test mode. Reads and writes share the same budget. Bursts above the limit are rejected with status 429 and a Retry-After header giving the number of seconds to wait.

Rate limits protect the ledger from accidental floods, such as a retry loop without backoff. The client libraries already wait for the Retry-After interval and retry idempotent requests up to three times.

For bulk imports, spread requests evenly across the window instead of sending them all at once, and use the batch endpoints, which count as a single request for up to 100 objects.

If your integration needs a higher limit, contact support with your expected peak rate; limits are raised per account, never per key.`,
		},
		{
			ID: "acme:/guides/webhooks", URL: "https://docs.acme.dev/guides/webhooks",
			Title: "Receiving webhooks", SiteName: "acme", Source: SourceMintlify,
			Breadcrumbs: []string{"Guides"}, Published: "2025-11-20T12:00:00Z",
			Text: `Acme sends webhook events to an HTTPS endpoint you register, so your system learns about refunds, disputes and settled payouts without polling.

Each delivery is signed with your endpoint's signing secret. Compute an HMAC-SHA256 of the timestamp and the raw body, compare it with the signature header in constant time, and reject deliveries older than five minutes to prevent replay.

Your endpoint should answer 2xx within ten seconds and do the real work in the background. Failed deliveries are retried with exponential backoff for three days, so handlers must be idempotent: the same event ID may arrive more than once.`,
		},

		// docs.example.com: a static site framework.
		{
			ID: "example:/getting-started/installation", URL: "https://docs.example.com/getting-started/installation",
			Title: "Installation", SiteName: "example", Source: SourceMintlify,
			Breadcrumbs: []string{"Getting started"}, Published: "2025-10-01T08:00:00Z",
			Text: `Example is a framework for building fast documentation and marketing sites from Markdown and components. It needs Node.js 20 or later.

Create a project with npx create-example-site my-site, change into the new folder and run npm run dev. The development server watches your files and reloads the browser on every save.

The project contains a pages folder for content, a components folder for your own building blocks and an example.config.ts file for site-wide settings such as the title, the navigation and the output mode.`,
		},
		{
			ID: "example:/guides/caching", URL: "https://docs.example.com/guides/caching",
			Title: "Caching and revalidation", SiteName: "example", Source: SourceMintlify,
			Breadcrumbs: []string{"Guides", "Data"}, Published: "2026-03-02T10:15:00Z",
			Text: `Example caches the result of every data fetch made while rendering a page. A page whose data never changes is rendered once at build time and served from the cache until the next deployment.

To keep data fresh without rebuilding, set a revalidate interval on the fetch, for example revalidate: 60. The first visitor after the interval still gets the cached page, while a new version is rendered in the background and replaces it; this is the stale-while-revalidate pattern.

For content that must change at once, such as a price or a stock count, call revalidateTag from a webhook handler after the source data changes. Every cached fetch labelled with that tag is dropped, and the next request renders fresh data.

Opt out of caching for a single fetch with cache: "no-store" when the response depends on the visitor, such as a shopping cart or anything read from cookies. Caching personal data would show one visitor's page to another.`,
		},
		{
			ID: "example:/guides/deployment", URL: "https://docs.example.com/guides/deployment",
			Title: "Deploying your site", SiteName: "example", Source: SourceMintlify,
			Breadcrumbs: []string{"Guides", "Production"},
			Text: `An Example site can be deployed as static files or as a Node.js server. Run npm run build to produce the output folder, then choose the deployment target that matches your output mode.

Static output works on any file host or CDN: upload the out folder and configure the host to serve 404.html for unknown paths. Pages that use revalidation or request data need the server output instead.

For a server deployment, build the container image from the provided Dockerfile, set PORT and any secrets as environment variables, and run at least two replicas behind a load balancer so that a rolling deployment never drops traffic.

Every deployment should be reproducible: pin the Node.js version, commit the lock file, and let your CI run the build rather than a laptop.`,
		},
		{
			ID: "example:/reference/configuration", URL: "https://docs.example.com/reference/configuration",
			Title: "Configuration reference", SiteName: "example", Source: SourceMintlify,
			Breadcrumbs: []string{"Reference"}, Published: "2025-12-08T00:00:00Z",
			Text: `The example.config.ts file exports one object. Every key is optional; the defaults suit a small site.

title sets the site name shown in the header and in search results. navigation lists the groups and pages of the sidebar in order. output is either static or server and decides how the site is built.

images controls image optimization: the allowed remote hosts and the widths generated for responsive images. headers adds response headers to matching paths, which is the place to set a Cache-Control policy for assets you host yourself.`,
		},

		// developers.widget.io: an embeddable widget platform.
		{
			ID: "widget:/overview", URL: "https://developers.widget.io/overview",
			Title: "Widget platform overview", SiteName: "widget", Source: SourceMintlify,
			Breadcrumbs: []string{"Introduction"},
			Text: `Widget lets you embed interactive components, such as booking forms and status boards, into any website with one script tag. The components talk to the Widget REST API, which you can also call directly from your backend.

The platform has three parts: the dashboard, where you design widgets; the REST API, which manages widgets, submissions and users; and the edge runtime, which serves widgets close to your visitors.

Start with the OAuth guide to connect your backend, then read the conventions for pagination and rate limiting that every list endpoint follows.`,
		},
		{
			ID: "widget:/auth/oauth", URL: "https://developers.widget.io/auth/oauth",
			Title: "OAuth 2.0 authentication", SiteName: "widget", Source: SourceMintlify,
			Breadcrumbs: []string{"Authentication"}, Published: "2026-01-28T17:45:00Z",
			Text: `The Widget API uses OAuth 2.0 for authentication. Server-to-server integrations use the client credentials grant; apps acting for a Widget user use the authorization code grant with PKCE.

For client credentials, POST your client ID and client secret to the token endpoint and receive an access token that is valid for one hour. Send it as a bearer token in the Authorization header, and request a new token shortly before it expires rather than after a 401.

For the authorization code grant, redirect the user to the consent page with a code challenge, exchange the returned code together with the code verifier, and store the refresh token encrypted. Refresh tokens rotate: each refresh returns a new one and invalidates the old.

Scopes limit what a token can do. Ask for the narrowest set your integration needs, such as widgets:read, and add scopes later with a new consent.`,
		},
		{
			ID: "widget:/api/pagination", URL: "https://developers.widget.io/api/pagination",
			Title: "Paginating list endpoints", SiteName: "widget", Source: SourceMintlify,
			Breadcrumbs: []string{"API", "Conventions"},
			Text: `List endpoints return at most 100 items per page. Each response includes a next_cursor value; pass it as the cursor query parameter to fetch the following page, and stop when next_cursor is null.

Cursors are opaque and stay valid for 24 hours. Items created while you are paging appear at the end of the walk rather than shifting earlier pages, so a walk never returns the same item twice.

Use the limit parameter to ask for smaller pages when each item is large; the page size does not change how many requests count toward your rate limit, so larger pages are cheaper.`,
		},
		{
			ID: "widget:/api/rate-limiting", URL: "https://developers.widget.io/api/rate-limiting",
			Title: "Rate limiting and retries", SiteName: "widget", Source: SourceMintlify,
			Breadcrumbs: []string{"API", "Conventions"}, Published: "2026-02-14T11:00:00Z",
			Text: `The Widget API limits each organization to 50 requests per second and 200,000 requests per day, counted across all of its tokens. Every response carries X-RateLimit-Remaining and X-RateLimit-Reset headers so that you can slow down before hitting the limit.

A request over the limit receives 429 Too Many Requests with a Retry-After header. Wait at least that long before retrying; retrying sooner only extends the wait for every client in your organization.

Retry only requests that are safe to repeat. Reads can be retried freely; for writes, send an Idempotency-Key header so that a retried create does not make a second widget.

Use exponential backoff with jitter for 5xx errors and network failures, starting at half a second and capping at thirty seconds.`,
		},
		{
			ID: "widget:/deploy/edge", URL: "https://developers.widget.io/deploy/edge",
			Title: "Deploying widgets to the edge", SiteName: "widget", Source: SourceMintlify,
			Breadcrumbs: []string{"Deployment"}, Published: "2025-09-30T06:00:00Z",
			Text: `Publishing a widget creates a new deployment on the edge runtime. The deployment is immutable: it gets its own version number, and the embed script switches visitors to it within a minute.

The edge caches each widget's bundle for a year, keyed by version, so browsers never download the same version twice. Only the small loader script is cached briefly, for sixty seconds, which is how a new deployment reaches visitors quickly.

To roll back, promote an earlier version from the Deployments tab. Nothing is rebuilt; the loader simply points to the older bundle, which is still in the cache.`,
		},

		// The web.
		{
			ID: "https://blog.example.org/http-caching-headers", URL: "https://blog.example.org/http-caching-headers",
			Title: "A field guide to HTTP caching headers", SiteName: "blog.example.org", Source: SourceWeb,
			Breadcrumbs: []string{}, Published: "2025-08-19",
			Text: `Most caching bugs come from a misunderstanding of two headers. Cache-Control tells every cache between the server and the browser how long a response may be reused; ETag lets a cache ask whether its copy is still current without downloading it again.

For files whose names contain a content hash, send Cache-Control: public, max-age=31536000, immutable. The name changes whenever the content does, so the old copy can live forever.

For HTML, send Cache-Control: no-cache together with an ETag. No-cache does not forbid caching: it forces the browser to revalidate before each use, and an unchanged page costs only a 304 response.

Reserve no-store for responses that must never be written to disk, such as account pages, and remember that private keeps a response out of shared caches like CDNs.`,
		},
		{
			ID: "https://notes.example.net/posts/token-bucket", URL: "https://notes.example.net/posts/token-bucket",
			Title: "Token buckets, explained slowly", SiteName: "notes.example.net", Source: SourceWeb,
			Breadcrumbs: []string{}, Published: "2025-03-04T07:20:00+01:00",
			Text: `A token bucket is the simplest rate limiter that still allows bursts, and it is less naïve than it looks. The bucket holds up to N tokens and refills at a steady rate; each request takes one token, and a request that finds the bucket empty is refused or made to wait.

Compared with a fixed window, which resets its counter on the minute and lets a client send twice the limit around the boundary, a bucket spreads capacity evenly. A sliding window log is exact but stores a timestamp per request.

When you design rate limits for an API, publish them, return how long to wait in a Retry-After header, and count requests per customer rather than per key, or customers will simply create more keys.`,
		},
		{
			ID: "https://www.example.org/articles/blue-green-deployments", URL: "https://www.example.org/articles/blue-green-deployments",
			Title: "Blue-green deployments without the drama", SiteName: "www.example.org", Source: SourceWeb,
			Breadcrumbs: []string{},
			Text: `A blue-green deployment keeps two identical production environments. One serves traffic while the new release is installed on the other; switching the router makes the release live, and switching back is the rollback.

The hard part is the database. Both colours share it, so every schema change must work with the old and the new code: add columns first, deploy, then remove what the old code needed in a later release.

Warm the idle environment before the switch. Caches, connection pools and just-in-time compilers all start cold, and the first minute after a deployment is when latency alarms fire.`,
		},
	}
}
