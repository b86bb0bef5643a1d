// Package boundedfile appends to a file that another process reads, such
// as the files a GitHub Actions runner reads after a step ($GITHUB_OUTPUT,
// $GITHUB_STEP_SUMMARY, $GITHUB_ENV), in bounded time. mintctl writes its
// step files and `mockserver -env-file` its settings through it.
package boundedfile

import (
	"fmt"
	"io"
	"os"
	"time"
)

// Timeout bounds each Append.
const Timeout = 5 * time.Second

// Append appends text to the file at path in one write, in bounded time:
// the open does not wait for a FIFO's reader (O_NONBLOCK), the write has a
// deadline where the file supports one, and the whole attempt is given up
// after Timeout, or at once when interrupted is closed, whatever the file
// system does (a hung network mount, a FIFO nobody empties). A nil
// interrupted never interrupts. A new file gets 0666 less the umask.
func Append(path, text string, interrupted <-chan struct{}) error {
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|oNonblock, 0o666)
		if err != nil {
			done <- err
			return
		}
		_ = f.SetWriteDeadline(time.Now().Add(Timeout)) // a regular file has none
		_, err = io.WriteString(f, text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		done <- err
	}()
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return fmt.Errorf("%s: not written within %s", path, Timeout)
	case <-interrupted:
		return fmt.Errorf("%s: interrupted", path)
	}
}
