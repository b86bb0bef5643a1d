package mintlify_test

// The one poller behind PollJob, PollDeployment and PollStaticExport: it
// returns the resource on every terminal status, stops at once on what
// waiting cannot fix, goes on through transient failures up to five in a
// row, owns the waits (Retry-After included) and ends with its context.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// TestEveryPollerReturnsOnEveryTerminalStatus: a terminal status, a failed
// one included, is a result, not an error: the caller reads Status. The
// observer sees every state read, in order, and the last is what the
// poller returns; a failed read is no state.
func TestEveryPollerReturnsOnEveryTerminalStatus(t *testing.T) {
	t.Parallel()
	for _, m := range pollers() {
		p := m.poller
		for _, final := range p.terminal {
			t.Run(m.name+"/"+final, func(t *testing.T) {
				t.Parallel()
				c, mt := answering(t, inOrder(respond(200, p.answer(p.running[0])), respond(503, ""),
					respond(200, p.answer(p.running[1])), respond(200, p.answer(final))), mintlify.WithMaxRetries(0))
				var seen []string
				var last any
				got, err := p.poll(context.Background(), c, append(quickPoll, p.observe(func(v any, s string) { seen, last = append(seen, s), v }))...)
				require.NoError(t, err, "a terminal status is not an error")
				assert.Equal(t, []string{p.running[0], p.running[1], final}, seen)
				assert.Same(t, last, got, "the observer sees what the poller returns")
				assert.Equal(t, 4, mt.GetTotalCallCount())
			})
		}
	}
}

// TestEveryPollerStopsAtOnceOnHardErrors: an answer waiting cannot fix
// ends the poll at once, naming the resource.
func TestEveryPollerStopsAtOnceOnHardErrors(t *testing.T) {
	t.Parallel()
	for _, m := range pollers() {
		p := m.poller
		for _, status := range []int{400, 401, 403, 404} {
			t.Run(fmt.Sprintf("%s/%d", m.name, status), func(t *testing.T) {
				t.Parallel()
				c, mt := answering(t, inOrder(respond(200, p.answer(p.running[0])), respond(status, `{"error":"no such thing"}`),
					respond(200, p.answer(p.terminal[0]))))
				got, err := p.poll(context.Background(), c, quickPoll...)
				assertNoResult(t, got)
				require.ErrorIs(t, err, sentinelOf(status))
				var apiErr *mintlify.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, status, apiErr.StatusCode)
				assert.Contains(t, err.Error(), m.id)
				assert.Equal(t, 2, mt.GetTotalCallCount())
			})
		}
	}
}

// TestEveryPollerGoesOnThroughTransientFailures: 5xx, 429, network errors
// and malformed answers are read again; a good read resets the count.
func TestEveryPollerGoesOnThroughTransientFailures(t *testing.T) {
	t.Parallel()
	for _, m := range pollers() {
		p := m.poller
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			running := respond(200, p.answer(p.running[0]))
			// No client retries: the poller sees every failure itself.
			c, mt := answering(t, inOrder(running, respond(503, ""), respond(503, ""), running,
				respond(502, "<html>bad gateway</html>"), respond(429, `{"error":"slow down"}`), running,
				httpmock.NewErrorResponder(errors.New("connection reset by peer")),
				respond(200, p.answer(p.terminal[0])[:20]), // a truncated answer
				respond(200, p.answer(p.terminal[0]))), mintlify.WithMaxRetries(0))
			got, err := p.poll(context.Background(), c, quickPoll...)
			require.NoError(t, err)
			assert.NotNil(t, got)
			assert.Equal(t, 10, mt.GetTotalCallCount())
		})
	}
}

// TestEveryPollerGivesUpAfterFiveFailedReads: five failures in a row end
// the poll with the last one, so a hard failure surfaces long before the
// caller's deadline; so do answers in a status that is no status (not a
// token of lower-case letters, digits, _ and -, 1 to 64 bytes).
func TestEveryPollerGivesUpAfterFiveFailedReads(t *testing.T) {
	t.Parallel()
	for _, m := range pollers() {
		p := m.poller
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			c, mt := answering(t, inOrder(respond(200, p.answer(p.running[0])), respond(503, `{"error":"first"}`),
				respond(500, `{"error":"second"}`), respond(200, `{}`), respond(504, `{"error":"fourth"}`),
				respond(502, `{"error":"fifth"}`), respond(200, p.answer(p.terminal[0]))), mintlify.WithMaxRetries(0))
			got, err := p.poll(context.Background(), c, quickPoll...)
			assertNoResult(t, got)
			require.ErrorIs(t, err, mintlify.ErrServer)
			var apiErr *mintlify.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusBadGateway, apiErr.StatusCode, "the last failure")
			assert.Equal(t, "fifth", apiErr.Message)
			assert.Equal(t, 6, mt.GetTotalCallCount(), "one good read, then five failures, then stop")
			for _, status := range hostileStatuses {
				body := withKey(t, p.answer(p.running[0]), "status", status)
				c, mt := answering(t, respond(200, body), mintlify.WithMaxRetries(0))
				var seen []string
				_, err := p.poll(context.Background(), c, append(quickPoll, p.observe(func(_ any, s string) { seen = append(seen, s) }))...)
				assert.ErrorIs(t, err, mintlify.ErrMalformedResponse, "status %s", status)
				assert.Equal(t, 5, mt.GetTotalCallCount(), "status %s: a poll never waits for ever on a state that is no state", status)
				assert.Empty(t, seen, "status %s reached the observer", status)
			}
		})
	}
}

// hostileStatuses are status values (as JSON) that no vendor adds: upper
// case, punctuation, 65 bytes, empty, non-ASCII, control characters and a
// workflow command, null, a number, an object.
var hostileStatuses = []string{`"QUEUED"`, `"Queued"`, `"queued!"`, `"queued "`, `" queued"`, `"in progress"`,
	`"` + strings.Repeat("q", 65) + `"`, `""`, `"qu\u00e9ued"`, `"запущен"`, `"queued\n::error::pwned"`,
	`"\u001b[31mred"`, `"queued\u0000"`, `"::set-output name=x::y"`, `"a/b"`, `"a.b"`, `null`, `7`, `{}`, `["queued"]`, `true`}

// TestEveryPollerWaitsThroughAStatusItDoesNotKnow: a status the vendor may
// add (a well-formed token, up to 64 bytes) is kept as sent, is not
// terminal, and reaches the observer; the poller reads on until a status
// it knows ends the wait.
func TestEveryPollerWaitsThroughAStatusItDoesNotKnow(t *testing.T) {
	t.Parallel()
	for _, m := range pollers() {
		p := m.poller
		for _, unknown := range []string{p.unknown, strings.Repeat("a", 64), "0", "_-"} {
			t.Run(m.name+"/"+unknown, func(t *testing.T) {
				t.Parallel()
				c, mt := answering(t, inOrder(respond(200, p.answer(p.running[0])), respond(200, p.answer(unknown)),
					respond(200, p.answer(unknown)), respond(200, p.answer(p.terminal[0]))), mintlify.WithMaxRetries(0))
				var seen []string
				got, err := p.poll(context.Background(), c, append(quickPoll, p.observe(func(_ any, s string) { seen = append(seen, s) }))...)
				require.NoError(t, err)
				assert.NotNil(t, got)
				assert.Equal(t, []string{p.running[0], unknown, unknown, p.terminal[0]}, seen)
				assert.Equal(t, 4, mt.GetTotalCallCount())
			})
		}
	}
}

// TestEveryPollerOwnsRetryAfter: a 429 with a Retry-After (seconds or a
// date) beyond the maximum poll interval ends the poll at once with
// ErrRateLimited after one read, nothing slept inside the read although
// the client alone would wait a minute; one within it becomes the next
// wait, then the poller reads again, once: WithMaxPollInterval(100ms)
// and Retry-After: 1 take about a second.
func TestEveryPollerOwnsRetryAfter(t *testing.T) {
	t.Parallel()
	for _, m := range pollers() {
		p := m.poller
		for _, form := range []string{"seconds", "HTTP date"} {
			// The date is made in each subtest: parallel subtests may start late.
			retryAfter := func() (string, time.Duration) {
				if form == "seconds" {
					return "1", time.Second
				}
				return time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat), 3 * time.Second
			}
			t.Run(m.name+"/beyond the maximum/"+form, func(t *testing.T) {
				t.Parallel()
				ra, _ := retryAfter()
				c, mt := answering(t, respond(429, `{"error":"slow down"}`, "Retry-After", ra), mintlify.WithRetryWait(time.Millisecond, time.Minute))
				started := time.Now()
				_, err := p.poll(context.Background(), c, mintlify.WithPollInterval(50*time.Millisecond), mintlify.WithMaxPollInterval(100*time.Millisecond))
				require.ErrorIs(t, err, mintlify.ErrRateLimited)
				assert.Less(t, time.Since(started), 900*time.Millisecond, "Retry-After was not slept")
				assert.Equal(t, 1, mt.GetTotalCallCount(), "one read, then the poller decided")
				readsOnce(t, err, 0)
			})
			t.Run(m.name+"/within the maximum/"+form, func(t *testing.T) {
				t.Parallel()
				ra, most := retryAfter()
				rec := &recorder{}
				c, _ := answering(t, rec.wrap(inOrder(respond(429, `{"error":"slow down"}`, "Retry-After", ra), respond(200, p.answer(p.terminal[0])))),
					mintlify.WithRetryWait(time.Millisecond, time.Minute))
				_, err := p.poll(context.Background(), c, mintlify.WithPollInterval(time.Millisecond), mintlify.WithMaxPollInterval(time.Minute))
				require.NoError(t, err)
				reqs := rec.requests()
				require.Len(t, reqs, 2)
				gap := reqs[1].At.Sub(reqs[0].At)
				assert.GreaterOrEqual(t, gap, 900*time.Millisecond, "the poller waited as asked")
				assert.Less(t, gap, most+time.Second, "and not much longer")
			})
		}
	}
}

// TestEveryPollerWaitsItsIntervals: the first wait is about the poll
// interval (jitter takes at most a fifth off), not the 5s default; and the
// growing waits stop at the maximum: 40 reads from 1ms growing by half
// each time would take hours, capped at 2ms they take well under a second.
func TestEveryPollerWaitsItsIntervals(t *testing.T) {
	t.Parallel()
	for _, m := range pollers() {
		p := m.poller
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c, _ := answering(t, rec.wrap(inOrder(respond(200, p.answer(p.running[0])), respond(200, p.answer(p.terminal[0])))))
			_, err := p.poll(context.Background(), c, mintlify.WithPollInterval(100*time.Millisecond))
			require.NoError(t, err)
			reqs := rec.requests()
			require.Len(t, reqs, 2)
			gap := reqs[1].At.Sub(reqs[0].At)
			assert.GreaterOrEqual(t, gap, 80*time.Millisecond, "jitter takes at most a fifth off")
			assert.Less(t, gap, 3*time.Second, "not the 5s default")

			rs := make([]httpmock.Responder, 39, 40)
			for i := range rs {
				rs[i] = respond(200, p.answer(p.running[0]))
			}
			c, mt := answering(t, inOrder(append(rs, respond(200, p.answer(p.terminal[0])))...))
			start := time.Now()
			_, err = p.poll(context.Background(), c, quickPoll...)
			require.NoError(t, err)
			assert.Equal(t, 40, mt.GetTotalCallCount())
			assert.Less(t, time.Since(start), 3*time.Second)
		})
	}
}

// TestEveryPollerEndsWithItsContext: the context ending while the poller
// waits (10s) or reads, by cancel or deadline, ends it at once with the
// context's error, naming the resource; when it ends after a failed read,
// the error wraps that failure too.
func TestEveryPollerEndsWithItsContext(t *testing.T) {
	t.Parallel()
	for _, m := range pollers() {
		p := m.poller
		t.Run(m.name+"/cancelled while waiting", func(t *testing.T) {
			t.Parallel()
			c, mt := answering(t, respond(200, p.answer(p.running[0])))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			start := time.Now()
			got, err := p.poll(ctx, c, mintlify.WithPollInterval(10*time.Second), p.observe(func(any, string) { cancel() }))
			assert.Less(t, time.Since(start), time.Second)
			assertNoResult(t, got)
			require.ErrorIs(t, err, context.Canceled)
			assert.Contains(t, err.Error(), m.id)
			assert.Equal(t, 1, mt.GetTotalCallCount())
		})
		t.Run(m.name+"/deadline", func(t *testing.T) {
			t.Parallel()
			c, mt := answering(t, respond(200, p.answer(p.running[0])))
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := p.poll(ctx, c, mintlify.WithPollInterval(20*time.Millisecond), mintlify.WithMaxPollInterval(time.Hour))
			assert.Less(t, time.Since(start), time.Second)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			assert.GreaterOrEqual(t, mt.GetTotalCallCount(), 1)
		})
		t.Run(m.name+"/after a failure, while waiting", func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// Cancel just after the client has read the 503: the poller is
			// then about to sleep or sleeping.
			var once sync.Once
			c, _ := answering(t, respondThen(503, `{"error":"maintenance"}`, func() {
				once.Do(func() { time.AfterFunc(20*time.Millisecond, cancel) })
			}), mintlify.WithMaxRetries(0))
			start := time.Now()
			_, err := p.poll(ctx, c, mintlify.WithPollInterval(10*time.Second))
			assert.Less(t, time.Since(start), time.Second)
			require.ErrorIs(t, err, context.Canceled)
			require.ErrorIs(t, err, mintlify.ErrServer, "the last failure is kept")
			assert.Contains(t, err.Error(), "maintenance")
		})
		t.Run(m.name+"/after a failure, while reading", func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c, mt := answering(t, inOrder(respond(503, `{"error":"maintenance"}`), func(req *http.Request) (*http.Response, error) {
				cancel()
				<-req.Context().Done()
				return nil, req.Context().Err()
			}), mintlify.WithMaxRetries(0))
			_, err := p.poll(ctx, c, quickPoll...)
			require.ErrorIs(t, err, context.Canceled)
			assert.ErrorIs(t, err, mintlify.ErrServer, "the 503 of the previous read is the last failure")
			assert.Equal(t, 2, mt.GetTotalCallCount())
		})
	}
}
