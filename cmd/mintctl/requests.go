package main

import (
	"context"

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

// clientOptions are the client options every command shares: the
// response observer counts every request sent, retries included, for the
// calls whose context carries a counter.
func (a *app) clientOptions() []mintlify.Option {
	return []mintlify.Option{mintlify.WithResponseObserver(func(ctx context.Context, r *mintlify.Response) {
		c, _ := ctx.Value(counterKey{}).(requestCounter)
		if c == nil {
			return
		}
		c.addRequests(r.Attempts)
		if r.StatusCode/100 == 2 {
			c.addPage()
		}
	})}
}
