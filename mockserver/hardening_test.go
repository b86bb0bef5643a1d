package mockserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// Go's encoding/json matches keys case-insensitively; the service does not.
func TestJobBodyKeysAreMatchedExactly(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	for _, body := range []string{
		`{"PROMPT":"x"}`,
		`{"Prompt":"x"}`,
		`{"prompt":"","Prompt":"b"}`,
		`{"Prompt":"b","prompt":""}`,
		`{"pRoMpT":"x","other":1}`,
	} {
		r := h.do("POST", h.jobsPath(""), body)
		assert.Equal(t, http.StatusBadRequest, r.Status, body)
		if r.Status == http.StatusBadRequest {
			assert.Equal(t, "Invalid request body", r.apiError(t).Error, body)
		}
	}
	assert.Empty(t, h.s.Jobs(), "no case variant created a job")
	j := h.createJob("exact") // and the exact spelling still works, other keys ignored
	assert.Equal(t, "active", j.Status)
	assert.Equal(t, http.StatusCreated, h.do("POST", h.jobsPath(""), `{"prompt":"y","model":"any"}`).Status)
	r := h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"Prompt":"follow"}`)
	assert.Equal(t, http.StatusBadRequest, r.Status)
}

func TestControlBodyKeysAreMatchedExactly(t *testing.T) {
	t.Parallel()
	h := setup(t)
	cases := map[string]string{
		"/_mock/visits":   `{"visits":[{"VisitorId":"v","path":"/a","timestamp":"2025-03-01T00:00:00Z"}]}`,
		"/_mock/searches": `{"Searches":[{"query":"x","timestamp":"2025-03-01T00:00:00Z"}]}`,
		"/_mock/feedback": `{"feedback":[{"path":"/a","source":"agent","createdat":"2025-03-01T00:00:00Z"}]}`,
		"/_mock/threads":  `{"threads":[{"turns":[{"timestamp":"2025-03-01T00:00:00Z","Query":"q"}]}]}`,
		"/_mock/clock":    `{"Advance":"1h"}`,
	}
	for path, body := range cases {
		r := h.do("POST", path, body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s %s", path, body)
		assert.Contains(t, r.apiError(t).details()[0], "case-sensitive", path)
	}
	r := h.do("POST", "/_mock/searches", `{"searches":[],"serches":[]}`)
	require.Equal(t, http.StatusBadRequest, r.Status, "a misspelt key is never silently ignored")
	assert.Equal(t, []string{"serches: unknown field"}, r.apiError(t).details())
	counts, err := h.s.EventCounts(h.s.ProjectID())
	require.NoError(t, err)
	assert.Equal(t, mockserver.EventCounts{}, counts, "nothing was stored")
	assert.Equal(t, "0s", h.controlClock(t)["advance"])
}

func (h *harness) controlClock(t *testing.T) map[string]string {
	var v map[string]string
	h.do("GET", "/_mock/clock", "").decode(t, &v)
	return v
}

func TestUnauthorizedCarriesBearerChallenge(t *testing.T) {
	t.Parallel()
	h := setup(t)
	for _, auth := range []string{"", "Basic abc", "Bearer mint_unknown"} {
		r := h.do("GET", h.visitorsPath(""), "", "Authorization", auth)
		require.Equal(t, http.StatusUnauthorized, r.Status, auth)
		assert.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"), auth)
	}
	assert.Empty(t, h.do("GET", h.visitorsPath(""), "").Header.Get("WWW-Authenticate"))
}

// The journal is bounded in bytes, not only in entries: 60 requests of
// huge paths and queries cannot make it hold megabytes.
func TestJournalIsBoundedInBytes(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithoutRateLimits())
	mem := s.Client()
	huge := "x=" + strings.Repeat("a", 1<<20)
	for range 40 {
		req, _ := http.NewRequest("GET", s.URL()+"/v1/analytics/"+s.ProjectID()+"/views?"+huge, nil)
		req.Header.Set("Authorization", "Bearer "+s.APIKey())
		resp, err := mem.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	entries := s.Journal()
	require.Len(t, entries, 40, "every request is recorded")
	for _, e := range entries {
		assert.Less(t, len(e.Query), 4<<10)
		assert.Contains(t, e.Query, "more bytes)")
	}
	b, err := json.Marshal(entries)
	require.NoError(t, err)
	assert.Less(t, len(b), 400<<10, "the journal of 40 MB of queries stays small")
}

func TestStalledBodiesAndIdleConnectionsAreClosed(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithTimeouts(mockserver.Timeouts{Read: 300 * time.Millisecond, Idle: 300 * time.Millisecond}))
	addr := strings.TrimPrefix(s.URL(), "http://")

	closedWithin := func(conn net.Conn) time.Duration {
		start := time.Now()
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
		_, err := io.Copy(io.Discard, conn) // returns once the server hangs up
		assert.NoError(t, err, "the server closed the connection before our deadline")
		return time.Since(start)
	}

	stalled, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer stalled.Close()
	fmt.Fprintf(stalled, "POST /v2/agent/%s/job HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: 100\r\n\r\n{\"pro", s.ProjectID(), s.APIKey())
	assert.Less(t, closedWithin(stalled), 3*time.Second)

	idle, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer idle.Close()
	fmt.Fprintf(idle, "GET /_mock/clock HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Less(t, closedWithin(idle), 3*time.Second, "a kept-alive connection left idle is closed")
	assert.Empty(t, s.Jobs())
}

func TestControlRefusesOversizedRequests(t *testing.T) {
	t.Parallel()
	h := setup(t)
	for _, n := range []string{"-1", "1000001", "10000000000"} {
		r := h.do("POST", "/_mock/visits", `{"synthetic":`+n+`}`)
		assert.Equal(t, http.StatusBadRequest, r.Status, n)
	}
	big := `{"searches":[` + strings.Repeat(`{"query":"x","timestamp":"2025-03-01T00:00:00Z"},`, 400_000) + `{}]}`
	r := h.do("POST", "/_mock/searches", big)
	assert.Equal(t, http.StatusRequestEntityTooLarge, r.Status)
	assert.Contains(t, r.apiError(t).details()[0], "smaller batches")
}

// encoding/json's Decoder.Token has no depth limit; a body of nested
// arrays must be refused, not recursed into until the stack blows.
func TestControlRefusesDeeplyNestedBodies(t *testing.T) {
	t.Parallel()
	h := setup(t)
	deep := `{"searches":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + `}`
	r := h.do("POST", "/_mock/searches", deep)
	require.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, r.apiError(t).details()[0], "nests deeper")
}

// Only Go's own HTTP layer (a malformed request line, an oversized header)
// answers in plain text; every request that reaches the server, however
// odd, gets a JSON error body.
func TestOddRequestsGetJSON(t *testing.T) {
	t.Parallel()
	h := setup(t)
	p := h.s.ProjectID()
	for _, tc := range []struct{ method, path string }{
		{"OPTIONS", "/v1/analytics/" + p + "/views"},
		{"POST", "/v1/analytics/" + p + "/searches"},
		{"DELETE", "/v2/agent/" + p + "/job/x"},
		{"GET", "/v1/analytics/" + p + "/assistant/threads/"},
		{"GET", "/v1/analytics/" + p + "/feedback/by-page/extra"},
		{"PUT", "/_mock/searches"},
		{"GET", "/_mock/nope"},
		{"GET", "/v1/analytics/" + p + "/views/../visitors"},
	} {
		r := h.do(tc.method, tc.path, "")
		assert.GreaterOrEqual(t, r.Status, 400, "%s %s", tc.method, tc.path)
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"), "%s %s", tc.method, tc.path)
		validate(t, "error", r.Body)
	}
}
