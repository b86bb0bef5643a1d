package redislimit

import "time"

// RedisKey is where the count of a client's key lives.
var RedisKey = redisKey

// SetTimeout shortens how long a check waits for Redis.
func (l *Limiter) SetTimeout(d time.Duration) { l.timeout = d }
