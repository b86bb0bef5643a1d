package main

import (
	"context"
	"net/http"

	mintlify "github.com/docsagent/mintlify-go"
)

type counterKey struct{}

// requestCounter receives each request an export sends, retries included.
type requestCounter interface {
	addRequests(n int)
	addPage()
}

func withRequestCounter(ctx context.Context, c requestCounter) context.Context {
	return context.WithValue(ctx, counterKey{}, c)
}

// countingTransport counts every request sent under a context that
// carries a counter, and every 2xx answer as a page.
type countingTransport struct{ base http.RoundTripper }

func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c, _ := req.Context().Value(counterKey{}).(requestCounter)
	if c != nil {
		c.addRequests(1)
	}
	resp, err := t.base.RoundTrip(req)
	if c != nil && err == nil && resp.StatusCode/100 == 2 {
		c.addPage()
	}
	return resp, err
}

// clientOptions are the client options every command shares.
func (a *app) clientOptions() []mintlify.Option {
	t := http.DefaultTransport.(*http.Transport).Clone()
	return []mintlify.Option{mintlify.WithHTTPClient(&http.Client{
		Transport: countingTransport{t},
		// The API never redirects; following one would carry the key along.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	})}
}
