package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

// noServer names the commands that talk to no server: they take no
// --timeout.
var noServer = map[string]bool{"mock": true, "version": true, "help": true, "completion": true}

// addTimeouts gives every command under root that talks to a server and
// has no --timeout of its own (those that wait bound the wait with theirs)
// a --timeout bounding the whole command: a server that answers slowly, or
// holds a stream open with keep-alive comments, cannot hold a CI step past
// it. Groups of commands (analytics, index...) run none themselves.
func addTimeouts(root *cobra.Command) {
	for _, c := range root.Commands() {
		switch {
		case noServer[c.Name()]:
		case c.HasSubCommands():
			addTimeouts(c)
		case c.Flags().Lookup("timeout") == nil && c.RunE != nil:
			addTimeout(c)
		}
	}
}

// addTimeout adds --timeout to c, which bounds its RunE.
func addTimeout(c *cobra.Command) {
	var timeout time.Duration
	c.Flags().DurationVar(&timeout, "timeout", 0, "give up after this long, e.g. 2m (0: no limit)")
	run := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error {
		switch {
		case timeout < 0:
			return usageErrorf("--timeout %s is negative", timeout)
		case timeout == 0:
			return run(cmd, args)
		}
		parent := cmd.Context()
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		cmd.SetContext(ctx)
		err := run(cmd, args)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
			return fmt.Errorf("gave up after --timeout %s: %w", timeout, err)
		}
		return err
	}
}
