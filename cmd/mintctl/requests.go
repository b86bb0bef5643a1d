package main

import (
	"context"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
)

type counterKey struct{}

// requestCounter receives what an export spends of the hourly quota.
type requestCounter interface {
	addRequests(n int)
	addPage()
}

// withRequestCounter makes the calls under ctx report to c.
func withRequestCounter(ctx context.Context, c requestCounter) context.Context {
	return context.WithValue(ctx, counterKey{}, c)
}

// clientOptions are the options every client of mintctl shares, whatever
// its API: the key, the address ($baseEnv, else def), mintctl's
// User-Agent, --max-retry-wait, and a response observer that counts every
// request sent, retries included, for the calls whose context carries a
// counter.
func (a *app) clientOptions(key, baseEnv, def string) []mintlify.Option {
	base, _ := a.lookupEnv(baseEnv)
	if base == "" {
		base = def
	}
	opts := []mintlify.Option{
		mintlify.WithAPIKey(key),
		mintlify.WithBaseURL(base),
		mintlify.WithUserAgent("mintctl/" + mintlify.Version),
		mintlify.WithRetryWait(min(500*time.Millisecond, a.maxRetryWait), a.maxRetryWait),
		mintlify.WithResponseObserver(func(ctx context.Context, r *mintlify.Response) {
			c, _ := ctx.Value(counterKey{}).(requestCounter)
			if c == nil {
				return
			}
			c.addRequests(r.Attempts)
			if r.StatusCode/100 == 2 {
				c.addPage()
			}
		}),
	}
	if allow, _ := a.lookupEnv(envAllowHTTP); allow == "1" {
		opts = append(opts, mintlify.WithInsecureHTTP())
	}
	return append(opts, a.clientExtras...)
}
