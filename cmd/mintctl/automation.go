package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
)

func (a *app) automationCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "automation",
		Short: "Run automations",
		Long: `Run an automation now: 'automation run' one on a custom schedule,
'automation webhook' one whose trigger is a webhook. A run spends the
organization's credits, so mintctl never sends it twice: if the answer is
lost (exit 5) the run may have started; look in the dashboard's run
history before running the command again.`,
	}
	cmd.AddCommand(a.automationRunCommand(), a.automationWebhookCommand())
	return group(cmd)
}

func (a *app) automationRunCommand() *cobra.Command {
	var asJSON bool
	run := &cobra.Command{
		Use:   "run [--json] AUTOMATION_ID",
		Short: "Run an automation now",
		Long: `Run an automation (one on a custom schedule, and active) now and print the
run's ID (the run_id step output). A run spends the organization's
credits, so mintctl never sends it twice: if the answer is lost (exit 5)
the run may have started; look in the dashboard's run history before
running the command again. An ID with a slash, white space or a control
character is refused (exit 2) before anything is sent.`,
		Example: `  mintctl automation run 6650f1c0ffee0123456789ab`,
		Args:    exactArgs("AUTOMATION_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runAutomation(cmd.Context(), args[0], asJSON, func(ctx context.Context, c *mintlify.Client) (any, string, error) {
				r, err := c.TriggerAutomation(ctx, args[0])
				if err != nil {
					return nil, "", err
				}
				return r, r.RunID, nil
			})
		},
	}
	run.Flags().BoolVar(&asJSON, "json", false, "print the run as one JSON object with the API's field names")
	return run
}

func (a *app) automationWebhookCommand() *cobra.Command {
	var asJSON bool
	webhook := &cobra.Command{
		Use:   "webhook [--json] AUTOMATION_ID",
		Short: "Run an automation whose trigger is a webhook",
		Long: `Queue a run of an automation whose trigger is a webhook, as a call to its
webhook would, and print the run's ID (the run_id step output). The key
needs write access. An automation with another trigger, or one that is
unknown or belongs to another project, is not found (exit 1). A run spends
the organization's credits, so mintctl never sends it twice: if the answer
is lost (exit 5) the run may have started; look in the dashboard's run
history before running the command again. An ID with a slash, white space
or a control character is refused (exit 2) before anything is sent.`,
		Example: `  mintctl automation webhook 6650f1c0ffee0123456789ab
  mintctl automation webhook --json 6650f1c0ffee0123456789ab | jq -r .runId`,
		Args: exactArgs("AUTOMATION_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runAutomation(cmd.Context(), args[0], asJSON, func(ctx context.Context, c *mintlify.Client) (any, string, error) {
				r, err := c.TriggerAutomationWebhook(ctx, args[0])
				if err != nil {
					return nil, "", err
				}
				return r, r.RunID, nil
			})
		},
	}
	webhook.Flags().BoolVar(&asJSON, "json", false, "print the run as one JSON object with the API's field names")
	return webhook
}

// runAutomation starts a run of automation id with start, which returns
// the SDK's value and the run's ID, and reports it: on stdout (the value
// as JSON with --json), as the run_id step output and in the step
// summary. Only the run's ID is an output: the background job an
// automation run names is no agent job 'mintctl job wait' can follow.
func (a *app) runAutomation(ctx context.Context, id string, asJSON bool,
	start func(context.Context, *mintlify.Client) (any, string, error)) error {
	c, err := a.client()
	if err != nil {
		return err
	}
	v, runID, err := start(ctx, c)
	if err != nil {
		return fmt.Errorf("running the automation: %w", err)
	}
	if asJSON {
		err = printJSON(a.stdout, v)
	} else {
		_, err = fmt.Fprintf(a.stdout, "automation %s run %s\n", printable(id), printable(runID))
	}
	// The run was spent: its output is written whatever became of stdout.
	a.writeOutputs(output{"run_id", runID})
	a.summaryf("#### Automation %s\n\n- run: %s\n\n", id, runID)
	return err
}
