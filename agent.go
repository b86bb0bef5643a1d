package mintlify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"time"
)

// JobStatus is the state of an agent job. Values the SDK does not know yet
// are kept as they came and are not terminal, so polling continues.
type JobStatus string

// The job states the API documents.
const (
	JobActive    JobStatus = "active"    // the agent is working
	JobCompleted JobStatus = "completed" // done; PRLink is set if files changed
	JobArchived  JobStatus = "archived"
	JobFailed    JobStatus = "failed"
)

// Terminal reports whether the job has stopped: polling can end.
func (s JobStatus) Terminal() bool {
	return s == JobCompleted || s == JobArchived || s == JobFailed
}

// Job is an agent job. Nullable fields come back as their zero value.
type Job struct {
	ID     string    `json:"id"`
	Status JobStatus `json:"status"`
	Source JobSource `json:"source"`
	// Model is the AI model the agent runs on.
	Model string `json:"model"`
	// PRLink is the pull request the agent opened: "" while the job is
	// active and when it changed no files.
	PRLink     string     `json:"prLink"`
	CreatedAt  time.Time  `json:"createdAt"`
	ArchivedAt *time.Time `json:"archivedAt"` // nil until archived
}

// JobSource is where the agent works: a GitHub repository and its branch.
type JobSource struct {
	Repository string `json:"repository"` // full URL of the GitHub repository
	Ref        string `json:"ref"`        // branch; "" when the API sends null
}

type promptBody struct {
	Prompt string `json:"prompt"`
}

// CreateJob starts an agent job from a prompt (POST
// /v2/agent/{projectId}/job). The job starts out active: follow it with
// PollJob. It is retried only where the server cannot have acted, so it never
// creates two jobs; when the answer is lost the error wraps ErrOutcomeUnknown.
func (c *Client) CreateJob(ctx context.Context, prompt string) (*Job, error) {
	if prompt == "" {
		return nil, invalidf("empty prompt")
	}
	return c.postPrompt(ctx, c.jobsPath, prompt)
}

// GetJob reads a job's current state (GET /v2/agent/{projectId}/job/{id}).
// An unknown job is ErrNotFound.
func (c *Client) GetJob(ctx context.Context, jobID string) (*Job, error) {
	if err := checkSegment("job ID", jobID); err != nil {
		return nil, err
	}
	return call[Job](ctx, c, http.MethodGet, c.jobsPath+"/"+url.PathEscape(jobID), "", nil)
}

// SendMessage sends a follow-up instruction to a job (POST
// /v2/agent/{projectId}/job/{id}/message), which sends it back to active:
// poll it again. Retries and ErrOutcomeUnknown work as in CreateJob.
func (c *Client) SendMessage(ctx context.Context, jobID, prompt string) (*Job, error) {
	if err := checkSegment("job ID", jobID); err != nil {
		return nil, err
	}
	if prompt == "" {
		return nil, invalidf("empty prompt")
	}
	return c.postPrompt(ctx, c.jobsPath+"/"+url.PathEscape(jobID)+"/message", prompt)
}

func (c *Client) postPrompt(ctx context.Context, path, prompt string) (*Job, error) {
	body, err := json.Marshal(promptBody{Prompt: prompt})
	if err != nil {
		return nil, fmt.Errorf("mintlify: encoding prompt: %w", err)
	}
	return call[Job](ctx, c, http.MethodPost, path, "", body)
}

// PollOption tunes PollJob.
type PollOption func(*pollConfig)

type pollConfig struct {
	interval, maxInterval time.Duration
	observers             []func(*Job)
}

const (
	defaultPollInterval    = 5 * time.Second
	defaultMaxPollInterval = 30 * time.Second
	// maxFailedPolls is how many polls in a row may fail (each after its own
	// retries) before PollJob gives up, so a hard failure surfaces in about a
	// minute instead of at the caller's deadline.
	maxFailedPolls = 3
	// maxPollInterval bounds WithMaxPollInterval, which keeps the interval
	// arithmetic far from overflow.
	maxPollInterval = 24 * time.Hour
)

// WithPollInterval sets the first wait between polls (default 5s). Later
// waits grow by half each time, with jitter, up to WithMaxPollInterval.
func WithPollInterval(d time.Duration) PollOption {
	return func(p *pollConfig) { p.interval = d }
}

// WithMaxPollInterval caps the wait between polls (default 30s, at most 24h).
func WithMaxPollInterval(d time.Duration) PollOption {
	return func(p *pollConfig) { p.maxInterval = d }
}

// WithPollObserver calls fn with every state PollJob reads, the last one
// included, on the polling goroutine: use it to show progress. Several
// observers are called in the order given.
func WithPollObserver(fn func(*Job)) PollOption {
	return func(p *pollConfig) { p.observers = append(p.observers, fn) }
}

// PollJob reads the job until its status is terminal and returns it with a
// nil error, whichever terminal status it is: check Status and PRLink. It
// reads at once, then waits a growing, jittered interval between reads.
//
// It stops with an error when ctx ends (wrapping ctx.Err() and the last
// failure, if any), on an answer that waiting cannot fix (ErrNotFound,
// ErrUnauthorized, ...), after three transient failures in a row, or when
// the server asks to wait (Retry-After) longer than WithMaxPollInterval.
func (c *Client) PollJob(ctx context.Context, jobID string, opts ...PollOption) (*Job, error) {
	if err := checkSegment("job ID", jobID); err != nil {
		return nil, err
	}
	cfg := pollConfig{interval: defaultPollInterval, maxInterval: defaultMaxPollInterval}
	for _, opt := range opts {
		opt(&cfg)
	}
	if cfg.interval <= 0 || cfg.maxInterval < cfg.interval || cfg.maxInterval > maxPollInterval {
		return nil, invalidf("poll intervals %s..%s: want 0 < first <= max <= %s", cfg.interval, cfg.maxInterval, maxPollInterval)
	}

	interval := cfg.interval
	var lastErr error
	for failures := 0; ; {
		job, err := c.GetJob(ctx, jobID)
		wait := min(jitter(interval), cfg.maxInterval)
		switch {
		case err == nil:
			failures, lastErr = 0, nil
			for _, observe := range cfg.observers {
				observe(job)
			}
			if job.Status.Terminal() {
				return job, nil
			}
		case ctx.Err() != nil:
			if !errors.Is(err, ctx.Err()) {
				lastErr = err // a real failure that raced the context's end
			}
			return nil, pollStopped(ctx, jobID, lastErr)
		case !transient(err):
			return nil, fmt.Errorf("mintlify: polling job %q: %w", jobID, err)
		default:
			failures, lastErr = failures+1, err
			if failures >= maxFailedPolls {
				return nil, fmt.Errorf("mintlify: polling job %q: %d polls in a row failed: %w", jobID, failures, err)
			}
			if ae := (*APIError)(nil); errors.As(err, &ae) && ae.RetryAfter > 0 {
				if ae.RetryAfter > cfg.maxInterval {
					// Never a silent hour-long wait: the caller decides.
					return nil, fmt.Errorf("mintlify: polling job %q: the server asks to wait %s, more than the maximum poll interval: %w",
						jobID, ae.RetryAfter, err)
				}
				wait = max(wait, ae.RetryAfter)
			}
		}

		if !sleep(ctx, wait) {
			return nil, pollStopped(ctx, jobID, lastErr)
		}
		interval = min(interval+interval/2, cfg.maxInterval)
	}
}

// pollStopped says why polling ended with the context: its error, and the
// last failure seen if there was one (errors.Is works on both).
func pollStopped(ctx context.Context, jobID string, last error) error {
	if last == nil || errors.Is(last, ctx.Err()) {
		return fmt.Errorf("mintlify: polling job %q: %w", jobID, ctx.Err())
	}
	return fmt.Errorf("mintlify: polling job %q: %w (last failure: %w)", jobID, ctx.Err(), last)
}

// transient reports failures that a later poll may not see: rate limits,
// server errors, network trouble. Other API answers and bad input are final.
func transient(err error) bool {
	if ae := (*APIError)(nil); errors.As(err, &ae) {
		return ae.StatusCode == http.StatusTooManyRequests || ae.StatusCode >= 500
	}
	return !errors.Is(err, ErrInvalidInput)
}

// jitter spreads d over [0.8d, 1.2d] so that many pollers started together
// drift apart.
func jitter(d time.Duration) time.Duration {
	spread := d / 5
	if spread <= 0 {
		return d
	}
	return d - spread + rand.N(2*spread+1)
}

// sleep waits for d or until ctx ends, reporting whether the full wait passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
