package mintlify_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// TestMain fails the run if any test of the root package leaves a goroutine
// behind: a response body nobody closed, a retry sleeping past its call, a
// poller that outlived its context, a server or connection a test forgot.
// It is the only TestMain of the package (internal and external tests share
// one binary).
//
// No goroutine is ignored: tests close their servers (mockserver.Start and
// httptest servers close in t.Cleanup, and closing a server also ends the
// client side of its keep-alive connections), and tests that build their
// own transport close its idle connections in cleanup.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// leakDialer counts the connections a transport opens.
type leakDialer struct {
	net.Dialer
	dials atomic.Int64
}

func (d *leakDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d.dials.Add(1)
	return d.Dialer.DialContext(ctx, network, addr)
}

// leakBodies wraps a transport and counts the response bodies it hands out
// and those closed, and how many bytes of them were left unread at Close.
type leakBodies struct {
	next                  http.RoundTripper
	opened, closed, early atomic.Int64
}

func (l *leakBodies) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	l.opened.Add(1)
	resp.Body = &leakBody{ReadCloser: resp.Body, owner: l}
	return resp, nil
}

type leakBody struct {
	io.ReadCloser
	owner *leakBodies
	once  sync.Once
	eof   bool
}

func (b *leakBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

func (b *leakBody) Close() error {
	b.once.Do(func() {
		b.owner.closed.Add(1)
		if !b.eof {
			b.owner.early.Add(1)
		}
	})
	return b.ReadCloser.Close()
}

// leakClient is a client of srv whose transport counts dials and bodies.
func leakClient(t *testing.T, srv *mockserver.Server, opts ...mintlify.Option) (*mintlify.Client, *leakDialer, *leakBodies) {
	t.Helper()
	dialer := &leakDialer{}
	tr := &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 4}
	t.Cleanup(tr.CloseIdleConnections)
	bodies := &leakBodies{next: tr}
	c, err := mintlify.NewClient(append([]mintlify.Option{
		mintlify.WithAPIKey(srv.APIKey()),
		mintlify.WithProjectID(srv.ProjectID()),
		mintlify.WithBaseURL(srv.URL()),
		mintlify.WithHTTPClient(&http.Client{Transport: bodies, Timeout: 5 * time.Second}),
		mintlify.WithRetryWait(time.Millisecond, 20*time.Millisecond),
	}, opts...)...)
	require.NoError(t, err)
	return c, dialer, bodies
}

// TestConnectionIsReusedAcrossCalls makes 1,000 GetJob calls, with error
// answers (404, 400, a 429 not waited on, a 503 retried) and visitors pages
// in between, one after the other: every body is read to the end and
// closed, so they all share one connection.
func TestConnectionIsReusedAcrossCalls(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithoutRateLimits(), mockserver.WithVisits(relVisits()...))
	c, dialer, bodies := leakClient(t, srv)
	ctx := relContext(t, 60*time.Second)
	job, err := c.CreateJob(ctx, "A job read a thousand times")
	require.NoError(t, err)
	archived, err := c.CreateJob(ctx, "An archived job")
	require.NoError(t, err)
	require.NoError(t, srv.ArchiveJob(archived.ID))

	for i := range 1000 {
		got, err := c.GetJob(ctx, job.ID)
		require.NoError(t, err)
		require.Equal(t, job.ID, got.ID)
		switch i % 50 {
		case 1:
			_, err = c.GetJob(ctx, "job_missing")
			require.ErrorIs(t, err, mintlify.ErrNotFound)
		case 2:
			_, err = c.GetVisitors(ctx, relVisitorsParams)
			require.NoError(t, err)
		case 3:
			_, err = c.SendMessage(ctx, archived.ID, "Too late")
			require.ErrorIs(t, err, mintlify.ErrBadRequest)
		case 4:
			require.NoError(t, srv.InjectFault(mockserver.FaultRule{Route: mockserver.RouteVisitors, Times: 1,
				Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 429, RetryAfter: time.Hour}}))
			_, err = c.GetVisitors(ctx, relVisitorsParams)
			require.ErrorIs(t, err, mintlify.ErrRateLimited)
		case 5:
			require.NoError(t, srv.InjectFault(mockserver.FaultRule{Route: mockserver.RouteGetJob, Times: 1,
				Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 503}}))
			_, err = c.GetJob(ctx, job.ID)
			require.NoError(t, err, "retried after the 503")
		}
	}

	requests := int64(len(srv.Journal()))
	assert.Greater(t, requests, int64(1100))
	assert.Equal(t, int64(1), dialer.dials.Load(), "connections opened for %d requests", requests)
	assert.Equal(t, requests, bodies.opened.Load(), "bodies")
	assert.Equal(t, bodies.opened.Load(), bodies.closed.Load(), "bodies closed")
	assert.Zero(t, bodies.early.Load(), "bodies closed before their end")
}

// TestBodiesAreClosedWhateverHappens runs every method while half of all
// requests meet a fault of some kind, and checks that every response body
// the transport handed out was closed by the time the calls returned.
func TestBodiesAreClosedWhateverHappens(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithoutRateLimits(), mockserver.WithVisits(relVisits()...),
		mockserver.WithJobDuration(0), mockserver.WithFaultSeed(11), mockserver.WithFaults(relMix("*", 0.5, relEveryFault)...))
	c, _, bodies := leakClient(t, srv)
	ctx := relContext(t, 60*time.Second)

	var ids []string
	for range 30 {
		if job, err := c.CreateJob(ctx, "Close every body"); err == nil {
			ids = append(ids, job.ID)
		}
	}
	require.NotEmpty(t, ids)
	for _, id := range ids {
		_, _ = c.GetJob(ctx, id)
		_, _ = c.SendMessage(ctx, id, "And again")
		_, _ = c.PollJob(ctx, id, mintlify.WithPollInterval(time.Millisecond))
		for _, err := range c.Visitors(ctx, mintlify.VisitorsParams{Limit: 4}) {
			if err != nil {
				break
			}
		}
	}
	require.NoError(t, ctx.Err())
	assert.Positive(t, bodies.opened.Load())
	assert.Equal(t, bodies.opened.Load(), bodies.closed.Load(), "every body was closed")
	t.Logf("%d requests, %d bodies, %d closed before their end (truncated, trickling or error bodies)",
		len(srv.Journal()), bodies.opened.Load(), bodies.early.Load())
}
