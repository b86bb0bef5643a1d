package mintlify_test

// What an APIError says: the message and details of any error body, the
// request ID, a short printable snippet of a page, never the key.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// getJobError makes one GetJob (no retries) answered with status, body and
// headers, and returns its *mintlify.APIError.
func getJobError(t *testing.T, status int, body string, header ...string) (*mintlify.APIError, error) {
	t.Helper()
	c, _ := answering(t, respond(status, body, header...), mintlify.WithMaxRetries(0))
	job, err := c.GetJob(context.Background(), "job_1")
	require.Error(t, err)
	require.Nil(t, job)
	var apiErr *mintlify.APIError
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
	// Bytes that are not UTF-8 (a gateway's garbage) never make the text
	// unprintable.
	_, err = getJobError(t, http.StatusNotFound, `{"error":"Job not found"}`, "X-Request-Id", "req_\xff\xfe")
	assert.True(t, utf8.ValidString(err.Error()), "valid UTF-8: %q", err)
	assert.Equal(t, -1, strings.IndexFunc(err.Error(), func(r rune) bool { return !unicode.IsPrint(r) }), "printable: %q", err)
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
		"a forged log line and terminal escapes": `{"error":"bad prompt\ntime=2025-01-01 level=INFO msg=\"all good\"",` +
			`"details":[{"message":"\u001b[2J\u001b[31mcleared"},{"message":"\u202eexe.txt"}]}`,
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
	key := testKey
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
			assertNoKey(t, fmt.Sprintf("%#v", apiErr), "%#v of the *mintlify.APIError")
			assertNoKey(t, apiErr.Message, "Message")
			assertNoKey(t, strings.Join(apiErr.Details, "\n"), "Details")
		})
	}
}
