package mockserver_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/mockserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// export is a StaticExportJob, with pointers where the vendor allows null.
type export struct {
	JobID     string  `json:"jobId"`
	Status    string  `json:"status"`
	Progress  float64 `json:"progress"`
	PageCount int     `json:"pageCount"`
	CreatedAt string  `json:"createdAt"`
	UpdatedAt string  `json:"updatedAt"`
	Error     *string `json:"error"`
}

type bundle struct {
	JobID     string `json:"jobId"`
	BundleURL string `json:"bundleUrl"`
	SizeBytes int64  `json:"sizeBytes"`
	ExpiresAt string `json:"expiresAt"`
}

func (h *harness) startExport(body string, headers ...string) export {
	h.t.Helper()
	r := h.do("POST", "/v1/static-export/jobs", body, headers...)
	require.Equal(h.t, http.StatusAccepted, r.Status, "body: %s", r.Body)
	var e export
	r.decode(h.t, &e)
	return e
}

func (h *harness) export(id string) export {
	h.t.Helper()
	r := h.do("GET", "/v1/static-export/jobs/"+id, "")
	require.Equal(h.t, http.StatusOK, r.Status, "body: %s", r.Body)
	var e export
	r.decode(h.t, &e)
	return e
}

func (h *harness) bundle(id string) bundle {
	h.t.Helper()
	r := h.do("POST", "/v1/static-export/jobs/"+id+"/bundle", "")
	require.Equal(h.t, http.StatusOK, r.Status, "body: %s", r.Body)
	var b bundle
	r.decode(h.t, &b)
	return b
}

// download fetches a bundle link the way a careful client does: no
// Authorization header.
func download(t *testing.T, link string, headers ...string) *response {
	t.Helper()
	req, err := http.NewRequest("GET", link, nil)
	require.NoError(t, err)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return &response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

func tarNames(t *testing.T, b []byte) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	tr := tar.NewReader(zr)
	var names []string
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		body, err := io.ReadAll(tr)
		require.NoError(t, err)
		assert.Contains(t, string(body), "<html", hdr.Name)
		names = append(names, hdr.Name)
	}
	_, err = io.Copy(io.Discard, zr) // every gzip member, CRC checked
	require.NoError(t, err)
	return names
}

func TestStaticExportProgressesPageByPageThenBundles(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(10*time.Second))
	e := h.startExport(`{"domain":"docs.example.com","version":"2025-01","paths":["index","/guides/webhooks","api-reference/jobs","changelog"]}`)
	assert.Equal(t, "queued", e.Status)
	assert.Zero(t, e.Progress)
	assert.Nil(t, e.Error)
	assert.True(t, strings.HasPrefix(e.JobID, "se_"), e.JobID)

	r := h.do("POST", "/v1/static-export/jobs/"+e.JobID+"/bundle", "")
	assert.Equal(t, http.StatusConflict, r.Status, "no bundle before the job completes")

	clock.Advance(4 * time.Second) // running: 2 s of 8 s, one page of four
	e = h.export(e.JobID)
	assert.Equal(t, "running", e.Status)
	assert.Equal(t, 1, e.PageCount)
	assert.Equal(t, 25.0, e.Progress)
	clock.Advance(6 * time.Second)
	e = h.export(e.JobID)
	assert.Equal(t, "completed", e.Status)
	assert.Equal(t, 4, e.PageCount)
	assert.Equal(t, 100.0, e.Progress)

	b := h.bundle(e.JobID)
	assert.Equal(t, e.JobID, b.JobID)
	expires, err := time.Parse(time.RFC3339, b.ExpiresAt)
	require.NoError(t, err)
	assert.Equal(t, epoch.Add(10*time.Second+mockserver.DefaultBundleLinkTTL), expires)
	storage, err := h.s.StorageURL()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(b.BundleURL, storage+"/"), "the bundle lives on the storage host, not %s", h.s.URL())

	got := download(t, b.BundleURL)
	require.Equal(t, http.StatusOK, got.Status, "body: %s", got.Body)
	assert.EqualValues(t, b.SizeBytes, len(got.Body))
	assert.Equal(t, []string{"index.html", "guides/webhooks.html", "api-reference/jobs.html", "changelog.html"}, tarNames(t, got.Body))

	again := h.bundle(e.JobID)
	assert.Equal(t, b.SizeBytes, again.SizeBytes)
	assert.Equal(t, got.Body, download(t, again.BundleURL).Body, "a fresh link to the same files")
}

func TestStorageHostRefusesCredentialsAndBadLinks(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(0))
	b := h.bundle(h.startExport(`{"domain":"docs.example.com"}`).JobID)
	whole := download(t, b.BundleURL)
	require.Equal(t, http.StatusOK, whole.Status)
	assert.Equal(t, "bytes", whole.Header.Get("Accept-Ranges"))

	r := download(t, b.BundleURL, "Authorization", "Bearer "+h.s.APIKey())
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.NotContains(t, string(r.Body), h.s.APIKey())

	u, err := url.Parse(b.BundleURL)
	require.NoError(t, err)
	for name, alter := range map[string]func(q url.Values){
		"size":      func(q url.Values) { q.Set("size", "99") },
		"expiry":    func(q url.Values) { q.Set("expires", "99999999999") },
		"signature": func(q url.Values) { q.Set("signature", strings.Repeat("0", 64)) },
		"missing":   func(q url.Values) { q.Del("signature") },
	} {
		q := u.Query()
		alter(q)
		v := *u
		v.RawQuery = q.Encode()
		assert.Equal(t, http.StatusForbidden, download(t, v.String()).Status, name)
	}
	other := *u
	other.Path = strings.Replace(u.Path, b.JobID, "se_0000000000000000", 1)
	assert.Equal(t, http.StatusForbidden, download(t, other.String()).Status, "another job")

	r = download(t, b.BundleURL, "Range", "bytes=10-99")
	require.Equal(t, http.StatusPartialContent, r.Status)
	assert.Equal(t, whole.Body[10:100], r.Body)
	r = download(t, b.BundleURL, "Range", "bytes=100-")
	require.Equal(t, http.StatusPartialContent, r.Status)
	assert.Equal(t, whole.Body[100:], r.Body)

	clock.Advance(mockserver.DefaultBundleLinkTTL)
	r = download(t, b.BundleURL)
	assert.Equal(t, http.StatusForbidden, r.Status, "expired")
	assert.Contains(t, r.apiError(t).Details[0].Message, "expired")
}

// WithBundleLinkTTL sets how long a link lives: its expiresAt, and the
// storage host's answer a moment before and at that time.
func TestBundleLinkTTL(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock), mockserver.WithJobDuration(0), mockserver.WithBundleLinkTTL(5*time.Minute))
	b := h.bundle(h.startExport(`{"domain":"docs.example.com","paths":["index"]}`).JobID)
	expires, err := time.Parse(time.RFC3339, b.ExpiresAt)
	require.NoError(t, err)
	assert.Equal(t, epoch.Add(5*time.Minute), expires)
	clock.Advance(5*time.Minute - time.Second)
	assert.Equal(t, http.StatusOK, download(t, b.BundleURL).Status, "still valid")
	clock.Advance(time.Second)
	assert.Equal(t, http.StatusForbidden, download(t, b.BundleURL).Status, "expired")
}

func TestPaddedBundleIsStreamedAtTheAskedSize(t *testing.T) {
	t.Parallel()
	const size = 3<<20 + 12345
	h := setup(t, mockserver.WithJobDuration(0), mockserver.WithBundleSize(size))
	b := h.bundle(h.startExport(`{"domain":"docs.example.com","paths":["index"]}`).JobID)
	assert.EqualValues(t, size, b.SizeBytes)
	whole := download(t, b.BundleURL)
	require.EqualValues(t, size, len(whole.Body))
	assert.Equal(t, []string{"index.html"}, tarNames(t, whole.Body), "padding keeps it a valid tar.gz")
	tail := download(t, b.BundleURL, "Range", "bytes=-20")
	require.Equal(t, http.StatusPartialContent, tail.Status)
	assert.Equal(t, whole.Body[size-20:], tail.Body)

	r := h.do("PUT", "/_mock/static-export", `{"bundleSize":0}`)
	require.Equal(t, http.StatusOK, r.Status)
	assert.Less(t, h.bundle(b.JobID).SizeBytes, int64(size), "new links give the real bundle")
}

func TestStaticExportRefusals(t *testing.T) {
	t.Parallel()
	h := setup(t)
	for _, body := range []string{"", "{}", "null", `{"domain":""}`, `{"domain":"https://docs.example.com"}`,
		`{"domain":"docs.example.com/"}`, `{"domain":"docs.example.com/docs"}`, `{"domain":"docs.example.com:443"}`,
		`{"domain":"docs.example.com","paths":[""]}`, `{"domain":"docs.example.com","paths":["../x"]}`,
		`{"domain":"docs.example.com","paths":"index"}`, `{"Domain":"docs.example.com"}`, `{"domain":7}`} {
		r := h.do("POST", "/v1/static-export/jobs", body)
		assert.Equal(t, http.StatusBadRequest, r.Status, "body %s: %s", body, r.Body)
	}
	assert.Equal(t, http.StatusNotFound, h.do("GET", "/v1/static-export/jobs/se_0000000000000000", "").Status)
	assert.Equal(t, http.StatusNotFound, h.do("POST", "/v1/static-export/jobs/se_0000000000000000/bundle", "").Status)

	off := setup(t, mockserver.WithStaticExport(false))
	r := off.do("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`)
	assert.Equal(t, http.StatusForbidden, r.Status)
	assert.Contains(t, r.apiError(t).Error, "not enabled")
	require.Equal(t, http.StatusOK, off.do("PUT", "/_mock/static-export", `{"enabled":true}`).Status)
	assert.Equal(t, http.StatusAccepted, off.do("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`).Status)
}

func TestStaticExportJobsBelongToTheirOrganization(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithProject("theirs", "mint_their_key"), mockserver.WithJobDuration(0))
	e := h.startExport(`{"domain":"docs.example.com"}`)
	for _, c := range []struct{ method, path string }{{"GET", ""}, {"POST", "/bundle"}} {
		r := h.do(c.method, "/v1/static-export/jobs/"+e.JobID+c.path, "", "Authorization", "Bearer mint_their_key")
		assert.Equal(t, http.StatusNotFound, r.Status, c)
	}
}

func TestExportOfAProjectSubdomainTakesItsOutcome(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(0), mockserver.WithProjectID("docs"),
		mockserver.WithProjectSettings("docs", mockserver.ProjectSettings{Subdomain: "acme", Outcome: mockserver.OutcomeFailed}))
	assert.Equal(t, "failed", h.export(h.startExport(`{"domain":"acme.mintlify.app"}`).JobID).Status)
	assert.Equal(t, "completed", h.export(h.startExport(`{"domain":"docs.acme.com"}`).JobID).Status, "a domain of no project")
	assert.Equal(t, "completed", h.export(h.startExport(`{"domain":"acme.mintlify.app"}`, mockserver.OutcomeHeader, "no-change").JobID).Status)
}

func TestHugePaddedBundleAnswersHeadAndTailRanges(t *testing.T) {
	t.Parallel()
	const size = 1 << 30
	h := setup(t, mockserver.WithJobDuration(0), mockserver.WithBundleSize(size))
	b := h.bundle(h.startExport(`{"domain":"docs.example.com"}`).JobID)
	require.EqualValues(t, size, b.SizeBytes)
	req, err := http.NewRequest("HEAD", b.BundleURL, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.EqualValues(t, size, resp.ContentLength)
	r := download(t, b.BundleURL, "Range", "bytes=536870912-536870927")
	require.Equal(t, http.StatusPartialContent, r.Status)
	assert.Len(t, r.Body, 16)
	assert.Equal(t, "bytes 536870912-536870927/1073741824", r.Header.Get("Content-Range"))
	r = download(t, b.BundleURL, "Range", "bytes=-4")
	require.Equal(t, http.StatusPartialContent, r.Status)
	isize := int64(r.Body[0]) | int64(r.Body[1])<<8 | int64(r.Body[2])<<16 | int64(r.Body[3])<<24

	// The layout the README documents: the real archive, a 10-byte gzip
	// header, k stored blocks of at most 65535 zeros behind 5-byte headers,
	// an 8-byte trailer whose last four bytes count the zeros.
	h.s.SetBundleSize(0)
	real := h.bundle(b.JobID).SizeBytes
	x := size - real - 18
	k := (x + 65539) / 65540
	assert.Equal(t, x-5*k, isize, "gzip's ISIZE: the zeros of the padding member")
}

func TestDownloadsAreJournaledWithoutSecrets(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(0))
	b := h.bundle(h.startExport(`{"domain":"docs.example.com"}`).JobID)
	h.s.ClearJournal()
	download(t, b.BundleURL)
	download(t, b.BundleURL, "Range", "bytes=5-")
	download(t, b.BundleURL, "Authorization", "Bearer "+h.s.APIKey())
	var statuses []int
	for _, e := range h.s.Journal() {
		require.Equal(t, mockserver.RouteBundleDownload, e.Route)
		statuses = append(statuses, e.Status)
		assert.NotContains(t, e.Query, b.BundleURL[strings.Index(b.BundleURL, "signature=")+10:], "no signature in the journal")
		assert.NotContains(t, e.Auth, h.s.APIKey())
	}
	assert.Equal(t, []int{http.StatusOK, http.StatusPartialContent, http.StatusBadRequest}, statuses)
}

func TestStorageFaultsCutADownloadThatRangeResumes(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(0), mockserver.WithBundleSize(1<<20))
	b := h.bundle(h.startExport(`{"domain":"docs.example.com"}`).JobID)
	require.NoError(t, h.s.InjectFault(mockserver.FaultRule{Route: "*", Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 500}}))
	whole := download(t, b.BundleURL)
	require.Equal(t, http.StatusOK, whole.Status, "a * rule is for the API, not the storage host")
	h.s.ClearFaults()

	for _, spec := range []string{"route=bundle-download,truncate,times=1", "route=bundle-download,reset,times=1"} {
		rule, err := mockserver.ParseFault(spec)
		require.NoError(t, err)
		require.NoError(t, h.s.InjectFault(rule))
		resp, err := http.Get(b.BundleURL)
		require.NoError(t, err)
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Error(t, err, "%s: the body ends early", spec)
		require.Less(t, len(got), len(whole.Body))
		rest := download(t, b.BundleURL, "Range", "bytes="+strconv.Itoa(len(got))+"-")
		require.Equal(t, http.StatusPartialContent, rest.Status, spec)
		assert.Equal(t, whole.Body, append(got, rest.Body...), "%s: resumed bytes are exact", spec)
	}

	rule, err := mockserver.ParseFault("route=bundle-download,status=503,retry-after=7,times=1")
	require.NoError(t, err)
	require.NoError(t, h.s.InjectFault(rule))
	r := download(t, b.BundleURL)
	assert.Equal(t, http.StatusServiceUnavailable, r.Status)
	assert.Equal(t, "7", r.Header.Get("Retry-After"))
	assert.Equal(t, http.StatusOK, download(t, b.BundleURL).Status)

	_, err = mockserver.ParseFault("route=bundle-download,html")
	assert.Error(t, err, "a storage host sends no HTML pages here")
}
