package mintlify

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeRows(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []PathVisitors
		err  bool
	}{
		{in: `[{"path":"/a","human":1,"ai":2.0,"total":3}]`, want: []PathVisitors{{Path: "/a", Human: 1, AI: 2, Total: 3}}},
		{in: " [ {\n\t\"total\" : 3 , \"extra\": {\"a\":[1,\"]}\"]}, \"p\\u0061th\": \"/\\u00e9\", \"human\":0,\"ai\":0 } ,{\"path\":\"/b\",\"human\":1,\"ai\":1,\"total\":1}]",
			want: []PathVisitors{{Path: "/é", Total: 3}, {Path: "/b", Human: 1, AI: 1, Total: 1}}},
		{in: `[]`, want: []PathVisitors{}},
		{in: `null`, want: nil},
		{in: `[{"Path":"/a","human":1,"ai":1,"total":1}]`, err: true}, // keys match exactly
		{in: `[{"path":null,"human":1,"ai":1,"total":1}]`, err: true},
		{in: `[{"path":"/a","human":null,"ai":1,"total":1}]`, err: true},
		{in: `[{"path":"/a","ai":1,"total":1}]`, err: true},
		{in: `[{}]`, err: true},
		{in: `[null]`, err: true},
		{in: `[{"path":"/a","human":1.5,"ai":1,"total":1}]`, err: true},
		{in: `[{"path":"/a","human":"1","ai":1,"total":1}]`, err: true},
		{in: `[{"path":1,"human":1,"ai":1,"total":1}]`, err: true},
		{in: `{"path":"/a"}`, err: true},
		{in: `[1]`, err: true},
	} {
		var got visitorRows
		err := json.Unmarshal([]byte(tt.in), &got)
		if tt.err {
			assert.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, []PathVisitors(got), tt.in)
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

// FuzzDecodeRows: any JSON a server sends decodes without panic, and rows
// that decode hold what encoding/json reads from the same members.
func FuzzDecodeRows(f *testing.F) {
	f.Add([]byte(`[{"path":"/a","human":1,"ai":2,"total":3}]`))
	f.Add([]byte(`[{"path":"/\u00e9\"","human":1e2,"x":[{"}":"]"}],"ai":0,"total":-0}]`))
	f.Add([]byte(`[{"p\u0061th":"/","human":1,"ai":1,"ai":2,"total":0}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var got []PathVisitors
		err := decodeRows(&got, b, decodePathCounts) // never panics, even on invalid JSON
		if !json.Valid(b) || err != nil || got == nil {
			return
		}
		var ref []map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(b, &ref))
		require.Len(t, got, len(ref))
		for i, m := range ref {
			var path string
			var human, ai, total float64
			require.NoError(t, json.Unmarshal(m["path"], &path))
			require.NoError(t, json.Unmarshal(m["human"], &human))
			require.NoError(t, json.Unmarshal(m["ai"], &ai))
			require.NoError(t, json.Unmarshal(m["total"], &total))
			require.Equal(t, PathVisitors{Path: path, Human: int(human), AI: int(ai), Total: int(total)}, got[i])
		}
	})
}
