package assistant

import "strings"

// DefaultPages is the site every mock starts with: a quickstart, pages on
// authentication, rate limits, deployments, previews and the assistant,
// and a staff-only runbook (group "staff"). All are English ("en"); none
// has a version. Each call returns fresh copies.
func DefaultPages() []Page {
	return []Page{
		{
			Path: "quickstart", Title: "Quickstart", Language: "en", Tags: []string{"getting-started"},
			Content: lines(
				"Get your documentation site running in a few minutes. This guide installs the command line tool, previews the site on your machine and publishes a first change.",
				"",
				"## Install",
				"",
				"Install the command line tool with your package manager, then run the dev command in the folder that holds docs.json. It serves a local preview on port 3000 that reloads as you edit.",
				"",
				"## Write a page",
				"",
				"Pages are MDX files. Add a file such as guides/first-page.mdx, list it in the navigation of docs.json, and it appears in the sidebar.",
				"",
				"## Publish",
				"",
				"Push your change to the deployment branch. Every push starts a deployment; the Deployments page explains how to follow one to the end.",
			),
		},
		{
			Path: "authentication", Title: "Authentication", Language: "en", Tags: []string{"api"},
			Content: lines(
				"Every API request carries a key in the Authorization header as a bearer token. A request without a key, or with a revoked or expired key, is refused with 401 Unauthorized.",
				"",
				"There are three kinds of keys. Admin keys start with mint_ and manage projects, deployments and analytics. Assistant keys start with mint_dsc_ and call the assistant, search and page content routes. Index keys start with mint_us_.",
				"",
				"Create keys on the API keys page of the dashboard. A key can be restricted to a list of IP addresses and given an expiry date; a request from an address outside the list is refused with 403 Forbidden.",
				"",
				"Keep keys on your servers. Code that runs in a browser can be read by anyone, so call the API from your backend and pass the answer on.",
			),
		},
		{
			Path: "rate-limits", Title: "Rate limits", Language: "en", Tags: []string{"api"},
			Content: lines(
				"The API limits how many requests an organization may send. Limits count every key of the organization together, over a window that slides across the last hour.",
				"",
				"Assistant messages are limited to 10,000 an hour, and so are search and page content requests. Analytics exports are limited to 100 requests an hour.",
				"",
				"A request over a limit is answered with 429 Too Many Requests and a Retry-After header giving, in seconds, when to try again. Wait that long rather than retrying at once.",
				"",
				"If your integration needs higher limits, write to support with an estimate of your traffic.",
			),
		},
		{
			Path: "deployments", Title: "Deployments", Language: "en", Tags: []string{"api"},
			Content: lines(
				"A deployment builds your docs from the deployment branch and publishes them on your subdomain. One starts on every push to that branch, or when you trigger it from the dashboard or the API.",
				"",
				"A deployment moves from queued to in_progress and ends in success or failure. While it builds, its log grows line by line; when it ends, a summary says what changed.",
				"",
				"Trigger a deployment with the project update route and poll its status route until the status is success or failure.",
				"",
				"A failed deployment leaves the previous version online. Read the log to find the page that broke the build, fix it and push again.",
			),
		},
		{
			Path: "previews", Title: "Preview deployments", Language: "en", Tags: []string{"api"},
			Content: lines(
				"A preview deployment builds a branch other than the deployment branch and serves it at its own URL, so reviewers can read a change before it is merged.",
				"",
				"Previews are created for pull requests automatically, or on demand for any branch. A second preview of the same branch keeps its URL.",
				"",
				"Previews are not part of every plan. On a plan without them, a request to create one is refused with 403 Forbidden.",
			),
		},
		{
			Path: "ai/assistant", Title: "AI assistant", Language: "en",
			Content: lines(
				"The assistant answers readers' questions from your documentation. It searches your pages, writes an answer and cites the pages it used.",
				"",
				"Each conversation is a thread. Send a follow-up with the thread's ID and key to continue it; the assistant keeps the earlier turns.",
				"",
				"Every message spends credits, while search and page content requests are free. Conversations appear in the analytics export.",
			),
		},
		{
			Path: "internal/runbook", Title: "Staff runbook: incident response", Language: "en", Groups: []string{"staff"},
			Content: lines(
				"This page is for staff. It says what the on-call engineer does when the docs site or the API is degraded.",
				"",
				"First open an incident on the status page and post in the incident channel. Then read the deployment logs and the error dashboard for the last hour.",
				"",
				"If a bad deployment caused the incident, roll back by redeploying the previous commit from the dashboard. Rotate any key that may have leaked and tell its owner.",
			),
		},
	}
}

func lines(ls ...string) string { return strings.Join(ls, "\n") }
