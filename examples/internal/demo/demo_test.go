package demo

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	mintlify "github.com/docsagent/mintlify-go"
)

// A key set but empty is a setup error, 2 as in mintctl, whatever wraps it.
func TestExitCode(t *testing.T) {
	assert.Equal(t, 0, ExitCode(nil))
	assert.Equal(t, 2, ExitCode(ErrEmptyKey))
	assert.Equal(t, 2, ExitCode(fmt.Errorf("connecting: %w", ErrEmptyKey)))
	assert.Equal(t, 2, ExitCode(fmt.Errorf("x: %w", mintlify.ErrInvalidInput)))
	assert.Equal(t, 1, ExitCode(errors.New("HTTP 500")))
}
