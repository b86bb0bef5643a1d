package mintlify

// Fuzz targets for everything the client reads from the network: whatever
// a server or a proxy answers, the SDK must not panic and must give either
// a value or a well-formed error. Seed corpora are in testdata/fuzz/; run
// one target with
//
//	go test -run '^$' -fuzz '^FuzzJobResponse$' -fuzztime 20000x .

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// fuzzKey is the key of the fuzzed clients. The marker fuzzKeyMarker in a
// fuzzed body or header is replaced by it, so the fuzzer can make a server
// or proxy echo the key wherever it likes.
const (
	fuzzKey       = "mint_fuzz_secret_4c3b2a19e8d7"
	fuzzKeyMarker = "@K"
)

// fuzzAnswer is one canned answer, served for every request up to a
// budget; then requests fail, so that a walk over pages that never end
// stops soon (the SDK's own cap is 1,000 requests a walk).
type fuzzAnswer struct {
	status                             int
	retryAfter, contentType, requestID string
	body                               []byte
	budget                             int
}

var errFuzzBudget = errors.New("fuzz: request budget spent")

func (a *fuzzAnswer) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	if a.budget--; a.budget < 0 {
		return nil, errFuzzBudget
	}
	h := http.Header{}
	for name, v := range map[string]string{"Retry-After": a.retryAfter, "Content-Type": a.contentType, "X-Request-Id": a.requestID} {
		if v != "" {
			h[name] = []string{strings.ReplaceAll(v, fuzzKeyMarker, fuzzKey)}
		}
	}
	return &http.Response{
		Status:        strconv.Itoa(a.status) + " " + http.StatusText(a.status),
		StatusCode:    a.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(bytes.ReplaceAll(a.body, []byte(fuzzKeyMarker), []byte(fuzzKey)))),
		ContentLength: -1,
		Request:       r,
	}, nil
}

// fuzzStatus maps any int onto a three-digit status code, the only kind an
// HTTP/1.1 status line can carry; those are kept as they are.
func fuzzStatus(n int) int {
	if n >= 100 && n <= 999 {
		return n
	}
	return 100 + int(uint(n)%900)
}

func fuzzClient(t *testing.T, a *fuzzAnswer) *Client {
	t.Helper()
	c, err := NewClient(WithAPIKey(fuzzKey), WithProjectID("proj_fuzz"), WithBaseURL("https://api.fuzz.test"),
		WithHTTPClient(&http.Client{Transport: a}), WithMaxRetries(0),
		WithRetryWait(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fuzzCheckError checks an error as a user sees it: printable text on one
// line, valid UTF-8, no key; and for any answer outside 2xx an *APIError
// with the answer's status that matches the sentinel of its class.
func fuzzCheckError(t *testing.T, status int, err error) {
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
	if status >= 200 && status <= 299 {
		return
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("HTTP %d gave %T, not an *APIError: %v", status, err, err)
	}
	if apiErr.StatusCode != status {
		t.Errorf("APIError.StatusCode = %d for HTTP %d", apiErr.StatusCode, status)
	}
	if apiErr.RetryAfter < 0 || apiErr.RetryAfter > maxRetryAfter {
		t.Errorf("RetryAfter %s outside 0..%s", apiErr.RetryAfter, maxRetryAfter)
	}
	if s := sentinelFor(status); s != nil && !errors.Is(err, s) {
		t.Errorf("HTTP %d does not match %v", status, s)
	}
	for _, field := range append([]string{apiErr.Message, apiErr.RequestID}, apiErr.Details...) {
		if strings.Contains(field, fuzzKey) {
			t.Errorf("APIError field holds the key: %q", field)
		}
	}
}

func fuzzSeedAnswers(f *testing.F, bodies ...string) {
	type seed struct {
		status                             int
		retryAfter, contentType, requestID string
	}
	seeds := []seed{
		{200, "", "application/json", "req_1"},
		{201, "", "application/json", ""},
		{400, "", "application/json", "req_2"},
		{401, "", "application/json; charset=utf-8", ""},
		{404, "", "text/html", "req_\x1b[31m3"},
		{429, "30", "application/json", ""},
		{429, "Wed, 21 Oct 2015 07:28:00 GMT", "", ""},
		{500, "", "text/plain", fuzzKeyMarker},
		{502, "1", "text/html", "req\nX-Injected: 1"},
		{503, "99999999999999999999", "", ""},
		{504, "", "", ""},
		{302, "", "", ""},
		{101, "", "", ""},
	}
	for i, b := range bodies {
		s := seeds[i%len(seeds)]
		f.Add(s.status, s.retryAfter, s.contentType, s.requestID, []byte(b), i%2 == 0)
	}
}

// Bodies that every response fuzz target starts from: good answers, the
// error format, and the ways proxies and broken servers deviate from it.
var fuzzErrorBodies = []string{
	``,
	`{}`,
	`null`,
	`[]`,
	`{"error":"Invalid request","details":[{"message":"prompt: required"}]}`,
	`{"error":{"message":"Rate limit exceeded","type":"rate_limit"}}`,
	`{"message":"Forbidden"}`,
	`{"error":"line one\nline two\u001b[31m red \u202e reversed"}`,
	`{"error":"bad","details":[{"message":"tab\there"},{"message":null},{}]}`,
	`{"error":"echo: Bearer ` + fuzzKeyMarker + `"}`,
	`{"error":"x","details":[{"message":"Authorization: Bearer ` + fuzzKeyMarker + `"}]}`,
	`<html><body><h1>502 Bad Gateway</h1><p>Bearer ` + fuzzKeyMarker + `</p></body></html>`,
	"\xff\xfe\x00 binary \x80 junk",
	`{"error":"\ud800 lone surrogate"}`,
	`{"error":`,
}

// FuzzJobResponse serves any status, Retry-After, Content-Type, request ID
// and body to GetJob (or CreateJob when post is set). The call must not
// panic; it returns a job or an error, never both or neither; an answer
// outside 2xx is an *APIError with that status; no error text holds the key,
// a control character or invalid UTF-8.
func FuzzJobResponse(f *testing.F) {
	fuzzSeedAnswers(f, append([]string{
		`{"id":"job_1","status":"active","source":{"repository":"https://github.com/acme/docs","ref":null},` +
			`"model":"claude","prLink":null,"createdAt":"2025-03-04T05:06:07.123Z","archivedAt":null}`,
		`{"id":"job_1","status":"completed","prLink":"https://github.com/acme/docs/pull/7","archivedAt":"2025-03-05T00:00:00Z"}`,
		`{"id":"job_1","status":"active"} trailing garbage`,
		`{"id":"job_1","status":"act`,
		`{"id":1,"status":["active"]}`,
		`{"createdAt":"not a time"}`,
		`{"createdAt":"2025-13-45T99:99:99Z","archivedAt":"\u0000"}`,
		`{"id":"job_1"}{"id":"job_2"}`,
		// Hostile content: another job, the key echoed into every string field.
		`{"id":"job_someone_else","status":"completed"}`,
		`{"id":"job_1","status":"active","createdAt":"` + fuzzKeyMarker + `"}`,
		`{"id":"job_1","status":"archived","archivedAt":"Bearer ` + fuzzKeyMarker + `"}`,
		`{"id":"` + fuzzKeyMarker + `","status":"` + fuzzKeyMarker + `","model":"` + fuzzKeyMarker + `",` +
			`"prLink":"` + fuzzKeyMarker + `","source":{"repository":"` + fuzzKeyMarker + `","ref":"` + fuzzKeyMarker + `"}}`,
		`{"id":"job_1","status":"active","createdAt":"2025-03-04T05:06:07Z` + fuzzKeyMarker + `"}`,
	}, fuzzErrorBodies...)...)
	f.Fuzz(func(t *testing.T, status int, retryAfter, contentType, requestID string, body []byte, post bool) {
		a := &fuzzAnswer{fuzzStatus(status), retryAfter, contentType, requestID, body, 1}
		c := fuzzClient(t, a)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var job *Job
		var err error
		if post {
			job, err = c.CreateJob(ctx, "Fuzz the decoder")
		} else {
			job, err = c.GetJob(ctx, "job_1")
		}
		if (job == nil) == (err == nil) {
			t.Fatalf("job %v and error %v: want exactly one", job, err)
		}
		if err == nil {
			documented := http.StatusOK
			if post {
				documented = http.StatusCreated
			}
			switch {
			case a.status != documented:
				t.Fatalf("HTTP %d gave a job and no error; the route documents %d", a.status, documented)
			case job.ID == "" || job.Status == "":
				t.Fatalf("a job without an id or a status is not a success: %+v", job)
			case !post && job.ID != "job_1":
				t.Fatalf("an answer about job %q is not job_1", job.ID)
			}
			return
		}
		fuzzCheckError(t, a.status, err)
		if a.status >= 200 && a.status <= 299 && !errors.Is(err, ErrMalformedResponse) && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("a %d that gave no job is not ErrMalformedResponse: %v", a.status, err)
		}
		if post && (a.status >= 200 && a.status <= 299) && !errors.Is(err, ErrOutcomeUnknown) {
			t.Errorf("a POST answered %d whose body was unusable is not ErrOutcomeUnknown: %v", a.status, err)
		}
	})
}

// FuzzVisitorsResponse serves any answer to GetVisitors and to the page
// iterator, with the checks of FuzzJobResponse; the iterator must also
// yield an error at most once and then stop.
func FuzzVisitorsResponse(f *testing.F) {
	fuzzSeedAnswers(f, append([]string{
		`{"totals":{"human":3,"ai":2,"total":4},"visitors":[{"path":"/a","human":2,"ai":1,"total":2}],"hasMore":false}`,
		`{"totals":{"human":3,"ai":2,"total":4},"visitors":[{"path":"/a","human":2,"ai":1,"total":2}],"hasMore":true}`,
		`{"totals":{},"visitors":[],"hasMore":true}`,
		`{"visitors":null,"hasMore":false}`,
		`{"visitors":[{"path":"/a"},{"path":"/a"},{"path":null}],"hasMore":false}`,
		`{"totals":{"human":1e400},"visitors":[{"total":-1}]}`,
		`{"visitors":[{"path":"/a","human":"2"}]}`,
		`{"totals":{"human":3,"ai":2,"total":4},"visitors":[`,
	}, fuzzErrorBodies...)...)
	f.Fuzz(func(t *testing.T, status int, retryAfter, contentType, requestID string, body []byte, rows bool) {
		a := &fuzzAnswer{fuzzStatus(status), retryAfter, contentType, requestID, body, 1}
		c := fuzzClient(t, a)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()

		page, err := c.GetVisitors(ctx, VisitorsParams{Limit: 10})
		if (page == nil) == (err == nil) {
			t.Fatalf("page %v and error %v: want exactly one", page, err)
		}
		if err != nil {
			fuzzCheckError(t, a.status, err)
		} else if a.status < 200 || a.status > 299 {
			t.Fatalf("HTTP %d gave a page and no error", a.status)
		}

		// The same answer on every page: stop after a few, as a caller
		// would. Visitors drops rows it has yielded, so on a page it has
		// seen it yields nothing: the request budget ends that walk.
		const maxPages = 3
		a.budget = maxPages + 1
		pages, errs, afterErr := 0, 0, 0
		check := func(err error) {
			if errs > 0 {
				afterErr++
			}
			if err != nil {
				errs++
				fuzzCheckError(t, a.status, err)
			}
		}
		if rows {
			for _, err := range c.Visitors(ctx, VisitorsParams{Limit: 10}) {
				check(err)
				if pages++; pages > maxPages*10 {
					break
				}
			}
		} else {
			for page, err := range c.VisitorPages(ctx, VisitorsParams{Limit: 10}) {
				check(err)
				if err == nil && page == nil {
					t.Fatal("a nil page without an error")
				}
				if pages++; pages > maxPages {
					break
				}
			}
		}
		if errs > 1 || afterErr > 0 {
			t.Fatalf("the iterator yielded %d errors and %d values after one", errs, afterErr)
		}
	})
}

// FuzzParseRetryAfter: any header value gives a wait between 0 and the cap,
// 0 whenever the value is not understood, and the number itself for plain
// seconds.
func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{
		"", "0", "5", "120", " 7 ", "-1", "+5", "1.5", "1e3", "0x10", "99999999999999999999", "86401",
		"Wed, 21 Oct 2015 07:28:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
		"Sun Nov  6 08:49:37 1994", "Fri, 31 Dec 9999 23:59:59 GMT", "Mon, 01 Jan 0001 00:00:00 GMT",
		"abc", "\x00", "５", "\u00a05",
	} {
		f.Add(s)
	}
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := parseRetryAfter(v, now)
		if d < 0 || d > maxRetryAfter {
			t.Fatalf("parseRetryAfter(%q) = %s, outside 0..%s", v, d, maxRetryAfter)
		}
		if !ok && d != 0 {
			t.Fatalf("parseRetryAfter(%q) = %s but not ok", v, d)
		}
		if d2, ok2 := parseRetryAfter(v, now); d2 != d || ok2 != ok {
			t.Fatalf("parseRetryAfter(%q) is not deterministic", v)
		}
		if digits := strings.TrimSpace(v); digits != "" && strings.Trim(digits, "0123456789") == "" {
			if !ok {
				t.Fatalf("parseRetryAfter(%q): plain seconds not understood", v)
			}
			if n, err := strconv.ParseInt(digits, 10, 64); err == nil && n <= int64(maxRetryAfter/time.Second) &&
				d != time.Duration(n)*time.Second {
				t.Fatalf("parseRetryAfter(%q) = %s, want %ds", v, d, n)
			}
		}
	})
}
