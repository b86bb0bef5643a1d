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
