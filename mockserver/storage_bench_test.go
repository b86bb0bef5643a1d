package mockserver_test

import (
	"io"
	"net/http"
	"runtime"
	"testing"

	"github.com/docsagent/mintlify-go/mockserver"
)

// BenchmarkStorageDownload streams a padded 256 MiB bundle from the storage
// host over loopback. The bytes are computed from their offset, so the
// server's heap must not grow with the bundle: heap-MiB reports the growth
// seen after the download.
//
//	go test -run '^$' -bench StorageDownload -benchtime 5x ./mockserver
func BenchmarkStorageDownload(b *testing.B) {
	const size = 256 << 20
	h := setup(b, mockserver.WithJobDuration(0), mockserver.WithBundleSize(size))
	link := h.bundle(h.startExport(`{"domain":"docs.example.com"}`).JobID).BundleURL
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		resp, err := http.Get(link)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || n != size {
			b.Fatalf("read %d bytes, %v", n, err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "heap-MiB")
}
