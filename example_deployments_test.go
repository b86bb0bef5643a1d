package mintlify_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// exampleCIClient is a client of a mock server whose deployments and
// exports take 30ms.
func exampleCIClient(opts ...mockserver.Option) (*mintlify.Client, *mockserver.Server) {
	mock := mockserver.New(append([]mockserver.Option{mockserver.WithJobDuration(30 * time.Millisecond)}, opts...)...)
	c, err := mintlify.NewClient(mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()), mintlify.WithBaseURL(mock.URL()))
	if err != nil {
		panic(err)
	}
	return c, mock
}

func ExampleClient_TriggerDeployment() {
	c, mock := exampleCIClient()
	defer mock.Close()
	ctx := context.Background()

	// In CI, after the step that regenerated the API reference:
	statusID, err := c.TriggerDeployment(ctx)
	if err != nil {
		panic(err) // errors.Is(err, mintlify.ErrOutcomeUnknown): look before triggering again
	}
	d, err := c.PollDeployment(ctx, statusID, mintlify.WithPollInterval(10*time.Millisecond))
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Status, d.Status.Terminal())
	if d.Status == mintlify.DeploymentFailed {
		fmt.Println(strings.Join(d.Logs, "\n"))
	}
	// Output:
	// success true
}

func ExampleClient_PollDeployment() {
	c, mock := exampleCIClient(mockserver.WithOutcome(mockserver.OutcomeFailed))
	defer mock.Close()
	ctx := context.Background()

	statusID, err := c.TriggerDeployment(ctx)
	if err != nil {
		panic(err)
	}
	seen := map[mintlify.DeploymentStatus]bool{}
	d, err := c.PollDeployment(ctx, statusID, mintlify.WithPollInterval(5*time.Millisecond),
		mintlify.WithPollObserver(func(d *mintlify.Deployment) { seen[d.Status] = true }))
	// A failed deployment is a verdict, not an error: read Status.
	fmt.Println(err == nil, d.Status, seen[mintlify.DeploymentFailed])
	fmt.Println(d.Summary != "", len(d.Logs) > 0, d.EndedAt.After(d.CreatedAt))
	// Output:
	// true failure true
	// true true true
}

func ExampleClient_TriggerPreview() {
	c, mock := exampleCIClient()
	defer mock.Close()
	ctx := context.Background()

	first, err := c.TriggerPreview(ctx, "feature/new-nav")
	if err != nil {
		panic(err)
	}
	// A second push to the branch redeploys the same preview.
	second, err := c.TriggerPreview(ctx, "feature/new-nav")
	if err != nil {
		panic(err)
	}
	fmt.Println("same URL:", first.URL == second.URL)
	fmt.Println("new status ID:", first.StatusID != second.StatusID)

	d, err := c.PollDeployment(ctx, second.StatusID, mintlify.WithPollInterval(10*time.Millisecond))
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Status)
	// Output:
	// same URL: true
	// new status ID: true
	// success
}

func ExampleClient_TriggerAutomation() {
	c, mock := exampleCIClient()
	defer mock.Close()
	ctx := context.Background()
	scheduled, _ := mock.AddAutomation(mock.ProjectID(), mockserver.TriggerCustomSchedule, true)
	onPush, _ := mock.AddAutomation(mock.ProjectID(), mockserver.TriggerCodeChange, true)

	run, err := c.TriggerAutomation(ctx, scheduled.ID)
	if err != nil {
		panic(err) // with ErrOutcomeUnknown, the run may exist: it spends credits, so look first
	}
	fmt.Println(run.AutomationID == scheduled.ID, run.RunID != "")

	// Only automations on a custom schedule can be triggered.
	_, err = c.TriggerAutomation(ctx, onPush.ID)
	fmt.Println(errors.Is(err, mintlify.ErrBadRequest))
	// Output:
	// true true
	// true
}

func ExampleClient_TriggerAutomationWebhook() {
	c, mock := exampleCIClient()
	defer mock.Close()
	ctx := context.Background()
	hook, _ := mock.AddAutomation(mock.ProjectID(), mockserver.TriggerWebhook, true)
	scheduled, _ := mock.AddAutomation(mock.ProjectID(), mockserver.TriggerCustomSchedule, true)

	run, err := c.TriggerAutomationWebhook(ctx, hook.ID)
	if err != nil {
		panic(err) // with ErrOutcomeUnknown, the run may exist: it spends credits, so look first
	}
	fmt.Println(run.RunID != "")

	// An automation whose trigger is not a webhook is not found.
	_, err = c.TriggerAutomationWebhook(ctx, scheduled.ID)
	fmt.Println(errors.Is(err, mintlify.ErrNotFound))
	// Output:
	// true
	// true
}

func ExampleClient_DownloadStaticExport() {
	c, mock := exampleCIClient()
	defer mock.Close()
	ctx := context.Background()

	export, err := c.StartStaticExport(ctx, mintlify.StaticExportParams{Domain: "docs.example.com"})
	if err != nil {
		panic(err)
	}
	export, err = c.PollStaticExport(ctx, export.ID, mintlify.WithPollInterval(10*time.Millisecond))
	if err != nil {
		panic(err)
	}
	if export.Status != mintlify.StaticExportCompleted {
		panic(export.Error)
	}
	bundle, err := c.BundleStaticExport(ctx, export.ID)
	if err != nil {
		panic(err)
	}
	// The presigned link is a secret until it expires: it stays out of
	// prints and logs.
	fmt.Println(strings.Contains(fmt.Sprint(bundle), bundle.URL))

	// Usually an *os.File; any io.Writer will do.
	var archive bytes.Buffer
	n, err := c.DownloadStaticExport(ctx, bundle, &archive)
	if err != nil {
		panic(err)
	}
	fmt.Println(n == bundle.SizeBytes)

	zr, err := gzip.NewReader(&archive)
	if err != nil {
		panic(err)
	}
	tr := tar.NewReader(zr)
	files := 0
	for {
		if _, err := tr.Next(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			panic(err)
		}
		files++
	}
	fmt.Println(files == export.PageCount)
	// Output:
	// false
	// true
	// true
}
