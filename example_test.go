package mintlify_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

func ExampleNewClient() {
	// Usually the key and project come from $MINTLIFY_API_KEY and
	// $MINTLIFY_PROJECT_ID; explicit options win over the environment.
	_, err := mintlify.NewClient(mintlify.WithAPIKey(""), mintlify.WithProjectID("docs"))
	fmt.Println(errors.Is(err, mintlify.ErrInvalidInput))
	fmt.Println(err)

	mock := mockserver.New(mockserver.WithProjectID("docs"))
	defer mock.Close()
	c, err := mintlify.NewClient(
		mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID("docs"),
		mintlify.WithBaseURL(mock.URL()),
		mintlify.WithMaxRetries(5),
		mintlify.WithUserAgent("release-bot/1.2"),
	)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.ProjectID())
	// Output:
	// true
	// mintlify: invalid input: missing API key: use WithAPIKey or set $MINTLIFY_API_KEY
	// docs
}

func ExampleClient_CreateJob() {
	mock := mockserver.New(mockserver.WithProjectID("docs"), mockserver.WithJobDuration(30*time.Millisecond))
	defer mock.Close()
	c, _ := mintlify.NewClient(mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()), mintlify.WithBaseURL(mock.URL()))
	ctx := context.Background()

	job, err := c.CreateJob(ctx, "Document the pagination of the visitors export")
	if err != nil {
		panic(err)
	}
	fmt.Println(job.Status)

	job, err = c.PollJob(ctx, job.ID, mintlify.WithPollInterval(10*time.Millisecond))
	if err != nil {
		panic(err)
	}
	fmt.Println(job.Status, job.PRLink)
	// Output:
	// active
	// completed https://github.com/acme/docs/pull/1
}

func ExampleClient_SendMessage() {
	mock := mockserver.New(mockserver.WithProjectID("docs"), mockserver.WithJobDuration(30*time.Millisecond),
		mockserver.WithAgent(func(prompt string) mockserver.Outcome {
			if prompt == "Only fix typos" {
				return mockserver.OutcomeNoChange
			}
			return mockserver.OutcomePullRequest
		}))
	defer mock.Close()
	c, _ := mintlify.NewClient(mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()), mintlify.WithBaseURL(mock.URL()))
	ctx := context.Background()
	fast := mintlify.WithPollInterval(10 * time.Millisecond)

	job, _ := c.CreateJob(ctx, "Only fix typos")
	job, _ = c.PollJob(ctx, job.ID, fast)
	fmt.Printf("%s, pull request %q\n", job.Status, job.PRLink)

	job, err := c.SendMessage(ctx, job.ID, "Then rewrite the introduction")
	if err != nil {
		panic(err)
	}
	fmt.Println(job.Status)
	job, _ = c.PollJob(ctx, job.ID, fast)
	fmt.Printf("%s, pull request %q\n", job.Status, job.PRLink)
	// Output:
	// completed, pull request ""
	// active
	// completed, pull request "https://github.com/acme/docs/pull/1"
}

func ExampleClient_GetJob() {
	mock := mockserver.New(mockserver.WithProjectID("docs"), mockserver.WithJobDuration(time.Hour))
	defer mock.Close()
	c, _ := mintlify.NewClient(mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()), mintlify.WithBaseURL(mock.URL()))
	ctx := context.Background()

	created, err := c.CreateJob(ctx, "Document the webhooks")
	if err != nil {
		panic(err)
	}
	job, err := c.GetJob(ctx, created.ID)
	if err != nil {
		panic(err)
	}
	fmt.Println(job.ID == created.ID, job.Status, job.PRLink == "")

	_, err = c.GetJob(ctx, "job_that_does_not_exist")
	fmt.Println(errors.Is(err, mintlify.ErrNotFound))
	// Output:
	// true active true
	// true
}

func ExampleClient_PollJob() {
	mock := mockserver.New(mockserver.WithProjectID("docs"), mockserver.WithJobDuration(50*time.Millisecond))
	defer mock.Close()
	c, _ := mintlify.NewClient(mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()), mintlify.WithBaseURL(mock.URL()))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // bounds the whole wait
	defer cancel()

	job, err := c.CreateJob(ctx, "Add a page about rate limits")
	if err != nil {
		panic(err)
	}
	statuses := map[mintlify.JobStatus]bool{}
	job, err = c.PollJob(ctx, job.ID,
		mintlify.WithPollInterval(10*time.Millisecond),
		mintlify.WithMaxPollInterval(20*time.Millisecond),
		mintlify.WithPollObserver(func(j *mintlify.Job) { statuses[j.Status] = true }))
	if err != nil {
		panic(err) // the context ended, or an answer waiting cannot fix
	}
	switch job.Status { // every terminal status comes with a nil error
	case mintlify.JobCompleted:
		fmt.Println("review:", job.PRLink)
	case mintlify.JobFailed, mintlify.JobArchived:
		fmt.Println("stopped:", job.Status)
	}
	fmt.Println("seen active:", statuses[mintlify.JobActive])
	// Output:
	// review: https://github.com/acme/docs/pull/1
	// seen active: true
}

func ExampleAPIError() {
	mock := mockserver.New(mockserver.WithProjectID("docs"))
	defer mock.Close()
	c, _ := mintlify.NewClient(mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()), mintlify.WithBaseURL(mock.URL()))

	_, err := c.GetJob(context.Background(), "job_unknown")
	var apiErr *mintlify.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Message)
		fmt.Println("request ID for support:", apiErr.RequestID != "")
	}
	fmt.Println(errors.Is(err, mintlify.ErrNotFound), errors.Is(err, mintlify.ErrServer))
	// Output:
	// 404 Job not found
	// request ID for support: true
	// true false
}

func ExampleWithResponseObserver() {
	mock := mockserver.New(mockserver.WithProjectID("docs"),
		mockserver.WithFaults(mockserver.FaultRule{Route: mockserver.RouteGetJob,
			Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 503}, Times: 1}))
	defer mock.Close()
	var requests int
	c, _ := mintlify.NewClient(mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()), mintlify.WithBaseURL(mock.URL()),
		mintlify.WithRetryWait(time.Millisecond, 10*time.Millisecond),
		mintlify.WithResponseObserver(func(_ context.Context, r *mintlify.Response) {
			requests += r.Attempts // every request counts against the quotas
			fmt.Println(r.Method, r.StatusCode, r.Attempts, r.RequestID != "")
		}))
	ctx := context.Background()

	job, _ := c.CreateJob(ctx, "Document the CLI")
	_, _ = c.GetJob(ctx, job.ID) // a 503, retried
	fmt.Println("requests sent:", requests)
	// Output:
	// POST 201 1 true
	// GET 200 2 true
	// requests sent: 3
}

func ExampleClient_Do() {
	mock := mockserver.New(mockserver.WithProjectID("docs"))
	defer mock.Close()
	c, _ := mintlify.NewClient(mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()), mintlify.WithBaseURL(mock.URL()))

	// Any route, with the client's key, retries, error mapping and
	// redaction; "{projectId}" stands for the client's project.
	var page struct {
		Totals struct {
			Total int `json:"total"`
		} `json:"totals"`
		HasMore bool `json:"hasMore"`
	}
	resp, err := c.Do(context.Background(), "GET", "/v1/analytics/{projectId}/views?limit=1", nil, &page)
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), page.Totals.Total, page.HasMore)

	_, err = c.Do(context.Background(), "GET", "https://elsewhere.example/steal", nil, nil)
	fmt.Println(errors.Is(err, mintlify.ErrInvalidInput))
	// Output:
	// 200 application/json 0 false
	// true
}
