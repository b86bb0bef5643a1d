//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package mockcmd

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -env-file naming a FIFO never hangs the program before its banner (an
// open waits for a reader, and SIGINT and SIGTERM belong to the run's
// context): a FIFO without a reader fails at once; one whose reader reads
// nothing is given up when the context ends.
func TestEnvFileThatIsAFIFODoesNotHang(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "github_env")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	run := func(ctx context.Context) (chan error, *bytes.Buffer) {
		done, out := make(chan error, 1), &bytes.Buffer{}
		go func() {
			done <- Run(ctx, []string{"-addr", "127.0.0.1:0", "-quiet", "-env-file", fifo}, out, io.Discard)
		}()
		return done, out
	}
	done, out := run(context.Background())
	select {
	case err := <-done:
		assert.ErrorContains(t, err, "-env-file")
		assert.NotContains(t, out.String(), "listening")
	case <-time.After(3 * time.Second):
		t.Fatal("-env-file FIFO without a reader: the program waits for one") // and leaks: the bug
	}

	// A reader that reads nothing, and a full pipe: the write waits, and
	// a signal (the context) ends the wait.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	require.NoError(t, err)
	defer r.Close()
	w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	require.NoError(t, err)
	require.NoError(t, w.SetWriteDeadline(time.Now().Add(200*time.Millisecond)))
	_, err = w.Write(make([]byte, 4<<20))
	require.ErrorIs(t, err, os.ErrDeadlineExceeded, "the pipe is full")
	require.NoError(t, w.Close())
	ctx, cancel := context.WithCancel(context.Background())
	done, _ = run(ctx)
	time.Sleep(300 * time.Millisecond)
	cancel() // SIGINT
	select {
	case err := <-done:
		assert.ErrorContains(t, err, "interrupted")
	case <-time.After(3 * time.Second):
		t.Fatal("a signal did not end the wait for a full -env-file FIFO")
	}
	require.NoError(t, r.Close()) // the abandoned write ends (EPIPE)
	time.Sleep(100 * time.Millisecond)
}
