//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package main

import "os"

// On other systems (Solaris, AIX, Plan 9, js and wasip1) mintctl has no
// portable exclusive lock nor O_NOFOLLOW: a symbolic link is still
// refused by the Lstat check before opening, and concurrent resumes are
// not detected.
const oNoFollow = 0

const renameOverOpen = true

func lockFile(*os.File) error { return nil }
