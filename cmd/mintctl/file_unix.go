//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"errors"
	"os"
	"syscall"
)

// oNoFollow makes an open fail on a symbolic link rather than follow it.
const oNoFollow = syscall.O_NOFOLLOW

// renameOverOpen: a file may be renamed over while mintctl holds it open
// (and locked).
const renameOverOpen = true

// lockFile takes an exclusive advisory lock (flock) on f without waiting.
// Another process's lock is errLocked. The lock ends when f is closed.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
