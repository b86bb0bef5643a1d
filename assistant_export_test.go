package mintlify

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
