package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"

	mintlify "github.com/docsagent/mintlify-go"
)

// Every command that talks to a server takes --timeout: those that wait
// have their own, the others the one addTimeouts gives them.
func TestEveryServerCommandTakesATimeout(t *testing.T) {
	t.Parallel()
	a := &app{}
	var check func(c *cobra.Command)
	check = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if noServer[sub.Name()] {
				continue
			}
			if !sub.HasSubCommands() {
				assert.NotNil(t, sub.Flags().Lookup("timeout"), "mintctl %s has no --timeout", sub.CommandPath())
			}
			check(sub)
		}
	}
	check(a.rootCommand())
}

// neverEnding answers every request with a success that never ends: an
// event stream of keep-alive comments, or a JSON body of white space, a
// few bytes every 20 ms (so no stall timer fires) until the client goes.
func neverEnding(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		keepAlive := " "
		if strings.HasSuffix(r.URL.Path, "/message") {
			w.Header().Set("Content-Type", "text/event-stream")
			keepAlive = ": keep-alive\n"
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		status := http.StatusOK
		if strings.HasSuffix(r.URL.Path, "/trigger") {
			status = http.StatusAccepted // an automation's documented success
		}
		w.WriteHeader(status)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if _, err := io.WriteString(w, keepAlive); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A server that keeps a command's answer open for ever holds it no longer
// than its --timeout: the command stops, says why, and exits 7 (or 5 when
// a call that creates something may have been acted on).
func TestTimeoutEndsAnAnswerThatNeverEnds(t *testing.T) {
	t.Parallel()
	url := neverEnding(t)
	env := map[string]string{
		mintlify.EnvAPIKey: "mint_timeout0123456789", mintlify.EnvProjectID: "p1", mintlify.EnvBaseURL: url,
		mintlify.EnvAssistantAPIKey: "mint_dsc_timeout0123456789", mintlify.EnvDomain: "docs.example.com", mintlify.EnvAssistantBaseURL: url,
		mintlify.EnvIndexAPIKey: "mint_us_timeout0123456789", mintlify.EnvIndexBaseURL: url,
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"ask", "How?"}, exitTimeout},
		{[]string{"ask", "--json", "How?"}, exitTimeout},
		{[]string{"docs", "search", "rate limits"}, exitTimeout},
		{[]string{"docs", "page", "quickstart"}, exitTimeout},
		{[]string{"index", "search", "caching"}, exitTimeout},
		{[]string{"index", "context", "caching"}, exitTimeout},
		{[]string{"index", "contents", "site:/a"}, exitTimeout},
		{[]string{"static-export", "download", "--output", "-", "se_7ugr6fbcqjmykd4kid5f3zpeai"}, exitTimeout},
		{[]string{"analytics", "views", "--from", "2025-01-01", "--to", "2025-01-02"}, exitTimeout},
		{[]string{"analytics", "thread", hostileThread}, exitTimeout},
		{[]string{"job", "get", "job_1"}, exitTimeout},
		{[]string{"automation", "run", "auto_1"}, exitUnknown},
	} {
		t.Run(strings.Join(tc.args[:2], " "), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, stderr, code := runEnv(t, env, append(tc.args, "--timeout", "300ms")...)
			took := time.Since(start)
			assert.Equal(t, tc.code, code, stderr.String())
			assert.Contains(t, stderr.String(), "gave up after --timeout 300ms")
			assert.Less(t, took, 20*time.Second, "held past its --timeout")
		})
	}
}
