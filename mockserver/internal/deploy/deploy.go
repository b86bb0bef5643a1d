// Package deploy holds the mock's deployments and previews and what
// triggers them: their state, the rules that move a deployment from queued
// to its verdict on the server's clock (Deployment.At), and the JSON the
// status route answers. It knows nothing of HTTP, keys or rate limits;
// mockserver's handlers call it with the time of the request.
package deploy

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Status is where a deployment stands.
type Status string

// The statuses of the service's status route.
const (
	Queued     Status = "queued"
	InProgress Status = "in_progress"
	Success    Status = "success"
	Failure    Status = "failure"
)

// queuedShare is the part of a run spent waiting for a build slot: a poller
// sees queued, then in_progress, then the verdict.
const queuedShare = 5 // one fifth

// Deployment is one run of a production deployment or a preview. Its status
// is not stored: it follows from CreatedAt, Duration and the time asked, so
// advancing a clock is all it takes to move it.
type Deployment struct {
	ID        string
	ProjectID string
	Preview   bool
	Branch    string
	Subdomain string
	Source    string // one of the vendor's sources; "api" for API triggers
	CreatedAt time.Time
	Duration  time.Duration
	Fails     bool // ends in failure rather than success
	Commit    Commit
	Author    *Author // nil: the service sends null
}

// Commit is the commit a deployment builds.
type Commit struct {
	SHA, Ref, Message        string
	Added, Modified, Removed []string
}

// Author is who made the commit.
type Author struct {
	Name, AvatarURL string
	GitHubUserID    int64
}

// View is a deployment as seen at one instant.
type View struct {
	Status  Status
	Summary string
	Logs    []string
	EndedAt time.Time // zero until the run ends
}

// At computes the deployment's state at now. The log grows line by line
// while the build runs and is complete once it has ended.
func (d *Deployment) At(now time.Time) View {
	elapsed := now.Sub(d.CreatedAt)
	script := d.script()
	switch {
	case elapsed >= d.Duration:
		v := View{EndedAt: d.CreatedAt.Add(d.Duration), Logs: script}
		if d.Fails {
			v.Status = Failure
			v.Summary = fmt.Sprintf("Build failed on %s: 1 error in %s", d.Commit.Ref, d.brokenFile())
			v.Logs = append(v.Logs, "error: "+d.brokenFile()+": invalid frontmatter (line 3)", "Deployment failed")
		} else {
			v.Status = Success
			v.Summary = fmt.Sprintf("Deployed %s to %s: %d added, %d modified, %d removed",
				d.Commit.Ref, d.Subdomain, len(d.Commit.Added), len(d.Commit.Modified), len(d.Commit.Removed))
			v.Logs = append(v.Logs, "Deployment succeeded")
		}
		return v
	case elapsed*queuedShare < d.Duration:
		return View{Status: Queued, Summary: "Waiting for a build slot", Logs: []string{}}
	default:
		// Lines appear evenly over the in-progress part of the run.
		running := d.Duration - d.Duration/queuedShare
		done := elapsed - d.Duration/queuedShare
		n := 1 + int(int64(len(script)-1)*int64(done)/int64(max(running, 1)))
		n = min(n, len(script))
		return View{Status: InProgress, Summary: "Building " + d.Commit.Ref, Logs: script[:n:n]}
	}
}

// script is the build log of a run, one line per step.
func (d *Deployment) script() []string {
	c := d.Commit
	return []string{
		fmt.Sprintf("Cloning %s at %s", c.Ref, shortSHA(c.SHA)),
		fmt.Sprintf("Changed files: %d added, %d modified, %d removed", len(c.Added), len(c.Modified), len(c.Removed)),
		"Installing dependencies",
		"Validating docs.json",
		"Building pages",
		"Generating search index",
		"Uploading to " + d.Subdomain,
	}
}

// brokenFile is the page a failing build blames: the first changed one.
func (d *Deployment) brokenFile() string {
	for _, list := range [][]string{d.Commit.Modified, d.Commit.Added} {
		if len(list) > 0 {
			return list[0]
		}
	}
	return "index.mdx"
}

func shortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// CommitFor makes the head commit of branch for the nth deployment of a
// project: a stable SHA and a changed-file set that varies with n, so
// successive deployments differ the way real pushes do.
func CommitFor(projectID, branch string, n int) Commit {
	sum := sha1.Sum([]byte(fmt.Sprintf("%s\x00%s\x00%d", projectID, branch, n)))
	pages := []string{"index.mdx", "quickstart.mdx", "api-reference/introduction.mdx", "guides/webhooks.mdx",
		"guides/authentication.mdx", "changelog.mdx", "docs.json", "snippets/install.mdx"}
	pick := func(i int) string { return pages[(n+i)%len(pages)] }
	c := Commit{
		SHA:      hex.EncodeToString(sum[:]),
		Ref:      branch,
		Message:  messages[n%len(messages)],
		Modified: []string{pick(0), pick(3)},
		Added:    []string{},
		Removed:  []string{},
	}
	if n%2 == 0 {
		c.Added = append(c.Added, fmt.Sprintf("guides/release-%d.mdx", n+1))
	}
	if n%3 == 2 {
		c.Removed = append(c.Removed, pick(5))
	}
	return c
}

var messages = []string{
	"Update API reference from openapi.json",
	"Document the webhooks retry policy",
	"Fix broken links in the quickstart",
	"Add a release note",
}

// PreviewURL is where a branch's preview is served. It depends on the
// project's subdomain and the branch only, which is why a second preview of
// a branch keeps its URL.
func PreviewURL(subdomain, branch string) string {
	slug := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, branch)
	slug = strings.Trim(slug, "-")
	if len(slug) > 40 {
		slug = strings.TrimRight(slug[:40], "-")
	}
	sum := sha1.Sum([]byte(branch))
	// The hash keeps "feature/a" and "feature-a" apart.
	return "https://" + subdomain + "-" + slug + "-" + hex.EncodeToString(sum[:3]) + ".preview.mintlify.app"
}
