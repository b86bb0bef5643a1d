package mintlify

// IndexClientOf is an IndexClient over c's request path, for the method
// table of the external tests (methods_test.go): their clients carry the
// test key, transports and options every check of the table needs, and
// the Index calls must meet the same checks. Outside the tests the only
// way to an IndexClient is NewIndexClient, which takes Index keys alone.
func IndexClientOf(c *Client) *IndexClient { return &IndexClient{c: c} }
