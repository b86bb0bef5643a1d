package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

func (a *app) threadCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "thread [--json] ID",
		Short: "Print one assistant conversation",
		Long: `Print the whole assistant conversation a turn belongs to: ID is the id of a
row of 'mintctl analytics conversations' (a ULID).`,
		Example: `  mintctl analytics thread 01JD3Z8X6N6Q7V9W2Y4T5R8K0M
  mintctl analytics thread --json 01JD3Z8X6N6Q7V9W2Y4T5R8K0M | jq -r '.messages[].content'`,
		Args: exactArgs("ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			t, err := c.GetThread(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(a.stdout, t)
			}
			fmt.Fprintf(a.stdout, "thread %s, %s\n", printable(t.ID), stamp(t.CreatedAt))
			for _, m := range t.Messages {
				fmt.Fprintf(a.stdout, "\n%s, %s:\n", printable(m.Role), stamp(m.CreatedAt))
				printLines(a.stdout, "  ", m.Content)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the thread as one JSON object with the API's field names")
	return cmd
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "time unknown"
	}
	return t.UTC().Format(time.RFC3339)
}
