package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// errLocked is another process holding the lock on an --output file.
var errLocked = errors.New("locked by another process")

// outputFile is an --output FILE being written. It never destroys what
// FILE held:
//
//   - A new export or download goes to a temporary file beside FILE
//     (".FILE.tmp..."), which commit renames over FILE. Until then FILE is
//     as it was: a run that fails leaves it byte for byte.
//   - A resumed export (--offset, --cursor) appends to FILE itself, once
//     FILE's first line shows the same route and format.
//   - FILE, when it exists, is locked (flock on Unix, LockFileEx on
//     Windows) for the whole run, so that two runs never write it at once:
//     the second is refused at once, before it sends anything.
//   - A symbolic link is refused, never followed into another place (and
//     the rename, which replaces a directory entry, never follows one).
//   - A new file gets the mode a shell redirect gives it (0666 less the
//     umask); a replaced file keeps its permission bits.
type outputFile struct {
	path string
	f    *os.File // what is written: the temporary file, or FILE to append to
	tmp  bool
	lock *os.File // FILE, locked while a temporary file is written
	done bool
}

// checkOutputPath refuses an --output that mintctl could not write safely,
// before any request. It returns the mode of the file path names, if any.
func checkOutputPath(path string) (mode fs.FileMode, exists bool, err error) {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return 0, false, usageErrorf("--output %s is a symbolic link: mintctl never writes through one; give the path of the file itself", path)
	case err == nil && fi.IsDir():
		return 0, false, usageErrorf("--output %s is a folder: give a file's path", path)
	case err == nil && !fi.Mode().IsRegular():
		return 0, false, usageErrorf("--output %s is not a regular file (for stdout, use --output -)", path)
	case err == nil && fi.Mode().Perm()&0o222 == 0:
		// A shell redirect would fail on it: someone protected it.
		return 0, false, usageErrorf("--output %s is read-only", path)
	case err == nil:
		return fi.Mode(), true, nil
	case !errors.Is(err, fs.ErrNotExist):
		return 0, false, usageErrorf("--output %s: %v", path, err)
	}
	dir := filepath.Dir(path)
	if di, err := os.Stat(dir); err != nil || !di.IsDir() {
		return 0, false, usageErrorf("--output %s: the folder %s does not exist", path, dir)
	}
	return 0, false, nil
}

// createOutput prepares a new --output FILE: the checks, the lock on FILE
// if it exists, and the temporary file, which proves that a file can be
// made in FILE's folder. Every failure is a usage error (exit 2).
func createOutput(path string) (*outputFile, error) {
	mode, exists, err := checkOutputPath(path)
	if err != nil {
		return nil, err
	}
	o := &outputFile{path: path, tmp: true}
	if exists {
		if lock, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0); err == nil {
			if err := lockFile(lock); err != nil {
				lock.Close()
				if lerr := lockError(path, err); lerr != nil {
					return nil, lerr
				}
			} else {
				o.lock = lock
			}
		}
	}
	dir, base := filepath.Split(path)
	for range 10 {
		var suffix [6]byte
		_, _ = rand.Read(suffix[:])
		name := filepath.Join(dir, "."+base+".tmp"+hex.EncodeToString(suffix[:]))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|oNoFollow, 0o666) // the umask applies
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			o.unlock()
			return nil, usageErrorf("--output %s: cannot create a file in %s: %v", path, filepath.Dir(path), err)
		}
		if exists {
			_ = f.Chmod(mode.Perm()) // the file it replaces keeps its permissions, as with a shell redirect
		}
		o.f = f
		return o, nil
	}
	o.unlock()
	return nil, usageErrorf("--output %s: cannot create a temporary file in %s", path, filepath.Dir(path))
}

// lockError explains a lock refused; a file system without locks (some
// network ones) is no reason to refuse the export: nil.
func lockError(path string, err error) error {
	if errors.Is(err, errLocked) {
		return usageErrorf("--output %s is being written by another process (another mintctl run?): wait for it to end, or choose another file", path)
	}
	return nil
}

// maxHead is how much of an --output file's start a resume reads to find
// its first line.
const maxHead = 64 << 10

// appendOutput opens an existing --output FILE to resume an export into,
// locked, once check has accepted its first line (at most maxHead bytes,
// without the line break), whether it ends with a line break, and whether
// it is empty. Every refusal is a usage error that changed nothing.
func appendOutput(path string, check func(first []byte, empty, endsLine bool) error) (*outputFile, error) {
	_, exists, err := checkOutputPath(path)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, usageErrorf("--output %s does not exist, so there is nothing to resume: run the export without --offset or --cursor", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|oNoFollow, 0)
	if err != nil {
		return nil, usageErrorf("--output %s: %v", path, err)
	}
	if err := lockFile(f); err != nil {
		if lerr := lockError(path, err); lerr != nil {
			f.Close()
			return nil, lerr
		}
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, usageErrorf("--output %s: %v", path, err)
	}
	head := make([]byte, min(fi.Size(), maxHead))
	if _, err := f.ReadAt(head, 0); err != nil {
		f.Close()
		return nil, usageErrorf("--output %s: %v", path, err)
	}
	last := make([]byte, 1)
	endsLine := fi.Size() > 0
	if endsLine {
		_, err := f.ReadAt(last, fi.Size()-1)
		endsLine = err == nil && last[0] == '\n'
	}
	first, _, found := cutLine(head)
	if !found && int64(len(head)) < fi.Size() {
		f.Close()
		return nil, usageErrorf("--output %s: its first line is longer than %d bytes: not an export of mintctl's to resume; nothing was sent or changed", path, maxHead)
	}
	if err := check(first, fi.Size() == 0, endsLine); err != nil {
		f.Close()
		return nil, usageErrorf("--output %s cannot be resumed: %v; nothing was sent or changed", path, err)
	}
	return &outputFile{path: path, f: f}, nil
}

func cutLine(b []byte) (line, rest []byte, found bool) {
	for i, c := range b {
		if c == '\n' {
			return b[:i], b[i+1:], true
		}
	}
	return b, nil, false
}

func (o *outputFile) Write(p []byte) (int, error) { return o.f.Write(p) }

// commit ends a successful write: the temporary file, synced, replaces
// FILE; an append is closed. A second call, or one after abort, does
// nothing.
func (o *outputFile) commit() error {
	if o.done {
		return nil
	}
	o.done = true
	defer o.unlock()
	if !o.tmp {
		return o.f.Close()
	}
	err := o.f.Sync()
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if !renameOverOpen {
		o.unlock()
	}
	if err == nil {
		err = os.Rename(o.f.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	return nil
}

// abort gives up: the temporary file is removed and FILE stays as it was
// (an append keeps what it appended: whole rows, which a resume continues).
func (o *outputFile) abort() {
	if o.done {
		return
	}
	o.done = true
	o.f.Close()
	if o.tmp {
		os.Remove(o.f.Name())
	}
	o.unlock()
}

func (o *outputFile) unlock() {
	if o.lock != nil {
		o.lock.Close()
		o.lock = nil
	}
}
