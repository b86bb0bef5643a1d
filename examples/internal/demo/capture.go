package demo

import (
	"io"
	"os"
	"testing"
)

// CaptureStdout runs fn with os.Stdout sent to a file and returns what it
// wrote, so the examples' tests can check their output.
func CaptureStdout(t testing.TB, fn func() error) (string, error) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdout
	os.Stdout = f
	runErr := fn()
	os.Stdout = saved
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), runErr
}
