package mintlify_test

// Retries, Retry-After, the no-duplicate rule, ErrOutcomeUnknown and the
// context, on every method of the table: a read (GET, and a POST that
// only mints a link) is retried on network errors, malformed answers,
// 429 and 5xx but 501/505; a call that may create something only where
// the server cannot have acted (nothing sent, a 429), and is
// ErrOutcomeUnknown where it may have.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// retried reports whether a read is retried on status.
func retried(status int) bool { return slices.Contains([]int{429, 500, 502, 503, 504}, status) }

// reads is how many reads a call makes when each one fails the same way
// (transient says a later read may not): a poller tries five.
func reads(m method, transient bool) int {
	if m.poller != nil && transient {
		return 5
	}
	return 1
}

// TestEveryMethodMapsEveryStatus: an answer outside 2xx is an *APIError
// with its status, message, details and request ID, matching exactly one
// sentinel by class (also when wrapped further), and ErrOutcomeUnknown too
// when a call that may create something gets a 500, 502 or 504, which
// the message says. Reads are retried on 429 and 5xx but 501 and 505;
// calls that may create something on 429 only, each time with the whole
// body. The error reads with one package prefix.
func TestEveryMethodMapsEveryStatus(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		for _, status := range []int{400, 401, 403, 404, 405, 409, 413, 418, 422, 429, 500, 501, 502, 503, 504, 505, 599} {
			t.Run(fmt.Sprintf("%s/%d", m.name, status), func(t *testing.T) {
				t.Parallel()
				rec := &recorder{}
				c, _ := answering(t, rec.wrap(respond(status, `{"error":"mintlify: no","details":[{"message":"mintlify: really"}]}`,
					"X-Request-Id", "req_9")), mintlify.WithMaxRetries(2))
				got, err := m.call(context.Background(), c)
				require.Error(t, err)
				assertNoResult(t, got)
				var apiErr *mintlify.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, status, apiErr.StatusCode)
				assert.Equal(t, "mintlify: no", apiErr.Message)
				assert.Equal(t, []string{"mintlify: really"}, apiErr.Details)
				assert.Equal(t, "req_9", apiErr.RequestID)
				unknown := m.creates && (status == 500 || status == 502 || status == 504)
				for _, s := range sentinels {
					want := s == sentinelOf(status) || (s == mintlify.ErrOutcomeUnknown && unknown)
					assert.Equal(t, want, errors.Is(err, s), "errors.Is(HTTP %d, %v)", status, s)
				}
				assert.ErrorIs(t, fmt.Errorf("syncing docs: %w", err), sentinelOf(status), "wrapped further, it still matches")
				assert.Equal(t, unknown, strings.Contains(err.Error(), "may have acted"))
				readsOnce(t, err, 2) // the server's own text says "mintlify:" twice
				attempts := 1
				if retried(status) && (!m.creates || status == 429) {
					attempts = 3
				}
				reqs := rec.requests()
				assert.Len(t, reqs, attempts*reads(m, status == 429 || status >= 500), "requests sent")
				for _, r := range reqs {
					if m.reqBody != "" {
						assert.JSONEq(t, m.reqBody, string(r.Body), "every attempt carries the whole body")
					}
				}
			})
		}
	}
}

// TestEveryReadRetriesBrokenAnswers: a read retries what a later attempt
// may not meet: twice, then the documented answer, succeeds after three
// requests; every attempt broken (a network error, a cut body) ends after
// the retries with an error of the package that is neither an API answer
// nor an unknown outcome (a read changes nothing).
func TestEveryReadRetriesBrokenAnswers(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		if m.creates {
			continue
		}
		failures := map[string]httpmock.Responder{
			"503":            respond(503, ""),
			"429":            respond(429, `{"error":"slow down"}`, "Retry-After", "0"),
			"network error":  httpmock.NewErrorResponder(errors.New("connection reset by peer")),
			"truncated body": respond(m.status, m.good[:len(m.good)/2]),
			"HTML body":      respond(200, `<html><body>maintenance</body></html>`),
			"empty body":     respond(200, ""),
		}
		for name, failure := range failures {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				c, mt := answering(t, inOrder(failure, failure, respond(m.status, m.good)), mintlify.WithMaxRetries(3))
				got, err := m.call(context.Background(), c)
				require.NoError(t, err)
				assert.NotNil(t, got)
				assert.Equal(t, 3, mt.GetTotalCallCount())
				if name != "network error" && name != "truncated body" {
					return
				}
				c, mt = answering(t, failure, mintlify.WithMaxRetries(2))
				got, err = m.call(context.Background(), c)
				require.Error(t, err)
				assertNoResult(t, got)
				assert.Equal(t, 3*reads(m, true), mt.GetTotalCallCount())
				assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "a read changes nothing")
				var apiErr *mintlify.APIError
				assert.False(t, errors.As(err, &apiErr))
				assert.True(t, strings.HasPrefix(err.Error(), "mintlify: "), err.Error())
			})
		}
	}
}

// TestEveryCreateIsResentOnlyWhereTheServerDidNotAct: a 429 is a refusal,
// so the call is resent, with the same body, and succeeds; an answer lost
// on the way back (a reset, an EOF) is ErrOutcomeUnknown after one
// request.
func TestEveryCreateIsResentOnlyWhereTheServerDidNotAct(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		if !m.creates {
			continue
		}
		t.Run(m.name+"/429 then the answer", func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c, _ := answering(t, rec.wrap(inOrder(respond(429, `{"error":"rate limited"}`), respond(m.status, m.good))))
			_, err := m.call(context.Background(), c)
			require.NoError(t, err)
			reqs := rec.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, reqs[0].Body, reqs[1].Body, "the retry resends the same body")
		})
		for name, lost := range map[string]error{
			"connection reset": &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET},
			"EOF":              io.EOF,
			"unexpected EOF":   io.ErrUnexpectedEOF,
		} {
			t.Run(m.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				c, mt := answering(t, inOrder(httpmock.NewErrorResponder(lost), respond(m.status, m.good)), mintlify.WithMaxRetries(3))
				got, err := m.call(context.Background(), c)
				assertNoResult(t, got)
				require.ErrorIs(t, err, mintlify.ErrOutcomeUnknown)
				assert.Contains(t, err.Error(), "may have acted")
				assert.Equal(t, 1, mt.GetTotalCallCount(), "a call whose answer was lost is never resent")
			})
		}
	}
}

// TestEveryMethodOutcomeUnknownOnlyWhenSent: a refused connection or a
// failed TLS handshake sends no byte of the request, so no method reports
// an unknown outcome, and every method retries a refused connection; a
// connection closed after the request was read leaves the outcome of
// every call that may create something unknown, after exactly one
// request.
func TestEveryMethodOutcomeUnknownOnlyWhenSent(t *testing.T) {
	t.Parallel()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("no request should get through a failed handshake")
	}))
	var handshakes atomic.Int32
	tlsSrv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			handshakes.Add(1)
		}
	}
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are the point
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	lostSrv, lost := lostAnswerServer(t)
	refused := refusedURL(t)

	for _, m := range methods {
		t.Run(m.name+"/connection refused", func(t *testing.T) {
			var attempts atomic.Int32
			c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(refused),
				mintlify.WithMaxRetries(2), mintlify.WithRetryWait(time.Millisecond, time.Millisecond),
				mintlify.WithResponseObserver(func(_ context.Context, r *mintlify.Response) { attempts.Add(int32(r.Attempts)) }))
			require.NoError(t, err)
			_, err = m.call(context.Background(), c)
			require.ErrorIs(t, err, syscall.ECONNREFUSED)
			assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "nothing was sent")
			assert.EqualValues(t, 3*reads(m, true), attempts.Load(), "attempts")
			assertNoKey(t, err.Error(), "error")
			readsOnce(t, err, 0)
		})
		t.Run(m.name+"/handshake fails", func(t *testing.T) {
			// The default transport does not trust the test certificate.
			c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(tlsSrv.URL),
				mintlify.WithMaxRetries(0))
			require.NoError(t, err)
			before := handshakes.Load()
			_, err = m.call(context.Background(), c)
			require.Error(t, err)
			assert.Greater(t, handshakes.Load(), before, "the call reached the server")
			assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "nothing was sent")
			readsOnce(t, err, 0)
		})
		if !m.creates {
			continue
		}
		t.Run(m.name+"/answer lost", func(t *testing.T) {
			c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(lostSrv.URL+"/"),
				mintlify.WithRetryWait(time.Millisecond, time.Millisecond))
			require.NoError(t, err)
			before := lost.Load()
			_, err = m.call(context.Background(), c)
			require.ErrorIs(t, err, mintlify.ErrOutcomeUnknown)
			assert.Equal(t, int32(1), lost.Load()-before, "sent once")
			assertNoKey(t, err.Error(), "error")
			readsOnce(t, err, 0)
		})
	}
	// Minting a bundle link twice does no harm: a lost answer is retried.
	c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(lostSrv.URL),
		mintlify.WithRetryWait(time.Millisecond, 5*time.Millisecond), mintlify.WithMaxRetries(2))
	require.NoError(t, err)
	before := lost.Load()
	_, err = c.BundleStaticExport(context.Background(), "se_1")
	require.Error(t, err)
	assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown)
	assert.Equal(t, int32(3), lost.Load()-before)
}

// TestEveryMethodReturnsAtOnceOnALongRetryAfter: a Retry-After beyond the
// client's maximum wait, in seconds or as an HTTP date, is not slept on:
// the call returns at once after one request with the wait in
// APIError.RetryAfter and its text (a poller, whose maximum interval is
// shorter still, stops too).
func TestEveryMethodReturnsAtOnceOnALongRetryAfter(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		for _, tt := range []struct {
			name       string
			status     int
			retryAfter func() string
			want       time.Duration
		}{
			{"429 seconds", 429, func() string { return "3600" }, time.Hour},
			{"429 date", 429, func() string { return time.Now().Add(2 * time.Hour).UTC().Format(http.TimeFormat) }, 2 * time.Hour},
			{"503 seconds", 503, func() string { return "120" }, 2 * time.Minute},
		} {
			t.Run(m.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				holdTimingSlot(t)
				// The maximum wait is 1s: every Retry-After here is longer.
				c, mt := answering(t, respond(tt.status, `{"error":"quota exhausted"}`, "Retry-After", tt.retryAfter()),
					mintlify.WithRetryWait(time.Millisecond, time.Second), mintlify.WithMaxRetries(5))
				start := time.Now()
				_, err := m.call(context.Background(), c)
				assert.Less(t, time.Since(start), 900*time.Millisecond, "returns without sleeping")
				require.ErrorIs(t, err, sentinelOf(tt.status))
				var apiErr *mintlify.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.InDelta(t, tt.want, apiErr.RetryAfter, float64(time.Minute)) // the date has 1s resolution; a loaded machine may run the case late
				assert.Equal(t, 1, mt.GetTotalCallCount())
				assert.Contains(t, err.Error(), "retry after")
				assert.NotErrorIs(t, err, mintlify.ErrOutcomeUnknown, "a refusal")
			})
		}
	}
}

// TestRetryAfterIsHonoured: a Retry-After within the maximum wait is
// slept before the retry.
func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	c, _ := answering(t, rec.wrap(inOrder(respond(429, `{"error":"slow down"}`, "Retry-After", "1"), respond(200, goodJob))),
		mintlify.WithRetryWait(time.Millisecond, 5*time.Second))
	_, err := c.GetJob(context.Background(), "job_1")
	require.NoError(t, err)
	reqs := rec.requests()
	require.Len(t, reqs, 2)
	assert.GreaterOrEqual(t, reqs[1].At.Sub(reqs[0].At), time.Second, "wait before the retry")
}

// TestRetryAfterForms: both forms of Retry-After (delta seconds, an HTTP
// date in any of its three formats) give APIError.RetryAfter; absurd
// values are capped at a day, a past date is now, and what is not
// understood is no wait.
func TestRetryAfterForms(t *testing.T) {
	t.Parallel()
	at := func(d time.Duration, layout string) string { return time.Now().Add(d).UTC().Format(layout) }
	for value, want := range map[string]time.Duration{
		"": 0, "0": 0, "1": time.Second, "120": 2 * time.Minute, " 7 ": 7 * time.Second,
		"-1": 0, "1.5": 0, "soon": 0, "+5": 0, "0x10": 0,
		"99999999999999999999": 24 * time.Hour, "315360000": 24 * time.Hour, // ten years
		at(30*time.Second, http.TimeFormat):               30 * time.Second,
		at(2*time.Hour, http.TimeFormat):                  2 * time.Hour,
		at(time.Minute, "Monday, 02-Jan-06 15:04:05 GMT"): time.Minute,      // RFC 850
		at(10*time.Second, "Mon Jan _2 15:04:05 2006"):    10 * time.Second, // ANSI C asctime
		at(-time.Hour, http.TimeFormat):                   0,                // in the past: now
		at(30*time.Second, time.RFC3339):                  0,                // not an HTTP date
		"Fri, 31 Dec 9999 23:59:59 GMT":                   24 * time.Hour,
	} {
		c, _ := answering(t, respond(429, `{"error":"wait"}`, "Retry-After", value), mintlify.WithMaxRetries(0))
		_, err := c.GetJob(context.Background(), "job_1")
		var apiErr *mintlify.APIError
		require.ErrorAs(t, err, &apiErr, "%q", value)
		assert.InDelta(t, want, apiErr.RetryAfter, float64(2*time.Second), "%q", value)
		assert.GreaterOrEqual(t, apiErr.RetryAfter, time.Duration(0), "%q", value)
	}
}

// TestMaxRetriesZeroMakesOneAttempt: WithMaxRetries(0) turns retries off
// for reads and creates alike.
func TestMaxRetriesZeroMakesOneAttempt(t *testing.T) {
	t.Parallel()
	c, mt := newClient(t, mintlify.WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, testBase+"/v2/agent/proj_42/job/job_1", respond(503, ""))
	mt.RegisterResponder(http.MethodPost, testBase+"/v2/agent/proj_42/job", respond(429, ""))
	_, err := c.GetJob(context.Background(), "job_1")
	require.ErrorIs(t, err, mintlify.ErrServer)
	_, err = c.CreateJob(context.Background(), "p")
	require.ErrorIs(t, err, mintlify.ErrRateLimited)
	assert.Equal(t, 2, mt.GetTotalCallCount())
}

// TestRetriesExhaustedReturnTheLastAnswer: the error is the last answer,
// not the first.
func TestRetriesExhaustedReturnTheLastAnswer(t *testing.T) {
	t.Parallel()
	c, mt := answering(t, inOrder(respond(503, `{"error":"first"}`), respond(502, `{"error":"second"}`),
		respond(429, `{"error":"third"}`, "Retry-After", "0", "X-Request-Id", "req_3")), mintlify.WithMaxRetries(2))
	_, err := c.GetJob(context.Background(), "job_1")
	require.ErrorIs(t, err, mintlify.ErrRateLimited)
	var apiErr *mintlify.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "third", apiErr.Message)
	assert.Equal(t, "req_3", apiErr.RequestID)
	assert.Equal(t, 3, mt.GetTotalCallCount())
}

// TestOnlyTheFinalAnswerCounts: the retry policy first sees a 429 whose
// Retry-After is just beyond the maximum wait, but the slow error body
// takes long enough that, on its second look, the wait fits and the call
// is retried: the job that retry created must be returned, not the old
// 429 (which would invite the caller to create a second job).
func TestOnlyTheFinalAnswerCounts(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
			w.(http.Flusher).Flush()
			time.Sleep(1500 * time.Millisecond)
			w.Write([]byte(`{"error":"slow down"}`))
			return
		}
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(goodJob))
	}))
	defer srv.Close()
	c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID("p"), mintlify.WithBaseURL(srv.URL),
		mintlify.WithRetryWait(time.Millisecond, time.Second))
	require.NoError(t, err)
	job, err := c.CreateJob(context.Background(), "once")
	if calls.Load() == 2 {
		require.NoError(t, err, "the retry succeeded, so the call did")
		assert.Equal(t, "job_1", job.ID)
	} else {
		assert.ErrorIs(t, err, mintlify.ErrRateLimited)
	}
}

// TestEveryMethodEndsWhenItsContextDoes: a call stops at once (well within a
// second, every retry wait being 10s) with the context's error, after
// the requests it had sent: none on a context already done, one when the
// context ends while the call waits to retry (the server refused that
// request: safe to send again, not ErrOutcomeUnknown) or while the server
// works (a call that may create something may have: ErrOutcomeUnknown).
func TestEveryMethodEndsWhenItsContextDoes(t *testing.T) {
	t.Parallel()
	for _, m := range methods {
		for _, when := range []string{"already done", "waiting to retry", "while the server works"} {
			t.Run(m.name+"/"+when, func(t *testing.T) {
				t.Parallel()
				holdTimingSlot(t)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				answer, sent, unknown := respond(m.status, m.good), 1, false
				switch when {
				case "already done":
					cancel()
					sent = 0
				case "waiting to retry":
					status := 503
					if m.creates {
						status = 429 // the one refusal a create is retried on
					}
					// The client closes the answer's body once it has decided
					// to retry: cancel from there, while it goes to sleep.
					answer = respondThen(status, "", cancel)
				default:
					answer = func(req *http.Request) (*http.Response, error) {
						cancel() // the caller gives up while the server works
						<-req.Context().Done()
						return nil, req.Context().Err()
					}
					unknown = m.creates
				}
				c, mt := answering(t, answer, mintlify.WithRetryWait(10*time.Second, 10*time.Second))
				start := time.Now()
				got, err := m.call(ctx, c)
				assert.Less(t, time.Since(start), time.Second)
				assertNoResult(t, got)
				require.ErrorIs(t, err, context.Canceled)
				assert.Equal(t, unknown, errors.Is(err, mintlify.ErrOutcomeUnknown))
				assert.Equal(t, sent, mt.GetTotalCallCount())
			})
		}
	}
}
