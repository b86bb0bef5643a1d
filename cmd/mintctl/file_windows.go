//go:build windows

package main

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// Windows opens no symbolic link as a file to write, and a FIFO is not a
// path: O_NOFOLLOW is not needed.
const oNoFollow = 0

// renameOverOpen is false: Windows refuses to rename over a file that is
// open, so the lock on it ends just before the rename.
const renameOverOpen = false

// lockFile locks one byte far past any real end of f, exclusively and
// without waiting: writers that lock first exclude each other, while the
// file's content stays readable and appendable through f itself.
func lockFile(f *os.File) error {
	ol := &windows.Overlapped{Offset: 0xfffffffe, OffsetHigh: 0x7fffffff}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}
