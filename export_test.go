package mintlify

import (
	"time"
)

// AssistantOf is, for the root tests' method table only, an assistant
// client of the site "docs.example.com" that sends through c's request
// path: c's key, transport, base URL, retries, logger and observer. The
// table's checks (echoed keys, retries, status mapping, redirects) then
// run on the assistant's routes with the table's own key and transports.
// A nil c gives a nil client, a zero c a zero one: both refused by every
// call.
func AssistantOf(c *Client) *AssistantClient {
	if c == nil {
		return nil
	}
	return &AssistantClient{c: c, domain: "docs.example.com", domainSeg: "docs.example.com"}
}

// IndexClientOf is an IndexClient over c's request path, for the method
// table of the external tests (methods_test.go): their clients carry the
// test key, transports and options every check of the table needs, and
// the Index calls must meet the same checks. Outside the tests the only
// way to an IndexClient is NewIndexClient, which takes Index keys alone.
func IndexClientOf(c *Client) *IndexClient { return &IndexClient{c: c} }

// SetProxyTimeouts shortens, for a test, how long p gives a browser's body
// to arrive and each frame of an answer to reach the browser.
func SetProxyTimeouts(p *AssistantProxy, body, frame time.Duration) {
	p.bodyTimeout, p.frameTimeout = body, frame
}
