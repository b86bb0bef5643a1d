package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// splits returns ways a streamed answer may cut text into deltas: whole,
// rune by rune, in chunks of 2, 3 and 7 bytes' worth of runes, and every
// cut in two of its first 200 runes.
func splits(text string) [][]string {
	runes := []rune(text)
	chunked := func(n int) []string {
		var out []string
		for i := 0; i < len(runes); i += n {
			out = append(out, string(runes[i:min(i+n, len(runes))]))
		}
		return out
	}
	out := [][]string{{text}, chunked(1), chunked(2), chunked(3), chunked(7)}
	for i := 1; i < min(len(runes), 200); i++ {
		out = append(out, []string{string(runes[:i]), string(runes[i:])})
	}
	return out
}

func streamed(deltas []string) string {
	var b bytes.Buffer
	t := newStreamText(&b)
	for _, d := range deltas {
		t.write(d)
	}
	t.end()
	return b.String()
}

// A streamed answer is shown under printable's rules however its deltas
// cut it: no line the runner reads starts a workflow command or holds
// "##[", no raw control character; and the same text shows the same
// whatever the cuts.
func TestStreamTextUnderEverySplit(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		hostile,
		"::warning::a\n  ::error::b\r\n\u2003::set-output name=x::y\r::add-mask::z",
		"##[warning]a #\n##[ ###[ #x##[ ##\r[ #\u00a0##[",
		"a\r\r\n\r\nb\r",
		":", "#", "##", "[", "\r", "\n",
		"ends without a line break ##",
	} {
		want := streamed([]string{text})
		for _, deltas := range splits(text) {
			got := streamed(deltas)
			if got != want {
				t.Fatalf("%q cut as %q shows %q, whole %q", text, deltas, got, want)
			}
		}
		assert.Empty(t, runnerCommands(want), "%q shows as %q", text, want)
		checkNoControl(t, fmt.Sprintf("%q", text), want)
		assert.True(t, utf8.ValidString(want))
		assert.True(t, strings.HasSuffix(want, "\n"), "%q: the text ends its line", text)
	}
	// A text that needs nothing is shown as it is, line breaks included.
	plain := "Here is what the docs say.\n\n- Install the CLI: `npm i -g mint`\n- Then run `mint dev`.\n\tIndented: fine.\n# A heading\n"
	for _, deltas := range splits(plain) {
		assert.Equal(t, plain, streamed(deltas))
	}
	assert.Equal(t, "a\nb\nc^Md\n", streamed([]string{"a\r", "\nb\n", "c\r", "d"}), `"\r\n" is one line break; a lone "\r" shows`)
	assert.Equal(t, " \\:: x\n##\\[\n", streamed([]string{" :", ": x\n#", "#["}))
	assert.Equal(t, "", streamed(nil), "no text, no line")
}

// hostileAssistant answers the assistant's routes with hostile text: the
// answer's deltas cut it at every awkward place, the sources carry it
// too; mode "error" answers every call with a hostile error, "broken"
// breaks the answer off with a hostile error chunk, "forged" names the
// thread with hostile text.
func hostileAssistant(t *testing.T, mode string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if mode == "error" {
			sendJSON(w, http.StatusInternalServerError, map[string]any{"message": hv("error")})
			return
		}
		switch {
		case strings.HasSuffix(r.URL.Path, "/message"):
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("X-Thread-Id", hostileThread)
			if mode == "forged" {
				w.Header().Set("X-Thread-Id", "::warning::forged-thread ##[x]")
			}
			w.Header().Set("X-Thread-Key", "secret-thread-key-0123")
			frame := func(v any) {
				b, _ := json.Marshal(v)
				fmt.Fprintf(w, "data: %s\n\n", b)
				w.(http.Flusher).Flush()
			}
			for _, n := range []int{1, 2, 3, 5} {
				for _, d := range splits(hv("answer"))[n] {
					frame(map[string]any{"type": "text-delta", "id": "t", "delta": d})
				}
			}
			frame(map[string]any{"type": "source-url", "sourceId": "s", "url": "https://docs.example.com/a", "title": hv("title")})
			frame(map[string]any{"type": "source-url", "sourceId": "s2", "url": hv("url"), "title": hv("title 2")})
			if mode == "broken" {
				frame(map[string]any{"type": "error", "errorText": hv("stream error")})
				return
			}
			frame(map[string]any{"type": "finish", "finishReason": hv("reason"), "threadId": hv("finish thread")})
			fmt.Fprint(w, "data: [DONE]\n\n")
		case strings.Contains(r.URL.Path, "/v1/search/"):
			sendJSON(w, http.StatusOK, []any{
				map[string]any{"path": hv("path"), "content": hv("content"), "metadata": map[string]any{"title": hv("title")}},
				map[string]any{"path": "ok", "content": "plain"},
			})
		case strings.Contains(r.URL.Path, "/v1/page/"):
			var body struct{ Path string }
			_ = json.NewDecoder(r.Body).Decode(&body)
			sendJSON(w, http.StatusOK, map[string]any{"path": body.Path, "content": hv("page")})
		default:
			sendJSON(w, http.StatusNotFound, map[string]any{"message": "no route"})
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Every assistant command as a GitHub Actions step against a hostile
// server: nothing runs that mintctl did not write, no raw control
// character, thread_id the only step output (never the key), none after
// an error before the thread was known; --json decodes to the server's
// text.
func TestAssistantCommandsAsActionsSteps(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		mode   string
		args   []string
		code   int
		thread bool // thread_id is written
	}{
		{"ok", []string{"ask", "How?"}, 0, true},
		{"ok", []string{"ask", "--json", "How?"}, 0, true},
		{"ok", []string{"ask", "--thread-id", "01JD3Z8X6N6Q7V9W2Y4T5R8K0M", "--thread-key", "k", "--", "And then?"}, 0, true},
		{"broken", []string{"ask", "How?"}, 1, true},
		{"broken", []string{"ask", "--json", "How?"}, 1, true},
		{"forged", []string{"ask", "How?"}, 1, false},
		{"forged", []string{"ask", "--json", "How?"}, 1, false},
		{"error", []string{"ask", "How?"}, exitUnknown, false},
		{"ok", []string{"docs", "search", "--limit", "2", "rate limits"}, 0, false},
		{"ok", []string{"docs", "search", "--json", "rate limits"}, 0, false},
		{"ok", []string{"docs", "page", "quickstart"}, 0, false},
		{"ok", []string{"docs", "page", "--json", "quickstart"}, 0, false},
		{"error", []string{"docs", "search", "x"}, 1, false},
		{"error", []string{"docs", "page", "x"}, 1, false},
	} {
		what := fmt.Sprintf("%s: mintctl %q", tt.mode, tt.args)
		dir := t.TempDir()
		outputs := filepath.Join(dir, "output")
		env := map[string]string{
			mintlify.EnvAssistantAPIKey: "mint_dsc_actions0123456789", mintlify.EnvDomain: "docs.example.com",
			mintlify.EnvAssistantBaseURL: hostileAssistant(t, tt.mode),
			"GITHUB_OUTPUT":              outputs, "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		}
		stdout, stderr, code := runStep(t, env, tt.args...)
		assert.Equal(t, tt.code, code, "%s\nstderr: %s", what, stderr.String())
		checkRunnerLog(t, what+" stdout", stdout.String())
		// --json's threadKey is for a later step: mintctl has the runner
		// mask it in the log first, and it shows nowhere else.
		var masks []string
		for _, c := range runnerCommands(stderr.String()) {
			if c.name == "add-mask" {
				masks = append(masks, c.data)
			}
		}
		if tt.args[0] == "ask" && slicesContains(tt.args, "--json") && code == 0 {
			assert.Equal(t, []string{"secret-thread-key-0123"}, masks, "%s: the thread key is masked", what)
		} else {
			assert.Empty(t, masks, what)
			assert.NotContains(t, stdout.String(), "secret-thread-key", "%s: in Actions the thread key is not printed", what)
		}
		checkRunnerLog(t, what+" stderr", strings.ReplaceAll(stderr.String(), "::add-mask::secret-thread-key-0123\n", ""))
		assert.NotContains(t, strings.ReplaceAll(stderr.String(), "::add-mask::secret-thread-key-0123", ""), "secret-thread-key", what)
		written, _ := os.ReadFile(outputs)
		got := map[string][]string{}
		if len(written) > 0 {
			got = parseGitHubOutput(t, string(written))
		}
		if tt.thread {
			assert.Equal(t, map[string][]string{"thread_id": {hostileThread}}, got, what)
		} else {
			assert.Empty(t, got, what)
		}
		assert.NotContains(t, string(written), "secret-thread-key", "%s: never the thread key", what)

		if slicesContains(tt.args, "--json") && code == 0 {
			var v any
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &v), what)
			if tt.args[0] == "ask" {
				assert.Equal(t, strings.Repeat(hv("answer"), 4), v.(map[string]any)["text"], "%s: the server's text, exactly", what)
			}
		}
		if t.Failed() {
			t.Logf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", what, code, stdout.String(), stderr.String())
			return
		}
	}
}

func slicesContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// The assistant's credentials come from the environment only: missing or
// empty, exit 2 before anything is sent.
func TestAssistantCredentials(t *testing.T) {
	t.Parallel()
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{}, []string{"ask", "q"}, "MINTLIFY_ASSISTANT_API_KEY is not set"},
		{map[string]string{mintlify.EnvAssistantAPIKey: " "}, []string{"ask", "q"}, "is set but empty"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789"}, []string{"docs", "search", "q"}, "MINTLIFY_DOMAIN is not set"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: " docs.example.com"}, []string{"docs", "page", "q"}, "white space"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_admin_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"ask", "q"}, "assistant"},
		{map[string]string{mintlify.EnvAPIKey: "mint_admin_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"ask", "q"}, "MINTLIFY_ASSISTANT_API_KEY is not set"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"ask", "--thread-id", "t", "q"}, "go together"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"ask", "--thread-key", "k", "q"}, "go together"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"ask", " "}, "empty question"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"ask", "\xff"}, "UTF-8"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"docs", "search", "--limit", "51", "q"}, "--limit 51"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"docs", "search", "--limit", "-1", "q"}, "--limit -1"},
		{map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: "docs.example.com"}, []string{"ask"}, "QUESTION"},
	} {
		tt.env[mintlify.EnvAssistantBaseURL] = srv.URL
		_, stderr, code := runEnv(t, tt.env, tt.args...)
		assert.Equal(t, exitUsage, code, "%q: %s", tt.args, stderr.String())
		assert.Contains(t, stderr.String(), tt.want, "%q", tt.args)
		assert.NotContains(t, stderr.String(), "k0123456789", "%q: no key in the message", tt.args)
	}
	assert.Zero(t, hits, "nothing was sent")
}

// ask reads the question from stdin with "-".
func TestAskReadsStdin(t *testing.T) {
	t.Parallel()
	var asked string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body struct {
			Messages []struct{ Parts []struct{ Text string } }
		}
		_ = json.Unmarshal(b, &body)
		asked = body.Messages[0].Parts[0].Text
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"Yes.\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{mintlify.EnvAssistantAPIKey: "mint_dsc_k0123456789", mintlify.EnvDomain: "docs.example.com", mintlify.EnvAssistantBaseURL: srv.URL}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"ask", "-"}, strings.NewReader("  Is it\nmultiline?\n"), &stdout, &stderr,
		func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	assert.Equal(t, 0, code, stderr.String())
	assert.Equal(t, "Is it\nmultiline?", asked)
	assert.Equal(t, "Yes.\n", stdout.String(), "no thread: no sources, no hint")
}

// FuzzStreamText: any text, cut into deltas anywhere between runes (a
// delta is a JSON string, so whole runes), shows as it shows whole, and
// no line of it runs as a workflow command or holds a raw control
// character.
func FuzzStreamText(f *testing.F) {
	for _, s := range []string{hostile, "::a", " \u2003::b\r\n##[c", "#\r#[", "\r", "plain text\n"} {
		f.Add(s, uint64(0x9e3779b97f4a7c15))
	}
	f.Fuzz(func(t *testing.T, text string, cuts uint64) {
		text = strings.ToValidUTF8(text, "\ufffd")
		runes := []rune(text)
		var deltas []string
		start := 0
		for i := 1; i < len(runes); i++ {
			if cuts>>(i%64)&1 == 1 {
				deltas = append(deltas, string(runes[start:i]))
				start = i
			}
		}
		deltas = append(deltas, string(runes[start:]))
		got, whole := streamed(deltas), streamed([]string{text})
		if got != whole {
			t.Fatalf("%q cut as %q shows %q, whole %q", text, deltas, got, whole)
		}
		if cmds := runnerCommands(got); len(cmds) > 0 {
			t.Fatalf("%q shows as %q: the runner would run %q", text, got, cmds[0].line)
		}
		checkNoControl(t, "streamed", got)
	})
}

// TestOnlyATokenIsMasked: a thread key the runner is asked to mask is one
// token of at least 16 characters; a short one (a server masking "the" to
// blank the log), or one with spaces or controls, is left out instead.
func TestOnlyATokenIsMasked(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]bool{
		"secret-thread-key-0123":            true,
		"0123456789abcdef0123456789abcdef":  true,
		"the":                               false,
		"deployment":                        false,
		"secret thread key 0123":            false,
		"secret-thread-key\n0123":           false,
		"secret-thread-key\x1b[31m0123":     false,
		"secret-thread-key-0123 ##[error]x": false,
	} {
		assert.Equal(t, want, maskable(key), "%q", key)
	}
}
