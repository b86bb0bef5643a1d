package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/docsagent/mintlify-go/internal/nodetest"
)

// cliGuide is the guide to the command line and CI, from this directory.
const cliGuide = "../../docs/cli.md"

// docSection returns a document's text from the heading to the next
// heading of level 2.
func docSection(t *testing.T, doc, heading string) string {
	t.Helper()
	data, err := os.ReadFile(doc)
	require.NoError(t, err)
	s := string(data)
	i := strings.Index(s, "\n"+heading+"\n")
	require.GreaterOrEqual(t, i, 0, "%s has %q", doc, heading)
	s = s[i+len(heading)+2:]
	if j := strings.Index(s, "\n## "); j >= 0 {
		s = s[:j]
	}
	return s
}

// stepOutputs are the GitHub Actions outputs each command writes, by its
// first word: public names that workflows read, never renamed.
var stepOutputs = map[string][]string{
	"job":           {"job_id", "status", "pr_link"},
	"deploy":        {"status_id", "status"},
	"preview":       {"status_id", "status", "preview_url"},
	"automation":    {"run_id"},
	"static-export": {"export_id", "status", "bundle_file"},
	"ask":           {"thread_id"},
}

// mintctlArgs parses a mintctl command line of a documented example as the
// shell would, roughly: quoted words are one argument.
func mintctlArgs(line string) []string {
	var args []string
	for _, m := range regexp.MustCompile(`"[^"]*"|'[^']*'|\S+`).FindAllString(line, -1) {
		args = append(args, strings.Trim(m, `"'`))
	}
	return args
}

// checkCommandLine fails unless args (after "mintctl") name a real command
// whose flags and arguments parse.
func checkCommandLine(t *testing.T, args []string) *cobra.Command {
	t.Helper()
	a := &app{lookupEnv: func(string) (string, bool) { return "", false }}
	cmd, rest, err := a.rootCommand().Find(args)
	require.NoError(t, err, "%v", args)
	require.NoError(t, cmd.ParseFlags(rest), "%v", args)
	require.NoError(t, cmd.ValidateArgs(cmd.Flags().Args()), "%v", args)
	if cmd.PreRunE != nil {
		require.NoError(t, cmd.PreRunE(cmd, cmd.Flags().Args()), "%v", args)
	}
	return cmd
}

type workflow struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		Outputs map[string]string `yaml:"outputs"`
		Steps   []struct {
			ID   string            `yaml:"id"`
			If   string            `yaml:"if"`
			Env  map[string]string `yaml:"env"`
			Run  string            `yaml:"run"`
			Uses string            `yaml:"uses"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestDocCIWorkflows: the CLI guide's "In CI" workflows are valid YAML,
// install mintctl with go install, pass the key from a secret in the
// step's environment, put no expression straight into a script, run
// mintctl commands that parse, and read only step outputs mintctl writes.
func TestDocCIWorkflows(t *testing.T) {
	t.Parallel()
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(docSection(t, cliGuide, "## In CI"), -1)
	blocks = slices.DeleteFunc(blocks, func(b []string) bool { return strings.Contains(b[1], actionUses) }) // TestDocAction's
	require.Len(t, blocks, 3, "create a job, deploy on push, preview per pull request")
	var commands []string
	triggers := map[string]string{}
	for _, b := range blocks {
		var wf workflow
		require.NoError(t, yaml.Unmarshal([]byte(b[1]), &wf), "%s", b[1])
		require.NotEmpty(t, wf.Jobs)
		for _, job := range wf.Jobs {
			installs := false
			writes := map[string][]string{} // step ID → its outputs
			for _, step := range job.Steps {
				assert.NotContains(t, step.Run, "${{", "an expression in a script runs as shell: pass it in env")
				if step.Run == "go install github.com/docsagent/mintlify-go/cmd/mintctl@latest" {
					installs = true
				}
				for line := range strings.Lines(step.Run) {
					i := strings.Index(line, "mintctl ")
					if i < 0 || strings.Contains(line, "go install") {
						continue
					}
					require.True(t, installs, "mintctl installed before it runs")
					assert.Equal(t, "${{ secrets.MINTLIFY_API_KEY }}", step.Env["MINTLIFY_API_KEY"], "the key from a secret, in env")
					args := mintctlArgs(line[i+len("mintctl "):])
					cmd := checkCommandLine(t, args)
					commands = append(commands, strings.TrimSpace(line[i:]))
					for on := range wf.On {
						triggers[strings.Join(args[:1], "")+" "+on] = line
					}
					noun := strings.Fields(cmd.CommandPath())[1]
					writes[step.ID] = stepOutputs[noun]
					if cmd.Flags().Lookup("wait") != nil {
						assert.True(t, slices.Contains(args, "--wait"), "%s: a CI step waits for the verdict", line)
					}
				}
			}
			refs := regexp.MustCompile(`steps\.([\w-]+)\.outputs\.(\w+)`).FindAllStringSubmatch(b[1], -1)
			for _, r := range refs {
				assert.Contains(t, writes[r[1]], r[2], "step %s writes output %s", r[1], r[2])
			}
		}
	}
	t.Log(commands)
	assert.Contains(t, triggers, "job release", "a job created on a release")
	assert.Contains(t, triggers, "deploy push", "a deployment on push")
	assert.Contains(t, triggers, "preview pull_request", "a preview per pull request")
	assert.Contains(t, blocks[2][1], "preview_url }}", "the preview's URL exposed as an output")
}

// TestDocCommandTable: the CLI guide's table of commands is the real grammar,
// command for command.
func TestDocCommandTable(t *testing.T) {
	t.Parallel()
	section := docSection(t, cliGuide, "## Command line: mintctl")
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(mintctl [^`]*)`").FindAllStringSubmatch(section, -1) {
		rows = append(rows, strings.ReplaceAll(m[1], `\|`, "|"))
	}
	a := &app{lookupEnv: func(string) (string, bool) { return "", false }}
	var want []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch {
		case c.Name() == "analytics":
			want = append(want, c.Parent().CommandPath()+" "+c.Use)
		case c.Parent() != nil && c.Parent().Name() == "analytics" && c.Name() != "thread":
			return // the routes: ROUTE in the analytics row
		case c.HasParent() && (!c.HasSubCommands() || c.Name() == "deploy" || c.Name() == "static-export"): // job and automation only group
			want = append(want, c.Parent().CommandPath()+" "+c.Use)
		}
		for _, sub := range c.Commands() {
			if sub.Name() != "help" && sub.Name() != "completion" {
				walk(sub)
			}
		}
	}
	walk(a.rootCommand())
	assert.ElementsMatch(t, want, rows)
}

// TestHelpAndDocExamplesParse: every example in every command's help, in
// the README and in the guides under docs/ is a command line that parses
// (flags, arguments and the --timeout rule).
func TestHelpAndDocExamplesParse(t *testing.T) {
	t.Parallel()
	a := &app{lookupEnv: func(string) (string, bool) { return "", false }}
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		for line := range strings.Lines(c.Example) {
			i := strings.Index(line, "mintctl ")
			if i < 0 || strings.Contains(line, "go install") {
				continue
			}
			line = line[i+len("mintctl "):]
			if j := strings.IndexAny(line, "|>#&"); j >= 0 {
				line = line[:j] // a pipe, a redirection, a comment
			}
			if strings.HasPrefix(line, "mock ") {
				continue // the mock server's own flags
			}
			checkCommandLine(t, mintctlArgs(line))
			n++
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(a.rootCommand())
	assert.Greater(t, n, 20)

	// And the shell examples of the README and the guides.
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	require.Contains(t, docs, cliGuide)
	for _, doc := range append(docs, "../../README.md") {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		checkDocExamples(t, string(data))
	}
}

// checkDocExamples checks each mintctl command line in the code blocks of
// a Markdown document (a mock's own flags aside).
func checkDocExamples(t *testing.T, doc string) {
	t.Helper()
	inCode := false
	for line := range strings.Lines(doc) {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
			continue
		}
		i := strings.Index(line, "mintctl ")
		if !inCode || i < 0 || strings.Contains(line, "go install") || strings.Contains(line, "mintctl mock") ||
			strings.Contains(line[:i], "#") { // a comment that names mintctl
			continue
		}
		args := line[i+len("mintctl "):]
		if j := strings.IndexAny(args, "|>#&)"); j >= 0 {
			args = args[:j]
		}
		t.Log(strings.TrimSpace(args))
		checkCommandLine(t, mintctlArgs(args))
	}
}

// TestDocMockRecipe runs the CLI guide's recipe that starts the mock in a
// workflow, with this test binary as mintctl and a free port for its
// address: the variables of all three APIs reach $GITHUB_ENV, and the
// commands of each API work with them alone. A mock that cannot start
// (its address taken) fails the recipe within its bound, with the mock's
// log, instead of hanging it (the bound shortened from 30 s to 2 s here).
func TestDocMockRecipe(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the recipe is for a Linux or macOS runner's shell")
	}
	var missing []string
	for _, tool := range []string{"bash", "timeout", "grep"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		nodetest.Missing(t, "the recipe needs %v, missing here", missing)
	}
	var recipe string
	for _, b := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(docSection(t, cliGuide, "## In CI"), -1) {
		if strings.Contains(b[1], `-env-file "$GITHUB_ENV"`) {
			recipe = b[1]
		}
	}
	require.NotEmpty(t, recipe, "the In CI section has the recipe")
	require.Contains(t, recipe, "127.0.0.1:8080")
	require.Contains(t, recipe, "timeout 30 ")

	run := func(t *testing.T, addr, script string) (string, error) {
		dir := t.TempDir()
		env := filepath.Join(dir, "github_env")
		script = "trap 'kill $(jobs -p) 2> /dev/null' EXIT\n" + strings.ReplaceAll(script, "127.0.0.1:8080", addr)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "-eo", "pipefail", "-c", script)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GITHUB_ENV=" + env,
			"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")}
		cmd.WaitDelay = 5 * time.Second
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	free, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := free.Addr().String()
	require.NoError(t, free.Close())
	out, err := run(t, addr, recipe+`
set -a; . "$GITHUB_ENV"; set +a
for name in MINTLIFY_BASE_URL MINTLIFY_API_KEY MINTLIFY_PROJECT_ID MINTLIFY_ASSISTANT_API_KEY MINTLIFY_DOMAIN \
  MINTLIFY_ASSISTANT_BASE_URL MINTLIFY_INDEX_API_KEY MINTLIFY_INDEX_BASE_URL; do
  [ -n "$(printenv "$name")" ] || { echo "no $name"; exit 1; }
done
mintctl job create 'From the recipe'
mintctl docs search deployments
mintctl index search caching
`)
	require.NoError(t, err, "%s", out)
	assert.Contains(t, out, "job job_")

	// The address taken: the mock cannot start, and the recipe ends.
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	start := time.Now()
	out, err = run(t, taken.Addr().String(), strings.Replace(recipe, "timeout 30 ", "timeout 2 ", 1))
	require.Error(t, err, "%s", out)
	assert.Less(t, time.Since(start), 20*time.Second, "bounded")
	assert.Contains(t, out, "address already in use", "the mock's log is shown")
}
