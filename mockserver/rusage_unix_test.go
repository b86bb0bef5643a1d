//go:build unix

package mockserver_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, all threads: the load
// benchmark divides it by the request count, a figure that other programs
// competing for the machine do not distort the way they distort req/s.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
