package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// secretLink is a presigned bundle link: whoever reads it can download
// the site until it expires.
const secretLink = "https://storage.example.com/bundles/se_1.tar.gz?sig=PRESIGNEDsecret0123456789&exp=1"

// TestBundleLinkIsNeverShown: however the bundle answer goes wrong
// (malformed, an error body quoting the link, a storage host that does
// not answer), the presigned link is in no output.
func TestBundleLinkIsNeverShown(t *testing.T) {
	t.Parallel()
	for name, bundle := range map[string]func(w http.ResponseWriter){
		"malformed size": func(w http.ResponseWriter) {
			_, _ = w.Write([]byte(`{"bundleUrl":"` + secretLink + `","sizeBytes":"many"}`))
		},
		"error quoting the link": func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"error":"already bundled at ` + secretLink + `"}`))
		},
		"text body": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("bundle: " + secretLink))
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each waits out the client's retries
			checkBundleLink(t, name, bundle)
		})
	}
}

func checkBundleLink(t *testing.T, name string, bundle func(w http.ResponseWriter)) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		job := map[string]any{"jobId": "se_1", "status": "completed", "progress": 100, "pageCount": 3,
			"createdAt": "2025-01-01T00:00:00Z", "updatedAt": "2025-01-01T00:00:00Z"}
		switch {
		case strings.HasSuffix(r.URL.Path, "/bundle"):
			bundle(w)
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusAccepted)
			_ = json.NewEncoder(w).Encode(job)
		default:
			_ = json.NewEncoder(w).Encode(job)
		}
	}))
	out, errOut, code := runAgainst(t, srv.URL, "static-export", "--output", t.TempDir()+"/site.tar.gz", "--poll-interval", "10ms", "docs.example.com")
	srv.Close()
	t.Logf("%s: exit %d\n%s%s", name, code, out, errOut)
	assert.Equal(t, exitError, code, name)
	for _, piece := range []string{"PRESIGNEDsecret", "storage.example.com/bundles"} {
		assert.NotContains(t, out+errOut, piece, "%s: the link is shown", name)
	}
}
