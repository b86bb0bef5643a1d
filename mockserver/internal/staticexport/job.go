// Package staticexport holds the mock's static export: export jobs that
// render a site page by page on the server's clock, the tar.gz bundle of
// the rendered pages (padded on request to any size, without holding it in
// memory), and the presigned links of the storage host that serves it. It
// knows nothing of HTTP routing or keys.
package staticexport

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Status is where an export job stands.
type Status string

// The statuses of the service's export jobs.
const (
	Queued    Status = "queued"
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
)

// queuedShare is the part of a run spent queued: one fifth.
const queuedShare = 5

// DefaultPages are the pages of a site when an export names none.
var DefaultPages = []string{
	"index", "quickstart", "installation", "guides/authentication", "guides/webhooks",
	"guides/pagination", "guides/errors", "api-reference/introduction", "api-reference/jobs",
	"api-reference/analytics", "changelog", "support",
}

// Job is one export. Its progress is not stored: it follows from CreatedAt,
// Duration and the time asked; pages finish one by one, evenly over the
// running part of the run.
type Job struct {
	ID        string
	Org       string
	Domain    string
	Version   string
	Pages     []string // the pages to export, in order
	CreatedAt time.Time
	Duration  time.Duration
	Fails     bool // the last page fails to render

	once   sync.Once
	bundle []byte

	cost int // what the store counts for it, its bundle once built; under the store's lock
}

// View is a job as seen at one instant.
type View struct {
	Status    Status
	Progress  float64 // 0..100
	PageCount int     // pages exported so far
	UpdatedAt time.Time
	Error     string // set when failed
}

// At computes the job's state at now.
func (j *Job) At(now time.Time) View {
	n := len(j.Pages)
	elapsed := now.Sub(j.CreatedAt)
	queued := j.Duration / queuedShare
	running := j.Duration - queued
	if elapsed >= j.Duration {
		end := j.CreatedAt.Add(j.Duration)
		if j.Fails {
			done := max(n-1, 0)
			return View{Status: Failed, Progress: percent(done, n), PageCount: done, UpdatedAt: end,
				Error: fmt.Sprintf("rendering page %q failed: the page timed out after 30s", j.lastPage())}
		}
		return View{Status: Completed, Progress: 100, PageCount: n, UpdatedAt: end}
	}
	if elapsed < queued {
		return View{Status: Queued, UpdatedAt: j.CreatedAt}
	}
	// Page i (1-based) is done at the start of running + running*i/n.
	done := int(int64(n) * int64(elapsed-queued) / int64(running))
	if j.Fails {
		done = min(done, n-1)
	}
	updated := j.CreatedAt.Add(queued)
	if done > 0 {
		updated = updated.Add(time.Duration(int64(running) * int64(done) / int64(n)))
	}
	return View{Status: Running, Progress: percent(done, n), PageCount: done, UpdatedAt: updated}
}

func (j *Job) lastPage() string {
	if len(j.Pages) == 0 {
		return "index"
	}
	return j.Pages[len(j.Pages)-1]
}

// percent is done/n in percent, rounded down to a tenth so that a running
// job never shows 100.
func percent(done, n int) float64 {
	if n == 0 {
		return 100
	}
	return float64(done*1000/n) / 10
}

// JSON is the job as the status route answers it, with the vendor's field
// names; error is null unless the job failed.
func (j *Job) JSON(now time.Time) []byte {
	v := j.At(now)
	w := struct {
		JobID     string  `json:"jobId"`
		Status    Status  `json:"status"`
		Progress  float64 `json:"progress"`
		PageCount int     `json:"pageCount"`
		CreatedAt string  `json:"createdAt"`
		UpdatedAt string  `json:"updatedAt"`
		Error     *string `json:"error"`
	}{j.ID, v.Status, v.Progress, v.PageCount, stamp(j.CreatedAt), stamp(v.UpdatedAt), nil}
	if v.Error != "" {
		w.Error = &v.Error
	}
	b, _ := json.Marshal(w) // strings and numbers: cannot fail
	return b
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// Errors of input validation, for 400 details.
var (
	ErrDomain = errors.New("domain must be a bare hostname such as docs.example.com: no scheme, port, slash or path")
	ErrPath   = errors.New("paths: each entry must be a page path such as guides/getting-started")

	ErrTooManyPaths = errors.New("paths: too many pages for one export")
)

// MaxPaths bounds the pages one export request may name. Without it a
// 1 MiB body of short paths made 124,000 pages: 120 MB allocated to build
// the bundle and 9 MB kept, for one request.
const MaxPaths = 10_000

// MaxVersion bounds the version string, which every page of the bundle
// repeats.
const MaxVersion = 256

// ValidDomain reports whether d is a bare hostname: dot-separated labels of
// letters, digits and inner hyphens, 253 characters at most.
func ValidDomain(d string) bool {
	if d == "" || len(d) > 253 {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// CleanPages validates requested page paths and returns them without a
// leading slash and without repeats; none means every page of the site.
func CleanPages(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return append([]string(nil), DefaultPages...), nil
	}
	if len(paths) > MaxPaths {
		return nil, fmt.Errorf("%w; got %d, at most %d", ErrTooManyPaths, len(paths), MaxPaths)
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		p = strings.TrimPrefix(p, "/")
		if !validPage(p) {
			return nil, fmt.Errorf("%w; got %q", ErrPath, p)
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

func validPage(p string) bool {
	if p == "" || len(p) > 512 {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
		for _, r := range seg {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
				return false
			}
		}
	}
	return true
}
