// Command mintctl drives the Mintlify admin API from a shell or a CI
// pipeline: agent jobs, the analytics export, deployments, previews and
// the other triggers, static exports, plus the bundled mock server.
//
//	go install github.com/docsagent/mintlify-go/cmd/mintctl@latest
//
// Credentials come only from the environment (MINTLIFY_API_KEY,
// MINTLIFY_PROJECT_ID, MINTLIFY_BASE_URL): a flag would show in process
// lists and CI logs. Results go to stdout, progress and messages to stderr.
//
// Exit codes: 0 success, 1 error, 2 usage or configuration, 3 the awaited
// work failed (job failed, deployment failure, export failed), 4 the job
// was archived, 5 outcome unknown (the job, deployment or run may exist),
// 6 the API refused the key, 7 --timeout ran out while waiting, 130 and
// 143 SIGINT and SIGTERM.
// Under GitHub Actions ($GITHUB_OUTPUT set) commands also write their
// results as step outputs.
package main

import (
	"context"
	"os"
)

func main() { os.Exit(mainExit()) }

// mainExit runs the command line of this process and returns its exit code.
// The tests run it as the "mintctl" program of their scripts.
func mainExit() int {
	ctx, stop := withSignals(context.Background())
	defer stop()
	return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv)
}
