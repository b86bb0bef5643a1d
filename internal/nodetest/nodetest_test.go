package nodetest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClean(t *testing.T) {
	in := "ok line\n::error file=x::pwned\n  ::set-output name=a::b\n\x1b[31mred\x1b[0m\ttab\u2028sep\rback"
	assert.Equal(t, "ok line\n: :error file=x::pwned\n  : :set-output name=a::b\n?[31mred?[0m\ttab?sep?back", Clean(in))
}

func TestInstalled(t *testing.T) {
	dir := t.TempDir()
	write := func(path, body string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, path), []byte(body), 0o644))
	}
	write("package.json", `{"dependencies":{"ai-5":"npm:ai@5.0.216","zod":"4.1.8"}}`)
	assert.ErrorContains(t, installed(dir), "is not installed")
	write("node_modules/ai-5/package.json", `{"name":"ai","version":"5.0.216"}`)
	write("node_modules/zod/package.json", `{"version":"4.1.7"}`)
	assert.ErrorContains(t, installed(dir), "the node package zod is 4.1.7, package.json pins 4.1.8")
	write("node_modules/zod/package.json", `{"version":"4.1.8"}`)
	assert.NoError(t, installed(dir))
}
