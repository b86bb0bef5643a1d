package main

import "github.com/spf13/cobra"

// extraCommands are the commands of the deployments API.
func (a *app) extraCommands() []*cobra.Command {
	return []*cobra.Command{a.deployCommand(), a.previewCommand(), a.automationCommand(), a.staticExportCommand()}
}

// extraAnalyticsCommands are the analytics commands that are not exports.
func (a *app) extraAnalyticsCommands() []*cobra.Command {
	return []*cobra.Command{a.threadCommand()}
}
