package mintlify_test

// What a hostile server, a proxy or a careless transport can answer, on
// every method of the table: answers that are well-formed HTTP but not the
// documented object, answers that never end, proxies that echo the key,
// hand-made responses, redirects.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/syncbuf"
)

// TestEveryMethodRefusesAnAnswerThatIsNotTheDocumentedObject: {} / null /
// other JSON / an error object / not JSON / a required field missing, null
// or of the wrong type / an answer about another resource / a status that
// is no status (a job's too: not a token of lower-case letters, digits, _
// and -, 1 to 64 bytes) / an identifier with white space or a control
// character (an ID holding "\n::warning::" would start a workflow command
// where it is printed) / an undocumented 2xx status is
// ErrMalformedResponse on every method, with no result, and
// ErrOutcomeUnknown too for every call that may have created something,
// which is never sent twice. The project's schema agrees that the bodies
// are not the documented object.
func TestEveryMethodRefusesAnAnswerThatIsNotTheDocumentedObject(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		type answer struct {
			status    int
			body      string
			badSchema bool // the schema refuses the body too
		}
		answers := map[string]answer{
			"not JSON":      {m.status, `<html>ok</html>`, true},
			"trailing junk": {m.status, m.good + ` {}`, false},
			"cut short":     {m.status, m.good[:len(m.good)/2], true},
		}
		if m.stream {
			answers = map[string]answer{} // a broken stream is ErrStream: stream_test.go
		}
		if !m.do && !m.stream {
			for name, body := range map[string]string{"{}": `{}`, "null": `null`, "[]": `[]`, "a string": `"ok"`, "a number": `7`,
				"an error object": `{"error":"oops"}`} {
				if !(m.bareArray && name == "[]") {
					answers[name] = answer{m.status, body, true}
				}
			}
			for _, k := range m.required {
				answers[k+" missing"] = answer{m.status, withKey(t, m.good, k, ""), true}
				if !slices.Contains(m.nullable, k) {
					answers[k+" null"] = answer{m.status, withKey(t, m.good, k, "null"), true}
				}
				wrong := `"x"` // a string where a number, boolean, object or array belongs
				if v := rawKey(t, m.good, k); v[0] == '"' || v == "null" {
					wrong = `7`
				}
				answers[k+" of the wrong type"] = answer{m.status, withKey(t, m.good, k, wrong), true}
			}
			if m.idKey != "" {
				answers["about another resource"] = answer{m.status, withKey(t, m.good, m.idKey, `"someone_else"`), false}
			}
			if hasKey(t, m.good, "status") {
				// A job's too: a poll must never wait on a state
				// that will not end, nor print one that is no state.
				for _, status := range hostileStatuses {
					answers["status "+status] = answer{m.status, withKey(t, m.good, "status", status), false}
				}
			}
			// An identifier no API issues: one printed in a CI
			// log could start a workflow command.
			for _, k := range idKeys {
				if !hasKey(t, m.good, k) {
					continue
				}
				for what, id := range hostileIDs {
					j, _ := json.Marshal(id)
					answers[k+" with "+what] = answer{m.status, withKey(t, m.good, k, string(j)), false}
				}
			}
			for _, s := range []int{200, 201, 202, 203, 204, 206} {
				if s != m.status && s != m.also {
					answers[fmt.Sprintf("HTTP %d", s)] = answer{s, m.good, false}
				}
			}
		}
		for name, a := range answers {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				if m.schema != "" && a.badSchema {
					require.Error(t, validateAnswer(t, m.schema, a.body), "the schema accepts it: not a malformed answer")
				}
				c, mt := answering(t, respond(a.status, a.body), mintlify.WithMaxRetries(1))
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a poller that polls on fails
				defer cancel()
				got, err := m.call(ctx, c)
				require.ErrorIs(t, err, mintlify.ErrMalformedResponse, "%s answered %d %s: got %v", m.name, a.status, a.body, got)
				assertNoResult(t, got)
				if m.creates {
					assert.ErrorIs(t, err, mintlify.ErrOutcomeUnknown, "the server may have acted")
					assert.Equal(t, 1, mt.GetTotalCallCount(), "never sent twice")
				} else {
					assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
				}
				if name == "about another resource" {
					assert.Contains(t, err.Error(), "someone_else", "the error names the stranger")
				}
				if m.secret != "" {
					assert.NotContains(t, err.Error(), m.secret)
				}
				readsOnce(t, err, 0)
			})
		}
	}
}

// idKeys are the answers' identifiers, which hold no white space and no
// control character.
var idKeys = []string{"id", "_id", "statusId", "schemaId", "instanceId", "jobId"}

// hostileIDs are identifiers no API issues.
var hostileIDs = map[string]string{
	"a line feed":        "job_1\n::warning::forged",
	"a carriage return":  "job_1\r::warning::forged",
	"a space":            "job 1",
	"a no-break space":   "job_1\u00a0::warning::forged",
	"an ideographic one": "\u3000job_1",
	"a C1 control":       "job_1\u0085",
	"ESC":                "job_1\x1b[2J",
	"DEL":                "job_1\x7f",
}

// hasKey reports whether the JSON object good has top-level key k.
func hasKey(t testing.TB, good, k string) bool {
	t.Helper()
	if strings.HasPrefix(good, "[") {
		return false // a bare array (SearchDocs) has no keys
	}
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(good), &obj))
	_, ok := obj[k]
	return ok
}

// TestEveryMethodRefusesHostileNestedValues: inside rows and nested
// objects too, a required value missing, null or of the wrong type, a
// fraction where a count belongs, a time that is not one where the schema
// promises a date-time, or a link the SDK could not use is a malformed
// answer, on the one-page call and on its walks and polls. The project's
// schema refuses each (but the marked ones).
func TestEveryMethodRefusesHostileNestedValues(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		for _, mutation := range m.nested {
			schemaAllows := strings.HasPrefix(mutation, "~")
			path, raw, _ := strings.Cut(strings.TrimPrefix(mutation, "~"), "=")
			t.Run(m.name+"/"+mutation, func(t *testing.T) {
				t.Parallel()
				body := setPath(t, m.good, path, raw)
				if m.schema != "" {
					if err := validateAnswer(t, m.schema, body); schemaAllows {
						require.NoError(t, err, "marked as allowed by the schema")
					} else {
						require.Error(t, err, "the schema accepts it: not a malformed answer")
					}
				}
				c, _ := answering(t, respond(m.status, body), mintlify.WithMaxRetries(0))
				got, err := m.call(context.Background(), c)
				require.ErrorIs(t, err, mintlify.ErrMalformedResponse, "%s: %s gave %+v", m.name, body, got)
				assertNoResult(t, got)
				assert.Equal(t, m.creates, errors.Is(err, mintlify.ErrOutcomeUnknown), "unknown outcome for a call that may have created something, only")
				if m.secret != "" {
					assert.NotContains(t, err.Error(), m.secret, "the link's signature never shows in an error")
				}
			})
		}
	}
}

// TestEveryMethodSurvivesAHandMadeResponse: a RoundTripper of the
// caller's (WithHTTPClient) that answers without a body, without headers,
// with status 0 or 1000, or without the request never makes a method
// panic; every one is an error.
func TestEveryMethodSurvivesAHandMadeResponse(t *testing.T) {
	t.Parallel()
	odd := map[string]func(r *http.Request) *http.Response{
		"no body":     func(r *http.Request) *http.Response { return &http.Response{StatusCode: 200, Request: r} },
		"no body 404": func(r *http.Request) *http.Response { return &http.Response{StatusCode: 404, Request: r} },
		"status 0": func(r *http.Request) *http.Response {
			return &http.Response{StatusCode: 0, Body: http.NoBody, Request: r}
		},
		"status 1000": func(r *http.Request) *http.Response {
			return &http.Response{StatusCode: 1000, Body: http.NoBody, Request: r}
		},
		"no request": func(*http.Request) *http.Response {
			return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"0"}}, Body: http.NoBody}
		},
	}
	for name, answer := range odd {
		for _, m := range methods {
			t.Run(name+"/"+m.name, func(t *testing.T) {
				t.Parallel()
				c, _ := answering(t, func(r *http.Request) (*http.Response, error) { return answer(r), nil },
					mintlify.WithRetryWait(time.Millisecond, time.Millisecond), mintlify.WithResponseObserver(func(context.Context, *mintlify.Response) {}))
				ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
				defer cancel()
				var err error
				assert.NotPanics(t, func() { _, err = m.call(ctx, c) })
				require.Error(t, err)
			})
		}
	}
}

// hostileAnswers are raw HTTP exchanges that never finish on their own.
// "stalled 404" is the one that is a clear refusal: never an unknown
// outcome.
var hostileAnswers = map[string]func(net.Conn){
	"no answer at all": func(net.Conn) {},
	"101 held open": func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
	},
	"100 then nothing": func(c net.Conn) { fmt.Fprint(c, "HTTP/1.1 100 Continue\r\n\r\n") },
	"103 then nothing": func(c net.Conn) { fmt.Fprint(c, "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n") },
	"headers then nothing": func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"id\":")
	},
	"a body that never ends": func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
		for i := 0; i < 300; i++ {
			if _, err := fmt.Fprint(c, "1\r\n \r\n"); err != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	},
	"stalled 404": func(c net.Conn) {
		fmt.Fprint(c, "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"error\":\"")
	},
}

// TestEveryMethodEndsWithItsContext: whatever the server holds open, every
// method returns soon after a 100 ms deadline (the bound is a generous
// second), with no result and the context's error unless a clear answer
// came (the 101, the 404), a POST's outcome unknown unless the answer was
// a clear refusal. A 101 holds no method until the server closes.
func TestEveryMethodEndsWithItsContext(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		for name, answer := range hostileAnswers {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				holdTimingSlot(t)
				c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject),
					mintlify.WithBaseURL(hijackServer(t, answer)), mintlify.WithRetryWait(time.Millisecond, 5*time.Millisecond))
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				started := time.Now()
				got, err := m.call(ctx, c)
				assert.Less(t, time.Since(started), time.Second, "returned soon after the context ended")
				require.Error(t, err)
				assertNoResult(t, got)
				switch {
				case name == "stalled 404":
					assert.ErrorIs(t, err, mintlify.ErrNotFound)
					assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
				case m.creates && m.stream && (name == "headers then nothing" || name == "a body that never ends"):
					assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "the answer had begun: the message was received")
				case m.creates:
					assert.ErrorIs(t, err, mintlify.ErrOutcomeUnknown, "the request was sent")
				default:
					assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
				}
				// A clear answer ends a call before its context: the 101, the
				// 404, and a 200 where the route documents 201 or 202.
				stalled200 := name == "headers then nothing" || name == "a body that never ends"
				if name != "101 held open" && name != "stalled 404" && (!stalled200 || m.status == 200) {
					assert.ErrorIs(t, err, context.DeadlineExceeded)
				}
				readsOnce(t, err, 0)
			})
		}
	}
}

// stalledAnswers are the hostile answers that stop sending: no byte
// comes after them.
var stalledAnswers = []string{"no answer at all", "100 then nothing", "headers then nothing", "stalled 404"}

// TestEveryMethodEndsAStall: a server that stops sending (before its
// headers, after a 100 Continue, in the middle of a body, in an error's
// body) ends every method once no byte has come for the stall timeout,
// with no context deadline: a network error that matches
// os.ErrDeadlineExceeded, retried where the rule allows (a GET is sent
// again), ErrOutcomeUnknown for a call that may have created something,
// sent once; a stalled error body still gives the status. None waits for
// the caller's context (here a safety deadline of 10 s).
func TestEveryMethodEndsAStall(t *testing.T) {
	t.Parallel()
	const stall = 50 * time.Millisecond
	for _, m := range methods {
		for _, name := range stalledAnswers {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				holdTimingSlot(t)
				// Sends are counted as the client makes them: a loaded
				// machine may not run the server's handler before the
				// stall timeout ends a send.
				requests := &sendCounter{next: http.DefaultTransport.(*http.Transport).Clone()}
				base := hijackServer(t, hostileAnswers[name])
				c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(base),
					mintlify.WithHTTPClient(&http.Client{Transport: requests}),
					mintlify.WithRetryWait(time.Millisecond, time.Millisecond), mintlify.WithMaxRetries(1), mintlify.WithStallTimeout(stall))
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				started := time.Now()
				got, err := m.call(ctx, c)
				took := time.Since(started)
				require.Error(t, err)
				assertNoResult(t, got)
				require.NotErrorIs(t, err, context.DeadlineExceeded, "ended by the safety deadline after %s, not by the stall timeout", took)
				assert.Less(t, took, 5*time.Second, "a poller gives up after five failed reads; each waits %s a request", stall)
				switch {
				case name == "stalled 404":
					assert.ErrorIs(t, err, mintlify.ErrNotFound)
					assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
				case name == "headers then nothing" && m.status != 200 && !m.do:
					// A 200 where the route documents 201 or 202 is a clear answer.
					assert.ErrorIs(t, err, mintlify.ErrMalformedResponse)
					return
				case m.stream && name == "headers then nothing":
					// The answer began: the message was received, and a
					// stream cut short is ErrStream, never an unknown
					// outcome.
					assert.ErrorIs(t, err, mintlify.ErrStream)
					assert.ErrorIs(t, err, os.ErrDeadlineExceeded, "a network error")
					assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
					assert.Equal(t, int32(1), requests.Load(), "never sent twice")
				case m.creates:
					assert.ErrorIs(t, err, os.ErrDeadlineExceeded, "a network error")
					assert.ErrorIs(t, err, mintlify.ErrOutcomeUnknown, "the request was sent")
					assert.Equal(t, int32(1), requests.Load(), "never sent twice")
				default:
					assert.ErrorIs(t, err, os.ErrDeadlineExceeded, "a network error")
					assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
					assert.GreaterOrEqual(t, requests.Load(), int32(2), "retried like a network error")
				}
				if name != "stalled 404" {
					assert.Contains(t, err.Error(), "stall", "the error says why")
				}
				readsOnce(t, err, 0)
			})
		}
	}
}

// sendCounter counts the requests a client sends through it.
type sendCounter struct {
	atomic.Int32
	next http.RoundTripper
}

func (c *sendCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.Add(1)
	return c.next.RoundTrip(r)
}

// echoClient is a client with key whose every answer comes from answer,
// logging at debug level to logs and recording what the observer sees.
func echoClient(t *testing.T, key string, answer func(*http.Request) (*http.Response, error), logs *syncbuf.Buffer, seen *[]string) *mintlify.Client {
	t.Helper()
	var mu sync.Mutex
	c, _ := answering(t, answer, mintlify.WithAPIKey(key), mintlify.WithMaxRetries(1),
		mintlify.WithRetryWait(time.Millisecond, time.Millisecond),
		mintlify.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		mintlify.WithResponseObserver(func(_ context.Context, r *mintlify.Response) {
			mu.Lock()
			defer mu.Unlock()
			*seen = append(*seen, fmt.Sprint(r.Method, " ", r.Path, " ", r.RequestID, " ", r.Header))
		}))
	return c
}

// assertErrorHidesKey checks err as every reporter sees it: its text and
// formats, every error of its chain, and the public types errors.As
// reaches.
func assertErrorHidesKey(t *testing.T, key string, err error) {
	t.Helper()
	assertNoSecret(t, key, fmt.Sprintf("%v | %+v | %#v | %s | %q", err, err, err, err, err), "error")
	eachError(err, func(e error) { assertNoSecret(t, key, e.Error(), fmt.Sprintf("wrapped %T", e)) })
	var we *mintlify.WalkError
	if errors.As(err, &we) {
		assertNoSecret(t, key, fmt.Sprintf("%v %+v %#v", we, we, we), "WalkError")
	}
	var ae *mintlify.APIError
	if errors.As(err, &ae) {
		assertNoSecret(t, key, fmt.Sprintf("%v %+v %#v %s %s %s", ae, ae, ae, ae.Message, ae.Details, ae.RequestID), "APIError")
	}
}

// echoKey has characters that every encoding changes.
const echoKey = "mint_sk_<live>&9vLr4+TzW/8mN3bKc5yJ="

// TestEveryMethodHidesAnEchoedKey: a proxy that copies the key, in any
// shape, into any string field of any answer (and into its headers)
// cannot get it into an error, its %+v or %#v, a debug log line or what an
// observer sees. The cursor routes get one more field: a nextCursor that
// is the key, with more pages said to follow; a key in a job's createdAt
// is not quoted by the time-parse error.
func TestEveryMethodHidesAnEchoedKey(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		if m.stream {
			continue // no JSON to echo into: a stream's errors are scrubbed in stream_test.go
		}
		var root any
		require.NoError(t, json.Unmarshal([]byte(m.good), &root))
		var leaves [][]any
		stringLeaves(root, nil, &leaves)
		if m.cursor {
			leaves = append(leaves, []any{"nextCursor"})
		}
		for _, leaf := range leaves {
			for form, echo := range keyEchoes(echoKey) {
				t.Run(m.name+"/"+pathName(leaf)+"/"+form, func(t *testing.T) {
					t.Parallel()
					body := setLeaf(t, m.good, leaf, echo)
					if m.hasMore && pathName(leaf) == "nextCursor" {
						body = withKey(t, body, "hasMore", "true")
					}
					var logs syncbuf.Buffer
					var seen []string
					c := echoClient(t, echoKey, respond(m.status, body,
						"X-Request-Id", echo, "X-Echo", echo, "Retry-After", echo, "Www-Authenticate", echo), &logs, &seen)
					// A status that is the key is no known status: a
					// poller would poll on, so the deadline ends it.
					ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
					defer cancel()
					if _, err := m.call(ctx, c); err != nil {
						assertErrorHidesKey(t, echoKey, err)
					}
					assertNoSecret(t, echoKey, logs.String(), "logs")
					assertNoSecret(t, echoKey, strings.Join(seen, "\n"), "observed")
				})
			}
		}
	}
}

// TestEveryMethodHidesAKeyEchoedInAnErrorAnswer: a proxy's error page,
// JSON error or plain text that quotes the key, in any form, or a success
// cut short right after an echo, reaches no error text, APIError field,
// log line or observed header of any method; the logger did log the call.
func TestEveryMethodHidesAKeyEchoedInAnErrorAnswer(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		for form, echo := range keyEchoes(echoKey) {
			j, _ := json.Marshal("Authorization: Bearer " + echo)
			// The documented answer with one more member, the echo as it
			// came, cut short two characters before its end.
			cut := strings.TrimSuffix(m.good, "}") + `,"echo":"` + echo[:len(echo)-2]
			answers := map[string]struct {
				status int
				body   string
			}{
				"JSON": {502, `{"error":` + string(j) + `,"details":[{"message":` + string(j) + `}],"message":` + string(j) + `}`},
				"HTML": {502, "<html><body><pre>Authorization: Bearer " + echo + "</pre>" + strings.Repeat("x", 150) + echo + "</body></html>"},
				"text": {429, "Too many requests for Bearer " + echo},
				"cut":  {m.status, cut},
			}
			if m.stream {
				delete(answers, "cut") // a stream read to its [DONE]: its text is no error
			}
			for kind, a := range answers {
				t.Run(m.name+"/"+form+"/"+kind, func(t *testing.T) {
					t.Parallel()
					var logs syncbuf.Buffer
					var seen []string
					c := echoClient(t, echoKey, respond(a.status, a.body, "X-Request-Id", echo, "Proxy-Authenticate", echo, "Retry-After", "86400"), &logs, &seen)
					ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
					defer cancel()
					_, err := m.call(ctx, c)
					require.Error(t, err)
					assertErrorHidesKey(t, echoKey, err)
					if a.status != m.status {
						var ae *mintlify.APIError
						assert.ErrorAs(t, err, &ae)
					}
					assert.Contains(t, logs.String(), "level=DEBUG", "the logger was used")
					assertNoSecret(t, echoKey, logs.String(), "logs")
					assertNoSecret(t, echoKey, strings.Join(seen, "\n"), "observed")
				})
			}
		}
	}
}

// TestSuccessBodyIsBounded: an endless (or absurd) success body ends with
// a clear error, not with memory growing until the deadline.
func TestSuccessBodyIsBounded(t *testing.T) {
	t.Parallel()
	c, _ := answering(t, respond(200, `{"id":"`+strings.Repeat("a", 16<<20)+`"}`), mintlify.WithMaxRetries(0))
	_, err := c.GetJob(context.Background(), "job_1")
	require.ErrorIs(t, err, mintlify.ErrMalformedResponse)
	assert.Contains(t, err.Error(), "larger than 16 MiB")
}

// TestObservedHeaderNamesHideAnEchoedKey: a proxy may echo the key as a
// header's name; net/http changes its case (canonical form), which no
// exact match recognises. The observer and Client.Do never see it.
func TestObservedHeaderNamesHideAnEchoedKey(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()[testKey] = []string{"1"}
		w.Header()["X-"+testKey] = []string{"2"}
		w.Header()["X-Echo-"+testKey[:20]] = []string{"3"}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	var seen http.Header
	c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(srv.URL),
		mintlify.WithResponseObserver(func(_ context.Context, r *mintlify.Response) { seen = r.Header }))
	require.NoError(t, err)
	resp, err := c.Do(context.Background(), http.MethodGet, "/v1/x", nil, nil)
	require.NoError(t, err)
	for _, h := range []http.Header{seen, resp.Header} {
		require.NotEmpty(t, h)
		assert.Len(t, h, 6, "every header kept, the echoes under another name: %v", h)
		for name, values := range h {
			text := strings.ToLower(name + ": " + strings.Join(values, ","))
			secret := strings.ToLower(strings.TrimPrefix(testKey, "mint_"))
			for i := 0; i+8 <= len(secret); i++ {
				assert.NotContains(t, text, secret[i:i+8], "observed header, in any case")
			}
		}
	}
}

// TestKeyPastedIntoAnArgumentNeverShows: a caller who pastes the key where
// an ID, a domain or the project belongs gets an error without it.
func TestKeyPastedIntoAnArgumentNeverShows(t *testing.T) {
	t.Parallel()
	_, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testKey))
	require.ErrorIs(t, err, mintlify.ErrInvalidInput, "the project ID is the key")
	assertNoKey(t, err.Error(), "NewClient error")

	c, _ := answering(t, respond(404, `{"error":"not found"}`), mintlify.WithMaxRetries(0))
	ctx := context.Background()
	for _, m := range methods {
		if m.arg == nil {
			continue
		}
		for _, pasted := range []string{testKey, "x/" + testKey, testKey + " x", "https://" + testKey, "/../" + testKey} {
			_, err := m.arg(ctx, c, pasted)
			require.Error(t, err, "%s(%q)", m.name, pasted)
			assertNoKey(t, fmt.Sprintf("%v %+v", err, err), m.name)
		}
	}
}

// TestNoMethodFollowsARedirectWithTheKey: the API never redirects, and
// following one would carry the key to wherever Location points (net/http
// keeps it for another port of the same host, or from https to http).
// Whatever http.Client the caller passes (none, one with a Transport, the
// common one with only a Timeout, one whose CheckRedirect follows
// everything), every method gets the 307 as an *APIError (ErrBadRequest:
// every answer outside 2xx has a sentinel) after one request, and the
// caller's client is left as it was: the SDK's redirect policy is set on
// a copy.
func TestNoMethodFollowsARedirectWithTheKey(t *testing.T) {
	t.Parallel()
	var reached, leaked atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		if r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		http.Error(w, `{"error":"not here"}`, http.StatusNotFound)
	}))
	t.Cleanup(elsewhere.Close)
	target, err := url.Parse(elsewhere.URL)
	require.NoError(t, err)
	target.Host = "localhost:" + target.Port() // the same loopback server under another host name
	var hits atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, target.String()+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(api.Close)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	follow := func(*http.Request, []*http.Request) error { return nil }
	clients := map[string]func() *http.Client{
		"the default":                  func() *http.Client { return nil },
		"a Transport":                  func() *http.Client { return &http.Client{Transport: tr} },
		"a Timeout only":               func() *http.Client { return &http.Client{Timeout: 30 * time.Second} },
		"one that follows all":         func() *http.Client { return &http.Client{Transport: tr, CheckRedirect: follow} },
		"a copy of http.DefaultClient": func() *http.Client { c := *http.DefaultClient; return &c },
	}
	for name, makeClient := range clients {
		for _, m := range methods {
			hc := makeClient()
			var before http.Client
			if hc != nil {
				before = *hc
			}
			c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(api.URL),
				mintlify.WithHTTPClient(hc), mintlify.WithMaxRetries(0))
			require.NoError(t, err)
			hitsBefore, elsewhereBefore := hits.Load(), reached.Load()
			_, err = m.call(context.Background(), c)
			var apiErr *mintlify.APIError
			if assert.ErrorAs(t, err, &apiErr, "%s, %s", name, m.name) {
				assert.Equal(t, http.StatusTemporaryRedirect, apiErr.StatusCode, "%s, %s", name, m.name)
			}
			assert.ErrorIs(t, err, mintlify.ErrBadRequest, "%s, %s", name, m.name)
			assert.Equal(t, int32(1), hits.Load()-hitsBefore, "%s, %s: one request", name, m.name)
			assert.Equal(t, elsewhereBefore, reached.Load(), "%s, %s: no redirect followed", name, m.name)
			if hc != nil {
				assert.True(t, hc.Transport == before.Transport && hc.Timeout == before.Timeout && hc.Jar == before.Jar &&
					(hc.CheckRedirect == nil) == (before.CheckRedirect == nil), "%s: the caller's client is unchanged", name)
			}
		}
	}
	assert.Zero(t, leaked.Load(), "the key followed a redirect")
}

// Memory. The body bound (16 MiB) caps the bytes of an answer, not what
// they become once decoded: 16 MiB of "{}," is 5.6 million empty rows. The
// checks below measure the peak heap of each call, sampled every 0.2 ms
// (runtime/metrics, the heap's live and not yet swept objects), against
// the bounds each test states. They run one at a time (the heap is
// the process's), and not under -race, whose instrumentation makes the
// scans of some 3 GB of JSON take minutes and whose memory is not the
// program's: go test without -race runs them (about 20 s);
// TestEveryMethodRefusesAnArrayLongerThanTheAPISends checks the same
// bounds, without measuring memory, under -race too.

const (
	// hostileAnswerSize is an answer just under the body bound.
	hostileAnswerSize = 16<<20 - 4<<10
	// maxAnswerHeap bounds a call given a 16 MiB answer of empty rows.
	maxAnswerHeap = 64 << 20
	// maxBodyHeap bounds a call given 100 MB, retries included.
	maxBodyHeap = 48 << 20
	// heapCeiling stops the test binary before a regression takes the
	// machine's memory: a 16 MiB answer decoded without bounds can cost
	// gigabytes.
	heapCeiling = 1 << 30
)

// peakHeap runs fn and returns how far the heap grew above where it stood
// after a collection, at its highest.
func peakHeap(t testing.TB, fn func()) uint64 {
	t.Helper()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	// Twice: the second drops what the first left to sync.Pools (a body
	// buffer an earlier call handed on), so that the call pays for its own.
	runtime.GC()
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	note := func() {
		if v := read(); v > base && v-base > peak.Load() {
			peak.Store(v - base)
			if v-base > heapCeiling {
				panic(fmt.Sprintf("memory guard: %s grew the heap by %d MiB, past %d MiB: stopping before the machine runs out",
					t.Name(), (v-base)>>20, heapCeiling>>20))
			}
		}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			note()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	note()
	return peak.Load()
}

// streamed answers every request with status and a fresh body of unknown
// length (chunked, the worst case for a reader that sizes its buffer by
// Content-Length): prefix, then fill repeated up to size bytes in all,
// generated as it is read, so that the test's own memory stays flat.
func streamed(status int, prefix string, fill byte, size int64) func(*http.Request) (*http.Response, error) {
	return func(req *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}}, ContentLength: -1,
			Body: io.NopCloser(&generated{prefix: prefix, fill: fill, left: size}), Request: req}, nil
	}
}

type generated struct {
	prefix string
	fill   byte
	left   int64
}

func (g *generated) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), g.left)]
	n := copy(p, g.prefix)
	g.prefix = g.prefix[n:]
	for i := n; i < len(p); i++ {
		p[i] = g.fill
	}
	g.left -= int64(len(p))
	return len(p), nil
}

// hugeAnswers are good made just under size bytes: each array in it (the
// rows, and arrays inside the first row) filled with empty elements of its
// kind, and an unknown member holding such an array.
func hugeAnswers(t testing.TB, good string, size int) map[string]string {
	return longArrays(t, good, func(withMarker, elem string) int {
		return (size - len(withMarker)) / (len(elem) + 1)
	})
}

// fillMarker is the string a body holds where fillArray puts an array.
const fillMarker = "\x00fill\x00"

// fillArray replaces the quoted fillMarker in withMarker by an array of n
// copies of elem.
func fillArray(withMarker, elem string, n int) string {
	quoted, _ := json.Marshal(fillMarker)
	return strings.Replace(withMarker, string(quoted), "["+strings.Repeat(elem+",", n-1)+elem+"]", 1)
}

// longArrays are good with each array in it filled with n(good with the
// array marked, the element) empty elements of its kind, and an unknown
// member holding such an array.
func longArrays(t testing.TB, good string, n func(withMarker, elem string) int) map[string]string {
	t.Helper()
	var root any
	require.NoError(t, json.Unmarshal([]byte(good), &root))
	fill := func(withMarker string, elem string) string { return fillArray(withMarker, elem, n(withMarker, elem)) }
	out := map[string]string{}
	var walk func(v any, path []any)
	walk = func(v any, path []any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				walk(e, append(slices.Clone(path), k))
			}
		case []any:
			elem := "{}"
			if len(v) > 0 {
				if _, ok := v[0].(string); ok {
					elem = `""`
				}
				walk(v[0], append(slices.Clone(path), 0))
			}
			out[pathName(path)+" of "+elem] = fill(setLeaf(t, good, path, fillMarker), elem)
		}
	}
	walk(root, nil)
	quoted, _ := json.Marshal(fillMarker)
	out["an unknown member of {}"] = fill(`{"unknown":`+string(quoted)+`,`+good[1:], "{}")
	return out
}

// raceDetector is set under -race, whose instrumentation makes scanning
// tens of megabytes of JSON slow and whose memory is not the program's.
var raceDetector = func() bool {
	bi, ok := debug.ReadBuildInfo()
	return ok && slices.Contains(bi.Settings, debug.BuildSetting{Key: "-race", Value: "true"})
}()

// TestEveryMethodHoldsAHugeAnswerInBoundedMemory: an answer just under
// 16 MiB whose rows, or any array inside them (sources, messages, logs,
// changed files), are millions of empty elements is ErrMalformedResponse
// at a peak heap of at most 64 MiB; an unknown member of that size costs
// nothing. Client.Do decodes into the caller's
// type: only its bytes are bounded (below).
func TestEveryMethodHoldsAHugeAnswerInBoundedMemory(t *testing.T) {
	if raceDetector {
		t.Skip("not under -race (see Memory above)")
	}
	for _, m := range methods {
		if m.do || !strings.HasPrefix(m.good, "{") { // a streamed answer has tests of its own
			continue
		}
		// 1 MiB and 16 MiB; a walk's pages decode as its route's GetX does, so
		// that one takes the 16 MiB answers for the three (each costs a
		// few scans of 16 MiB).
		sizes := map[string]map[string]string{"1 MiB": hugeAnswers(t, m.good, 1<<20-4<<10)}
		if m.walk == nil {
			sizes["16 MiB"] = hugeAnswers(t, m.good, hostileAnswerSize)
		}
		answers := map[string]string{}
		for size, bodies := range sizes {
			for name, body := range bodies {
				answers[size+" "+name] = body
			}
		}
		for name, body := range answers {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				c, _ := answering(t, func(r *http.Request) (*http.Response, error) {
					return streamed(m.status, body, ' ', int64(len(body)))(r)
				}, mintlify.WithMaxRetries(0))
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				var err error
				peak := peakHeap(t, func() { _, err = m.call(ctx, c) })
				t.Logf("%s: peak heap %.1f MiB", t.Name(), float64(peak)/(1<<20))
				if strings.Contains(name, "an unknown member") {
					assert.NoError(t, err)
				} else {
					assert.ErrorIs(t, err, mintlify.ErrMalformedResponse)
				}
				assert.LessOrEqual(t, peak, uint64(maxAnswerHeap), "peak heap %d MiB", peak>>20)
			})
		}
	}
}

// TestEveryMethodHoldsA100MBAnswerInBoundedMemory: 100 MB of junk, or of
// white space after the documented answer, is ErrMalformedResponse ("larger
// than 16 MiB") at a peak heap of at most 48 MiB per call, retries (and a
// poller's reads) included: the body is read into one buffer of the bound
// at a time, and a retry lets go of the last.
func TestEveryMethodHoldsA100MBAnswerInBoundedMemory(t *testing.T) {
	if raceDetector {
		t.Skip("not under -race (see Memory above)")
	}
	for _, m := range methods {
		if m.stream {
			continue // a streamed answer is read frame by frame, each under 4 MiB: stream_test.go
		}
		for name, prefix := range map[string]string{"junk": "", "a brace, then junk": "{", "white space after the answer": m.good} {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				fill := byte('x')
				if prefix == m.good {
					fill = ' '
				}
				c, mt := answering(t, streamed(m.status, prefix, fill, 100e6), mintlify.WithMaxRetries(2),
					mintlify.WithRetryWait(time.Millisecond, time.Millisecond))
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				var err error
				peak := peakHeap(t, func() { _, err = m.call(ctx, c) })
				t.Logf("%s: peak heap %.1f MiB in %d requests", t.Name(), float64(peak)/(1<<20), mt.GetTotalCallCount())
				assert.ErrorIs(t, err, mintlify.ErrMalformedResponse)
				if name != "junk" { // which fails at its first byte, unread
					assert.Contains(t, err.Error(), "larger than 16 MiB")
				}
				assert.LessOrEqual(t, peak, uint64(maxBodyHeap), "peak heap %d MiB", peak>>20)
			})
		}
	}
}

// TestEveryMethodRefusesAnArrayLongerThanTheAPISends: an array of 200,001
// empty elements, more than any bound holds (a page at most
// its route's largest page of rows, a turn 100 sources, a thread 10,000
// messages, a commit 100,000 paths a set, a log 16 MiB counting 128 bytes
// a line), in any array of any answer, is ErrMalformedResponse saying so;
// in an unknown member it costs nothing.
func TestEveryMethodRefusesAnArrayLongerThanTheAPISends(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		if m.do || !strings.HasPrefix(m.good, "{") { // a streamed answer has tests of its own
			continue
		}
		for name, body := range longArrays(t, m.good, func(string, string) int { return 200_001 }) {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				c, _ := answering(t, respond(m.status, body), mintlify.WithMaxRetries(0))
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				_, err := m.call(ctx, c)
				if strings.HasPrefix(name, "an unknown member") {
					assert.NoError(t, err)
					return
				}
				require.ErrorIs(t, err, mintlify.ErrMalformedResponse)
				assert.Contains(t, err.Error(), "more than the API sends")
				assert.Equal(t, m.creates, errors.Is(err, mintlify.ErrOutcomeUnknown))
			})
		}
	}
}

// TestAnswersHoldUpToTheirBounds: each bound of an answer's arrays (the
// rows' bounds, as the README states them) is exact: an answer with that
// many elements in the array (copies of the documented one) is read, one
// more is ErrMalformedResponse.
func TestAnswersHoldUpToTheirBounds(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		if m.bounds == nil {
			continue
		}
		for path, most := range m.bounds {
			for _, n := range []int{most, most + 1} {
				t.Run(fmt.Sprintf("%s/%s/%d", m.name, path, n), func(t *testing.T) {
					t.Parallel()
					var root any
					require.NoError(t, json.Unmarshal([]byte(m.good), &root))
					var first any = root
					for _, key := range strings.Split(path+".0", ".") {
						if i, err := strconv.Atoi(key); err == nil {
							first = first.([]any)[i]
						} else {
							first = first.(map[string]any)[key]
						}
					}
					elem, err := json.Marshal(first)
					require.NoError(t, err)
					if path == "logs" {
						elem = []byte(logLine)
					}
					quoted, _ := json.Marshal(fillMarker)
					body := fillArray(setPath(t, m.good, path, string(quoted)), string(elem), n)
					c, _ := answering(t, respond(m.status, body), mintlify.WithMaxRetries(0))
					_, err = m.call(context.Background(), c)
					if n == most {
						require.NoError(t, err)
						return
					}
					require.ErrorIs(t, err, mintlify.ErrMalformedResponse)
					assert.Contains(t, err.Error(), fmt.Sprintf("more than %d ", most))
				})
			}
		}
	}
}

// TestStallTimersAreNeverShared: each request's stall timer watches it
// alone, so requests that finish, fail or are closed while a read waits
// never cut another one off (run with -race: many calls at once, each
// well under the timeout).
func TestStallTimersAreNeverShared(t *testing.T) {
	t.Parallel()
	const idle = 200 * time.Millisecond
	c, _ := answering(t, respond(200, methodNamed(t, "GetJob").good), mintlify.WithStallTimeout(idle))
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				ctx, cancel := context.WithCancel(context.Background())
				if i%7 == 0 {
					cancel() // a call cut short by its caller
				}
				_, err := methodNamed(t, "GetJob").call(ctx, c)
				cancel()
				if i%7 != 0 && err != nil {
					t.Errorf("call %d: %v", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// Answers a hostile or broken server streams, read through Message over
// 127.0.0.1: what each costs, and how it ends.

// emptyResultsFrame is a search step's output of n bytes or so: an array
// of empty objects, each of which a careless decoder turns into a Go value
// many times its three bytes.
func emptyResultsFrame(id string, n int) string {
	return `{"type":"tool-output-available","toolCallId":"` + id + `","output":[` +
		strings.TrimSuffix(strings.Repeat("{},", n/3), ",") + `]}`
}

// emptyResultsAnswer is a search step whose output is frames frames of
// [{},{},...] just under the 4 MiB frame bound, then text and finish.
func emptyResultsAnswer(frames int) string {
	chunks := []string{`{"type":"tool-input-start","toolCallId":"c1","toolName":"search"}`}
	for range frames {
		chunks = append(chunks, emptyResultsFrame("c1", 4<<20-200))
	}
	return sse(append(chunks, `{"type":"text-delta","id":"t","delta":"Hi"}`, `{"type":"finish"}`, `[DONE]`)...)
}

// TestStreamOfEmptySearchResultsCostsItsBytes: a 4 MiB frame of
// [{},{},...] in a search step's output ends the answer as malformed (no
// search answers a million pages) having cost a few times its bytes, not
// the hundreds of megabytes its decoded elements would.
func TestStreamOfEmptySearchResultsCostsItsBytes(t *testing.T) {
	body := emptyResultsAnswer(8)
	a, _ := assistantServer(t, streaming(body))
	var err error
	var events int
	peak := peakHeap(t, func() {
		s, merr := a.Message(context.Background(), question("Hi?"))
		if merr != nil {
			err = merr
			return
		}
		defer s.Close()
		for _, err = range s.Events() {
			if err != nil {
				break
			}
			events++
		}
	})
	t.Logf("eight 4 MiB frames of empty search results: peak heap %.1f MiB, %d events, %v", float64(peak)/(1<<20), events, err)
	if !errors.Is(err, mintlify.ErrMalformedResponse) || !errors.Is(err, mintlify.ErrStream) {
		t.Errorf("the answer ended with %v, want a malformed stream", err)
	}
	if peak > maxAnswerHeap {
		t.Errorf("peak heap %d MiB, want at most %d", peak>>20, maxAnswerHeap>>20)
	}
}

// BenchmarkStreamOfEmptySearchResults reads one 4 MiB frame of empty
// search results, reporting the peak heap (see BENCHMARKS.md).
func BenchmarkStreamOfEmptySearchResults(b *testing.B) {
	up := httptest.NewServer(streaming(emptyResultsAnswer(1)))
	defer up.Close()
	a := assistantAt(b, up.URL, assistantKey, assistantDomain)
	var worst uint64
	for b.Loop() {
		peak := peakHeap(b, func() {
			s, err := a.Message(context.Background(), question("Hi?"))
			if err != nil {
				b.Fatal(err)
			}
			for _, err := range s.Events() {
				if err != nil {
					break
				}
			}
			s.Close()
		})
		worst = max(worst, peak)
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-MiB")
}
