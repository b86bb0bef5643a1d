package mintlify_test

// Fuzz targets for everything the client reads from the network: whatever
// a server or a proxy answers, to any method of the table, the SDK must
// not panic and must give either the documented object or a well-formed
// error. Seed corpora are in testdata/fuzz/; CI runs each target by count:
//
//	go test -run '^$' -fuzz '^FuzzEveryMethod$' -fuzztime 20000x .

import (
	"context"
	"errors"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jarcoal/httpmock"

	mintlify "github.com/docsagent/mintlify-go"
)

// fuzzKey is the key of the fuzzed clients. The marker fuzzKeyMarker in a
// fuzzed body or header is replaced by it, so the fuzzer can make a server
// or proxy echo the key wherever it likes.
const (
	fuzzKey       = "mint_fuzz_secret_4c3b2a19e8d7"
	fuzzKeyMarker = "@K"
)

var errFuzzBudget = errors.New("fuzz: request budget spent")

// fuzzStatus maps any int onto a three-digit status code, the only kind an
// HTTP/1.1 status line can carry; those are kept as they are.
func fuzzStatus(n int) int {
	if n >= 100 && n <= 999 {
		return n
	}
	return 100 + int(uint(n)%900)
}

// fuzzMethod is the row named name, or one the name hashes to.
func fuzzMethod(name string) method {
	for _, m := range methods {
		if m.name == name {
			return m
		}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return methods[int(h.Sum32()%uint32(len(methods)))]
}

// fuzzClient answers every request with the canned answer, up to 12
// requests; then requests fail, so that a walk over pages that never end
// stops soon (the SDK's own cap is 1,000 requests a walk).
func fuzzClient(t *testing.T, status int, retryAfter, contentType, requestID string, body []byte) *mintlify.Client {
	t.Helper()
	var mu sync.Mutex
	budget := 12
	echo := func(s string) string { return strings.ReplaceAll(s, fuzzKeyMarker, fuzzKey) }
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		budget--
		spent := budget < 0
		mu.Unlock()
		if spent {
			return nil, errFuzzBudget
		}
		resp := httpmock.NewBytesResponse(status, []byte(echo(string(body))))
		resp.Status = strconv.Itoa(status) + " " + http.StatusText(status)
		for name, v := range map[string]string{"Retry-After": retryAfter, "Content-Type": contentType, "X-Request-Id": requestID} {
			if v != "" {
				resp.Header[name] = []string{echo(v)}
			}
		}
		resp.Request = r
		return resp, nil
	})
	c, err := mintlify.NewClient(mintlify.WithAPIKey(fuzzKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(testBase),
		mintlify.WithHTTPClient(&http.Client{Transport: mt}), mintlify.WithMaxRetries(0),
		mintlify.WithRetryWait(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fuzzCheckError checks an error as a user sees it: printable text on one
// line, valid UTF-8, no key, one package prefix (plus the server's own);
// and for any answer outside 2xx an *APIError with the answer's status
// that matches the sentinel of its class.
func fuzzCheckError(t *testing.T, status int, body []byte, err error) {
	t.Helper()
	msg := err.Error()
	if !utf8.ValidString(msg) {
		t.Errorf("error is not valid UTF-8: %q", msg)
	}
	if i := strings.IndexFunc(msg, func(r rune) bool { return !unicode.IsPrint(r) }); i >= 0 {
		t.Errorf("error holds a non-printable character at byte %d: %q", i, msg)
	}
	if strings.Contains(msg, fuzzKey) {
		t.Errorf("error holds the key: %q", msg)
	}
	if strings.Count(msg, "mintlify: ") > 1+strings.Count(strings.ReplaceAll(string(body), fuzzKeyMarker, ""), "mintlify: ") {
		t.Errorf("the error repeats the package prefix: %s", msg)
	}
	if status >= 200 && status <= 299 {
		return
	}
	var apiErr *mintlify.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("HTTP %d gave %T, not an *APIError: %v", status, err, err)
	}
	if apiErr.StatusCode != status {
		t.Errorf("APIError.StatusCode = %d for HTTP %d", apiErr.StatusCode, status)
	}
	if apiErr.RetryAfter < 0 || apiErr.RetryAfter > 24*time.Hour {
		t.Errorf("RetryAfter %s outside 0..24h", apiErr.RetryAfter)
	}
	if !errors.Is(err, sentinelOf(status)) {
		t.Errorf("HTTP %d does not match %v", status, sentinelOf(status))
	}
	for _, field := range append([]string{apiErr.Message, apiErr.RequestID}, apiErr.Details...) {
		if strings.Contains(field, fuzzKey) {
			t.Errorf("APIError field holds the key: %q", field)
		}
	}
}

// FuzzEveryMethod serves any status, Retry-After, Content-Type, request ID
// and body (with the key echoed where the marker is) to the method named
// (or one the name hashes to). No panic; a success only for the
// documented status and object, about the resource asked for; every
// error well-formed, keyless and read once; an answer outside 2xx an
// *APIError of its class; a 2xx that gives no result ErrMalformedResponse,
// and ErrOutcomeUnknown too for a call that may have created something;
// an iterator yields nothing after its error.
func FuzzEveryMethod(f *testing.F) {
	// The seed corpus in testdata/fuzz/FuzzEveryMethod holds the error
	// format and the ways proxies and broken servers deviate from it, the
	// hostile-content classes of each method ({} / null / wrong types /
	// another resource / an undocumented status / the key, where the
	// marker is, in string fields and headers), and the finds of earlier
	// targets (FuzzJobResponse, FuzzVisitorsResponse, FuzzAnalyticsResponse).
	for _, m := range methods {
		f.Add(m.name, m.status, "", "application/json", "req_1", []byte(m.good))
	}
	f.Fuzz(func(t *testing.T, name string, status int, retryAfter, contentType, requestID string, body []byte) {
		m := fuzzMethod(name)
		status = fuzzStatus(status)
		c := fuzzClient(t, status, retryAfter, contentType, requestID, body)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		got, err := m.call(ctx, c)
		if errors.Is(err, errAfterError) {
			t.Fatalf("%s yielded again after an error", m.name)
		}
		if noResult(got) == (err == nil) && !(m.do && err == nil) { // Do may decode nothing: a 204, a null
			t.Fatalf("%s: result %v and error %v: want exactly one", m.name, got, err)
		}
		if err == nil {
			if status != m.status && status != m.also && !m.do {
				t.Fatalf("%s: HTTP %d gave a success; the route documents %d", m.name, status, m.status)
			}
			// A stream's text is the server's to choose: a well-formed
			// answer other than the table's is still a success.
			if msg := m.ok(got); msg != "" && !(m.stream && string(body) != m.good) {
				t.Fatalf("%s: a success that is not the documented object: %s", m.name, msg)
			}
			return
		}
		fuzzCheckError(t, status, body, err)
		twoXX := status >= 200 && status <= 299
		if m.stream && status == m.status && !errors.Is(err, mintlify.ErrInvalidInput) {
			// The answer had begun: a broken one is ErrStream, and the
			// message was received.
			if !errors.Is(err, mintlify.ErrStream) && !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, mintlify.ErrOutcomeUnknown) {
				t.Errorf("%s: a broken %d stream gave %v: want ErrStream, never ErrOutcomeUnknown", m.name, status, err)
			}
			return
		}
		var we *mintlify.WalkError // a walk's guard against pages that do not advance
		if twoXX && !errors.Is(err, mintlify.ErrMalformedResponse) && !errors.Is(err, context.DeadlineExceeded) &&
			!errors.Is(err, errFuzzBudget) && !errors.As(err, &we) {
			t.Errorf("%s: a %d that gave no result is not ErrMalformedResponse: %v", m.name, status, err)
		}
		if m.creates && twoXX && !errors.Is(err, mintlify.ErrOutcomeUnknown) {
			t.Errorf("%s: answered %d with an unusable body, but not ErrOutcomeUnknown: %v", m.name, status, err)
		}
	})
}

// FuzzRetryAfter: any Retry-After value on a 429 gives an
// APIError.RetryAfter between 0 and a day; plain seconds give the number
// itself (a day at most), the same every time.
func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{
		"", "0", "5", "120", " 7 ", "-1", "+5", "1.5", "1e3", "0x10", "99999999999999999999", "86401",
		"Wed, 21 Oct 2015 07:28:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
		"Sun Nov  6 08:49:37 1994", "Fri, 31 Dec 9999 23:59:59 GMT", "Mon, 01 Jan 0001 00:00:00 GMT",
		"abc", "\x00", "５", "\u00a05",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		retryAfter := func() time.Duration {
			c, _ := answering(t, respond(429, `{"error":"wait"}`, "Retry-After", v), mintlify.WithMaxRetries(0))
			_, err := c.GetJob(context.Background(), "job_1")
			var apiErr *mintlify.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("Retry-After %q: %v", v, err)
			}
			return apiErr.RetryAfter
		}
		d := retryAfter()
		if d < 0 || d > 24*time.Hour {
			t.Fatalf("Retry-After %q = %s, outside 0..24h", v, d)
		}
		if digits := strings.TrimSpace(v); digits != "" && strings.Trim(digits, "0123456789") == "" {
			want := 24 * time.Hour // absurd values are capped
			if n, err := strconv.ParseInt(digits, 10, 64); err == nil && n <= int64(want/time.Second) {
				want = time.Duration(n) * time.Second
			}
			if d != want {
				t.Fatalf("Retry-After %q = %s, want %s", v, d, want)
			}
			if d2 := retryAfter(); d2 != d {
				t.Fatalf("Retry-After %q gave %s, then %s", v, d, d2)
			}
		}
	})
}
