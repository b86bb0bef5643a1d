package mockserver_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// The project's own JSON Schemas of the vendor's answers (testdata/schema),
// written from the vendor documents' field names, types, required lists,
// nullability and enums.
var (
	schemaOnce sync.Once
	schemas    map[string]*jsonschema.Schema
	schemaErr  error
)

func loadSchemas() {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	files, err := filepath.Glob("testdata/schema/*.json")
	if err != nil || len(files) == 0 {
		schemaErr = err
		return
	}
	schemas = map[string]*jsonschema.Schema{}
	// Every file is added before any is compiled, so that one schema can
	// refer to another ("$ref": "index-result.json").
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			schemaErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			schemaErr = err
			return
		}
		if err := c.AddResource(schemaURL(f), doc); err != nil {
			schemaErr = err
			return
		}
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if schemas[name], schemaErr = c.Compile(schemaURL(f)); schemaErr != nil {
			return
		}
	}
}

func schemaURL(file string) string { return "https://mintlify-go.test/schema/" + filepath.Base(file) }

// validate checks body against the named schema ("views", "error", ...).
func validate(t testing.TB, name string, body []byte) {
	t.Helper()
	schemaOnce.Do(loadSchemas)
	require.NoError(t, schemaErr)
	s := schemas[name]
	require.NotNil(t, s, "no schema %s", name)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	require.NoError(t, err, "not JSON: %s", body)
	if err := s.Validate(doc); err != nil {
		t.Fatalf("answer does not match schema %s: %v\nbody: %.2000s", name, err, body)
	}
}

// The schemas themselves must refuse what the vendor forbids, or they
// prove nothing.
func TestSchemasRefuseBrokenAnswers(t *testing.T) {
	schemaOnce.Do(loadSchemas)
	require.NoError(t, schemaErr)
	bad := map[string]string{
		"views":            `{"totals":{"human":1,"ai":0},"views":[],"hasMore":false}`,
		"searches":         `{"searches":[{"searchQuery":"x","hits":1,"ctr":0.5,"lastSearchedAt":"2025-01-01T00:00:00Z"}],"totalSearches":1,"nextCursor":null}`,
		"feedback":         `{"feedback":[{"id":"a","path":"/","comment":null,"createdAt":null,"source":"contextual","status":"pending"}],"nextCursor":null,"hasMore":false}`,
		"feedback-by-page": `{"feedback":[],"hasMore":null}`,
		"assistant":        `{"conversations":[],"nextCursor":"not-a-ulid","hasMore":false}`,
		"thread":           `{"threadId":"01ARZ3NDEKTSV4RRFFQ69G5FAV","createdAt":"2025-01-01T00:00:00Z","messages":[{"id":"01ARZ3NDEKTSV4RRFFQ69G5FAV","role":"system","content":"","createdAt":"2025-01-01T00:00:00Z"}]}`,
		"caller-stats":     `{"web":1,"api":1,"other":1}`,
		"error":            `{"details":[]}`,
		"job":              `{"id":"j","status":"running","source":{"repository":"r"},"createdAt":"2025-01-01T00:00:00Z"}`,
		"docs-search":      `[{"content":"x","path":"/quickstart","metadata":{"title":"Q","score":1}}]`,
		"page-content":     `{"path":"quickstart"}`,
		"discovery-error":  `{"message":"x","details":[]}`,
		"index-error":      `{"error":"Unauthorized","details":[]}`,
		"index-context":    `{"requestId":"r","query":"q","response":"","resultsCount":0}`,
		"index-search":     `{"requestId":"r","results":[{"id":"a","url":"https://a.io/x","title":"t","text":"","score":1,"source":"web","siteName":"a.io","breadcrumbs":[],"publishedDate":"2025-01-01"}]}`,
		"index-contents":   `{"requestId":"r","results":[],"statuses":[{"id":"a","status":"error"}]}`,
	}
	for name, body := range bad {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
		require.NoError(t, err)
		require.Error(t, schemas[name].Validate(doc), name)
	}
}

// The job routes' answers, successes and refusals, match the schemas.
func TestJobAnswersMatchTheSchema(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobRateLimit(3, time.Hour))
	created := h.do("POST", h.jobsPath(""), `{"prompt":"document webhooks"}`)
	require.Equal(t, http.StatusCreated, created.Status)
	validate(t, "job", created.Body)
	var j job
	created.decode(t, &j)
	validate(t, "job", h.do("GET", h.jobsPath("/"+j.ID), "").Body)
	clock.Advance(mockserver.DefaultJobDuration)
	completed := h.do("GET", h.jobsPath("/"+j.ID), "")
	validate(t, "job", completed.Body)
	assert.Contains(t, string(completed.Body), `"prLink":"https://`)
	followed := h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"and the retries"}`)
	require.Equal(t, http.StatusOK, followed.Status)
	validate(t, "job", followed.Body)
	require.NoError(t, h.s.ArchiveJob(j.ID))
	validate(t, "job", h.do("GET", h.jobsPath("/"+j.ID), "").Body)

	for _, r := range []*response{
		h.do("POST", h.jobsPath(""), `{}`),                           // 400
		h.do("GET", h.jobsPath("/job_nope"), ""),                     // 404
		h.do("GET", h.jobsPath("/"+j.ID), "", "Authorization", ""),   // 401
		h.do("POST", h.jobsPath(""), `{"prompt":"x"}`),               // 429 (the third slot)
		h.do("POST", h.jobsPath(""), `{"prompt":"x"}`),               // 429
		h.do("GET", "/v1/analytics/"+h.s.ProjectID()+"/nowhere", ""), // 404, unknown route
		h.do("POST", h.jobsPath(""), strings.Repeat("x", 2<<20)),     // 413
	} {
		assert.GreaterOrEqual(t, r.Status, 400)
		validate(t, "error", r.Body)
	}
}
