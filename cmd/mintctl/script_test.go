package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/cobra"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// The scripts run mintctl as a separate program: this test binary, which
// testscript puts on $PATH under that name.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"mintctl": func() { os.Exit(mainExit()) }})
}

type mockKey struct{}

// scriptMock is the mock server a script started with the mockserver
// command, in this (the test) process.
type scriptMock struct {
	srv *mockserver.Server
	// mark is the journal's length when the script last ran mark:
	// requests counts what came after.
	mark int
}

func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root": // file modes do not stop root
				return os.Geteuid() == 0, nil
			case "fifo": // mkfifo and /dev/full, as on Linux
				_, err := os.Stat("/dev/full")
				_, lerr := exec.LookPath("mkfifo")
				return err == nil && lerr == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			env.Values[mockKey{}] = &scriptMock{}
			// The scripts' CI: no terminal, no GitHub outputs unless set.
			env.Setenv("GITHUB_OUTPUT", "")
			// Under -race, every mintctl that exits 0 would sleep a second
			// for late race reports (the default atexit_sleep_ms): with some
			// 200 runs that would be most of the package's time. Reports still
			// come from every goroutine that ran before the exit.
			env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mockserver": cmdMockserver,
			"requests":   cmdRequests,
			"mockjob":    cmdMockjob,
			"exitcode":   cmdExitcode,
			"resume":     cmdResume,
			"noansi":     cmdNoANSI,
			"jsonobj":    cmdJSONObj,
			"helpall":    cmdHelpAll,
			"fault": func(ts *testscript.TestScript, neg bool, args []string) {
				for _, spec := range args {
					rule, err := mockserver.ParseFault(spec)
					ts.Check(err)
					scriptServer(ts).InjectFault(rule)
				}
			},
			"lines":      cmdLines,
			"setjson":    cmdSetJSON,
			"nofaults":   func(ts *testscript.TestScript, neg bool, args []string) { scriptServer(ts).ClearFaults() },
			"automation": cmdAutomation,
			"mockdeploy": cmdMockDeploy,
			"sleep": func(ts *testscript.TestScript, neg bool, args []string) {
				d, err := time.ParseDuration(args[0])
				ts.Check(err)
				time.Sleep(d)
			},
			"mark":      cmdMark,
			"interrupt": cmdInterrupt,
			"envfile":   cmdEnvFile,
			"perm":      cmdPerm,
			"bounded":   cmdBounded,
		},
	})
}

func scriptServer(ts *testscript.TestScript) *mockserver.Server {
	m := ts.Value(mockKey{}).(*scriptMock)
	if m.srv == nil {
		ts.Fatalf("no mock server: run mockserver first")
	}
	return m.srv
}

// mockserver [-job-duration D] [-outcome O] [-seed N] [-previews=false] [-static-export=false]
// [-fault RULE]... [-fault-seed N] [-no-key] [-no-rate-limits]
// [-no-index-key] [-index-limit N/D] [-index-daily-limit N/D] [-no-index-access]
// starts a mock server for the script and points MINTLIFY_* at it.
// -job-duration times every run: jobs, deployments, previews and static
// exports. -no-key leaves MINTLIFY_API_KEY unset. MINTLIFY_INDEX_API_KEY
// and MINTLIFY_INDEX_BASE_URL are set too (-no-index-key does not set
// the key, as -no-key), and MOCK_INDEX_KEY; the -index flags set the
// Index's limits and access. So are the assistant's
// MINTLIFY_ASSISTANT_API_KEY, MINTLIFY_DOMAIN and
// MINTLIFY_ASSISTANT_BASE_URL, and ASSISTANT_KEY.
func cmdMockserver(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! mockserver")
	}
	fs := flag.NewFlagSet("mockserver", flag.ContinueOnError)
	duration := fs.Duration("job-duration", 200*time.Millisecond, "")
	outcome := fs.String("outcome", "", "")
	seed := fs.Int("seed", 0, "")
	previews := fs.Bool("previews", true, "")
	staticExport := fs.Bool("static-export", true, "")
	faultSeed := fs.Uint64("fault-seed", 1, "")
	noKey := fs.Bool("no-key", false, "")
	noLimits := fs.Bool("no-rate-limits", false, "")
	noIndexKey := fs.Bool("no-index-key", false, "")
	noIndexAccess := fs.Bool("no-index-access", false, "")
	var indexOpts []mockserver.Option
	indexLimit := func(with func(int, time.Duration) mockserver.Option) func(string) error {
		return func(v string) error {
			count, window, _ := strings.Cut(v, "/")
			n, err := strconv.Atoi(count)
			if err != nil {
				return err
			}
			per, err := time.ParseDuration(window)
			indexOpts = append(indexOpts, with(n, per))
			return err
		}
	}
	fs.Func("index-limit", "", indexLimit(mockserver.WithIndexRateLimit))
	fs.Func("index-daily-limit", "", indexLimit(mockserver.WithIndexDailyRateLimit))
	var faults []mockserver.FaultRule
	fs.Func("fault", "", func(s string) error {
		r, err := mockserver.ParseFault(s)
		faults = append(faults, r)
		return err
	})
	ts.Check(fs.Parse(args))
	opts := []mockserver.Option{
		mockserver.WithJobDuration(*duration),
		mockserver.WithSeed(*seed),
		mockserver.WithPreviews(*previews),
		mockserver.WithStaticExport(*staticExport),
		mockserver.WithFaults(faults...),
		mockserver.WithFaultSeed(*faultSeed),
	}
	if *outcome != "" {
		opts = append(opts, mockserver.WithOutcome(mockserver.Outcome(*outcome)))
	}
	if *noLimits {
		opts = append(opts, mockserver.WithoutRateLimits())
	}
	opts = append(opts, indexOpts...)
	if *noIndexAccess {
		opts = append(opts, mockserver.WithoutIndexAccess())
	}
	srv := mockserver.New(opts...)
	ts.Defer(srv.Close)
	*ts.Value(mockKey{}).(*scriptMock) = scriptMock{srv: srv}
	ts.Setenv(mintlify.EnvBaseURL, srv.URL())
	ts.Setenv(mintlify.EnvProjectID, srv.ProjectID())
	if !*noKey {
		ts.Setenv(mintlify.EnvAPIKey, srv.APIKey())
	}
	ts.Setenv("MOCK_KEY", srv.APIKey())
	ts.Setenv(mintlify.EnvIndexBaseURL, srv.URL()+"/api/universal-search")
	if !*noIndexKey {
		ts.Setenv(mintlify.EnvIndexAPIKey, srv.IndexKey())
	}
	ts.Setenv("MOCK_INDEX_KEY", srv.IndexKey())
	// The assistant API of the same mock (ask, docs).
	ts.Setenv(mintlify.EnvAssistantAPIKey, srv.AssistantKey())
	ts.Setenv(mintlify.EnvDomain, srv.Domain())
	ts.Setenv(mintlify.EnvAssistantBaseURL, srv.URL()+"/discovery")
	ts.Setenv("ASSISTANT_KEY", srv.AssistantKey())
}

// envfile FILE waits (10s at most) until FILE, written by a background
// 'mintctl mock -env-file FILE', holds its NAME=value lines, and sets
// each in the script's environment.
func cmdEnvFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: envfile FILE")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		if err == nil && strings.Contains(string(data), mintlify.EnvProjectID+"=") {
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				if k, v, ok := strings.Cut(line, "="); ok {
					ts.Setenv(k, v)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s was not written within 10s", args[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// requests [ROUTE] N checks that the mock served N API requests (of
// ROUTE), whatever their answers, since it started or since mark.
func cmdRequests(ts *testscript.TestScript, neg bool, args []string) {
	route := ""
	if len(args) == 2 {
		route, args = args[0], args[1:]
	}
	if len(args) != 1 {
		ts.Fatalf("usage: requests [ROUTE] N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	for _, e := range scriptServer(ts).Journal()[ts.Value(mockKey{}).(*scriptMock).mark:] {
		if route == "" || e.Route == route {
			got++
		}
	}
	if (got == want) == neg {
		ts.Fatalf("the mock served %d requests (route %q), want %s%d", got, route, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

// mockjob archive|finish|fail|id: acts on the job the script created last;
// "id" sets $JOB to its ID.
func cmdMockjob(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: mockjob archive|finish|fail|id")
	}
	srv := scriptServer(ts)
	jobs := srv.Jobs()
	if len(jobs) == 0 {
		ts.Fatalf("the mock has no job")
	}
	last := jobs[0]
	for _, j := range jobs {
		if j.CreatedAt.After(last.CreatedAt) {
			last = j
		}
	}
	switch args[0] {
	case "id":
		ts.Setenv("JOB", last.ID)
	case "archive":
		ts.Check(srv.ArchiveJob(last.ID))
	case "finish":
		ts.Check(srv.FinishJob(last.ID))
	case "fail":
		ts.Check(srv.SetOutcome(last.ID, mockserver.OutcomeFailed))
	default:
		ts.Fatalf("unknown mockjob action %q", args[0])
	}
}

// exitcode N PROGRAM ARGS... runs the program and checks its exit code;
// stdout and stderr are then checked as after exec.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// resume FILE runs the resume command that mintctl printed into FILE (a
// saved stderr), through the shell, as a user would paste it.
func cmdResume(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: resume FILE")
	}
	data := ts.ReadFile(args[0])
	sc := bufio.NewScanner(strings.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "mintctl analytics ") {
			line, _, _ = strings.Cut(line, " >> FILE")
			err := ts.Exec("sh", "-c", line)
			if (err != nil) != neg {
				ts.Fatalf("%s: %v", line, err)
			}
			return
		}
	}
	ts.Fatalf("no resume command in %s", args[0])
}

// noansi FILE checks that FILE (or stdout/stderr) holds no terminal
// control sequence and no carriage return.
func cmdNoANSI(ts *testscript.TestScript, neg bool, args []string) {
	for _, name := range args {
		data := []byte(ts.ReadFile(name))
		if i := bytes.IndexAny(data, "\x1b\r"); (i >= 0) != neg {
			ts.Fatalf("%s: control character at byte %d", name, i)
		}
	}
}

// cmdHelpAll runs `mintctl COMMAND --help` for every command of mintctl's
// cobra tree, present and future (cobra's own completion commands aside):
// each exits 0 with its usage, each group names its commands, and each
// leaf shows its examples; a command that hands its flags to another
// program (mock) has examples in its cobra help at least.
func cmdHelpAll(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: helpall")
	}
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() == "completion" {
			return
		}
		n++
		path := c.CommandPath()
		ts.Check(ts.Exec("mintctl", append(strings.Fields(path)[1:], "--help")...))
		out := ts.ReadFile("stdout") + ts.ReadFile("stderr")
		switch {
		case !strings.Contains(out, "Usage"):
			ts.Fatalf("%s --help shows no usage", path)
		case c.DisableFlagParsing:
			if c.Example == "" {
				ts.Fatalf("%s has no examples", path)
			}
		case !c.HasSubCommands() && !strings.Contains(out, "Examples:"):
			ts.Fatalf("%s --help shows no examples", path)
		}
		for _, sub := range c.Commands() {
			if !strings.Contains(out, sub.Name()) {
				ts.Fatalf("%s --help does not name %s", path, sub.Name())
			}
			walk(sub)
		}
	}
	walk((&app{lookupEnv: func(string) (string, bool) { return "", false }}).rootCommand())
	if n < 30 {
		ts.Fatalf("only %d commands in the tree", n)
	}
}

// jsonobj FILE [KEY=REGEXP]... checks that FILE holds exactly one JSON
// object and that each KEY (a dotted path) is there with a value whose
// text (null for null) matches REGEXP.
func cmdJSONObj(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: jsonobj FILE [KEY=REGEXP]...")
	}
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(args[0])))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		ts.Fatalf("%s: not a JSON object: %v", args[0], err)
	}
	if dec.More() {
		ts.Fatalf("%s: more than one JSON value", args[0])
	}
	for _, kv := range args[1:] {
		key, pattern, _ := strings.Cut(kv, "=")
		var v any = obj
		for _, part := range strings.Split(key, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				ts.Fatalf("%s: %s: not an object above %q", args[0], key, part)
			}
			if v, ok = m[part]; !ok {
				ts.Fatalf("%s: no field %s", args[0], key)
			}
		}
		text := fmt.Sprint(v)
		if v == nil {
			text = "null"
		}
		if ok := regexp.MustCompile(pattern).MatchString(text); ok == neg {
			ts.Fatalf("%s: %s is %q, want it to match %q", args[0], key, text, pattern)
		}
	}
}

// lines FILE N checks that FILE has N lines (! lines: any other number).
func cmdLines(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: lines FILE N")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	got := strings.Count(ts.ReadFile(args[0]), "\n")
	if (got == want) == neg {
		ts.Fatalf("%s has %d lines", args[0], got)
	}
}

// automation TRIGGER active|inactive adds an automation to the mock's
// project and sets $AUTOMATION to its ID.
func cmdAutomation(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: automation TRIGGER active|inactive")
	}
	srv := scriptServer(ts)
	a, err := srv.AddAutomation(srv.ProjectID(), mockserver.AutomationTrigger(args[0]), args[1] == "active")
	ts.Check(err)
	ts.Setenv("AUTOMATION", a.ID)
}

// mockdeploy id sets $STATUS to the status ID of the mock's latest
// deployment or preview.
func cmdMockDeploy(ts *testscript.TestScript, neg bool, args []string) {
	deps := scriptServer(ts).Deployments()
	if len(args) != 1 || args[0] != "id" || len(deps) == 0 {
		ts.Fatalf("usage: mockdeploy id (after a deployment)")
	}
	last := deps[0]
	for _, d := range deps {
		if !d.CreatedAt.Before(last.CreatedAt) {
			last = d
		}
	}
	ts.Setenv("STATUS", last.ID)
}

// setjson FILE KEY VAR sets $VAR to the string field KEY of the first JSON
// object in FILE (a line of JSON Lines, say).
func cmdSetJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: setjson FILE KEY VAR")
	}
	var obj map[string]any
	ts.Check(json.NewDecoder(strings.NewReader(ts.ReadFile(args[0]))).Decode(&obj))
	v, ok := obj[args[1]].(string)
	if !ok {
		ts.Fatalf("%s: no string field %s", args[0], args[1])
	}
	ts.Setenv(args[2], v)
}

// mark makes requests count only the requests that come after it.
func cmdMark(ts *testscript.TestScript, neg bool, args []string) {
	ts.Value(mockKey{}).(*scriptMock).mark = len(scriptServer(ts).Journal())
}

// perm FILE MODE checks FILE's permission bits: MODE in octal, or
// =OTHER for the bits of the file OTHER (one a shell redirect made, say).
func cmdPerm(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: perm FILE MODE|=OTHER")
	}
	mode := func(name string) os.FileMode {
		fi, err := os.Stat(ts.MkAbs(name))
		ts.Check(err)
		return fi.Mode().Perm()
	}
	var want os.FileMode
	if other, ok := strings.CutPrefix(args[1], "="); ok {
		want = mode(other)
	} else {
		m, err := strconv.ParseUint(args[1], 8, 32)
		ts.Check(err)
		want = os.FileMode(m)
	}
	if got := mode(args[0]); (got == want) == neg {
		ts.Fatalf("%s has mode %#o, want %#o", args[0], got, want)
	}
}

// bounded D N mintctl ARGS... runs mintctl as its own process and checks
// that it exits with code N within D, however its files behave (a FIFO
// with no reader, a full disk): it is killed at D, and the script fails.
// Its stdout and stderr go to the files bounded.stdout and bounded.stderr.
func cmdBounded(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: bounded D N PROGRAM [ARGS...]")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[2], args[3:]...)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "GORACE", mintlify.EnvAPIKey, mintlify.EnvProjectID, mintlify.EnvBaseURL,
		"GITHUB_ACTIONS", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	ts.Check(os.WriteFile(ts.MkAbs("bounded.stdout"), stdout.Bytes(), 0o666))
	ts.Check(os.WriteFile(ts.MkAbs("bounded.stderr"), stderr.Bytes(), 0o666))
	if ctx.Err() != nil {
		ts.Fatalf("%s did not end within %s\nstderr: %s", strings.Join(args[2:], " "), d, stderr.String())
	}
	got := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	ts.Logf("exit %d after %s\nstderr: %s", got, time.Since(start).Round(time.Millisecond), stderr.String())
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// interrupt INT|TERM PATTERN N PROGRAM [ARGS...] runs PROGRAM as its own
// process, waits (10s at most) until a line of its stderr matches
// PATTERN (or, for after:DURATION, that long), sends it SIGINT or SIGTERM, and checks that it exits with code
// N within 10s. Its stdout and stderr are then in signal.stdout and
// signal.stderr. The environment is the script's MINTLIFY_*, GITHUB_*,
// PATH, HOME and GORACE.
func cmdInterrupt(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 4 {
		ts.Fatalf("usage: interrupt INT|TERM PATTERN N PROGRAM [ARGS...]")
	}
	sig, ok := map[string]os.Signal{"INT": os.Interrupt, "TERM": syscall.SIGTERM}[args[0]]
	if !ok {
		ts.Fatalf("unknown signal %q", args[0])
	}
	var pattern *regexp.Regexp
	after, timed := strings.CutPrefix(args[1], "after:")
	var wait time.Duration
	var err error
	if timed {
		wait, err = time.ParseDuration(after)
	} else {
		pattern, err = regexp.Compile(args[1])
	}
	ts.Check(err)
	want, err := strconv.Atoi(args[2])
	ts.Check(err)
	var path string
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, args[3])); err == nil && !fi.IsDir() {
			path = filepath.Join(dir, args[3])
			break
		}
	}
	if path == "" {
		ts.Fatalf("%s is not on PATH", args[3])
	}
	cmd := exec.Command(path, args[4:]...)
	cmd.Dir = ts.MkAbs(".")
	for _, name := range []string{"PATH", "HOME", "GORACE", "GITHUB_ACTIONS", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY",
		mintlify.EnvAPIKey, mintlify.EnvProjectID, mintlify.EnvBaseURL} {
		if v := ts.Getenv(name); v != "" {
			cmd.Env = append(cmd.Env, name+"="+v)
		}
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderrPipe, err := cmd.StderrPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	matched := make(chan struct{})
	var stderr bytes.Buffer
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stderrPipe)
		once := false
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
			if !once && pattern != nil && pattern.MatchString(sc.Text()) {
				once = true
				close(matched)
			}
		}
	}()
	var waited <-chan time.Time // nil: never
	if timed {
		matched, waited = nil, time.After(wait)
	}
	select {
	case <-matched:
	case <-waited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-copied
		_ = cmd.Wait()
		ts.Fatalf("no stderr line matched %q within 10s; stderr:\n%s", args[1], stderr.String())
	}
	ts.Check(cmd.Process.Signal(sig))
	done := make(chan error, 1)
	go func() { <-copied; done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		ts.Fatalf("%s did not end within 10s of SIG%s; stderr:\n%s", args[3], args[0], stderr.String())
	}
	got := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	ts.Check(os.WriteFile(ts.MkAbs("signal.stdout"), stdout.Bytes(), 0o644))
	ts.Check(os.WriteFile(ts.MkAbs("signal.stderr"), stderr.Bytes(), 0o644))
	ts.Logf("[stderr]\n%s", stderr.String())
	if got != want {
		ts.Fatalf("exit code %d after SIG%s, want %d", got, args[0], want)
	}
}
