package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/internal/nodetest"
)

// The page in a real Chromium (conformance/chat-page.test.mjs, through
// playwright-core): the example's own server on the bundled mock, at
// 127.0.0.1 and at a made-up host name Chromium maps to it, both named
// as the page's origins. The node test stops the mock through
// STOP_MOCK_URL to see the page report it. Without node, the installed
// packages or Chromium it skips, saying which; under CI=true it fails.
func TestChatPageInChromium(t *testing.T) {
	node, dir := nodetest.Setup(t)
	browser := nodetest.Browser(t)
	// A page of another origin, allowed too, that calls the proxy across
	// origins: served from loopback as well, as a browser lets a page call
	// a more private address only from a secure context.
	another := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><link rel="icon" href="data:,"><title>another page</title>`))
	}))
	defer another.Close()
	anotherPage := strings.Replace(another.URL, "127.0.0.1", "chat-page.test", 1) + "/"
	// chat-page.test is resolved by Chromium alone (--host-resolver-rules).
	page, _, mock := serveOnMock(t, config{origins: []string{strings.TrimSuffix(anotherPage, "/")}}, "127.0.0.1", "chat-page.test")
	other := strings.Replace(page, "127.0.0.1", "chat-page.test", 1)
	stop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mock.Close()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer stop.Close()
	out := nodetest.Run(t, node, dir, 3*time.Minute, []string{
		"CHAT_URL=" + page,
		"CHAT_HOST_URL=" + other,
		"ANOTHER_PAGE_URL=" + anotherPage,
		"MOCK_URL=" + mock.URL(),
		"STOP_MOCK_URL=" + stop.URL,
		"CHROMIUM=" + browser,
	}, "--test", "--test-reporter=spec", "chat-page.test.mjs")
	t.Log(nodetest.Clean(out))
}
