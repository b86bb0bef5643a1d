// Command mockserver runs the mock Mintlify API as a standalone server, for
// tests written in any language and for trying the API by hand.
//
//	go run ./mockserver/cmd/mockserver -seed 100000
//
// It prints the URL, API key and project ID to use, logs one line per
// request (the key redacted) and stops cleanly on SIGINT or SIGTERM. The
// control API under /_mock/ drives it from tests; see docs/mock.md.
// The flags are those of internal/mockcmd, which `mintctl mock` runs too.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/docsagent/mintlify-go/internal/mockcmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := mockcmd.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockserver:", err)
		os.Exit(2)
	}
}
