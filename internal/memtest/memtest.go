// Package memtest measures what code costs in memory, for the tests and
// benchmarks that hold it to a bound: the bytes a call allocates, and a
// process's peak resident set. Tests of several packages use it.
package memtest

import (
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Allocated runs f and returns the bytes it allocated: an upper bound of
// how much the heap grew while it ran. The count is the process's, so it
// is f's only when no other test runs beside it (not in parallel).
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// PeakRSS is the peak resident set, in bytes, of the process pid, or of
// this one for 0, since it started: VmHWM of /proc/PID/status, which
// unlike getrusage does not count the parent that forked it. ok is false
// where there is no /proc (not Linux) or no such process.
func PeakRSS(pid int) (bytes int64, ok bool) {
	proc := "self"
	if pid != 0 {
		proc = strconv.Itoa(pid)
	}
	status, err := os.ReadFile("/proc/" + proc + "/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(status)) {
		if v, found := strings.CutPrefix(line, "VmHWM:"); found {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kib << 10, err == nil
		}
	}
	return 0, false
}
