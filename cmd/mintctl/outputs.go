package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/docsagent/mintlify-go/internal/redact"
)

// output is one step output for GitHub Actions.
type output struct{ name, value string }

// writeOutputs appends outputs to the file $GITHUB_OUTPUT names, when it is
// set (GitHub Actions sets it for every step). A value with a line break
// uses the multi-line form, with a random delimiter no value can contain.
//
// Commands call it once they have read the resource, whatever its verdict,
// and never after an error that came before. A file that cannot be
// written (a FIFO nobody reads, a full disk) is a warning, never an exit
// code of its own: the command has done its work (a job may have been
// created, an automation run spent), and a failed step would invite a
// second run.
func (a *app) writeOutputs(outs ...output) {
	path, _ := a.lookupEnv("GITHUB_OUTPUT")
	if path == "" {
		return
	}
	scrub := redact.New(a.redactKeys...)
	var b strings.Builder
	for _, o := range outs {
		o.value = scrub(o.value, false)
		if !strings.ContainsAny(o.value, "\r\n") {
			fmt.Fprintf(&b, "%s=%s\n", o.name, o.value)
			continue
		}
		var buf [12]byte
		_, _ = rand.Read(buf[:])
		delim := "ghadelimiter_" + hex.EncodeToString(buf[:])
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", o.name, delim, o.value, delim)
	}
	if err := a.appendStepFile(path, b.String()); err != nil {
		a.warnf("the step outputs were not written to $GITHUB_OUTPUT: %v", err)
	}
}
