package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
)

// triggerCommands are the commands that start a run of the project's site
// or of an automation: deploy, preview and automation run.
func (a *app) triggerCommands() []*cobra.Command {
	return []*cobra.Command{a.deployCommand(), a.previewCommand(), a.automationCommand()}
}

func (a *app) deployCommand() *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "deploy [--wait] [--timeout D] [--json]",
		Short: "Deploy the project's deployment branch",
		Long: `Trigger a deployment of the project's configured deployment branch. With
--wait, wait for the verdict: the summary, the added / modified / removed
file counts, and the logs on failure. The exit code says how it ended:
0 success, 3 failure, 5 when the trigger's answer was lost (a deployment may
be queued: look before triggering again).`,
		Example: `  mintctl deploy --wait --timeout 40m
  mintctl deploy status --wait 65f1c0ffee0123456789abcd`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(a, cmd, func(ctx context.Context, c *mintlify.Client) error {
				id, err := c.TriggerDeployment(ctx)
				if err != nil {
					return f.gaveUp(fmt.Errorf("triggering the deployment: %w", err), "the trigger", "", "")
				}
				a.infof("triggered deployment %s", id)
				return a.followDeployment(ctx, c, id, "", &f)
			})
		},
	}
	f.register(cmd, true)
	cmd.AddCommand(a.deployStatusCommand())
	return cmd
}

func (a *app) deployStatusCommand() *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "status [--wait] [--timeout D] [--json] STATUS_ID",
		Short: "Show a deployment or preview, or wait for its verdict",
		Long: `Show a deployment or preview by the status ID its trigger returned. With
--wait, wait for the verdict; the exit code is then 0 on success, 3 on
failure.`,
		Example: `  mintctl deploy status 65f1c0ffee0123456789abcd
  mintctl deploy status --wait --json 65f1c0ffee0123456789abcd | jq .summary`,
		Args: exactArgs("STATUS_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(a, cmd, func(ctx context.Context, c *mintlify.Client) error {
				return a.followDeployment(ctx, c, args[0], "", &f)
			})
		},
	}
	f.register(cmd, true)
	return cmd
}

func (a *app) previewCommand() *cobra.Command {
	var f waitFlags
	cmd := &cobra.Command{
		Use:   "preview [--wait] [--timeout D] [--json] BRANCH",
		Short: "Deploy a branch as a preview",
		Long: `Deploy BRANCH as a preview and print its URL. A second preview of the same
branch redeploys it at the same URL. With --wait, wait for the verdict as
'mintctl deploy --wait' does.

BRANCH must be a name git accepts (git check-ref-format --branch): no
space, "..", ~ ^ : ? * [ \ or control character, no "@{", no component
starting with "." or ending with ".lock", not starting with "-" or ending
with "/" or ".", at most 255 bytes. Another name is refused (exit 2)
before anything is sent: the API allows 5 previews a minute.`,
		Example: `  mintctl preview --wait "$GITHUB_HEAD_REF"
  mintctl preview --json docs/new-search | jq -r .previewUrl`,
		Args: exactArgs("BRANCH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBranch(args[0]); err != nil {
				return err
			}
			return f.run(a, cmd, func(ctx context.Context, c *mintlify.Client) error {
				p, err := c.TriggerPreview(ctx, args[0])
				if err != nil {
					return f.gaveUp(fmt.Errorf("triggering the preview: %w", err), "the trigger", "", "")
				}
				a.infof("triggered preview %s of %s at %s", p.StatusID, args[0], p.URL)
				return a.followDeployment(ctx, c, p.StatusID, p.URL, &f)
			})
		},
	}
	f.register(cmd, true)
	return cmd
}

// followDeployment reads the deployment once, or waits for its verdict,
// then reports it. previewURL is set for previews. Step outputs are
// written once the deployment was read, never after an error before that.
func (a *app) followDeployment(ctx context.Context, c *mintlify.Client, id, previewURL string, f *waitFlags) error {
	outs := func(d *mintlify.Deployment) []output {
		o := []output{{"status_id", id}, {"status", string(d.Status)}}
		if previewURL != "" {
			o = append(o, output{"preview_url", previewURL})
		}
		return o
	}
	if !f.wait {
		d, err := c.GetDeployment(ctx, id)
		if err != nil {
			return fmt.Errorf("reading deployment %s: %w", id, err)
		}
		return a.reportDeployment(d, previewURL, f, outs(d), false)
	}
	d, last, err := pollShown(a, f, "deployment "+id, &mintlify.Deployment{},
		func(d *mintlify.Deployment) string { return string(d.Status) },
		func(opts ...mintlify.PollOption) (*mintlify.Deployment, error) {
			return c.PollDeployment(ctx, id, opts...)
		})
	if err != nil {
		return a.waitFailed(f, err, "deployment "+id, string(last.Status), outs(last), "mintctl", "deploy", "status", "--wait", id)
	}
	return a.reportDeployment(d, previewURL, f, outs(d), true)
}

// reportDeployment prints the deployment (after a wait, the verdict) and
// turns a failure into exit code 3.
func (a *app) reportDeployment(d *mintlify.Deployment, previewURL string, f *waitFlags, outs []output, waited bool) error {
	// The deployment was read: its outputs are written whatever becomes of
	// stdout.
	a.writeOutputs(outs...)
	a.summaryDeployment(d, previewURL)
	if f.json {
		if err := printDeployment(a.stdout, d, previewURL); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(a.stdout, "deployment %s %s\n", printable(d.ID), printable(string(d.Status)))
		if previewURL != "" {
			fmt.Fprintf(a.stdout, "preview: %s\n", printable(previewURL))
		}
		if d.Status.Terminal() {
			if d.Summary != "" {
				fmt.Fprintf(a.stdout, "summary: %s\n", printable(d.Summary))
			}
			fmt.Fprintf(a.stdout, "files: %d added, %d modified, %d removed\n",
				len(d.Commit.Added), len(d.Commit.Modified), len(d.Commit.Removed))
		}
		if d.Status == mintlify.DeploymentFailed {
			// In Actions the logs fold into a group, open in the job's log.
			if a.actions {
				fmt.Fprintln(a.stdout, workflowCommand("group", "", "Logs of deployment "+printable(d.ID)))
			} else {
				fmt.Fprintln(a.stdout, "logs:")
			}
			for _, entry := range d.Logs {
				printLines(a.stdout, "  ", entry)
			}
			if a.actions {
				fmt.Fprintln(a.stdout, "::endgroup::")
			}
		}
	}
	if waited && d.Status == mintlify.DeploymentFailed {
		return failedError("deployment "+d.ID, d.Summary)
	}
	return nil
}

// summaryDeployment reports the deployment in the step summary.
func (a *app) summaryDeployment(d *mintlify.Deployment, previewURL string) {
	format := "#### Deployment %s\n\n- status: **%s**\n"
	args := []any{d.ID, d.Status}
	if d.Status.Terminal() {
		format += "- summary: %s\n- files: %d added, %d modified, %d removed\n"
		args = append(args, d.Summary, len(d.Commit.Added), len(d.Commit.Modified), len(d.Commit.Removed))
	}
	if previewURL != "" {
		format += "- preview: %s\n"
		args = append(args, mdLink(previewURL))
	}
	a.summaryf(format+"\n", args...)
}

// printDeployment prints the deployment as the API spells it (the SDK's
// own JSON) on one line, with a preview's URL, which the status route does
// not carry, added as previewUrl.
func printDeployment(w io.Writer, d *mintlify.Deployment, previewURL string) error {
	b, err := encodeJSON(d)
	if err == nil && previewURL != "" {
		var u []byte
		u, err = encodeJSON(previewURL)
		b = append(append(append(b[:len(b)-1], `,"previewUrl":`...), u...), '}')
	}
	if err != nil {
		return err
	}
	_, err = w.Write(safeJSON(append(b, '\n')))
	return err
}
