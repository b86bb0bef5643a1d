package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rules of printable, one case each.
func TestPrintableRules(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"job_1":                     "job_1",
		"tab\tkept":                 "tab\tkept",
		"a\nb\r\nc":                 "a^Jb^M^Jc",
		"\x1b[2J\x07\x7f":           "^[[2J^G^?",
		"\u009b31m\u0085":           `\u009b31m\u0085`,
		"\u2028\u202e\ufeff":        `\u2028\u202e\ufeff`,
		"bad \xff byte":             `bad \xff byte`,
		"::warning::x":              `\::warning::x`,
		"  ::warning::x":            `  \::warning::x`,
		"\u00a0\u2003\u3000::x":     "\u00a0\u2003\u3000\\::x",
		":one colon":                `\:one colon`,
		"mid :: line":               "mid :: line",
		"x ##[warning]y":            `x #\#[warning]y`,
		"###[":                      `##\#[`,
		"# heading, #1, [a]":        "# heading, #1, [a]",
		"<b>html</b> & **md**":      "<b>html</b> & **md**",
		"\n::stop-commands::token":  "^J::stop-commands::token",
		"\u0085::warning::after-nl": `\u0085::warning::after-nl`,
	} {
		assert.Equal(t, want, printable(in), "%q", in)
	}
	assert.Equal(t, []string{"one", `\::two`, "\u3000\\::three"}, printableLines("one\r::two\r\n\u3000::three\n"))
}

// textf and infof make every text argument printable, whatever its type,
// and leave mintctl's own format alone.
func TestTextfArguments(t *testing.T) {
	t.Parallel()
	type status string
	var b strings.Builder
	_, err := textf(&b, "::group::%s %s %v %d %s\n", "a\nb", status("::x"), errorString("##[e]"), 7, stringer("\x1b"))
	require.NoError(t, err)
	assert.Equal(t, "::group::a^Jb \\::x #\\#[e] 7 ^[\n", b.String())
}

type errorString string

func (e errorString) Error() string { return string(e) }

type stringer string

func (s stringer) String() string { return string(s) }

// md leaves no HTML and no Markdown structure of the server's in the step
// summary; mdLink is a link only for a plain http(s) URL.
func TestMarkdownEscaping(t *testing.T) {
	t.Parallel()
	assert.Equal(t, `&lt;img src\=x&gt; &amp;amp\; \*\*b\*\* \[l\]\(javascript\:x\) \| \`+"`c\\`", md(`<img src=x> &amp; **b** [l](javascript:x) | `+"`c`"))
	assert.Equal(t, "[https\\:\\/\\/github\\.com\\/o\\/r\\/pull\\/1](https://github.com/o/r/pull/1)", mdLink("https://github.com/o/r/pull/1").String())
	for _, l := range []string{"javascript:alert(1)", "https://x.example/a)(b", "https://x.example/<script>", "https://u:p@x.example/", "//x.example", "https://x.example/\n::x"} {
		s := mdLink(l).String()
		assert.NotContains(t, s, "](", "%q", l)
		assert.NotContains(t, s, "<", "%q", l)
	}
	assert.Equal(t, "none", mdLink("").String())
}

func TestWorkflowCommandEscaping(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "::error title=mintctl%3A deploy%2C now 100%25::50%25 a%0Ab%0Dc", workflowCommand("error", "mintctl: deploy, now 100%", "50% a\nb\rc"))
	assert.Equal(t, "::group::Logs", workflowCommand("group", "", "Logs"))
}

func TestCheckBranch(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"main", "docs/new-search", "feature/JIRA-12_x", "v1.2.3", "a.b/c.d", "ünïcödé", "a@b", "x.lockfile"} {
		assert.NoError(t, checkBranch(ok), ok)
	}
	for _, bad := range []string{"", " ", "a b", "a..b", "a~1", "a^", "a:b", "a?", "a*", "a[1]", `a\b`, "a\x00b", "a\tb", "a\x7fb",
		"a@{1}", "@", "-x", "x.lock", "a/x.lock/b", "x/", "/x", "x.", ".x", "a/.b", "a//b", "HEAD", "\xff", strings.Repeat("a", 256)} {
		assert.Error(t, checkBranch(bad), "%q", bad)
	}
	assert.NoError(t, checkBranch(strings.Repeat("a", 255)))
}

// A prompt that is not valid UTF-8 is refused before anything is sent: JSON
// would turn its bad bytes into U+FFFD, another prompt than the one given.
func TestPromptMustBeUTF8(t *testing.T) {
	t.Parallel()
	srv := echoServer(t)
	_, stderr, code := runAgainst(t, srv.URL, "job", "create", "caf\xe9")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "not valid UTF-8")
}

// CSV may go to stdout in Actions when stdout is a file (a redirect), which
// the runner does not read for commands.
func TestCSVToARegularFileStdoutInActions(t *testing.T) {
	t.Parallel()
	srv := viewsServer(t)
	f, err := os.Create(filepath.Join(t.TempDir(), "views.csv"))
	require.NoError(t, err)
	defer f.Close()
	env := map[string]string{"MINTLIFY_API_KEY": "mint_formulas0123456789", "MINTLIFY_PROJECT_ID": "p1", "MINTLIFY_BASE_URL": srv.URL, "GITHUB_ACTIONS": "true"}
	var stderr strings.Builder
	code := run(t.Context(), []string{"analytics", "views"}, strings.NewReader(""), f, &stderr, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	require.Equal(t, 0, code, stderr.String())
	data, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.Contains(t, string(data), "path,human,ai,total\n")
	assert.True(t, isRegularFile(f))
	assert.False(t, isRegularFile(&stderr))
}

// JSON made safe stays safe indented too (a later --json may indent): each
// line inside starts with white space and a quote or a bracket, and holds
// no "##[".
func TestSafeJSONIndented(t *testing.T) {
	t.Parallel()
	v := map[string]any{"id": hostile, "logs": []string{hostile, "::x::y"}, hostile: map[string]string{"k": hostile}}
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	safe := string(safeJSON(b))
	assert.Empty(t, runnerCommands(safe), "%s", safe)
	checkNoControl(t, "indented JSON", safe)
	var back map[string]any
	require.NoError(t, json.Unmarshal([]byte(safe), &back))
	assert.Equal(t, hostile, back["id"])
}
