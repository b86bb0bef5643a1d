package conformance

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/nodetest"
	"github.com/docsagent/mintlify-go/mockserver"
)

// sdkKey is the assistant key the Go side sends the AI SDK's server.
const sdkKey = "mint_dsc_conformance"

// proxyTo serves an AssistantProxy, as a backend would mount it, in front
// of the assistant API at base, on loopback. The limit is raised above
// what the tests send (a 30-turn chat in four releases).
func proxyTo(t *testing.T, base, key, domain string) string {
	t.Helper()
	a, err := mintlify.NewAssistantClient(mintlify.WithBaseURL(base), mintlify.WithAPIKey(key),
		mintlify.WithDomain(domain), mintlify.WithUserAgent("conformance"))
	require.NoError(t, err)
	p, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyRateLimit(10_000, time.Minute))
	require.NoError(t, err)
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestAISDK runs the node tests: each AI SDK release reads the mock's
// stream and the proxy's with its own parser and chunk schemas
// (schema.test.mjs), holds multi-turn chats through the proxy
// (chat.test.mjs), and reads its own server's answers directly and
// through the proxy (sdk.test.mjs); then the Go SDK reads that server's
// answers as the AI SDK did.
func TestAISDK(t *testing.T) {
	node, dir := nodetest.Setup(t)
	releases := aiReleases(t, dir)
	mock := mockserver.Start(t)
	mockProxy := proxyTo(t, mock.URL()+"/discovery", mock.AssistantKey(), mock.Domain())
	sdkServer := nodetest.Serve(t, node, dir, "sdk-server.mjs")
	sdkProxies := map[string]string{}
	for _, r := range releases {
		sdkProxies[r] = proxyTo(t, sdkServer+"/"+r, sdkKey, "docs.example.com")
	}
	proxies, err := json.Marshal(sdkProxies)
	require.NoError(t, err)
	outcomes := filepath.Join(t.TempDir(), "outcomes.json")
	env := []string{
		"MOCK_URL=" + mock.URL(),
		"MOCK_ASSISTANT_KEY=" + mock.AssistantKey(),
		"MOCK_DOMAIN=" + mock.Domain(),
		"PROXY_URL=" + mockProxy,
		"SDK_SERVER_URL=" + sdkServer,
		"SDK_PROXY_URLS=" + string(proxies),
		"OUTCOMES_FILE=" + outcomes,
	}
	// One file at a time: the chat tests set fault rules on the mock that
	// the schema tests must not meet.
	for _, file := range []string{"schema.test.mjs", "chat.test.mjs", "sdk.test.mjs"} {
		t.Run(strings.TrimSuffix(file, ".test.mjs"), func(t *testing.T) {
			out := nodetest.Run(t, node, dir, 4*time.Minute, env, "--test", "--test-reporter=spec", file)
			t.Log(nodetest.Clean(out))
		})
	}
	t.Run("go-sdk", func(t *testing.T) { goReadsSDKServer(t, sdkServer, outcomes, releases) })
}

// aiReleases are the AI SDK releases package.json installs, by their npm
// aliases ("ai-5-0-216": "npm:ai@5.0.216"), the names sdk-server.mjs
// serves each under: the one list of them Go reads.
func aiReleases(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	require.NoError(t, err)
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(b, &pkg))
	var out []string
	for alias, pin := range pkg.Dependencies {
		if strings.HasPrefix(pin, "npm:ai@") {
			out = append(out, alias)
		}
	}
	require.NotEmpty(t, out, "package.json installs no release of the AI SDK")
	slices.Sort(out)
	return out
}

// TestCredentialsInChromium runs credentials.test.mjs: pages of other
// origins call proxies in a real Chromium. A page at page.test sends its
// session cookie and an Authorization header to a proxy at api.page.test
// (another origin of the same site) made with WithProxyCredentials, whose
// identity function sees both; the same request to a proxy made without
// it fails as the browser makes it fail. A page at bücher.test, an origin
// the proxies are given in Unicode, calls them from its punycode host;
// a page of an origin not given is refused. The *.test names are
// Chromium's alone (--host-resolver-rules), all on loopback.
func TestCredentialsInChromium(t *testing.T) {
	node, dir := nodetest.Setup(t)
	browser := nodetest.Browser(t)
	mock := mockserver.Start(t, mockserver.WithoutRateLimits())

	// The site's pages: the one at page.test carries the session cookie
	// the site's login would have set, for page.test and its subdomains.
	pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Host, "page.test:") {
			w.Header().Set("Set-Cookie", "session=s-42; Domain=page.test; Path=/; HttpOnly; SameSite=Lax")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><link rel="icon" href="data:,"><title>a page</title>`))
	}))
	defer pages.Close()
	port := pages.URL[strings.LastIndex(pages.URL, ":")+1:]
	origins := []string{"http://page.test:" + port, "http://bücher.test:" + port}

	// What each proxy's identity function saw, for the node test to read
	// (and reset) at SEEN_URL.
	type seen struct {
		Proxy, Origin, Session, Authorization string
	}
	var mu sync.Mutex
	var saw []seen
	proxy := func(name string, opts ...mintlify.ProxyOption) string {
		a, err := mintlify.NewAssistantClient(mintlify.WithBaseURL(mock.URL()+"/discovery"),
			mintlify.WithAPIKey(mock.AssistantKey()), mintlify.WithDomain(mock.Domain()))
		require.NoError(t, err)
		p, err := mintlify.NewAssistantProxy(a, append(opts, mintlify.WithAllowedOrigins(origins...),
			mintlify.WithProxyIdentity(func(r *http.Request) (mintlify.ProxyIdentity, error) {
				s := seen{Proxy: name, Origin: r.Header.Get("Origin"), Authorization: r.Header.Get("Authorization")}
				if c, err := r.Cookie("session"); err == nil {
					s.Session = c.Value
				}
				mu.Lock()
				saw = append(saw, s)
				mu.Unlock()
				return mintlify.ProxyIdentity{RateKey: s.Session}, nil
			}))...)
		require.NoError(t, err)
		srv := httptest.NewServer(p)
		t.Cleanup(srv.Close)
		return strings.Replace(srv.URL, "127.0.0.1", "api.page.test", 1)
	}
	seenSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(append([]seen{}, saw...))
		saw = nil
	}))
	defer seenSrv.Close()

	out := nodetest.Run(t, node, dir, 2*time.Minute, []string{
		"PAGE_URL=http://page.test:" + port + "/",
		"UNICODE_PAGE_URL=http://bücher.test:" + port + "/",
		"OTHER_PAGE_URL=http://other.test:" + port + "/",
		"CREDENTIALS_PROXY_URL=" + proxy("credentials", mintlify.WithProxyCredentials()),
		"PLAIN_PROXY_URL=" + proxy("plain"),
		"SEEN_URL=" + seenSrv.URL,
		"CHROMIUM=" + browser,
	}, "--test", "--test-reporter=spec", "credentials.test.mjs")
	t.Log(nodetest.Clean(out))
}

// outcome is what the AI SDK's Chat read of one answer, straight from its
// server (sdk.test.mjs writes them).
type outcome struct {
	Status       string
	Error        string
	Text         string
	Sources      []string // the pages cited: source-url chunks and search results, by path
	FinishReason string   // the finish chunk's, as the Chat's onFinish saw it
}

// goReadsSDKServer reads each scenario of the AI SDK's server with the Go
// SDK, for each release, and checks it reads what the AI SDK read: the
// text (separate parts joined by a blank line), the pages cited, how it
// ended.
func goReadsSDKServer(t *testing.T, server, file string, releases []string) {
	b, err := os.ReadFile(file)
	require.NoError(t, err, "sdk.test.mjs writes the AI SDK's outcomes")
	var want map[string]map[string]outcome
	require.NoError(t, json.Unmarshal(b, &want))
	for _, r := range releases {
		require.NotEmpty(t, want[r], r)
		a, err := mintlify.NewAssistantClient(mintlify.WithBaseURL(server+"/"+r), mintlify.WithAPIKey(sdkKey),
			mintlify.WithDomain("docs.example.com"), mintlify.WithMaxRetries(0))
		require.NoError(t, err)
		for _, name := range sortedKeys(want[r]) {
			w := want[r][name]
			t.Run(r+"/"+name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				s, err := a.Message(ctx, mintlify.MessageParams{Messages: []mintlify.ChatMessage{
					{Role: "user", Parts: []mintlify.ChatPart{{Type: "text", Text: name}}}}})
				require.NoError(t, err)
				defer s.Close()
				var readErr error
				for _, err := range s.Events() {
					readErr = err
				}
				if w.Status == "error" {
					assert.ErrorContains(t, readErr, w.Error, "the AI SDK read this error")
				} else {
					assert.NoError(t, readErr, "the AI SDK read a whole answer")
				}
				assert.Equal(t, w.Text, s.Text(), "the text")
				var paths []string
				for _, src := range s.Sources() {
					paths = append(paths, src.Path)
				}
				assert.ElementsMatch(t, w.Sources, paths, "the pages cited")
				switch {
				case name == "abort":
					// The AI SDK ends the answer at an abort chunk, without
					// an error and without a finish reason of its own.
					assert.Equal(t, "abort", s.FinishReason(), "the server aborted the answer")
				case w.FinishReason != "":
					assert.Equal(t, w.FinishReason, s.FinishReason())
				}
			})
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
