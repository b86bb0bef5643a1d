package mintlify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// getJobError makes one GetJob (no retries) answered with status, body and
// headers, and returns its *APIError.
func getJobError(t *testing.T, status int, body string, header ...string) (*APIError, error) {
	t.Helper()
	c, mt := newCoreClient(t, WithMaxRetries(0))
	mt.RegisterResponder(http.MethodGet, coreJobURL("job_1"), respond(status, body, header...))
	job, err := c.GetJob(context.Background(), "job_1")
	require.Error(t, err)
	require.Nil(t, job)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr, err
}

func TestAPIErrorFromBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		status      int
		body        string
		header      []string
		wantMessage string
		wantDetails []string
		wantString  string
	}{
		{
			name:        "message and details",
			status:      http.StatusBadRequest,
			body:        `{"error":"Invalid request","details":[{"message":"prompt: too short"},{"message":"prompt: required"}]}`,
			wantMessage: "Invalid request",
			wantDetails: []string{"prompt: too short", "prompt: required"},
			wantString:  "mintlify: HTTP 400: Invalid request (prompt: too short; prompt: required)",
		},
		{
			name:        "message only",
			status:      http.StatusUnauthorized,
			body:        `{"error":"Invalid API key"}`,
			wantMessage: "Invalid API key",
			wantString:  "mintlify: HTTP 401: Invalid API key",
		},
		{
			name:        "error object with a message",
			status:      http.StatusTooManyRequests,
			body:        `{"error":{"message":"Rate limit exceeded","code":"rate_limited"}}`,
			header:      []string{"Retry-After", "3600"},
			wantMessage: "Rate limit exceeded",
			wantString:  "mintlify: HTTP 429: Rate limit exceeded, retry after 1h0m0s",
		},
		{
			name:        "top-level message",
			status:      http.StatusForbidden,
			body:        `{"message":"Forbidden"}`,
			wantMessage: "Forbidden",
			wantString:  "mintlify: HTTP 403: Forbidden",
		},
		{
			name:        "empty body",
			status:      http.StatusServiceUnavailable,
			body:        "",
			wantMessage: "Service Unavailable",
			wantString:  "mintlify: HTTP 503: Service Unavailable",
		},
		{
			name:        "JSON without a message",
			status:      http.StatusNotFound,
			body:        `{"status":404}`,
			wantMessage: `{"status":404}`,
			wantString:  `mintlify: HTTP 404: {"status":404}`,
		},
		{
			name:        "proxy HTML page",
			status:      http.StatusBadGateway,
			body:        "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
			header:      []string{"X-Request-Id", "req_abc"},
			wantMessage: "502 Bad Gateway 502 Bad Gateway nginx",
			wantString:  "mintlify: HTTP 502: 502 Bad Gateway 502 Bad Gateway nginx, request ID req_abc",
		},
		{
			name:        "plain text",
			status:      http.StatusInternalServerError,
			body:        "upstream connect error or disconnect/reset before headers\n",
			wantMessage: "upstream connect error or disconnect/reset before headers",
			wantString:  "mintlify: HTTP 500: upstream connect error or disconnect/reset before headers",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			apiErr, err := getJobError(t, tt.status, tt.body, tt.header...)
			assert.Equal(t, tt.status, apiErr.StatusCode)
			assert.Equal(t, tt.wantMessage, apiErr.Message)
			assert.Equal(t, tt.wantDetails, apiErr.Details)
			assert.Equal(t, tt.wantString, err.Error())
		})
	}
}

func TestStatusMapsToOneSentinel(t *testing.T) {
	t.Parallel()
	sentinels := []error{ErrBadRequest, ErrUnauthorized, ErrForbidden, ErrNotFound, ErrRateLimited, ErrServer, ErrInvalidInput, ErrOutcomeUnknown}
	tests := []struct {
		status int
		want   error
	}{
		{400, ErrBadRequest},
		{401, ErrUnauthorized},
		{403, ErrForbidden},
		{404, ErrNotFound},
		{405, ErrBadRequest},
		{409, ErrBadRequest},
		{413, ErrBadRequest},
		{418, ErrBadRequest},
		{422, ErrBadRequest},
		{429, ErrRateLimited},
		{500, ErrServer},
		{501, ErrServer},
		{502, ErrServer},
		{503, ErrServer},
		{504, ErrServer},
		{599, ErrServer},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			apiErr, err := getJobError(t, tt.status, `{"error":"x"}`)
			assert.Equal(t, tt.status, apiErr.StatusCode)
			for _, s := range sentinels {
				assert.Equal(t, s == tt.want, errors.Is(err, s), "errors.Is(HTTP %d, %v)", tt.status, s)
			}
			// Wrapped further by the caller, it still matches.
			assert.ErrorIs(t, fmt.Errorf("syncing docs: %w", err), tt.want)
		})
	}
}

func TestAPIErrorRequestID(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"X-Request-Id", "x-request-id", "Request-Id"} {
		apiErr, err := getJobError(t, http.StatusNotFound, `{"error":"Job not found"}`, name, "req_123")
		assert.Equal(t, "req_123", apiErr.RequestID, name)
		assert.Contains(t, err.Error(), "req_123")
	}
	apiErr, err := getJobError(t, http.StatusNotFound, `{"error":"Job not found"}`)
	assert.Empty(t, apiErr.RequestID)
	assert.NotContains(t, err.Error(), "request ID")
}

func TestAPIErrorSnippetIsShortAndSafe(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"long HTML page": "<!DOCTYPE html><html><head><style>body{color:red}</style></head><body>" +
			strings.Repeat("<p>Our service is down for maintenance. </p>", 500) + "</body></html>",
		"control characters":   "bad\x00gateway\x1b[31m red\x07 bell\r\nnext line\ttab\u2028sep",
		"invalid UTF-8":        "caf\xc3 \xff\xfe broken \xe2\x82",
		"one long word":        strings.Repeat("x", 100_000),
		"unterminated tag":     "error <a href='",
		"multi-byte long text": strings.Repeat("ü€😀", 400),
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			apiErr, err := getJobError(t, http.StatusBadGateway, body)
			msg := err.Error()
			assert.True(t, utf8.ValidString(msg), "valid UTF-8: %q", msg)
			assert.NotContains(t, msg, "<")
			assert.NotContains(t, msg, ">")
			for _, r := range msg {
				assert.True(t, unicode.IsPrint(r), "unprintable %U in %q", r, msg)
			}
			assert.LessOrEqual(t, utf8.RuneCountInString(apiErr.Message), 200)
			assert.NotEmpty(t, apiErr.Message)
			assert.True(t, strings.HasPrefix(msg, "mintlify: HTTP 502: "), msg)
		})
	}
}

func TestErrorsNeverHoldKey(t *testing.T) {
	t.Parallel()
	key := coreAPIKey
	tests := map[string]struct {
		status int
		body   string
	}{
		"proxy page echoing the request": {
			http.StatusBadGateway,
			"<html><body><h1>Bad Gateway</h1><pre>GET /v2/agent/proj_42/job/job_1\nAuthorization: Bearer " + key + "\nAccept: application/json</pre></body></html>",
		},
		"plain text echo": {http.StatusUnauthorized, "invalid token " + key},
		"JSON message": {
			http.StatusUnauthorized, `{"error":"API key ` + key + ` is revoked"}`,
		},
		"JSON details": {
			http.StatusBadRequest, `{"error":"bad","details":[{"message":"header Authorization=Bearer ` + key + `"}]}`,
		},
		"JSON error object": {http.StatusForbidden, `{"error":{"message":"no access for ` + key + `"}}`},
		"JSON escaped key": {
			http.StatusUnauthorized, `{"error":"bad key ` + strings.ReplaceAll(key, "_", `\u005f`) + `"}`,
		},
		// The key starts a few characters before the snippet's 200-rune cut:
		// the part that is kept must not show.
		"key cut by the snippet limit": {
			http.StatusBadGateway, strings.Repeat("a ", 85) + "Bearer " + key + " trailing text",
		},
		"key after markup cut by the snippet limit": {
			http.StatusBadGateway, "<html><body>" + strings.Repeat("é", 175) + " token=" + key + "</body></html>",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			apiErr, err := getJobError(t, tt.status, tt.body)
			assertNoKey(t, err.Error(), "Error()")
			assertNoKey(t, fmt.Sprintf("%+v", err), "%+v of the error")
			assertNoKey(t, fmt.Sprintf("%#v", apiErr), "%#v of the *APIError")
			assertNoKey(t, apiErr.Message, "Message")
			assertNoKey(t, strings.Join(apiErr.Details, "\n"), "Details")
		})
	}
}

func TestErrorsNeverHoldKeyOnPost(t *testing.T) {
	t.Parallel()
	c, mt := newCoreClient(t)
	mt.RegisterResponder(http.MethodPost, coreJobsURL,
		respond(http.StatusTooManyRequests, "Too many requests for Bearer "+coreAPIKey, "Retry-After", "86400"))
	_, err := c.CreateJob(context.Background(), "p")
	require.ErrorIs(t, err, ErrRateLimited)
	assertNoKey(t, err.Error(), "Error()")
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 4, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"1", time.Second, true},
		{"120", 2 * time.Minute, true},
		{" 7 ", 7 * time.Second, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999999999", 24 * time.Hour, true}, // absurd values are capped
		{"315360000", 24 * time.Hour, true},            // ten years
		{"Tue, 04 Mar 2025 12:00:30 GMT", 30 * time.Second, true},
		{"Tue, 04 Mar 2025 14:00:00 GMT", 2 * time.Hour, true},
		{"Tuesday, 04-Mar-25 12:01:00 GMT", time.Minute, true}, // RFC 850
		{"Tue Mar  4 12:00:10 2025", 10 * time.Second, true},   // ANSI C asctime
		{"Tue, 04 Mar 2025 11:00:00 GMT", 0, true},             // in the past: now
		{"2025-03-04T12:00:30Z", 0, false},                     // not an HTTP date
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.value, now)
		assert.Equal(t, tt.wantOK, ok, "%q", tt.value)
		assert.Equal(t, tt.want, got, "%q", tt.value)
	}
}

// A 500, 502 or 504 can follow a request the API acted on, so a POST that
// gets one says the outcome is unknown; a GET, a 503 or a 429 does not.
func TestServerErrorOnPostMayHaveActed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method  string
		status  int
		unknown bool
	}{
		{http.MethodPost, 500, true},
		{http.MethodPost, 502, true},
		{http.MethodPost, 504, true},
		{http.MethodPost, 503, false},
		{http.MethodPost, 429, false},
		{http.MethodGet, 502, false},
	} {
		c, mt := newCoreClient(t, WithMaxRetries(0))
		mt.RegisterResponder(tc.method, coreJobsURL, respond(tc.status, `{"error":"upstream"}`))
		mt.RegisterResponder(tc.method, coreJobURL("job_1"), respond(tc.status, `{"error":"upstream"}`))
		var err error
		if tc.method == http.MethodPost {
			_, err = c.CreateJob(context.Background(), "p")
		} else {
			_, err = c.GetJob(context.Background(), "job_1")
		}
		name := fmt.Sprintf("%s %d", tc.method, tc.status)
		assert.Equal(t, tc.unknown, errors.Is(err, ErrOutcomeUnknown), name)
		assert.ErrorIs(t, err, sentinelFor(tc.status), name)
		assert.Equal(t, tc.unknown, strings.Contains(err.Error(), "may have acted"), name)
	}
}
