// Package nodetest runs the repository's node tests from Go tests: the
// conformance folder, where the AI SDK's releases and Chromium judge the
// assistant proxy, the mock server and the chat example. It finds node,
// the folder's installed packages and Chromium; a test that lacks one is
// skipped with what is missing and how to install it, or fails when the
// environment says CI=true (CI installs them all, so a skip there would
// hide a test that never ran).
package nodetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/docsagent/mintlify-go/internal/syncbuf"
)

// Folder is the node project's folder, from the repository's root.
const Folder = "conformance"

// Chromium is where Debian's chromium package installs the browser; the
// CHROMIUM environment variable names another.
const Chromium = "/usr/bin/chromium"

// Missing skips t, saying what is missing, or fails it under CI=true.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: a missing tool fails the test)", msg)
	}
	t.Skip(msg)
}

// Setup finds node and the conformance folder with its packages installed
// as package.json pins them, and returns node's path and the folder's
// absolute path. Anything missing is [Missing].
func Setup(t testing.TB) (node, dir string) {
	t.Helper()
	dir, err := folder()
	if err != nil {
		t.Fatal(err)
	}
	node, err = exec.LookPath("node")
	if err != nil {
		Missing(t, "node is not installed: install Node.js 20 or newer (apt-get install nodejs npm), then run npm ci in %s", dir)
	}
	if err := installed(dir); err != nil {
		Missing(t, "%v: run npm ci in %s", err, dir)
	}
	return node, dir
}

// Browser is the Chromium to drive, or [Missing].
func Browser(t testing.TB) string {
	t.Helper()
	path := os.Getenv("CHROMIUM")
	if path == "" {
		path = Chromium
	}
	if _, err := os.Stat(path); err != nil {
		Missing(t, "chromium is not installed at %s: apt-get install -y chromium (or set CHROMIUM to a Chromium binary)", path)
	}
	return path
}

// folder is the conformance folder: found from the working directory (a
// test runs in its package's folder) upwards.
func folder() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, Folder, "package.json")); err == nil {
			return filepath.Join(d, Folder), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no %s/package.json above %s", Folder, wd)
		}
	}
}

// installed reports whether every dependency package.json names is in
// node_modules at the version it pins (an alias "npm:ai@5.0.216" pins
// 5.0.216): a folder installed for an older package.json is not.
func installed(dir string) error {
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return fmt.Errorf("%s/package.json: %w", dir, err)
	}
	for name, pin := range pkg.Dependencies {
		if at := strings.LastIndex(pin, "@"); strings.HasPrefix(pin, "npm:") && at > 0 {
			pin = pin[at+1:]
		}
		var got struct{ Version string }
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
		if err != nil {
			return fmt.Errorf("the node package %s is not installed", name)
		}
		if json.Unmarshal(b, &got) != nil || got.Version != pin {
			return fmt.Errorf("the node package %s is %s, package.json pins %s", name, got.Version, pin)
		}
	}
	return nil
}

// Run runs node with args in dir, with env added to the environment,
// bounded by timeout, and returns what it printed on stdout. A run that
// fails or overruns fails t with node's output (made fit for a log).
func Run(t testing.TB, node, dir string, timeout time.Duration, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second // a child holding the pipes open does not hold the test
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("node did not finish within %s", timeout)
	}
	if err != nil {
		t.Fatalf("node %s: %v\n--- stdout\n%s\n--- stderr\n%s", strings.Join(args, " "), err, Clean(stdout.String()), Clean(stderr.String()))
	}
	return stdout.String()
}

// Clean makes output fit for a test log, as server text that reaches a CI
// log must be: no control characters but newlines and tabs, and no line
// that a CI runner would read as a command ("::" at its start).
func Clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) && r != '\u2028' && r != '\u2029' {
			return r
		}
		return '?'
	}, s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "::") {
			lines[i] = strings.Replace(l, "::", ": :", 1)
		}
	}
	return strings.Join(lines, "\n")
}

// Serve starts a node server, script in dir, that prints the URL it
// listens on as its first line of stdout, and stops it when t ends (see
// [Start]).
func Serve(t testing.TB, node, dir, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command(node, script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	url, _ := Start(t, cmd)
	return url
}

// Start starts cmd, a server that prints the URL it listens on (on
// loopback) as its first line of stdout, and kills it when t ends. It
// returns the URL and the process's ID. The server's stderr is kept, and
// shown if t fails.
func Start(t testing.TB, cmd *exec.Cmd) (url string, pid int) {
	t.Helper()
	name := filepath.Base(cmd.Path)
	if len(cmd.Args) > 1 {
		name = cmd.Args[1]
	}
	cmd.WaitDelay = 5 * time.Second
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() && stderr.String() != "" {
			t.Logf("%s's stderr:\n%s", name, Clean(stderr.String()))
		}
	})
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		first <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case url = <-first:
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Fatalf("%s printed %q, not its URL; stderr:\n%s", name, Clean(url), Clean(stderr.String()))
		}
		return url, cmd.Process.Pid
	case <-time.After(30 * time.Second):
		t.Fatalf("%s printed no URL within 30s; stderr:\n%s", name, Clean(stderr.String()))
	}
	return "", 0
}
