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

// BenchmarkDownloadStaticExport fetches a 1 GiB bundle over loopback with
// the SDK and with curl, in the same run, both to /dev/null. Run it on its
// own so that peak-rss-MiB (the whole test process: the SDK, the test
// server and the Go runtime) is the download's:
//
//	go test -run '^$' -bench '^BenchmarkDownloadStaticExport$' -benchtime 5x .
func BenchmarkDownloadStaticExport(b *testing.B) {
	srv := dlBenchServer(b, dlBenchSize)
	link := srv.URL + "/se_bench/bundle.tar.gz?X-Signature=bench"
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()

	b.Run("sdk", func(b *testing.B) {
		c, err := NewClient(WithAPIKey("mint_bench_key"), WithProjectID("p"))
		if err != nil {
			b.Fatal(err)
		}
		bundle := &StaticExportBundle{URL: link, SizeBytes: dlBenchSize, ExpiresAt: time.Now().Add(time.Hour)}
		b.SetBytes(dlBenchSize)
		for b.Loop() {
			if n, err := c.DownloadStaticExport(context.Background(), bundle, devNull); err != nil || n != dlBenchSize {
				b.Fatal(n, err)
			}
		}
		if kib, ok := dlPeakRSS(); ok {
			b.ReportMetric(float64(kib)/1024, "peak-rss-MiB")
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
		b.SetBytes(dlBenchSize)
		var peakKiB int64
		for b.Loop() {
			var cmd *exec.Cmd
			if err == nil {
				cmd = exec.Command(timeCmd, "-f", "%M", "curl", "-sS", "--fail", "-o", os.DevNull, link)
			} else {
				cmd = exec.Command("curl", "-sS", "--fail", "-o", os.DevNull, link)
			}
			out, runErr := cmd.CombinedOutput()
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

// dlPeakRSS is this process's peak resident set (VmHWM, KiB) since it
// started: unlike getrusage, it does not include the parent that forked it.
func dlPeakRSS() (int64, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kib, err == nil
		}
	}
	return 0, false
}
