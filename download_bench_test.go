//go:build linux

package mintlify

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/internal/memtest"
	"github.com/docsagent/mintlify-go/mockserver"
)

// dlBenchSize is the bundle the download benchmark fetches: large enough
// that buffering it would show in RSS many times over.
const dlBenchSize = 1 << 30

// dlBenchServer serves a bundle of size bytes generated on the fly from
// one 256 KiB block, so the server holds no more than that whatever the
// size. It supports Range like a storage host.
func dlBenchServer(tb testing.TB, size int64) *httptest.Server {
	block := make([]byte, 256<<10)
	for i := range block {
		block[i] = byte(i*7 + i>>8)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			http.Error(w, "a presigned link takes no Authorization", http.StatusBadRequest)
			return
		}
		from, code := int64(0), http.StatusOK
		if rg := r.Header.Get("Range"); rg != "" {
			n, err := strconv.ParseInt(rg[len("bytes="):len(rg)-1], 10, 64)
			if err != nil || n >= size {
				w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
				return
			}
			from, code = n, http.StatusPartialContent
			w.Header().Set("Content-Range", "bytes "+strconv.FormatInt(n, 10)+"-"+strconv.FormatInt(size-1, 10)+"/"+strconv.FormatInt(size, 10))
		}
		w.Header().Set("Content-Length", strconv.FormatInt(size-from, 10))
		w.WriteHeader(code)
		for left := size - from; left > 0; {
			n := min(left, int64(len(block)))
			if _, err := w.Write(block[:n]); err != nil {
				return
			}
			left -= n
		}
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// BenchmarkDownloadStaticExportFromMock is the same race against the
// bundled mock server's storage listener, with the bundle padded to 1 GiB
// (a real tar.gz, then padding generated on demand):
//
//	go test -run '^$' -bench '^BenchmarkDownloadStaticExportFromMock$' -benchtime 3x .
func BenchmarkDownloadStaticExportFromMock(b *testing.B) {
	mock := mockserver.New(mockserver.WithJobDuration(10*time.Millisecond), mockserver.WithBundleSize(dlBenchSize))
	defer mock.Close()
	c, err := NewClient(WithAPIKey(mock.APIKey()), WithProjectID(mock.ProjectID()), WithBaseURL(mock.URL()))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	export, err := c.StartStaticExport(ctx, StaticExportParams{Domain: "docs.example.com"})
	if err != nil {
		b.Fatal(err)
	}
	if export, err = c.PollStaticExport(ctx, export.ID, WithPollInterval(5*time.Millisecond)); err != nil || export.Status != StaticExportCompleted {
		b.Fatal(export, err)
	}
	bundle, err := c.BundleStaticExport(ctx, export.ID)
	if err != nil {
		b.Fatal(err)
	}
	if bundle.SizeBytes != dlBenchSize {
		b.Fatalf("the mock's bundle has %d bytes, want %d", bundle.SizeBytes, dlBenchSize)
	}
	dlRace(b, c, bundle)
}

// BenchmarkDownloadStaticExport fetches a 1 GiB bundle over loopback from a
// server that generates it, with the SDK and with curl, in the same run,
// both to /dev/null. Run it on its own so that peak-rss-MiB (the whole test
// process: the SDK, the test server and the Go runtime) is the download's:
//
//	go test -run '^$' -bench '^BenchmarkDownloadStaticExport$' -benchtime 5x .
func BenchmarkDownloadStaticExport(b *testing.B) {
	srv := dlBenchServer(b, dlBenchSize)
	c, err := NewClient(WithAPIKey("mint_bench_key"), WithProjectID("p"))
	if err != nil {
		b.Fatal(err)
	}
	dlRace(b, c, &StaticExportBundle{URL: srv.URL + "/se_bench/bundle.tar.gz?X-Signature=bench",
		SizeBytes: dlBenchSize, ExpiresAt: time.Now().Add(time.Hour)})
}

// dlRace downloads the bundle with the SDK, then with curl, both into
// /dev/null.
func dlRace(b *testing.B, c *Client, bundle *StaticExportBundle) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()

	b.Run("sdk", func(b *testing.B) {
		b.SetBytes(bundle.SizeBytes)
		for b.Loop() {
			if n, err := c.DownloadStaticExport(context.Background(), bundle, devNull); err != nil || n != bundle.SizeBytes {
				b.Fatal(n, err)
			}
		}
		if peak, ok := memtest.PeakRSS(0); ok {
			b.ReportMetric(float64(peak)/(1<<20), "peak-rss-MiB")
		}
	})
	b.Run("curl", func(b *testing.B) {
		if _, err := exec.LookPath("curl"); err != nil {
			b.Skip("no curl")
		}
		// GNU time reports curl's own peak RSS; getrusage of children would
		// also count this process, which Linux carries across exec.
		timeCmd, err := exec.LookPath("time")
		if _, statErr := os.Stat("/usr/bin/time"); statErr == nil {
			timeCmd, err = "/usr/bin/time", nil
		}
		b.SetBytes(bundle.SizeBytes)
		var peakKiB int64
		for b.Loop() {
			args := []string{"curl", "-sS", "--fail", "-o", os.DevNull, bundle.URL}
			if err == nil {
				args = append([]string{timeCmd, "-f", "%M"}, args...)
			}
			out, runErr := exec.Command(args[0], args[1:]...).CombinedOutput()
			if runErr != nil {
				b.Fatal(runErr, string(out))
			}
			if kib, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil {
				peakKiB = max(peakKiB, kib)
			}
		}
		if peakKiB > 0 {
			b.ReportMetric(float64(peakKiB)/1024, "curl-peak-rss-MiB")
		}
	})
}
