package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/docsagent/mintlify-go/mockserver"
)

// The GitHub Action (action.yml at the repository root) run as the runner
// runs a composite action's steps: each `run:` step after the install, as a
// bash script with the step's `env:` and the runner's variables, against an
// in-process mock. mintctl is this test binary, which TestMain puts on PATH
// under that name, in place of the install step's build.

type actionMeta struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
}

func readAction(t *testing.T) actionMeta {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	require.NoError(t, err)
	var meta actionMeta
	require.NoError(t, yaml.Unmarshal(data, &meta))
	return meta
}

var (
	inputExpr  = regexp.MustCompile(`^\$\{\{ inputs\.([\w-]+) \}\}$`)
	outputExpr = regexp.MustCompile(`^\$\{\{ steps\.([\w-]+)\.outputs\.(\w+) \}\}$`)
	pinnedUses = regexp.MustCompile(`^[\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$`)
)

// TestActionDefinition: inputs reach the scripts only through env, the
// outputs are the step outputs mintctl writes, the action it uses is
// pinned to a commit, and mintctl is installed by install.sh: from the
// release, else built with Go stable set up just for that.
func TestActionDefinition(t *testing.T) {
	t.Parallel()
	meta := readAction(t)
	raw, err := os.ReadFile("../../action.yml")
	require.NoError(t, err)
	assert.Equal(t, "composite", meta.Runs.Using)

	used := map[string]bool{}
	install := -1
	for i, step := range meta.Runs.Steps {
		assert.NotContains(t, step.Run, "${{", "step %q: an expression in a script runs as shell; pass it in env", step.Name)
		if step.Uses != "" {
			line := regexp.MustCompile(`(?m)uses: (` + regexp.QuoteMeta(step.Uses) + `.*)$`).FindStringSubmatch(string(raw))
			require.NotNil(t, line)
			assert.Regexp(t, pinnedUses, line[1], "a third-party action pinned to a full commit SHA, its version in a comment")
			continue
		}
		assert.Equal(t, "bash", step.Shell, "step %q", step.Name)
		if install >= 0 {
			assert.Empty(t, step.If, "step %q: the emulation below runs every step after the install", step.Name)
		}
		if step.ID == "install" {
			install = i
		}
		for name, v := range step.Env {
			if m := inputExpr.FindStringSubmatch(v); m != nil {
				_, ok := meta.Inputs[m[1]]
				assert.True(t, ok, "env %s names input %q, which action.yml does not declare", name, m[1])
				used[m[1]] = true
			}
		}
	}
	require.GreaterOrEqual(t, install, 2, "a step with id install builds mintctl, after the release and Go steps")
	for name := range meta.Inputs {
		assert.True(t, used[name], "input %q reaches no step", name)
	}
	const script = `bash "$GITHUB_ACTION_PATH/.github/action/install.sh" `
	release, setupGo, build := meta.Runs.Steps[0], meta.Runs.Steps[install-1], meta.Runs.Steps[install]
	assert.Equal(t, script+"release", release.Run, "first, the release")
	assert.Equal(t, "${{ github.action_ref }}", release.Env["MINTCTL_ACTION_REF"])
	assert.Equal(t, "${{ github.action_repository }}", release.Env["MINTCTL_ACTION_REPOSITORY"])
	assert.Regexp(t, `^actions/setup-go@`, setupGo.Uses)
	assert.Equal(t, "stable", setupGo.With["go-version"], "the current stable Go, never go.mod's minimum")
	assert.Equal(t, "true", setupGo.With["check-latest"], "not an older Go the runner has cached")
	assert.Equal(t, script+"build", build.Run)
	assert.Equal(t, "${{ steps."+setupGo.ID+".outputs.go-version }}", build.Env["MINTCTL_GO_VERSION"], "the build checks it uses that Go")
	for _, step := range []actionStep{setupGo, build} {
		assert.Equal(t, "steps."+release.ID+".outputs.installed != 'true'", step.If, "%s only without a release", step.Name)
	}
	_, err = os.Stat("../../.github/action/install.sh")
	require.NoError(t, err)

	want := map[string]bool{"exit_code": true}
	for _, names := range stepOutputs {
		for _, n := range names {
			want[n] = true
		}
	}
	got := map[string]bool{}
	for name, o := range meta.Outputs {
		got[name] = true
		m := outputExpr.FindStringSubmatch(o.Value)
		if assert.NotNil(t, m, "output %s: %q", name, o.Value) {
			assert.Equal(t, []string{"run", name}, m[1:], "output %s is the run step's output of the same name", name)
		}
	}
	assert.Equal(t, want, got, "the action's outputs: mintctl's step outputs and exit_code")
}

// actionRun is one run of the action's steps.
type actionRun struct {
	code    int               // the last step's exit code
	outputs map[string]string // the action's outputs
	log     string            // what the steps printed, stdout and stderr
	dir     string            // the workspace, the steps' working folder
}

// runAction runs the action's steps after the install with inputs (the
// `with:` of a workflow step) and jobEnv (the job's environment, such as
// variables a mock wrote to $GITHUB_ENV).
func runAction(t *testing.T, inputs, jobEnv map[string]string) actionRun {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the steps are bash scripts; on Windows, bash may be a WSL bash outside this file system")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash:", err)
	}
	_, err = exec.LookPath("mintctl")
	require.NoError(t, err, "TestMain puts this test binary on PATH as mintctl")
	meta := readAction(t)
	for name := range inputs {
		_, ok := meta.Inputs[name]
		require.True(t, ok, "action.yml has no input %q", name)
	}
	actionPath, err := filepath.Abs("../..")
	require.NoError(t, err)
	tmp := t.TempDir()
	ws := filepath.Join(tmp, "workspace")
	runnerTemp := filepath.Join(tmp, "runner-temp")
	require.NoError(t, os.Mkdir(ws, 0o755))
	require.NoError(t, os.Mkdir(runnerTemp, 0o755))
	summary := filepath.Join(tmp, "step-summary.md")

	run := actionRun{outputs: map[string]string{}, dir: ws}
	outs := map[string]map[string]string{} // step ID → its outputs
	var log bytes.Buffer
	started := false
	for i, step := range meta.Runs.Steps {
		if step.ID == "install" {
			started = true
			continue
		}
		if !started || step.Run == "" {
			continue
		}
		outFile := filepath.Join(tmp, fmt.Sprintf("output-%d", i)) // a fresh file per step, as the runner gives
		script := filepath.Join(tmp, "step.sh")
		require.NoError(t, os.WriteFile(script, []byte(step.Run), 0o644))

		env := []string{
			"PATH=" + os.Getenv("PATH"), // mintctl in it, where TestMain put it
			"HOME=" + tmp,
			"GITHUB_ACTIONS=true",
			"CI=true",
			"GITHUB_OUTPUT=" + outFile,
			"GITHUB_STEP_SUMMARY=" + summary,
			"GITHUB_ACTION_PATH=" + actionPath,
			"GITHUB_WORKSPACE=" + ws,
			"RUNNER_TEMP=" + runnerTemp,
			// Under -race every mintctl that exits 0 would sleep a second.
			"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"),
		}
		for k, v := range jobEnv {
			env = append(env, k+"="+v)
		}
		for k, v := range step.Env {
			if m := inputExpr.FindStringSubmatch(v); m != nil {
				decl := meta.Inputs[m[1]]
				v = decl.Default
				if given, ok := inputs[m[1]]; ok {
					v = given
				}
			} else {
				require.NotContains(t, v, "${{", "env %s: only ${{ inputs.NAME }} is emulated", k)
			}
			env = append(env, k+"="+v) // the step's env wins over the job's, as in the runner
		}

		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		// The runner's own command line for `shell: bash`.
		cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir, cmd.Env = ws, env
		cmd.Stdout, cmd.Stderr = &log, &log
		cmd.WaitDelay = 5 * time.Second
		err := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		require.False(t, timedOut, "step %q ran out of time; it printed:\n%s", step.Name, log.String())
		run.code = 0
		if ee := (*exec.ExitError)(nil); err != nil {
			require.ErrorAs(t, err, &ee)
			run.code = ee.ExitCode()
		}
		outs[step.ID] = readStepOutputs(t, outFile)
		if run.code != 0 {
			break // the runner skips the rest
		}
	}
	for name, o := range meta.Outputs {
		if m := outputExpr.FindStringSubmatch(o.Value); m != nil {
			if v, ok := outs[m[1]][m[2]]; ok {
				run.outputs[name] = v
			}
		}
	}
	run.log = log.String()
	return run
}

// readStepOutputs reads a step's GITHUB_OUTPUT file as the runner does:
// where a name was written twice, the last value wins.
func readStepOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) || len(data) == 0 {
		return out
	}
	require.NoError(t, err)
	for name, values := range parseGitHubOutput(t, string(data)) {
		out[name] = values[len(values)-1]
	}
	return out
}

func newActionMock(t *testing.T, opts ...mockserver.Option) (*mockserver.Server, map[string]string) {
	t.Helper()
	srv := mockserver.New(append([]mockserver.Option{
		mockserver.WithJobDuration(200 * time.Millisecond),
		mockserver.WithStaticExport(true),
	}, opts...)...)
	t.Cleanup(srv.Close)
	creds := map[string]string{"api-key": srv.APIKey(), "project-id": srv.ProjectID(), "base-url": srv.URL()}
	return srv, creds
}

func with(creds map[string]string, inputs map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range creds {
		out[k] = v
	}
	for k, v := range inputs {
		out[k] = v
	}
	return out
}

func routeCount(srv *mockserver.Server, route string) int {
	n := 0
	for _, e := range srv.Journal() {
		if route == "" || e.Route == route {
			n++
		}
	}
	return n
}

// TestActionPromptArrivesVerbatim: a prompt with quotes, $(...), backticks,
// a variable, newlines and a leading --help reaches the API as written,
// runs nothing, and the step outputs come out of the action.
func TestActionPromptArrivesVerbatim(t *testing.T) {
	t.Parallel()
	for _, prompt := range []string{
		"Document \"quotes\" and 'apostrophes'; $(touch pwned) `touch pwned` ${HOME} $GITHUB_OUTPUT\nsecond line\n\nthird; touch pwned",
		"--help explains every flag",
	} {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			srv, creds := newActionMock(t)
			run := runAction(t, with(creds, map[string]string{
				"command": "job create",
				"wait":    "true",
				"timeout": "30s",
				"args":    "--poll-interval 50ms",
				"prompt":  prompt,
			}), nil)
			for _, dir := range []string{run.dir, "../.."} {
				assert.NoFileExists(t, filepath.Join(dir, "pwned"), "a command in the prompt ran")
			}
			require.Equal(t, 0, run.code, run.log)
			jobs := srv.Jobs()
			require.Len(t, jobs, 1, run.log)
			assert.Equal(t, prompt, jobs[0].Prompt, "the prompt as written")
			assert.Equal(t, 1, routeCount(srv, "create-job"))
			assert.Equal(t, jobs[0].ID, run.outputs["job_id"])
			assert.Equal(t, "completed", run.outputs["status"])
			assert.Regexp(t, `^https://github\.com/\S+/pull/\d+$`, run.outputs["pr_link"])
			assert.Equal(t, "0", run.outputs["exit_code"])
			assert.NotContains(t, run.log, srv.APIKey())
		})
	}
}

// TestActionCommands: each command the action is meant for, with its
// step outputs mapped to the action's outputs.
func TestActionCommands(t *testing.T) {
	t.Parallel()
	srv, creds := newActionMock(t)
	automation, err := srv.AddAutomation(srv.ProjectID(), mockserver.AutomationTrigger("custom_schedule"), true)
	require.NoError(t, err)

	run := runAction(t, with(creds, map[string]string{"command": "deploy", "wait": "true", "args": "--poll-interval 50ms"}), nil)
	require.Equal(t, 0, run.code, run.log)
	assert.NotEmpty(t, run.outputs["status_id"])
	assert.Equal(t, "success", run.outputs["status"])

	again := runAction(t, with(creds, map[string]string{"command": "deploy status", "id": run.outputs["status_id"]}), nil)
	require.Equal(t, 0, again.code, again.log)
	assert.Equal(t, run.outputs["status_id"], again.outputs["status_id"])

	// A valid git branch name that is also shell (a pull request's head_ref
	// is chosen by whoever opened it).
	const branch = "docs/new-$(touch${IFS}pwned)`touch${IFS}pwned`"
	run = runAction(t, with(creds, map[string]string{"command": "preview", "branch": branch, "wait": "true", "args": "--poll-interval 50ms"}), nil)
	require.Equal(t, 0, run.code, run.log)
	assert.Equal(t, "success", run.outputs["status"])
	assert.NotEmpty(t, run.outputs["preview_url"])
	assert.NoFileExists(t, filepath.Join(run.dir, "pwned"))
	deps := srv.Deployments()
	assert.Equal(t, branch, deps[len(deps)-1].Branch)

	run = runAction(t, with(creds, map[string]string{"command": "automation run", "id": automation.ID}), nil)
	require.Equal(t, 0, run.code, run.log)
	assert.NotEmpty(t, run.outputs["run_id"])
	assert.NotContains(t, run.outputs, "job_id", "no job that 'job wait' cannot follow")

	run = runAction(t, with(creds, map[string]string{"command": "static-export", "args": "--output site.tar.gz --poll-interval 50ms docs.example.com"}), nil)
	require.Equal(t, 0, run.code, run.log)
	assert.NotEmpty(t, run.outputs["export_id"])
	assert.Equal(t, "completed", run.outputs["status"])
	assert.Equal(t, "site.tar.gz", run.outputs["bundle_file"])
	assert.FileExists(t, filepath.Join(run.dir, "site.tar.gz"), "relative to the workspace")

	run = runAction(t, map[string]string{"command": "version"}, nil)
	require.Equal(t, 0, run.code, run.log)
	assert.Contains(t, run.log, "platform:")
	assert.NotContains(t, run.log, srv.APIKey())
}

// TestActionCredentialsFromTheJob: with no credential inputs, the job's
// MINTLIFY_* (say, from a mock's env file in $GITHUB_ENV) are used; an
// input wins over them.
func TestActionCredentialsFromTheJob(t *testing.T) {
	t.Parallel()
	srv, _ := newActionMock(t)
	jobEnv := map[string]string{
		"MINTLIFY_API_KEY":    srv.APIKey(),
		"MINTLIFY_PROJECT_ID": srv.ProjectID(),
		"MINTLIFY_BASE_URL":   srv.URL(),
	}
	run := runAction(t, map[string]string{"command": "job create", "prompt": "From the job's env"}, jobEnv)
	require.Equal(t, 0, run.code, run.log)
	assert.Equal(t, "active", run.outputs["status"])

	run = runAction(t, map[string]string{"command": "job create", "prompt": "A wrong key", "api-key": "mint_wrong"}, jobEnv)
	assert.Equal(t, exitKeyRefused, run.code, run.log)
	assert.Equal(t, "6", run.outputs["exit_code"])
	assert.Regexp(t, `(?m)^::error title=mintctl job create::.*HTTP 401.* Next: the key in MINTLIFY_API_KEY was refused`, run.log)
	assert.Len(t, srv.Jobs(), 1, "the wrong key created nothing")
}

// TestActionVerdicts: a failed job fails the step with mintctl's exit
// code, and the outputs still say what was read.
func TestActionVerdicts(t *testing.T) {
	t.Parallel()
	srv, creds := newActionMock(t, mockserver.WithOutcome(mockserver.OutcomeFailed))
	run := runAction(t, with(creds, map[string]string{"command": "job create", "prompt": "Fails", "wait": "true", "args": "--poll-interval 50ms"}), nil)
	assert.Equal(t, 3, run.code, run.log)
	assert.Equal(t, "3", run.outputs["exit_code"])
	assert.Equal(t, "failed", run.outputs["status"])
	assert.Equal(t, srv.Jobs()[0].ID, run.outputs["job_id"])
}

// TestActionRefusesBadInputs: inputs the action cannot pass on safely end
// the step with 2 before anything is sent.
func TestActionRefusesBadInputs(t *testing.T) {
	t.Parallel()
	srv, creds := newActionMock(t)
	for _, inputs := range []map[string]string{
		{"command": "job create; touch pwned", "prompt": "x"},
		{"command": "job create --wait", "prompt": "x"},
		{"command": "$(touch pwned)"},
		{"command": "job\ncreate", "prompt": "x"},
		{"command": ""},
		{"command": "job create", "prompt": "x", "wait": "yes"},
		{"command": "job create", "wait": "true", "timeout": "soon", "prompt": "x"},
		{"command": "job create"},
	} {
		run := runAction(t, with(creds, inputs), nil)
		assert.Equal(t, 2, run.code, "%q: %s", inputs, run.log)
		assert.Equal(t, "2", run.outputs["exit_code"], "%q", inputs)
		assert.NoFileExists(t, filepath.Join(run.dir, "pwned"))
		assert.NotContains(t, run.log, "pwned", "the command input is not echoed")
		assert.Equal(t, 1, strings.Count(run.log, "::error title=mintctl"), "one annotation: %s", run.log)
	}
	assert.Equal(t, 0, routeCount(srv, ""), "nothing sent")
}

// actionUses starts a documented step that uses this repository's action.
const actionUses = "uses: docsagent/mintlify-go@"

// TestDocAction: the CLI guide's action examples use only the action's
// inputs, run mintctl commands that parse, take the key from a secret, and
// read only outputs the action has; its tables of inputs and outputs are
// the action's.
func TestDocAction(t *testing.T) {
	t.Parallel()
	meta := readAction(t)
	section := docSection(t, cliGuide, "## In CI")
	examples := 0
	for _, b := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(section, -1) {
		if !strings.Contains(b[1], actionUses) {
			continue
		}
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					ID   string            `yaml:"id"`
					Uses string            `yaml:"uses"`
					With map[string]string `yaml:"with"`
					Run  string            `yaml:"run"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		require.NoError(t, yaml.Unmarshal([]byte(b[1]), &wf), "%s", b[1])
		actionSteps := map[string]bool{}
		for _, job := range wf.Jobs {
			for _, step := range job.Steps {
				assert.NotContains(t, step.Run, "${{", "an expression in a script runs as shell: pass it in env")
				if !strings.HasPrefix("uses: "+step.Uses, actionUses) {
					continue
				}
				examples++
				actionSteps[step.ID] = true
				for name := range step.With {
					_, ok := meta.Inputs[name]
					assert.True(t, ok, "docs/cli.md: input %q is not in action.yml", name)
				}
				assert.Equal(t, "${{ secrets.MINTLIFY_API_KEY }}", step.With["api-key"], "the key from a secret")
				// The command line the action builds, placeholders for the values.
				args := strings.Fields(step.With["command"])
				if step.With["wait"] == "true" {
					args = append(args, "--wait")
				}
				if v := step.With["timeout"]; v != "" {
					args = append(args, "--timeout="+v)
				}
				args = append(args, strings.Fields(step.With["args"])...)
				args = append(args, "--")
				for _, in := range []string{"id", "branch", "prompt"} {
					if step.With[in] != "" {
						args = append(args, "value-of-"+in)
					}
				}
				checkCommandLine(t, args)
			}
		}
		for _, r := range regexp.MustCompile(`steps\.([\w-]+)\.outputs\.(\w+)`).FindAllStringSubmatch(b[1], -1) {
			if actionSteps[r[1]] {
				_, ok := meta.Outputs[r[2]]
				assert.True(t, ok, "docs/cli.md: output %q is not in action.yml", r[2])
			}
		}
	}
	assert.GreaterOrEqual(t, examples, 2, "a job with a prompt, a preview per pull request")

	tableNames := func(header string) []string {
		i := strings.Index(section, "\n"+header+"\n")
		require.GreaterOrEqual(t, i, 0, "docs/cli.md has a table headed %q", header)
		var names []string
		for _, m := range regexp.MustCompile("(?m)^\\| `([\\w-]+)` \\|").FindAllStringSubmatch(strings.SplitN(section[i+1:], "\n\n", 2)[0], -1) {
			names = append(names, m[1])
		}
		return names
	}
	var inputs, outputs []string
	for name := range meta.Inputs {
		inputs = append(inputs, name)
	}
	for name := range meta.Outputs {
		outputs = append(outputs, name)
	}
	assert.ElementsMatch(t, inputs, tableNames("| input | what it does |"))
	assert.ElementsMatch(t, outputs, tableNames("| output | set by |"))
}

// TestActionAssistantAndIndexKeys: the assistant and Index keys and
// addresses reach mintctl from their inputs, or from the job's
// environment (a mock's -env-file), and a key in an input is never
// printed.
func TestActionAssistantAndIndexKeys(t *testing.T) {
	t.Parallel()
	srv, _ := newActionMock(t)
	inputs := map[string]string{
		"assistant-api-key": srv.AssistantKey(), "domain": srv.Domain(), "assistant-base-url": srv.URL() + "/discovery",
		"index-api-key": srv.IndexKey(), "index-base-url": srv.URL() + "/api/universal-search",
	}
	run := runAction(t, with(inputs, map[string]string{"command": "docs search", "prompt": "deployments"}), nil)
	require.Equal(t, 0, run.code, run.log)
	assert.Contains(t, run.log, "deployments")
	run = runAction(t, with(inputs, map[string]string{"command": "index search", "prompt": "caching"}), nil)
	require.Equal(t, 0, run.code, run.log)
	assert.Equal(t, 1, routeCount(srv, "index-search"))
	run = runAction(t, with(inputs, map[string]string{"command": "ask", "prompt": "How do I deploy?"}), nil)
	require.Equal(t, 0, run.code, run.log)
	assert.NotEmpty(t, run.outputs["thread_id"])
	for _, key := range []string{srv.AssistantKey(), srv.IndexKey()} {
		assert.NotContains(t, run.log, key)
	}

	// The job's environment, as a mock's -env-file leaves it.
	jobEnv := map[string]string{
		"MINTLIFY_INDEX_API_KEY": srv.IndexKey(), "MINTLIFY_INDEX_BASE_URL": srv.URL() + "/api/universal-search",
	}
	run = runAction(t, map[string]string{"command": "index search", "prompt": "caching"}, jobEnv)
	require.Equal(t, 0, run.code, run.log)
	assert.Equal(t, 2, routeCount(srv, "index-search"))
	// An input wins over the job's: a wrong key is refused, exit 6.
	run = runAction(t, map[string]string{"command": "index search", "prompt": "caching", "index-api-key": "mint_us_wrong0123456789"}, jobEnv)
	assert.Equal(t, exitKeyRefused, run.code, run.log)
	assert.Contains(t, run.log, "the key in MINTLIFY_INDEX_API_KEY was refused")
}
