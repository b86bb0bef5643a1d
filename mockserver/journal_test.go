package mockserver_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/internal/syncbuf"
	"github.com/docsagent/mintlify-go/mockserver"
)

func TestJournalRecordsRequestsWithoutTheKey(t *testing.T) {
	t.Parallel()
	clock := mockserver.NewFakeClock(epoch)
	h := setup(t, mockserver.WithClock(clock))
	j := h.createJob("x")
	clock.Advance(5)
	h.do("GET", h.jobsPath("/"+j.ID), "")
	h.do("GET", h.visitorsPath("limit=5"), "", "Authorization", "Basic secret")
	h.do("GET", "/nowhere", "")
	h.do("GET", "/_mock/jobs", "") // control requests are not journaled

	entries := h.s.Journal()
	require.Len(t, entries, 4)
	assert.Equal(t, mockserver.JournalEntry{
		Time: epoch, Method: "POST", Path: h.jobsPath(""), Route: mockserver.RouteCreateJob,
		Status: http.StatusCreated, Processed: true, EndpointStatus: http.StatusCreated, RequestID: entries[0].RequestID,
		Auth: "Bearer mint_***", Duration: entries[0].Duration,
	}, entries[0])
	assert.Equal(t, mockserver.RouteGetJob, entries[1].Route)
	assert.Equal(t, epoch.Add(5), entries[1].Time)
	assert.Equal(t, "limit=5", entries[2].Query)
	assert.Equal(t, http.StatusUnauthorized, entries[2].Status)
	assert.Equal(t, "Basic ***", entries[2].Auth)
	assert.Equal(t, "", entries[3].Route)
	assert.Equal(t, http.StatusNotFound, entries[3].Status)

	for _, e := range entries {
		assert.NotContains(t, e.Auth, h.s.APIKey()[len("mint_"):])
		assert.NotContains(t, e.Auth, "secret")
	}

	h.s.ClearJournal()
	assert.Empty(t, h.s.Journal())
}

func TestJournalIsBounded(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJournalSize(3))
	for _, p := range []string{"/1", "/2", "/3", "/4", "/5"} {
		h.do("GET", p, "")
	}
	var paths []string
	for _, e := range h.s.Journal() {
		paths = append(paths, e.Path)
	}
	assert.Equal(t, []string{"/3", "/4", "/5"}, paths, "oldest dropped first")
}

func TestLoggerWritesOneLinePerRequestWithKeyRedacted(t *testing.T) {
	t.Parallel()
	var buf syncbuf.Buffer
	h := setup(t, mockserver.WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	h.createJob("x")
	h.do("GET", h.visitorsPath("limit=2"), "")
	lines := bytes.Split(bytes.TrimSpace([]byte(buf.String())), []byte("\n"))
	require.Len(t, lines, 2)
	assert.Contains(t, string(lines[0]), "method=POST")
	assert.Contains(t, string(lines[0]), "status=201")
	assert.Contains(t, string(lines[1]), `query="limit=2"`)
	assert.Contains(t, string(lines[1]), `auth="Bearer mint_***"`)
	assert.NotContains(t, buf.String(), h.s.APIKey())
}
