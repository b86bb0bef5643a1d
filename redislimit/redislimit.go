// Package redislimit keeps the rate limit of a [mintlify.AssistantProxy]
// in Redis, so that every replica of a backend shares one limit: three
// replicas behind a load balancer allow a client 20 messages a minute, not
// 60.
//
// It counts as the proxy's in-process default does (the generic cell rate
// algorithm: a burst of up to n, then one every per/n), in one Lua script,
// so that replicas asking at the same moment never both take the last
// turn. Time is Redis's own clock, read inside the script, so the
// replicas' clocks need not agree. It is a module of its own: the SDK's
// users who do not need it get no Redis dependency.
package redislimit

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/redis/go-redis/v9"
)

// checkTimeout bounds one check: Redis answers in well under a
// millisecond, so a check this slow means Redis is stalled, and the proxy
// had better answer 503 than hold the browser.
const checkTimeout = time.Second

// keyPrefix begins every key the limiter writes; a client's key follows
// as a hash.
const keyPrefix = "mintlify-proxy-limit:"

// gcra is the check. KEYS[1] is one client's key, which holds the time,
// in microseconds of Redis's clock, at which the client's count is back
// to zero; ARGV are the interval and the tolerance (per - interval), in
// microseconds. It returns 0 when the message may go, else how many
// microseconds to wait, and writes the key back either way, to expire
// when the count is back to zero. A value that is not a time (another
// program's, or none) counts as zero; one beyond what the script ever
// writes means Redis's clock went back, and is written back as a spent
// burst, so a client waits one interval rather than as long as the clock
// jumped.
var gcra = redis.NewScript(`
local t = redis.call('TIME')
local now = t[1] * 1000000 + t[2]
local interval, tolerance = tonumber(ARGV[1]), tonumber(ARGV[2])
local stored = redis.pcall('GET', KEYS[1])
local tat = type(stored) == 'string' and tonumber(stored) or nil
if not (tat and tat >= now) then tat = now end
tat = math.min(math.floor(tat), now + tolerance + interval)
local wait = math.max(tat - now - tolerance, 0)
if wait == 0 then tat = tat + interval end
redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', string.format('%.0f', math.ceil((tat - now) / 1000)))
return wait
`)

// Limiter is a [mintlify.ProxyLimiter] whose counts live in Redis: give
// each replica's proxy one through [mintlify.WithProxyLimiter], all on the
// same Redis. Make it with [New]; it is safe for concurrent use.
type Limiter struct {
	rdb                 redis.Scripter
	interval, tolerance time.Duration
	timeout             time.Duration
}

var _ mintlify.ProxyLimiter = (*Limiter)(nil)

// New makes a [Limiter] that allows each client n messages every per
// through rdb (a *redis.Client, *redis.ClusterClient or *redis.Ring, for
// Redis 5 or newer): a burst of up to n, then one every per/n, as
// [mintlify.WithProxyRateLimit] does in one process. New(rdb, 20,
// time.Minute) is the proxy's default. A nil rdb, n below 1 and per/n
// under a microsecond are [mintlify.ErrInvalidInput].
func New(rdb redis.Scripter, n int, per time.Duration) (*Limiter, error) {
	if rdb == nil || n < 1 || per/time.Duration(n) < time.Microsecond {
		return nil, fmt.Errorf("%w: redislimit: %d per %s: want a Redis client, n ≥ 1 and per/n of at least 1µs", mintlify.ErrInvalidInput, n, per)
	}
	interval := (per / time.Duration(n)).Truncate(time.Microsecond)
	return &Limiter{rdb: rdb, interval: interval, tolerance: per.Truncate(time.Microsecond) - interval, timeout: checkTimeout}, nil
}

// Allow counts one message of the client key and says whether it may go,
// or else how long the client should wait. The key is stored hashed: its
// size and characters do not matter, and no user ID is stored in the
// clear. Each key expires once its count is back to zero.
//
// A check returns by the time ctx is done or a second has passed,
// whichever is first, even if Redis does not answer (the script may
// still run after it): an error then, as for any failure of Redis, which
// the proxy answers with 503 rather than waive the limit.
func (l *Limiter) Allow(ctx context.Context, key string) (bool, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	keys := []string{redisKey(key)}
	done := make(chan *redis.Cmd, 1)
	go func() { done <- gcra.Run(ctx, l.rdb, keys, l.interval.Microseconds(), l.tolerance.Microseconds()) }()
	select {
	case cmd := <-done:
		wait, err := cmd.Int64()
		if err != nil {
			return false, 0, fmt.Errorf("redislimit: %w", err)
		}
		return wait == 0, time.Duration(wait) * time.Microsecond, nil
	case <-ctx.Done():
		return false, 0, fmt.Errorf("redislimit: no answer from Redis: %w", context.Cause(ctx))
	}
}

// redisKey is where the count of the client key lives: the key's SHA-256,
// so that every client's entry has the same small size whatever its key.
func redisKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return keyPrefix + base64.RawURLEncoding.EncodeToString(sum[:])
}
