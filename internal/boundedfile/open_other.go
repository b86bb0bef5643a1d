//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package boundedfile

// Elsewhere a FIFO is no path to open (Windows), or the flag is not
// portable: the write is still bounded in time and by a signal.
const oNonblock = 0
