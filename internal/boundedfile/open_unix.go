//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package boundedfile

import "syscall"

// oNonblock makes opening a FIFO without a reader fail at once (ENXIO)
// rather than wait for one.
const oNonblock = syscall.O_NONBLOCK
