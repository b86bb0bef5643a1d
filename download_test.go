package mintlify_test

// DownloadStaticExport against a storage host: the exact bytes, streamed,
// resumed with Range, never the key; and every way the host or the caller
// can make it fail.

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// maxResumes is how many times a dropped download is resumed.
const maxResumes = 3

// dlSignature is the secret part of every test link: it must never show in
// an error.
const dlSignature = "sig_5c0ffee5c0ffee5c0ffee"

// dlStorage stands in for the storage host: it serves data at any path
// whose query carries dlSignature, supports Range, records every request's
// headers, and misbehaves on demand.
type dlStorage struct {
	data []byte

	mu          sync.Mutex
	headers     []http.Header
	cuts        int    // the next cuts answers break off halfway through what they send
	ignoreRange bool   // answer a Range request with the whole file (200)
	chunked     bool   // send no Content-Length
	status      int    // answer with this status and an echo of the request
	statusTimes int    // that many times (0: always)
	stall       bool   // send half the data, then hang until the client leaves
	stalls      int    // the next stalls answers do as stall does
	gzipLabel   bool   // label the body Content-Encoding: gzip, as some hosts do for a .tar.gz
	redirect    string // answer 302 to this address

	// The object's validators, sent with every answer ("" sends none); a
	// Range request whose If-Range names neither gets the whole object
	// (200), as RFC 9110 says, unless ignoreIfRange.
	etag, lastModified string
	ignoreIfRange      bool
	// switchTo replaces the object (data and ETag) once a cut answer has
	// been sent: the host now serves another object under the same link.
	switchTo     []byte
	switchToETag string
}

func newDLStorage(t *testing.T, size int) (*dlStorage, *httptest.Server) {
	t.Helper()
	s := &dlStorage{data: make([]byte, size), etag: `"v1"`}
	r := rand.New(rand.NewPCG(uint64(size), 7))
	for i := range s.data {
		s.data[i] = byte(r.Uint32())
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func (s *dlStorage) link(srv *httptest.Server) string {
	return srv.URL + "/se_1/bundle.tar.gz?X-Expires=3600&X-Signature=" + dlSignature
}

func (s *dlStorage) bundle(srv *httptest.Server) *mintlify.StaticExportBundle {
	return &mintlify.StaticExportBundle{JobID: "se_1", URL: s.link(srv), SizeBytes: int64(len(s.data)),
		ExpiresAt: time.Now().Add(time.Hour)}
}

func (s *dlStorage) requests() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.headers...)
}

func (s *dlStorage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := r.Header.Clone()
	h.Set("X-Test-Request-URI", r.RequestURI)
	s.headers = append(s.headers, h)
	cut := s.cuts > 0
	if cut {
		s.cuts--
	}
	data, etag, lastModified, ignoreIfRange := s.data, s.etag, s.lastModified, s.ignoreIfRange
	if cut && s.switchTo != nil {
		s.data, s.etag, s.switchTo = s.switchTo, s.switchToETag, nil
	}
	ignoreRange, chunked, status, stall := s.ignoreRange, s.chunked, s.status, s.stall || s.stalls > 0
	if s.stalls > 0 {
		s.stalls--
	}
	if s.statusTimes > 0 {
		if s.statusTimes--; s.statusTimes == 0 {
			s.status = 0
		}
	}
	if s.gzipLabel {
		w.Header().Set("Content-Encoding", "gzip")
	}
	s.mu.Unlock()

	if s.redirect != "" {
		http.Redirect(w, r, s.redirect, http.StatusFound)
		return
	}
	if status != 0 {
		// Hosts echo the request in their errors, signature included.
		w.Header().Set("Content-Type", "application/xml")
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(status)
		fmt.Fprintf(w, "<Error><Code>AccessDenied</Code><Message>Request has expired</Message><Resource>%s</Resource><Signature>%s</Signature></Error>",
			r.RequestURI, dlSignature)
		return
	}
	if etag != "" {
		w.Header().Set("ETag", etag)
	}
	if lastModified != "" {
		w.Header().Set("Last-Modified", lastModified)
	}
	from := 0
	code := http.StatusOK
	ifRange := r.Header.Get("If-Range")
	sameObject := ifRange == "" || ignoreIfRange || ifRange == etag || ifRange == lastModified
	if rg := r.Header.Get("Range"); rg != "" && !ignoreRange && sameObject {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
		if err != nil || n >= len(data) {
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
			return
		}
		from, code = n, http.StatusPartialContent
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", n, len(data)-1, len(data)))
	}
	body := data[from:]
	if !chunked {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(code)
	if chunked {
		w.(http.Flusher).Flush() // before any byte: no Content-Length
	}
	switch {
	case stall:
		_, _ = w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	case cut:
		_, _ = w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection drops mid-body
	default:
		_, _ = w.Write(body)
	}
}

// newDLClient is a client whose API lives elsewhere: the download must not
// need it.
func newDLClient(t *testing.T, opts ...mintlify.Option) *mintlify.Client {
	t.Helper()
	c, err := mintlify.NewClient(append([]mintlify.Option{mintlify.WithAPIKey(testKey), mintlify.WithProjectID(testProject),
		mintlify.WithBaseURL("http://127.0.0.1:1"), mintlify.WithRetryWait(time.Millisecond, 5*time.Millisecond)}, opts...)...)
	require.NoError(t, err)
	return c
}

// dlAssertClean fails if the storage host saw the key, any Authorization
// or cookie, in any header or the request line.
func dlAssertClean(t *testing.T, s *dlStorage) {
	t.Helper()
	for i, h := range s.requests() {
		assert.Empty(t, h.Values("Authorization"), "request %d carries Authorization", i)
		assert.Empty(t, h.Values("Cookie"), "request %d carries a cookie", i)
		for name, vs := range h {
			for _, v := range vs {
				assertNoKey(t, name+": "+v, fmt.Sprintf("request %d header", i))
			}
		}
	}
}

func TestDownloadStaticExportStreamsTheExactBytes(t *testing.T) {
	for _, size := range []int{0, 1, 1000, 3*(256<<10) + 17} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			s, srv := newDLStorage(t, size)
			var got bytes.Buffer
			n, err := newDLClient(t).DownloadStaticExport(context.Background(), s.bundle(srv), &got)
			require.NoError(t, err)
			assert.Equal(t, int64(size), n)
			assert.True(t, bytes.Equal(s.data, got.Bytes()), "the bytes are the host's")
			require.Len(t, s.requests(), 1)
			assert.Empty(t, s.requests()[0].Get("Range"))
			dlAssertClean(t, s)
		})
	}
}

// A host that labels the archive Content-Encoding: gzip gets its bytes
// written as they are: the transport must not unzip the tar.gz.
func TestDownloadStaticExportKeepsGzipEncodedBytes(t *testing.T) {
	s, srv := newDLStorage(t, 0)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(bytes.Repeat([]byte("page "), 1000))
	require.NoError(t, zw.Close())
	s.data, s.gzipLabel = gz.Bytes(), true
	var got bytes.Buffer
	n, err := newDLClient(t).DownloadStaticExport(context.Background(), s.bundle(srv), &got)
	require.NoError(t, err)
	assert.Equal(t, int64(len(s.data)), n)
	assert.Equal(t, s.data, got.Bytes())
	assert.Equal(t, "identity", s.requests()[0].Get("Accept-Encoding"))
}

// Neither the key nor an Authorization header reaches the storage host,
// even through a client whose HTTP client has a cookie jar, and even when
// the link points at the API's own host.
func TestDownloadStaticExportNeverSendsTheKey(t *testing.T) {
	s, srv := newDLStorage(t, 5000)
	jar := &dlJar{}
	c := newDLClient(t, mintlify.WithBaseURL(srv.URL), mintlify.WithHTTPClient(&http.Client{Jar: jar}))
	s.cuts = 1 // the resume request is checked too
	var got bytes.Buffer
	_, err := c.DownloadStaticExport(context.Background(), s.bundle(srv), &got)
	require.NoError(t, err)
	require.Len(t, s.requests(), 2)
	dlAssertClean(t, s)
	assert.Zero(t, jar.asked, "the API's cookies stay away from the storage host")
}

type dlJar struct{ asked int }

func (j *dlJar) SetCookies(*url.URL, []*http.Cookie) {}
func (j *dlJar) Cookies(*url.URL) []*http.Cookie {
	j.asked++
	return []*http.Cookie{{Name: "session", Value: testKey}}
}

func TestDownloadStaticExportResumesWithRange(t *testing.T) {
	for cuts := 1; cuts <= maxResumes; cuts++ {
		t.Run(strconv.Itoa(cuts), func(t *testing.T) {
			s, srv := newDLStorage(t, 200_000)
			s.cuts = cuts
			var got bytes.Buffer
			n, err := newDLClient(t).DownloadStaticExport(context.Background(), s.bundle(srv), &got)
			require.NoError(t, err)
			assert.Equal(t, int64(len(s.data)), n)
			assert.True(t, bytes.Equal(s.data, got.Bytes()), "resumed where it stopped: no byte twice, none missing")
			reqs := s.requests()
			require.Len(t, reqs, cuts+1)
			assert.Empty(t, reqs[0].Get("Range"))
			assert.Empty(t, reqs[0].Get("If-Range"))
			// Each cut delivers half of what was asked: the next range
			// starts where the last one stopped, for the same object.
			written := 0
			for i := 1; i <= cuts; i++ {
				written += (len(s.data) - written) / 2
				assert.Equal(t, "bytes="+strconv.Itoa(written)+"-", reqs[i].Get("Range"), "request %d", i)
				assert.Equal(t, `"v1"`, reqs[i].Get("If-Range"), "request %d: the first answer's ETag", i)
			}
			dlAssertClean(t, s)
		})
	}
}

// TestDownloadResumesOnlyTheSameObject: a resume asks for the rest of the
// object the first answer began (If-Range with its ETag, else its
// Last-Modified), and a host that answers with another object, or names
// none, fails the download rather than splicing two objects into one
// archive reported as success: with Range alone, a host that switched
// objects would answer 206 from the new one.
func TestDownloadResumesOnlyTheSameObject(t *testing.T) {
	t.Parallel()
	other := bytes.Repeat([]byte{0xAB}, 100_000)
	tests := []struct {
		name    string
		setup   func(s *dlStorage)
		reqs    int
		ok      bool
		ifRange string // the resume's If-Range
		wantIn  string
	}{
		{"a switched object, If-Range honoured (200)", func(s *dlStorage) { s.switchTo, s.switchToETag = other, `"v2"` },
			2, false, `"v1"`, "whole"},
		{"a switched object, If-Range ignored (206, another ETag)", func(s *dlStorage) {
			s.switchTo, s.switchToETag, s.ignoreIfRange = other, `"v2"`, true
		}, 2, false, `"v1"`, "another object"},
		{"a switched object, If-Range ignored (206, no ETag)", func(s *dlStorage) {
			s.switchTo, s.switchToETag, s.ignoreIfRange = other, "", true
		}, 2, false, `"v1"`, "another object"}, // RFC 9110: a 206 carries the ETag a 200 would
		{"no validator: not resumed", func(s *dlStorage) { s.etag = "" }, 1, false, "", "neither an ETag nor a Last-Modified"},
		{"a weak ETag only: not resumed", func(s *dlStorage) { s.etag = `W/"v1"` }, 1, false, "", "neither"},
		{"Last-Modified only", func(s *dlStorage) { s.etag, s.lastModified = "", "Mon, 02 Jan 2026 15:04:05 GMT" },
			2, true, "Mon, 02 Jan 2026 15:04:05 GMT", ""},
		{"a weak ETag and Last-Modified", func(s *dlStorage) { s.etag, s.lastModified = `W/"v1"`, "Mon, 02 Jan 2026 15:04:05 GMT" },
			2, true, "Mon, 02 Jan 2026 15:04:05 GMT", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, srv := newDLStorage(t, 100_000)
			want := bytes.Clone(s.data)
			s.cuts = 1
			tt.setup(s)
			var got bytes.Buffer
			n, err := newDLClient(t).DownloadStaticExport(context.Background(), s.bundle(srv), &got)
			reqs := s.requests()
			require.Len(t, reqs, tt.reqs)
			if tt.reqs > 1 {
				assert.Equal(t, tt.ifRange, reqs[1].Get("If-Range"))
				assert.Equal(t, "bytes=50000-", reqs[1].Get("Range"))
			}
			if tt.ok {
				require.NoError(t, err)
				assert.True(t, bytes.Equal(want, got.Bytes()))
				return
			}
			require.Error(t, err, "a spliced archive reported as success")
			assert.Equal(t, int64(got.Len()), n)
			assert.True(t, bytes.HasPrefix(want, got.Bytes()), "only the first object's bytes were written")
			assert.Contains(t, err.Error(), tt.wantIn)
			assert.NotContains(t, err.Error(), dlSignature)
		})
	}
}

// A host that is busy for a moment (429, 503) is asked again.
func TestDownloadStaticExportRetriesABusyHost(t *testing.T) {
	for _, code := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			s, srv := newDLStorage(t, 5000)
			s.status, s.statusTimes = code, 2
			var got bytes.Buffer
			n, err := newDLClient(t).DownloadStaticExport(context.Background(), s.bundle(srv), &got)
			require.NoError(t, err)
			assert.Equal(t, int64(5000), n)
			assert.Equal(t, s.data, got.Bytes())
			reqs := s.requests()
			require.Len(t, reqs, 3)
			assert.Empty(t, reqs[2].Get("Range"), "nothing was written yet: no Range")
		})
	}
}

func TestDownloadStaticExportFailures(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(s *dlStorage, b *mintlify.StaticExportBundle)
		reqs    int
		wantErr error  // matched with errors.Is, if set
		wantIn  string // in the error text
	}{
		{"dropped more than 3 times", func(s *dlStorage, _ *mintlify.StaticExportBundle) { s.cuts = 10 },
			maxResumes + 1, io.ErrUnexpectedEOF, ""},
		{"200 to a Range request", func(s *dlStorage, _ *mintlify.StaticExportBundle) { s.cuts, s.ignoreRange = 1, true },
			2, nil, "Range"},
		{"the host's file is longer (Content-Length)", func(_ *dlStorage, b *mintlify.StaticExportBundle) { b.SizeBytes-- },
			1, nil, "sends 1000 bytes, the bundle has 999"},
		{"the host's file is shorter (Content-Length)", func(_ *dlStorage, b *mintlify.StaticExportBundle) { b.SizeBytes++ },
			1, nil, "sends 1000 bytes, the bundle has 1001"},
		{"the host's file is longer (chunked)", func(s *dlStorage, b *mintlify.StaticExportBundle) { s.chunked = true; b.SizeBytes -= 10 },
			1, nil, "more than the bundle's 990 bytes"},
		{"the host's file is shorter (chunked)", func(s *dlStorage, b *mintlify.StaticExportBundle) { s.chunked = true; b.SizeBytes += 10 },
			2, mintlify.ErrBadRequest, "416"}, // resumed at 1000 of 1010: the host has no such range
		{"an expired link (403)", func(s *dlStorage, _ *mintlify.StaticExportBundle) { s.status = http.StatusForbidden },
			1, mintlify.ErrForbidden, "AccessDenied"},
		{"a missing object (404)", func(s *dlStorage, _ *mintlify.StaticExportBundle) { s.status = http.StatusNotFound },
			1, mintlify.ErrNotFound, ""},
		{"a host that keeps failing (503)", func(s *dlStorage, _ *mintlify.StaticExportBundle) { s.status = http.StatusServiceUnavailable },
			maxResumes + 1, mintlify.ErrServer, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, srv := newDLStorage(t, 1000)
			b := s.bundle(srv)
			tt.setup(s, b)
			var got bytes.Buffer
			n, err := newDLClient(t).DownloadStaticExport(context.Background(), b, &got)
			require.Error(t, err)
			assert.Equal(t, int64(got.Len()), n, "the count is what w received")
			assert.LessOrEqual(t, n, b.SizeBytes, "never more than the bundle")
			assert.True(t, bytes.HasPrefix(s.data, got.Bytes()), "what was written is the start of the bundle")
			assert.Len(t, s.requests(), tt.reqs)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
			}
			assert.Contains(t, err.Error(), tt.wantIn)
			assert.NotContains(t, err.Error(), dlSignature, "the link never shows in an error")
			assert.NotContains(t, err.Error(), "/se_1/bundle.tar.gz")
			assertNoKey(t, err.Error(), "download error")
			dlAssertClean(t, s)
		})
	}
}

func TestDownloadStaticExportWriterFailureIsFinal(t *testing.T) {
	s, srv := newDLStorage(t, 100_000)
	boom := errors.New("disk full")
	n, err := newDLClient(t).DownloadStaticExport(context.Background(), s.bundle(srv), dlFailingWriter{after: 1000, err: boom})
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, int64(1000), n)
	assert.Len(t, s.requests(), 1, "a writer failure is not resumed")
}

type dlFailingWriter struct {
	after int
	err   error
}

func (w dlFailingWriter) Write(p []byte) (int, error) { return min(len(p), w.after), w.err }

func TestDownloadStaticExportRefusesBadBundles(t *testing.T) {
	good := func() *mintlify.StaticExportBundle {
		return &mintlify.StaticExportBundle{JobID: "se_1", URL: "https://s.test/b?" + dlSignature, SizeBytes: 10, ExpiresAt: time.Now().Add(time.Hour)}
	}
	tests := map[string]func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle{
		"nil bundle": func(*mintlify.StaticExportBundle) *mintlify.StaticExportBundle { return nil },
		"no link":    func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle { b.URL = ""; return b },
		"expired link": func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle {
			b.ExpiresAt = time.Now().Add(-time.Second)
			return b
		},
		"relative link": func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle {
			b.URL = "/b?" + dlSignature
			return b
		},
		"link with user": func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle {
			b.URL = "https://u:pw@s.test/b?" + dlSignature
			return b
		},
		"not a link": func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle {
			b.URL = "https://s.test/%zz?" + dlSignature
			return b
		},
		"negative size": func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle { b.SizeBytes = -1; return b },
		"a file: link": func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle {
			b.URL = "file:///etc/passwd"
			return b
		},
		"a link w/o host": func(b *mintlify.StaticExportBundle) *mintlify.StaticExportBundle {
			b.URL = "https:///b?" + dlSignature
			return b
		},
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			mt := httpmock.NewMockTransport()
			c := newDLClient(t, mintlify.WithHTTPClient(&http.Client{Transport: mt}))
			_, err := c.DownloadStaticExport(context.Background(), mutate(good()), io.Discard)
			assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
			assert.NotContains(t, err.Error(), dlSignature)
			assert.Zero(t, mt.GetTotalCallCount())
		})
	}
	t.Run("nil writer", func(t *testing.T) {
		_, err := newDLClient(t).DownloadStaticExport(context.Background(), good(), nil)
		assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	})
	t.Run("nil context", func(t *testing.T) {
		_, err := newDLClient(t).DownloadStaticExport(nil, good(), io.Discard) //nolint:staticcheck // the point of the test
		assert.ErrorIs(t, err, mintlify.ErrInvalidInput)
	})
	t.Run("an ended context sends nothing", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s, srv := newDLStorage(t, 10)
		_, err := newDLClient(t).DownloadStaticExport(ctx, s.bundle(srv), io.Discard)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Empty(t, s.requests())
	})
}

// A stalled body stops the download promptly when the context ends, over
// a real connection and through a transport that ignores the context.
func TestDownloadStaticExportStopsWithTheContext(t *testing.T) {
	const bound = time.Second // generous: the design target is well under 100 ms
	t.Run("loopback", func(t *testing.T) {
		s, srv := newDLStorage(t, 100_000)
		s.stall = true
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var canceled time.Time
		w := &dlCancelWriter{at: 1000, cancel: func() { canceled = time.Now(); cancel() }}
		n, err := newDLClient(t).DownloadStaticExport(ctx, s.bundle(srv), w)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Less(t, time.Since(canceled), bound)
		assert.Equal(t, int64(w.n), n)
		assert.Len(t, s.requests(), 1, "no resume after the context ended")
	})
	t.Run("a transport that ignores the context", func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		go func() { _, _ = pw.Write(make([]byte, 5000)) }() // then nothing, for ever
		mt := httpmock.NewMockTransport()
		mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{}, Body: pr, ContentLength: 100_000, Request: r}, nil
		})
		c := newDLClient(t, mintlify.WithHTTPClient(&http.Client{Transport: mt}))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var canceled time.Time
		w := &dlCancelWriter{at: 1000, cancel: func() { canceled = time.Now(); cancel() }}
		_, err := c.DownloadStaticExport(ctx, &mintlify.StaticExportBundle{URL: "https://s.test/b?" + dlSignature, SizeBytes: 100_000}, w)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Less(t, time.Since(canceled), bound)
	})
}

// TestDownloadEndsAStall: a storage host that stops sending mid-body is
// cut off once no byte has come for the stall timeout, with no context
// deadline, and the download resumes where it stopped; one that stalls
// every time fails after its resumes with an error that matches
// os.ErrDeadlineExceeded, long before the caller's context (here a safety
// deadline of 10 s).
func TestDownloadEndsAStall(t *testing.T) {
	t.Parallel()
	const stall = 100 * time.Millisecond
	t.Run("once", func(t *testing.T) {
		t.Parallel()
		s, srv := newDLStorage(t, 100_000)
		s.stalls = 1
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var got bytes.Buffer
		n, err := newDLClient(t, mintlify.WithStallTimeout(stall)).DownloadStaticExport(ctx, s.bundle(srv), &got)
		require.NoError(t, err)
		assert.Equal(t, int64(len(s.data)), n)
		assert.True(t, bytes.Equal(s.data, got.Bytes()))
		reqs := s.requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, "bytes=50000-", reqs[1].Get("Range"), "resumed where the stall cut it")
	})
	t.Run("always", func(t *testing.T) {
		t.Parallel()
		s, srv := newDLStorage(t, 100_000)
		s.stall = true
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		started := time.Now()
		n, err := newDLClient(t, mintlify.WithStallTimeout(stall)).DownloadStaticExport(ctx, s.bundle(srv), io.Discard)
		require.Error(t, err)
		require.NotErrorIs(t, err, context.DeadlineExceeded, "ended by the safety deadline after %s", time.Since(started))
		assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
		assert.Contains(t, err.Error(), "stall")
		assert.NotContains(t, err.Error(), dlSignature)
		assert.Len(t, s.requests(), maxResumes+1)
		assert.Positive(t, n)
	})
}

// TestDownloadSlowButSteadyIsNotAStall: the stall timeout counts only
// time a read waits with nothing coming: a host that sends a piece every
// 40 ms for half a second, to a writer that takes 300 ms over one piece,
// is read whole with a stall timeout of 150 ms.
func TestDownloadSlowButSteadyIsNotAStall(t *testing.T) {
	t.Parallel()
	const stall = 150 * time.Millisecond
	data := bytes.Repeat([]byte("0123456789"), 1000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		for piece := range slices.Chunk(data, len(data)/12) {
			_, _ = w.Write(piece)
			w.(http.Flusher).Flush()
			time.Sleep(40 * time.Millisecond)
		}
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var got bytes.Buffer
	slow := &dlSlowWriter{w: &got, pause: 300 * time.Millisecond}
	bundle := &mintlify.StaticExportBundle{JobID: "se_1", URL: srv.URL + "/bundle.tar.gz", SizeBytes: int64(len(data)), ExpiresAt: time.Now().Add(time.Hour)}
	n, err := newDLClient(t, mintlify.WithStallTimeout(stall), mintlify.WithMaxRetries(0)).DownloadStaticExport(ctx, bundle, slow)
	require.NoError(t, err)
	assert.Equal(t, int64(len(data)), n)
	assert.True(t, bytes.Equal(data, got.Bytes()))
}

// dlSlowWriter takes pause over its first write.
type dlSlowWriter struct {
	w     io.Writer
	pause time.Duration
	once  sync.Once
}

func (w *dlSlowWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { time.Sleep(w.pause) })
	return w.w.Write(p)
}

// dlCancelWriter cancels once it holds at least at bytes; the download's
// next read then stalls until the context's end is noticed.
type dlCancelWriter struct {
	n, at  int
	cancel func()
	once   sync.Once
}

func (w *dlCancelWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	if w.n >= w.at {
		w.once.Do(w.cancel)
	}
	return len(p), nil
}

// TestDownloadEndsWithItsContextWhateverTheHost: a storage host that
// switches protocols, sends informational answers or a body that stalls
// cannot hold DownloadStaticExport past its context.
func TestDownloadEndsWithItsContextWhateverTheHost(t *testing.T) {
	t.Parallel()
	for name, answer := range map[string]string{
		"101 held open":        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
		"100 then nothing":     "HTTP/1.1 100 Continue\r\n\r\n",
		"headers then nothing": "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabc",
		"a 503 body stalled":   "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 1000\r\n\r\n<Error>",
		"a 403 body stalled":   "HTTP/1.1 403 Forbidden\r\nContent-Length: 1000\r\n\r\n<Error>",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			holdTimingSlot(t)
			base := hijackServer(t, func(c net.Conn) { fmt.Fprint(c, answer) })
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			started := time.Now()
			_, err := newDLClient(t).DownloadStaticExport(ctx, &mintlify.StaticExportBundle{JobID: "exp_1", URL: base + "/b.tgz?sig=1", SizeBytes: 1000}, io.Discard)
			require.Error(t, err)
			assert.Less(t, time.Since(started), time.Second, "returned soon after the context ended")
			readsOnce(t, err, 0)
		})
	}
}

// TestBundleLinkHoldingTheKeyIsNeverFollowed: a proxy that echoes the key
// into bundleUrl would have DownloadStaticExport hand it to the storage
// host. BundleStaticExport refuses such a link, and DownloadStaticExport
// refuses a bundle holding one, before any request.
func TestBundleLinkHoldingTheKeyIsNeverFollowed(t *testing.T) {
	t.Parallel()
	var storage atomic.Int32
	// https, as the API's: only the key can make the link wrong.
	host := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { storage.Add(1) }))
	t.Cleanup(host.Close)
	echoes := keyEchoes(testKey)
	// Every byte percent-encoded, once and twice: the host decodes what it
	// is sent, and the scrubber alone knows the key only as it is and as
	// QueryEscape writes it.
	var every strings.Builder
	for _, b := range []byte(testKey) {
		fmt.Fprintf(&every, "%%%02X", b)
	}
	echoes["every byte percent-encoded"] = every.String()
	echoes["percent-encoded twice"] = strings.ReplaceAll(every.String(), "%", "%25")
	echoes["percent-encoded twice, in lower case"] = strings.ToLower(strings.ReplaceAll(every.String(), "%", "%25"))
	for form, echo := range echoes {
		link := host.URL + "/b.tgz?sig=" + echo
		if !strings.Contains(form, "percent-encoded") {
			link = host.URL + "/b.tgz?sig=" + url.QueryEscape(echo)
		}
		c, _ := answering(t, respond(200, setLeaf(t, goodBundle, []any{"bundleUrl"}, link)), mintlify.WithMaxRetries(0))
		b, err := c.BundleStaticExport(context.Background(), "exp_1")
		require.ErrorIs(t, err, mintlify.ErrMalformedResponse, form)
		assert.Nil(t, b)
		assertNoKey(t, err.Error(), form)

		_, err = c.DownloadStaticExport(context.Background(), &mintlify.StaticExportBundle{JobID: "exp_1", URL: link, SizeBytes: 1}, io.Discard)
		require.ErrorIs(t, err, mintlify.ErrInvalidInput, form)
		assertNoKey(t, err.Error(), form)
	}
	assert.Zero(t, storage.Load(), "nothing reached the storage host")
}

// TestDownloadFollowsNoRedirect: a storage host that redirects would hand
// the presigned link to another host (in Referer) and the download to a
// host the API never named; whatever http.Client the caller passed, the
// download fails with the host's 302, after one request, and the other
// host sees nothing.
func TestDownloadFollowsNoRedirect(t *testing.T) {
	t.Parallel()
	var reached atomic.Int32
	var referer atomic.Value
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		referer.Store(r.Header.Get("Referer"))
		_, _ = w.Write(make([]byte, 1000))
	}))
	t.Cleanup(elsewhere.Close)
	for name, hc := range map[string]*http.Client{"the default": nil, "a Timeout only": {Timeout: 30 * time.Second},
		"one that follows all": {CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}} {
		t.Run(name, func(t *testing.T) {
			s, srv := newDLStorage(t, 1000)
			s.redirect = elsewhere.URL + "/copy.tar.gz"
			var got bytes.Buffer
			n, err := newDLClient(t, mintlify.WithHTTPClient(hc)).DownloadStaticExport(context.Background(), s.bundle(srv), &got)
			require.Error(t, err)
			assert.ErrorIs(t, err, mintlify.ErrBadRequest, "the 302, as an answer outside 2xx")
			assert.Contains(t, err.Error(), "redirect")
			assert.NotContains(t, err.Error(), dlSignature)
			assert.Zero(t, n)
			assert.Len(t, s.requests(), 1)
			assert.Zero(t, reached.Load(), "the other host was reached, Referer %q", referer.Load())
		})
	}
}

// TestDownloadRefusesAPlainHTTPLinkFromAnHTTPSAPI: an API reached over
// https that hands out an http:// bundle link would send its signature,
// and the archive, in clear text. BundleStaticExport calls such an answer
// malformed, DownloadStaticExport refuses such a bundle before any
// request; over an http API (a mock on loopback) the link may be http,
// and an https link is always fine.
func TestDownloadRefusesAPlainHTTPLinkFromAnHTTPSAPI(t *testing.T) {
	t.Parallel()
	s, srv := newDLStorage(t, 10)
	link := s.link(srv) // http://127.0.0.1:...
	c, mt := answering(t, respond(200, setLeaf(t, goodBundle, []any{"bundleUrl"}, link)), mintlify.WithMaxRetries(0))
	b, err := c.BundleStaticExport(context.Background(), "exp_1")
	require.ErrorIs(t, err, mintlify.ErrMalformedResponse)
	assert.Nil(t, b)
	assert.Contains(t, err.Error(), "plain http")
	assert.NotContains(t, err.Error(), dlSignature)

	_, err = c.DownloadStaticExport(context.Background(), s.bundle(srv), io.Discard)
	require.ErrorIs(t, err, mintlify.ErrInvalidInput)
	assert.Contains(t, err.Error(), "plain http")
	assert.NotContains(t, err.Error(), dlSignature)
	assert.Empty(t, s.requests(), "nothing reached the storage host")
	assert.Equal(t, 1, mt.GetTotalCallCount(), "only the bundle request")

	_, err = newDLClient(t).DownloadStaticExport(context.Background(), s.bundle(srv), io.Discard)
	assert.NoError(t, err, "an http API (loopback) may hand out an http link")
}

// liarWriter reports more (or fewer than zero) bytes than it was given.
type liarWriter struct{ n int }

func (w liarWriter) Write(p []byte) (int, error) { return len(p) + w.n, nil }

// TestDownloadRefusesAWriterThatMiscounts: a writer that reports more bytes
// than it was given (or a negative count) would make the byte count, and
// a resume, wrong; the download stops with an error instead.
func TestDownloadRefusesAWriterThatMiscounts(t *testing.T) {
	t.Parallel()
	s, srv := newDLStorage(t, 10)
	for _, extra := range []int{5, -20} {
		n, err := newDLClient(t).DownloadStaticExport(context.Background(), s.bundle(srv), liarWriter{extra})
		require.Error(t, err, "extra %d", extra)
		assert.LessOrEqual(t, n, int64(10))
		assert.GreaterOrEqual(t, n, int64(0))
	}
}

// TestBundleFormattingHidesTheLink: printing or logging a bundle never
// shows its presigned link.
func TestBundleFormattingHidesTheLink(t *testing.T) {
	t.Parallel()
	b := mintlify.StaticExportBundle{JobID: "se_1", URL: seLink, SizeBytes: 7, ExpiresAt: time.Date(2026, 1, 2, 4, 4, 5, 0, time.UTC)}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("bundle", "b", b, "p", &b)
	for _, s := range []string{fmt.Sprint(b), fmt.Sprintf("%v %+v %#v %s", b, b, b, b), fmt.Sprintf("%v %+v", &b, &b), logged.String()} {
		assert.NotContains(t, s, "9f86d081")
		assert.Contains(t, s, "se_1")
	}
}
