package mintlify

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONTimeForms(t *testing.T) {
	for in, want := range map[string]time.Time{
		`"2025-01-30T10:00:00.5+02:00"`: time.Date(2025, 1, 30, 8, 0, 0, 5e8, time.UTC),
		`"2025-01-30T10:00:00"`:         time.Date(2025, 1, 30, 10, 0, 0, 0, time.UTC),
		`"2025-01-30 10:00:00"`:         time.Date(2025, 1, 30, 10, 0, 0, 0, time.UTC),
		`"2025-01-30"`:                  time.Date(2025, 1, 30, 0, 0, 0, 0, time.UTC),
		`"last tuesday"`:                {},
		`""`:                            {},
	} {
		var f jsonTime
		require.NoError(t, f.UnmarshalJSON([]byte(in)), in)
		assert.True(t, f.present(), in)
		assert.True(t, want.Equal(f.t), "%s: got %s", in, f.t)
	}
	var f jsonTime
	assert.Error(t, f.UnmarshalJSON([]byte(`12`)))
}
