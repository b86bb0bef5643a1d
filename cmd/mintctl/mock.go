package main

import (
	"errors"
	"flag"

	"github.com/spf13/cobra"

	"github.com/docsagent/mintlify-go/internal/mockcmd"
)

func (a *app) mockCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mock [the mock server's flags]",
		Short: "Run the bundled mock server",
		Long: `Run the bundled mock server, a working implementation of the API, until
interrupted. It prints its URL, key and project: export them as
MINTLIFY_BASE_URL, MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID to point mintctl
(or any client) at it; and its assistant and Index keys. Flags are the mock
server's own; 'mintctl mock -h' lists them.

In CI, -env-file PATH appends the settings of all three APIs as NAME=value
lines (for GitHub Actions, to $GITHUB_ENV, so that later steps use the
mock): MINTLIFY_BASE_URL, MINTLIFY_API_KEY, MINTLIFY_PROJECT_ID,
MINTLIFY_ASSISTANT_API_KEY, MINTLIFY_DOMAIN, MINTLIFY_ASSISTANT_BASE_URL,
MINTLIFY_INDEX_API_KEY and MINTLIFY_INDEX_BASE_URL. An -addr beyond
loopback prints a warning: the control API, /_mock/, has no
authentication.`,
		Example: `  mintctl mock -addr 127.0.0.1:8080 -seed 10000 -job-duration 5s
  mintctl mock -outcome failed -quiet
  mintctl mock -quiet -env-file "$GITHUB_ENV" > mock.log 2>&1 &`,
		DisableFlagParsing: true, // the mock server parses its own flags
		RunE: func(cmd *cobra.Command, args []string) error {
			err := mockcmd.Run(cmd.Context(), args, a.rawStdout, a.rawStderr) // its own key, not the environment's
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			if err != nil {
				return &codeError{exitUsage, err}
			}
			return nil
		},
	}
}
