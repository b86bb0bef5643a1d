package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) automationCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "automation",
		Short: "Run automations",
	}
	var asJSON bool
	run := &cobra.Command{
		Use:   "run [--json] AUTOMATION_ID",
		Short: "Run an automation now",
		Long: `Run an automation (one on a custom schedule, and active) now. A run spends
the organization's credits, so mintctl never sends it twice: if the answer
is lost (exit 5) the run may have started; look in the dashboard's run
history before running the command again.`,
		Example: `  mintctl automation run 6650f1c0ffee0123456789ab`,
		Args:    exactArgs("AUTOMATION_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			r, err := c.TriggerAutomation(cmd.Context(), args[0])
			if err != nil {
				return fmt.Errorf("running the automation: %w", err)
			}
			if asJSON {
				err = printJSON(a.stdout, r)
			} else {
				_, err = fmt.Fprintf(a.stdout, "automation %s run %s (job %s)\n", printable(r.AutomationID), printable(r.RunID), printable(r.JobID))
			}
			// The run was spent: its outputs are written whatever became
			// of stdout.
			a.writeOutputs(output{"run_id", r.RunID}, output{"job_id", r.JobID})
			a.summaryf("#### Automation %s\n\n- run: %s\n- job: %s\n\n", r.AutomationID, r.RunID, r.JobID)
			return err
		},
	}
	run.Flags().BoolVar(&asJSON, "json", false, "print the run as one JSON object with the API's field names")
	cmd.AddCommand(run)
	return group(cmd)
}
