package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	"github.com/docsagent/mintlify-go/internal/redact"
)

// output is one step output for GitHub Actions.
type output struct{ name, value string }

// writeOutputs appends outputs to the file $GITHUB_OUTPUT names, when it is
// set (GitHub Actions sets it for every step). A value with a line break
// uses the multi-line form, with a random delimiter no value can contain.
func (a *app) writeOutputs(outs ...output) error {
	path, _ := a.lookupEnv("GITHUB_OUTPUT")
	if path == "" {
		return nil
	}
	scrub := redact.New(a.redactKey)
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
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("writing step outputs: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return fmt.Errorf("writing step outputs: %w", err)
	}
	return f.Close()
}
