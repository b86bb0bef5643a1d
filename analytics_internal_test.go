package mintlify

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMembersReadRowsAsEncodingJSONDoes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want wirePathCounts
		err  bool
	}{
		{in: `{"path":"/a","human":1,"ai":2.0,"total":3}`,
			want: wirePathCounts{Path: jsonString{s: "/a", set: true}, Human: jsonCount{1, true}, AI: jsonCount{2, true}, Total: jsonCount{3, true}}},
		{in: " {\n\t\"total\" : 3 , \"extra\": {\"a\":[1,\"]}\"]}, \"p\\u0061th\": \"/\\u00e9\" } ",
			want: wirePathCounts{Path: jsonString{s: "/é", set: true}, Total: jsonCount{3, true}}},
		{in: `{"path":null,"human":null}`, want: wirePathCounts{Path: jsonString{set: true, null: true}}},
		{in: `{"Path":"/a"}`, want: wirePathCounts{}}, // keys match exactly
		{in: `{}`, want: wirePathCounts{}},
		{in: `null`, want: wirePathCounts{}},
		{in: `{"human":1.5}`, err: true},
		{in: `{"human":"1"}`, err: true},
		{in: `{"path":1}`, err: true},
		{in: `[1]`, err: true},
	} {
		var got wirePathCounts
		err := json.Unmarshal([]byte(tt.in), &got)
		if tt.err {
			assert.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}

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

// FuzzMembers: any JSON a server sends decodes without panic, and a row
// that decodes holds what encoding/json reads from the same members.
func FuzzMembers(f *testing.F) {
	f.Add([]byte(`{"path":"/a","human":1,"ai":2,"total":3}`))
	f.Add([]byte(`{"path":"/\u00e9\"","human":1e2,"x":[{"}":"]"}],"total":-0}`))
	f.Add([]byte(`{"p\u0061th":null,"ai":1,"ai":2}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var got wirePathCounts
		err := got.UnmarshalJSON(b) // never panics, even on invalid JSON
		if !json.Valid(b) || err != nil {
			return
		}
		var ref map[string]json.RawMessage
		if json.Unmarshal(b, &ref) != nil {
			return // null: no members
		}
		var want wirePathCounts
		for k, v := range ref {
			switch k {
			case "path":
				require.NoError(t, want.Path.UnmarshalJSON(v))
			case "human":
				require.NoError(t, want.Human.UnmarshalJSON(v))
			case "ai":
				require.NoError(t, want.AI.UnmarshalJSON(v))
			case "total":
				require.NoError(t, want.Total.UnmarshalJSON(v))
			}
		}
		require.Equal(t, want, got)
	})
}
