package memtest

import (
	"os"
	"runtime"
	"testing"
)

var sink []byte

func TestAllocatedCountsWhatFAllocates(t *testing.T) {
	const size = 8 << 20
	got := Allocated(func() { sink = make([]byte, size) })
	if got < size || got > 2*size {
		t.Errorf("Allocated of an 8 MiB slice = %d bytes", got)
	}
	sink = nil
}

func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("VmHWM is read from /proc, on Linux only")
	}
	self, ok := PeakRSS(0)
	if !ok || self < 1<<20 {
		t.Fatalf("PeakRSS(0) = %d, %v: a Go test process holds more than 1 MiB", self, ok)
	}
	if byPID, ok := PeakRSS(os.Getpid()); !ok || byPID < self {
		t.Errorf("PeakRSS(own pid) = %d, %v; PeakRSS(0) = %d", byPID, ok, self)
	}
	if _, ok := PeakRSS(-1); ok {
		t.Error("PeakRSS of no process is ok")
	}
}
