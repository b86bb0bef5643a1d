package mintlify_test

// The proxy against clients that do not behave as browsers do: bodies
// built to cost memory.

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
)

// 256 KiB of empty objects decoded whole cost 15 to 28 MB of allocation a
// request (87,000 messages, parts or context items), before the count was
// checked and before any rate limit: the arrays are now read item by item
// within their bounds.
func TestProxyBodiesOfEmptyObjectsCostLittle(t *testing.T) {
	a, got := assistantServer(t, streaming(wholeAnswer))
	p, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyRateLimit(0, 0))
	require.NoError(t, err)
	const question = `{"role":"user","parts":[{"type":"text","text":"q"}]}`
	fill := func(open, close string) string {
		n := (256<<10 - 64 - len(open) - len(close)) / 3
		return open + strings.Repeat(`{},`, n) + `{}` + close
	}
	for _, tt := range []struct {
		name, body string
		status     int
	}{
		{"messages", fill(`{"messages":[`, `]}`), 400},
		{"parts", fill(`{"messages":[{"role":"user","parts":[{"type":"text","text":"q"},`, `]}]}`), 200},
		{"context", fill(`{"messages":[`+question+`],"context":[`, `]}`), 400},
	} {
		serve := func() int {
			req := httptest.NewRequest(http.MethodPost, "/api/chat", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			p.ServeHTTP(rec, req)
			return rec.Code
		}
		assert.Equal(t, tt.status, serve(), tt.name)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const runs = 5
		for range runs {
			serve()
		}
		runtime.ReadMemStats(&after)
		perRequest := (after.TotalAlloc - before.TotalAlloc) / runs
		t.Logf("%s: %d KiB allocated per request of %d KiB", tt.name, perRequest>>10, len(tt.body)>>10)
		assert.Less(t, perRequest, uint64(4<<20), "%s: a 256 KiB body cost %d KiB", tt.name, perRequest>>10)
	}
	assert.Len(t, got(), 1+5, "the parts body is a question: its empty parts are dropped")
}
