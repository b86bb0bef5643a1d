package redislimit_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
	"github.com/docsagent/mintlify-go/redislimit"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const chatBody = `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}]}`

// upstream is the assistant API every replica sends to: the bundled mock
// (its own limits off, so that only the proxies refuse), behind a handler
// that counts the messages as they arrive.
type upstream struct {
	url, key, domain string
	messages         atomic.Int64
}

func newUpstream(t *testing.T) *upstream {
	mock := mockserver.Start(t, mockserver.WithoutRateLimits())
	u := &upstream{key: mock.AssistantKey(), domain: mock.Domain()}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/message") {
			u.messages.Add(1)
		}
		mock.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	u.url = srv.URL
	return u
}

// replica starts one replica of a backend: an assistant client and an
// AssistantProxy of its own, behind its own HTTP server, sending to up. It
// returns the server's URL.
func replica(t *testing.T, up *upstream, opts ...mintlify.ProxyOption) string {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	a, err := mintlify.NewAssistantClient(mintlify.WithAPIKey(up.key), mintlify.WithDomain(up.domain),
		mintlify.WithBaseURL(up.url+"/discovery"), mintlify.WithHTTPClient(&http.Client{Transport: tr}))
	require.NoError(t, err)
	p, err := mintlify.NewAssistantProxy(a, opts...)
	require.NoError(t, err)
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL
}

// limiter is a Limiter on s of n messages every per, with a Redis client
// of its own, as each replica has.
func limiter(t *testing.T, s *redisServer, n int, per time.Duration) *redislimit.Limiter {
	t.Helper()
	l, err := redislimit.New(s.client(t), n, per)
	require.NoError(t, err)
	return l
}

// byUser counts each request by its X-User header.
var byUser = mintlify.WithProxyIdentity(func(r *http.Request) (mintlify.ProxyIdentity, error) {
	return mintlify.ProxyIdentity{RateKey: r.Header.Get("X-User")}, nil
})

// answer is what a browser sees of one message.
type answer struct {
	status     int
	retryAfter string
}

// post sends one message to a replica as user (no X-User header when
// "") and reads the whole answer.
func post(t *testing.T, url, user string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(chatBody))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if user != "" {
		req.Header.Set("X-User", user)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	require.NoError(t, err)
	return answer{resp.StatusCode, resp.Header.Get("Retry-After")}
}

// retrySeconds reads a 429's Retry-After: one message more every 3
// seconds at 20 a minute, so 1 to 3 seconds, as time passed since the
// burst began.
func retrySeconds(t *testing.T, a answer) int {
	t.Helper()
	n, err := strconv.Atoi(a.retryAfter)
	require.NoError(t, err, "Retry-After %q", a.retryAfter)
	return n
}

func TestReplicasShareOneLimit(t *testing.T) {
	s, up := startRedis(t), newUpstream(t)
	var replicas []string
	for range 3 {
		replicas = append(replicas, replica(t, up, mintlify.WithProxyLimiter(limiter(t, s, 20, time.Minute))))
	}
	var got []int
	for i := range 20 {
		got = append(got, post(t, replicas[i%3], "").status) // the load balancer takes turns
	}
	assert.Equal(t, slices.Repeat([]int{200}, 20), got)
	assert.EqualValues(t, 20, up.messages.Load())

	for _, r := range replicas {
		a := post(t, r, "")
		assert.Equal(t, http.StatusTooManyRequests, a.status, "the 21st message in a minute, on any replica")
		assert.InDelta(t, 2, retrySeconds(t, a), 1)
	}
	assert.EqualValues(t, 20, up.messages.Load(), "nothing refused went upstream")

	// One process with the proxy's in-process default answers the same.
	alone := replica(t, up)
	var want []int
	for range 20 {
		want = append(want, post(t, alone, "").status)
	}
	assert.Equal(t, want, got)
	a := post(t, alone, "")
	assert.Equal(t, http.StatusTooManyRequests, a.status)
	assert.InDelta(t, 2, retrySeconds(t, a), 1)
}

// Replicas asking for the same client's last turns at the same moment:
// the script runs whole, so exactly the limit is allowed.
func TestReplicasRaceForTheLastTurn(t *testing.T) {
	s := startRedis(t)
	limiters := []*redislimit.Limiter{limiter(t, s, 20, time.Minute), limiter(t, s, 20, time.Minute), limiter(t, s, 20, time.Minute)}
	var allowed, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, wait, err := limiters[i%3].Allow(context.Background(), "client:ada")
			assert.NoError(t, err)
			if ok {
				allowed.Add(1)
			} else if assert.Greater(t, wait, time.Duration(0)) {
				refused.Add(1)
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 20, allowed.Load())
	assert.EqualValues(t, 40, refused.Load())
}

func TestClientsHaveBudgetsOfTheirOwn(t *testing.T) {
	s, up := startRedis(t), newUpstream(t)
	a := replica(t, up, byUser, mintlify.WithProxyLimiter(limiter(t, s, 20, time.Minute)))
	b := replica(t, up, byUser, mintlify.WithProxyLimiter(limiter(t, s, 20, time.Minute)))
	for i := range 20 {
		require.Equal(t, 200, post(t, []string{a, b}[i%2], "ada").status)
	}
	assert.Equal(t, 429, post(t, b, "ada").status)
	assert.Equal(t, 200, post(t, a, "grace").status, "another user")
	assert.Equal(t, 200, post(t, b, "").status, "no user: counted by the remote address")
	assert.Equal(t, 200, post(t, a, "Ada").status, "a key that differs in case")
	assert.Equal(t, 429, post(t, a, "ada").status)
	assert.EqualValues(t, 23, up.messages.Load())
}

func TestRedisDownIs503ThenBack(t *testing.T) {
	s, up := startRedis(t), newUpstream(t)
	r := replica(t, up, mintlify.WithProxyLimiter(limiter(t, s, 20, time.Minute)))
	require.Equal(t, 200, post(t, r, "").status)

	s.stop()
	for range 2 {
		a := post(t, r, "")
		assert.Equal(t, http.StatusServiceUnavailable, a.status, "a limit that cannot be checked is not waived")
		assert.Empty(t, a.retryAfter)
	}
	assert.EqualValues(t, 1, up.messages.Load(), "nothing sent upstream while Redis is down")

	require.NoError(t, s.start(), "the same port again")
	for range 3 {
		assert.Equal(t, 200, post(t, r, "").status, "Redis back: messages pass again")
	}
	assert.EqualValues(t, 4, up.messages.Load())
}

// A Redis that does not answer (frozen, as a stalled server is) costs a
// check at most its timeout, or less if the caller's context ends first.
func TestSlowRedisIsBounded(t *testing.T) {
	s, up := startRedis(t), newUpstream(t)
	l := limiter(t, s, 20, time.Minute)
	l.SetTimeout(300 * time.Millisecond)
	r := replica(t, up, mintlify.WithProxyLimiter(l))
	require.Equal(t, 200, post(t, r, "").status)

	s.freeze(t)
	start := time.Now()
	assert.Equal(t, http.StatusServiceUnavailable, post(t, r, "").status)
	assert.Less(t, time.Since(start), 2*time.Second, "the limiter's timeout, not Redis's silence")
	assert.EqualValues(t, 1, up.messages.Load())

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start = time.Now()
	ok, _, err := l.Allow(ctx, "client:ada")
	assert.False(t, ok)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 250*time.Millisecond, "the caller's deadline, shorter than the limiter's")

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, _, err = l.Allow(ctx, "client:ada")
	assert.ErrorIs(t, err, context.Canceled, "a browser that went away")

	s.thaw(t)
	assert.Equal(t, 200, post(t, r, "").status, "Redis answers again: so does the limiter")
}

// Keys of any size and characters: each its own budget, stored at a
// fixed size with none of its text.
func TestOddKeys(t *testing.T) {
	s := startRedis(t)
	l := limiter(t, s, 1, time.Hour)
	keys := []string{"", " ", "\x00", "a\r\nb", "*", "{tag}", "rate:*", "ключ", "\xff\xfe", "%s%n", strings.Repeat("k", 1<<20), strings.Repeat("k", 1<<20-1) + "j"}
	ctx := context.Background()
	for _, k := range keys {
		ok, _, err := l.Allow(ctx, k)
		require.NoError(t, err)
		assert.True(t, ok, "first message of %.20q", k)
	}
	for _, k := range keys {
		ok, wait, err := l.Allow(ctx, k)
		require.NoError(t, err)
		assert.False(t, ok, "second message of %.20q", k)
		assert.InDelta(t, time.Hour, wait, float64(time.Second))
	}
	rdb := s.client(t)
	stored, err := rdb.Keys(ctx, "*").Result()
	require.NoError(t, err)
	assert.Len(t, stored, len(keys))
	for _, k := range stored {
		assert.Equal(t, len(redislimit.RedisKey("")), len(k), "stored as %.40q", k)
		assert.True(t, strings.HasPrefix(k, "mintlify-proxy-limit:"), "stored as %.40q", k)
		ttl, err := rdb.PTTL(ctx, k).Result()
		require.NoError(t, err)
		assert.True(t, ttl > 59*time.Minute && ttl <= time.Hour, "expires once the count is back to zero: %s", ttl)
	}
}

// What another program (or an old version) left under a client's key is
// not trusted: anything that is not a time counts as no messages, and a
// time further ahead than the limiter ever writes (Redis's clock went
// back, or a replica of Redis took over with a clock behind) costs one
// interval, not the jump.
func TestStoredValuesAreNotTrusted(t *testing.T) {
	s := startRedis(t)
	rdb := s.client(t)
	ctx := context.Background()
	l := limiter(t, s, 20, time.Minute)
	now, err := rdb.Time(ctx).Result()
	require.NoError(t, err)
	for stored, want := range map[string]bool{
		"":                                true,
		"garbage":                         true,
		"nan":                             true,
		"-1":                              true,
		"0x10":                            true,
		"12345.5":                         true,
		micros(now.Add(57 * time.Second)): true,  // 19 used
		micros(now.Add(time.Minute)):      false, // 20 used
		micros(now.Add(time.Hour)):        false, // the clock went back an hour
		micros(now.Add(100 * 365 * 24 * time.Hour)): false,
		"inf":   false,
		"1e300": false,
	} {
		key := "client:" + stored
		require.NoError(t, rdb.Set(ctx, redislimit.RedisKey(key), stored, 0).Err())
		ok, wait, err := l.Allow(ctx, key)
		require.NoError(t, err, "stored %q", stored)
		assert.Equal(t, want, ok, "stored %q", stored)
		if !ok {
			assert.True(t, wait > 0 && wait <= 3*time.Second, "stored %q: wait %s, one interval at most", stored, wait)
		}
		ttl, err := rdb.PTTL(ctx, redislimit.RedisKey(key)).Result()
		require.NoError(t, err)
		assert.True(t, ttl > 0 && ttl <= time.Minute, "stored %q: expires within the window, not %s", stored, ttl)
	}

	// Another type altogether: replaced.
	require.NoError(t, rdb.RPush(ctx, redislimit.RedisKey("client:list"), "x").Err())
	ok, _, err := l.Allow(ctx, "client:list")
	require.NoError(t, err)
	assert.True(t, ok)
}

func micros(t time.Time) string { return strconv.FormatInt(t.UnixMicro(), 10) }

// After the burst, one message every per/n; a key is gone once its count
// is back to zero.
func TestSteadyRateAfterTheBurst(t *testing.T) {
	s := startRedis(t)
	rdb := s.client(t)
	ctx := context.Background()
	l := limiter(t, s, 2, 400*time.Millisecond)
	for range 2 {
		ok, _, err := l.Allow(ctx, "client:ada")
		require.NoError(t, err)
		require.True(t, ok)
	}
	ok, wait, err := l.Allow(ctx, "client:ada")
	require.NoError(t, err)
	require.False(t, ok)
	assert.True(t, wait > 0 && wait <= 200*time.Millisecond, "one every 200ms: wait %s", wait)
	time.Sleep(wait)
	ok, _, err = l.Allow(ctx, "client:ada")
	require.NoError(t, err)
	assert.True(t, ok, "after the wait Retry-After named")

	ttl, err := rdb.PTTL(ctx, redislimit.RedisKey("client:ada")).Result()
	require.NoError(t, err)
	require.True(t, ttl > 0 && ttl <= 400*time.Millisecond, "ttl %s", ttl)
	time.Sleep(ttl + 50*time.Millisecond)
	n, err := rdb.Exists(ctx, redislimit.RedisKey("client:ada")).Result()
	require.NoError(t, err)
	assert.Zero(t, n, "nothing left behind")
}

func TestNewRefusesBadLimits(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}) // New does not connect
	for _, c := range []struct {
		rdb redis.Scripter
		n   int
		per time.Duration
	}{{nil, 20, time.Minute}, {rdb, 0, time.Minute}, {rdb, -1, time.Minute}, {rdb, 20, 0}, {rdb, 20, -time.Minute}, {rdb, 1000, time.Millisecond - 1}} {
		_, err := redislimit.New(c.rdb, c.n, c.per)
		assert.ErrorIs(t, err, mintlify.ErrInvalidInput, "%d per %s", c.n, c.per)
	}
	_, err := redislimit.New(rdb, 1000, time.Millisecond)
	assert.NoError(t, err, "one every microsecond")
}
