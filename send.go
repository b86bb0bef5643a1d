package mintlify

import "context"

// request describes one API call for send. Endpoints are a few lines on
// top of it: validate the input, build a request, send it.
type request struct {
	method string
	// path is relative to the base URL, as the vendor documents it;
	// "{projectId}" stands for the client's (escaped) project ID.
	path  string
	query string // encoded, without "?"
	body  []byte // nil: no body
	// want is the documented success status (201, 202); 0 means 200.
	want int
	// idempotent marks a POST that may be retried like a GET (it only
	// mints a link, say). GETs are always idempotent.
	idempotent bool
}

// send is the one request path: every endpoint goes through it. A result
// type that implements checker has its required fields checked: a 2xx
// whose body is not the documented object is an error.
func send[T any](ctx context.Context, c *Client, r request) (*T, error) {
	return call[T](ctx, c, r.method, r.path, r.query, r.body)
}

// checker is implemented by result types with required fields: check
// reports a decoded answer that is not the documented object.
type checker interface{ check() error }
