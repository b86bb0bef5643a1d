package demo

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
)

// RunOnMock runs an example's run function the way a fresh machine would,
// with MINTLIFY_API_KEY unset (so against the bundled mock server) and a
// bounded context, and returns what it printed on stdout.
func RunOnMock(t *testing.T, run func(ctx context.Context) error) (string, error) {
	t.Helper()
	UnsetKey(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return CaptureStdout(t, func() error { return run(ctx) })
}

// UnsetKey unsets MINTLIFY_API_KEY for the test (set but empty is not
// the same: it is an error).
func UnsetKey(t *testing.T) { UnsetEnv(t, mintlify.EnvAPIKey) }

// UnsetEnv unsets the variable name for the test, and restores it after.
func UnsetEnv(t *testing.T, name string) {
	t.Helper()
	t.Setenv(name, "") // restores the old value after the test
	os.Unsetenv(name)
}

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
