package mintlify

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	seJobsURL   = coreBaseURL + "/v1/static-export/jobs"
	seSignature = "X-Amz-Signature=9f86d081884c7d659a2feaa0c55ad015"
	seLink      = "https://exports.storage.test/se_1/bundle.tar.gz?X-Amz-Expires=3600&" + seSignature
)

func TestStartStaticExportSendsTheParams(t *testing.T) {
	tests := []struct {
		name     string
		params   StaticExportParams
		wantBody string
	}{
		{"domain only", StaticExportParams{Domain: "docs.acme.com"}, `{"domain":"docs.acme.com"}`},
		{"empty paths are left out", StaticExportParams{Domain: "acme.mintlify.app", Paths: []string{}}, `{"domain":"acme.mintlify.app"}`},
		{"every field", StaticExportParams{Domain: "docs.acme.com", Version: "2024-06-01", Paths: []string{"index", "guides/start"}},
			`{"domain":"docs.acme.com","version":"2024-06-01","paths":["index","guides/start"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			var rec coreRecorder
			mt.RegisterResponder(http.MethodPost, seJobsURL, rec.wrap(respond(202,
				`{"jobId":"se_1","status":"queued","progress":0,"pageCount":0,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z","error":null}`)))
			got, err := c.StartStaticExport(context.Background(), tt.params)
			require.NoError(t, err)
			assert.Equal(t, "se_1", got.ID)
			assert.Equal(t, StaticExportQueued, got.Status)
			reqs := rec.requests()
			require.Len(t, reqs, 1)
			assert.JSONEq(t, tt.wantBody, string(reqs[0].Body))
		})
	}
}

func TestGetStaticExportDecodesEveryField(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name, body string
		want       *StaticExport
	}{
		{"running, error absent", `{"jobId":"se_1","status":"running","progress":42.5,"pageCount":128,
			"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"}`,
			&StaticExport{ID: "se_1", Status: StaticExportRunning, Progress: 42.5, PageCount: 128, CreatedAt: at, UpdatedAt: at}},
		{"completed, error null", `{"jobId":"se_1","status":"completed","progress":100,"pageCount":300,
			"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z","error":null}`,
			&StaticExport{ID: "se_1", Status: StaticExportCompleted, Progress: 100, PageCount: 300, CreatedAt: at, UpdatedAt: at}},
		{"failed, error present", `{"jobId":"se_1","status":"failed","progress":10,"pageCount":3,
			"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z","error":"page guides/x did not render"}`,
			&StaticExport{ID: "se_1", Status: StaticExportFailed, Progress: 10, PageCount: 3, CreatedAt: at, UpdatedAt: at,
				Error: "page guides/x did not render"}},
		{"only the required fields", `{"jobId":"se_1","status":"queued"}`, &StaticExport{ID: "se_1", Status: StaticExportQueued}},
		{"optional fields null", `{"jobId":"se_1","status":"queued","progress":null,"pageCount":null,"createdAt":null,"updatedAt":null,"error":null}`,
			&StaticExport{ID: "se_1", Status: StaticExportQueued}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodGet, seJobsURL+"/se_1", respond(200, tt.body))
			got, err := c.GetStaticExport(context.Background(), "se_1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestGetStaticExportRefusesMalformedAnswers(t *testing.T) {
	for name, body := range map[string]string{
		"empty object":          `{}`,
		"null":                  `null`,
		"no jobId":              `{"status":"queued"}`,
		"another job":           `{"jobId":"se_2","status":"queued"}`,
		"no status":             `{"jobId":"se_1"}`,
		"unknown status":        `{"jobId":"se_1","status":"exporting"}`,
		"a date that is not":    `{"jobId":"se_1","status":"queued","createdAt":"last tuesday"}`,
		"a fractional count":    `{"jobId":"se_1","status":"queued","pageCount":1.5}`,
		"progress not a number": `{"jobId":"se_1","status":"queued","progress":"42"}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, mt := newCoreClient(t, WithMaxRetries(0))
			mt.RegisterResponder(http.MethodGet, seJobsURL+"/se_1", respond(200, body))
			_, err := c.GetStaticExport(context.Background(), "se_1")
			assert.ErrorIs(t, err, ErrMalformedResponse)
		})
	}
	t.Run("start answered {}", func(t *testing.T) {
		c, mt := newCoreClient(t)
		mt.RegisterResponder(http.MethodPost, seJobsURL, respond(202, `{}`))
		_, err := c.StartStaticExport(context.Background(), StaticExportParams{Domain: "docs.acme.com"})
		assert.ErrorIs(t, err, ErrMalformedResponse)
		assert.ErrorIs(t, err, ErrOutcomeUnknown)
		assert.Equal(t, 1, mt.GetTotalCallCount())
	})
}

func TestPollStaticExport(t *testing.T) {
	for _, final := range []StaticExportStatus{StaticExportCompleted, StaticExportFailed} {
		t.Run(string(final), func(t *testing.T) {
			c, mt := newCoreClient(t)
			mt.RegisterResponder(http.MethodGet, seJobsURL+"/se_1", inOrder(
				respond(200, `{"jobId":"se_1","status":"queued","progress":0}`),
				respond(200, `{"jobId":"se_1","status":"running","progress":50}`),
				respond(200, `{"jobId":"se_1","status":"`+string(final)+`","progress":100}`),
			))
			var progress []float64
			got, err := c.PollStaticExport(context.Background(), "se_1", WithPollInterval(time.Millisecond),
				WithMaxPollInterval(2*time.Millisecond),
				WithPollObserver(func(e *StaticExport) { progress = append(progress, e.Progress) }))
			require.NoError(t, err)
			assert.Equal(t, final, got.Status)
			assert.Equal(t, []float64{0, 50, 100}, progress)
		})
	}
}

func TestBundleStaticExport(t *testing.T) {
	expires := time.Date(2026, 1, 2, 4, 4, 5, 0, time.UTC)
	tests := []struct {
		name, body string
		want       *StaticExportBundle
	}{
		{"every field", `{"jobId":"se_1","bundleUrl":"` + seLink + `","sizeBytes":18432000,"expiresAt":"2026-01-02T04:04:05Z"}`,
			&StaticExportBundle{JobID: "se_1", URL: seLink, SizeBytes: 18432000, ExpiresAt: expires}},
		{"jobId and expiresAt absent", `{"bundleUrl":"` + seLink + `","sizeBytes":0}`,
			&StaticExportBundle{JobID: "se_1", URL: seLink}},
		{"jobId and expiresAt null", `{"jobId":null,"bundleUrl":"` + seLink + `","sizeBytes":5,"expiresAt":null}`,
			&StaticExportBundle{JobID: "se_1", URL: seLink, SizeBytes: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			var rec coreRecorder
			mt.RegisterResponder(http.MethodPost, seJobsURL+"/se_1/bundle", rec.wrap(respond(200, tt.body)))
			got, err := c.BundleStaticExport(context.Background(), "se_1")
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			require.Len(t, rec.requests(), 1)
			assert.Empty(t, rec.requests()[0].Body)
		})
	}
}

func TestBundleStaticExportRefusesMalformedAnswers(t *testing.T) {
	for name, body := range map[string]string{
		"empty object":         `{}`,
		"null":                 `null`,
		"no bundleUrl":         `{"jobId":"se_1","sizeBytes":10}`,
		"null bundleUrl":       `{"jobId":"se_1","bundleUrl":null,"sizeBytes":10}`,
		"empty bundleUrl":      `{"jobId":"se_1","bundleUrl":"","sizeBytes":10}`,
		"no sizeBytes":         `{"jobId":"se_1","bundleUrl":"` + seLink + `"}`,
		"null sizeBytes":       `{"jobId":"se_1","bundleUrl":"` + seLink + `","sizeBytes":null}`,
		"negative sizeBytes":   `{"jobId":"se_1","bundleUrl":"` + seLink + `","sizeBytes":-1}`,
		"sizeBytes a string":   `{"jobId":"se_1","bundleUrl":"` + seLink + `","sizeBytes":"10"}`,
		"another job":          `{"jobId":"se_2","bundleUrl":"` + seLink + `","sizeBytes":10}`,
		"a relative link":      `{"jobId":"se_1","bundleUrl":"/se_1/bundle.tar.gz?` + seSignature + `","sizeBytes":10}`,
		"a link with userinfo": `{"jobId":"se_1","bundleUrl":"https://u:p@s.test/b?` + seSignature + `","sizeBytes":10}`,
		"an ftp link":          `{"jobId":"se_1","bundleUrl":"ftp://s.test/b?` + seSignature + `","sizeBytes":10}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, mt := newCoreClient(t, WithMaxRetries(0))
			mt.RegisterResponder(http.MethodPost, seJobsURL+"/se_1/bundle", respond(200, body))
			_, err := c.BundleStaticExport(context.Background(), "se_1")
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrMalformedResponse)
			assert.NotErrorIs(t, err, ErrOutcomeUnknown, "minting a link has no outcome to lose")
			assert.NotContains(t, err.Error(), "9f86d081", "the link's signature never shows in an error")
		})
	}
}

// Bundle only mints a link: it is retried like a GET, on 5xx too.
func TestBundleStaticExportIsRetried(t *testing.T) {
	c, mt := newCoreClient(t)
	mt.RegisterResponder(http.MethodPost, seJobsURL+"/se_1/bundle", inOrder(
		respond(502, `{"error":"bad gateway"}`),
		respond(503, `{"error":"busy"}`),
		respond(200, `{"jobId":"se_1","bundleUrl":"`+seLink+`","sizeBytes":10}`)))
	b, err := c.BundleStaticExport(context.Background(), "se_1")
	require.NoError(t, err)
	assert.Equal(t, int64(10), b.SizeBytes)
	assert.Equal(t, 3, mt.GetTotalCallCount())

	t.Run("409 while the export runs", func(t *testing.T) {
		c, mt := newCoreClient(t)
		mt.RegisterResponder(http.MethodPost, seJobsURL+"/se_1/bundle", respond(409, `{"error":"job is not completed"}`))
		_, err := c.BundleStaticExport(context.Background(), "se_1")
		assert.ErrorIs(t, err, ErrBadRequest)
		assert.Equal(t, 1, mt.GetTotalCallCount(), "a 409 is final")
	})
}

// Printing or logging a bundle never shows its presigned link.
func TestBundleFormattingHidesTheLink(t *testing.T) {
	b := StaticExportBundle{JobID: "se_1", URL: seLink, SizeBytes: 7, ExpiresAt: time.Date(2026, 1, 2, 4, 4, 5, 0, time.UTC)}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("bundle", "b", b, "p", &b)
	for _, s := range []string{
		fmt.Sprint(b), fmt.Sprintf("%v %+v %#v %s", b, b, b, b), fmt.Sprintf("%v %+v", &b, &b), logged.String(),
	} {
		assert.NotContains(t, s, "9f86d081")
		assert.Contains(t, s, "se_1")
	}
}

func TestStaticExportInputIsValidatedBeforeSending(t *testing.T) {
	ctx := context.Background()
	domains := []string{"", "https://docs.acme.com", "docs.acme.com/", "docs.acme.com/docs", "docs.acme.com:443",
		"//docs.acme.com", "docs acme.com", "user@docs.acme.com", "docs.acme.com?x", "docs.acme.com#x", `docs\acme`, "docs.acme.com\n"}
	for _, d := range domains {
		t.Run(fmt.Sprintf("domain %q", d), func(t *testing.T) {
			c, mt := newCoreClient(t)
			_, err := c.StartStaticExport(ctx, StaticExportParams{Domain: d})
			assert.ErrorIs(t, err, ErrInvalidInput)
			assert.Zero(t, mt.GetTotalCallCount())
		})
	}
	others := map[string]func(c *Client) error{
		"an empty path": func(c *Client) error {
			_, err := c.StartStaticExport(ctx, StaticExportParams{Domain: "docs.acme.com", Paths: []string{"index", ""}})
			return err
		},
		"empty job ID (get)":    func(c *Client) error { _, err := c.GetStaticExport(ctx, ""); return err },
		"empty job ID (poll)":   func(c *Client) error { _, err := c.PollStaticExport(ctx, ""); return err },
		"empty job ID (bundle)": func(c *Client) error { _, err := c.BundleStaticExport(ctx, ""); return err },
		"dot job ID":            func(c *Client) error { _, err := c.GetStaticExport(ctx, "."); return err },
	}
	for name, call := range others {
		t.Run(name, func(t *testing.T) {
			c, mt := newCoreClient(t)
			assert.ErrorIs(t, call(c), ErrInvalidInput)
			assert.Zero(t, mt.GetTotalCallCount())
		})
	}
	t.Run("bare hostnames are accepted", func(t *testing.T) {
		for _, d := range []string{"docs.acme.com", "acme.mintlify.app", "localhost", "xn--dcs-joa.example", "dökümanlar.example"} {
			assert.NoError(t, StaticExportParams{Domain: d}.validate(), d)
		}
	})
}
