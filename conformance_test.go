package mintlify_test

// Every request the SDK sends, held to the vendor's own OpenAPI documents
// (testdata/openapi) by a maintained validator (kin-openapi, through
// internal/openapicheck). Every row of the method table (methods_test.go)
// calls the mock in process through a recording transport, so a new
// method is checked as soon as it has its row; Ask, a thread's follow-up
// and the proxy's upstream request, which the table does not hold, are
// sent too.

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/internal/openapicheck"
	"github.com/docsagent/mintlify-go/mockserver"
)

// sdkDifferences are the ways the SDK's requests knowingly differ from the
// vendor's documents, each with its reason; an entry no request needed
// fails the test.
var sdkDifferences = []openapicheck.Allowed{
	{Kind: openapicheck.UndocumentedRoute, Method: http.MethodPost, Route: "/v2/workflow/{projectId}/{workflowSchemaId}/webhook",
		Reason: "the webhook route is on the vendor's reference pages but not in the stored documents, which predate it"},
}

func TestEverySDKRequestConformsToVendorDocuments(t *testing.T) {
	t.Parallel()
	docs, err := openapicheck.Load("testdata/openapi")
	require.NoError(t, err)
	allow, err := openapicheck.NewAllowlist(sdkDifferences...)
	require.NoError(t, err)
	mock := mockserver.New(mockserver.WithAPIKey(testKey), mockserver.WithProjectID(testProject), mockserver.WithSeed(200),
		mockserver.WithoutRateLimits(), mockserver.WithJobDuration(time.Millisecond))
	t.Cleanup(mock.Close)
	rec := &requestRecorder{t: t, docs: docs, allow: allow, next: mock.Client().Transport,
		keys: map[string]string{"/discovery/": mock.AssistantKey(), "/api/universal-search/": mock.IndexKey()}}
	hc := &http.Client{Transport: rec}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, m := range methods {
		c, err := mintlify.NewClient(mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject), mintlify.WithBaseURL(mock.URL()+m.apiPrefix),
			mintlify.WithHTTPClient(hc), mintlify.WithRetryWait(time.Millisecond, 2*time.Millisecond))
		require.NoError(t, err)
		before := rec.count()
		_, _ = m.call(ctx, c) // an answer of the mock's about table IDs it does not hold (404) is fine: the request was sent
		if m.walk != nil {
			// A walk from a position: the offset or cursor parameter.
			_, _ = drain(m.walk(ctx, c, 3, "01J0000000000000000000CRSR"))
		}
		assert.Greater(t, rec.count(), before, "%s sent no request", m.name)
	}

	// Beyond the table: Ask, a follow-up in a thread, and the proxy's
	// request upstream, with the assistant's own client.
	a, err := mintlify.NewAssistantClient(mintlify.WithAPIKey(mock.AssistantKey()), mintlify.WithDomain(mock.Domain()),
		mintlify.WithBaseURL(mock.URL()+"/discovery"), mintlify.WithHTTPClient(hc))
	require.NoError(t, err)
	ans, err := a.Ask(ctx, "How do I authenticate?")
	require.NoError(t, err)
	follow := tableQuestion
	follow.ThreadID, follow.ThreadKey, follow.RetrievalPageSize, follow.CurrentPath = ans.ThreadID, ans.ThreadKey, 3, "/quickstart"
	follow.Version, follow.Language, follow.Groups = "v2", "en", []string{"staff"}
	_, err = readMessage(ctx, a, follow)
	require.NoError(t, err)
	p, err := mintlify.NewAssistantProxy(a)
	require.NoError(t, err)
	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "http://app.test/api/chat", strings.NewReader(chatBody))
	req.Header.Set("Content-Type", "application/json")
	p.ServeHTTP(w, req)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())

	for _, e := range allow.Unused() {
		t.Errorf("allowlist entry %s matched no request: remove it (%s)", e, e.Reason)
	}
	t.Logf("%d requests of %d table rows and 3 further calls validated", rec.count(), len(methods))
}

// requestRecorder validates every request it carries, then passes it on
// with the key of the API its path names (the table's clients all hold
// the table's admin key).
type requestRecorder struct {
	t     *testing.T
	docs  *openapicheck.Documents
	allow *openapicheck.Allowlist
	next  http.RoundTripper
	keys  map[string]string // path prefix: the key its API takes
	mu    sync.Mutex
	n     int
}

func (r *requestRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

func (r *requestRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		_ = req.Body.Close()
	}
	for _, d := range r.docs.Check(req.Context(), openapicheck.Exchange{Request: req, RequestBody: body}) {
		if !r.allow.Allows(d) {
			r.t.Errorf("the SDK sent a request the documents refuse: %s\n  request: %s %s %.500s", d, req.Method, req.URL, body)
		}
	}
	r.mu.Lock()
	r.n++
	r.mu.Unlock()
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	for prefix, key := range r.keys {
		if strings.HasPrefix(req.URL.Path, prefix) {
			out.Header.Set("Authorization", "Bearer "+key)
		}
	}
	return r.next.RoundTrip(out)
}
