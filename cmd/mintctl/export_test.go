package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// exportCase is an export and the SDK walk it must equal.
type exportCase struct {
	route string
	flags []string
	// walk is the SDK's walk of the same rows, each as the SDK's own JSON
	// (its field names are the API's).
	walk func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error]
}

func rowsAsAny[R any](rows iter.Seq2[R, error]) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		for r, err := range rows {
			if !yield(r, err) || err != nil {
				return
			}
		}
	}
}

// TestExportEqualsTheSDKWalk runs every route in every format against a
// seeded mock and checks the rows against the SDK's walk of the same range.
func TestExportEqualsTheSDKWalk(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithSeed(4000), mockserver.WithoutRateLimits())
	// The seed spreads its events from 2025-01-01 to now: this range holds
	// them all, and no new event arrives during the test.
	to := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	dates := []string{"--from", from.Format(time.DateOnly), "--to", to.Format(time.DateOnly)}
	c, err := mintlify.NewClient(mintlify.WithBaseURL(srv.URL()), mintlify.WithAPIKey(srv.APIKey()), mintlify.WithProjectID(srv.ProjectID()))
	require.NoError(t, err)

	cases := []exportCase{
		{route: "visitors", flags: []string{"--limit", "7"}, walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return rowsAsAny(c.Visitors(ctx, mintlify.VisitorsParams{DateFrom: from, DateTo: to}))
		}},
		{route: "views", flags: []string{"--limit", "249"}, walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return rowsAsAny(c.Views(ctx, mintlify.ViewsParams{DateFrom: from, DateTo: to}))
		}},
		{route: "searches", flags: []string{"--limit", "7"}, walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return rowsAsAny(c.Searches(ctx, mintlify.SearchesParams{DateFrom: from, DateTo: to}))
		}},
		{route: "feedback", flags: []string{"--limit", "2"}, walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return rowsAsAny(c.Feedback(ctx, mintlify.FeedbackParams{DateFrom: from, DateTo: to}))
		}},
		{route: "feedback", flags: []string{"--source", "contextual", "--status", "pending,resolved"}, walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return rowsAsAny(c.Feedback(ctx, mintlify.FeedbackParams{DateFrom: from, DateTo: to,
				Source: mintlify.FeedbackContextual, Statuses: []mintlify.FeedbackStatus{mintlify.FeedbackPending, mintlify.FeedbackResolved}}))
		}},
		{route: "feedback", flags: []string{"--source", "code_snippet"}, walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return rowsAsAny(c.Feedback(ctx, mintlify.FeedbackParams{DateFrom: from, DateTo: to, Source: mintlify.FeedbackCodeSnippet}))
		}},
		{route: "feedback-by-page", flags: []string{"--source", "contextual"}, walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return func(yield func(any, error) bool) {
				page, err := c.GetFeedbackByPage(ctx, mintlify.FeedbackByPageParams{DateFrom: from, DateTo: to, Limit: 100, Source: mintlify.FeedbackContextual})
				if err != nil {
					yield(nil, err)
					return
				}
				for _, r := range page.Pages {
					if !yield(r, nil) {
						return
					}
				}
			}
		}},
		{route: "conversations", flags: []string{"--limit", "3"}, walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return rowsAsAny(c.Conversations(ctx, mintlify.ConversationsParams{DateFrom: from, DateTo: to}))
		}},
		{route: "caller-stats", walk: func(ctx context.Context, c *mintlify.Client) iter.Seq2[any, error] {
			return func(yield func(any, error) bool) {
				s, err := c.GetCallerStats(ctx, mintlify.CallerStatsParams{DateFrom: from, DateTo: to})
				yield(s, err)
			}
		}},
	}
	for _, tc := range cases {
		var want []map[string]any
		for row, err := range tc.walk(context.Background(), c) {
			require.NoError(t, err)
			want = append(want, normalize(t, row))
		}
		require.NotEmpty(t, want, "%s %v: the seeded mock has rows", tc.route, tc.flags)
		t.Logf("%s %v: %d rows", tc.route, tc.flags, len(want))

		outputs := map[string]string{}
		for _, format := range []string{"csv", "jsonl", "json"} {
			args := append(append([]string{"analytics", tc.route, "--format", format}, dates...), tc.flags...)
			stdout, stderr, code := runMintctl(t, srv, args...)
			require.Equal(t, 0, code, "%s %s: %s", tc.route, format, stderr)
			outputs[format] = stdout
		}

		var got []map[string]any
		for line := range strings.Lines(outputs["jsonl"]) {
			got = append(got, normalize(t, json.RawMessage(line)))
		}
		assert.Equal(t, want, got, "%s jsonl", tc.route)

		var array []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(outputs["json"]), &array), "%s json", tc.route)
		got = got[:0]
		for _, raw := range array {
			got = append(got, normalize(t, raw))
		}
		assert.Equal(t, want, got, "%s json", tc.route)

		// CSV: a header of the JSON names, then each row's values as text.
		records, err := csv.NewReader(strings.NewReader(outputs["csv"])).ReadAll()
		require.NoError(t, err)
		require.Len(t, records, len(want)+1, "%s csv: a header and every row", tc.route)
		var lines []map[string]any
		for line := range strings.Lines(outputs["jsonl"]) {
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &m))
			lines = append(lines, m)
		}
		for i, rec := range records[1:] {
			for j, name := range records[0] {
				assert.Equal(t, cellText(lines[i][name]), rec[j], "%s csv row %d %s", tc.route, i, name)
			}
		}
	}
}

// normalize turns a row into comparable JSON: absent, null, "" and the
// zero time all mean "no value", numbers are float64.
func normalize(t *testing.T, row any) map[string]any {
	b, ok := row.(json.RawMessage)
	if !ok {
		var err error
		b, err = json.Marshal(row)
		require.NoError(t, err)
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	for k, v := range m {
		if v == nil || v == "" || v == "0001-01-01T00:00:00Z" {
			delete(m, k)
		}
	}
	return m
}

func cellText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// runMintctl runs the command line in-process against srv.
func runMintctl(t *testing.T, srv *mockserver.Server, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	env := map[string]string{
		mintlify.EnvAPIKey:    srv.APIKey(),
		mintlify.EnvProjectID: srv.ProjectID(),
		mintlify.EnvBaseURL:   srv.URL(),
	}
	out, errb, code := runEnv(t, env, args...)
	return out.String(), errb.String(), code
}

// TestExportStreamsToAFile checks --output: the file holds the export,
// stdout nothing.
func TestExportStreamsToAFile(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithSyntheticVisits(500), mockserver.WithoutRateLimits())
	path := filepath.Join(t.TempDir(), "v.jsonl")
	stdout, stderr, code := runMintctl(t, srv, "analytics", "visitors", "--format", "jsonl", "--output", path)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Greater(t, strings.Count(string(data), "\n"), 10)
	assert.Contains(t, stderr, fmt.Sprintf("visitors: %d rows", strings.Count(string(data), "\n")))
}

// TestExportKeepsTheAPIsTimestamps: CSV, JSON Lines and JSON write a
// timestamp as the API sent it (.000Z, +00:00, a date, no zone); one the
// SDK cannot read stays empty (null in JSON), as before. So does an export
// from the mock, whose times carry milliseconds.
func TestExportKeepsTheAPIsTimestamps(t *testing.T) {
	t.Parallel()
	texts := []string{"2025-01-02T03:04:05.000Z", "2025-01-02T03:04:05+00:00", "2025-01-02", "2025-01-02T03:04:05.120000+02:00",
		"2025-01-02T03:04:05", "2025-01-02T03:04:05Z", "last tuesday"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rows := make([]any, len(texts))
		for i, at := range texts {
			rows[i] = map[string]any{"searchQuery": fmt.Sprint("q", i), "hits": 1, "ctr": 0, "topClickedPage": nil, "lastSearchedAt": at}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"searches": rows, "totalSearches": len(rows), "nextCursor": nil})
	}))
	t.Cleanup(srv.Close)
	want := slices.Clone(texts)
	want[len(want)-1] = "" // unreadable: no value, as before

	out, stderr, code := runAgainst(t, srv.URL, "analytics", "searches")
	require.Equal(t, 0, code, stderr)
	records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	var got []string
	for _, rec := range records[1:] {
		got = append(got, rec[4])
	}
	assert.Equal(t, want, got, "csv")

	for _, format := range []string{"jsonl", "json"} {
		out, stderr, code := runAgainst(t, srv.URL, "analytics", "searches", "--format", format)
		require.Equal(t, 0, code, stderr)
		type row struct {
			LastSearchedAt *string `json:"lastSearchedAt"`
		}
		var rows []row
		if format == "json" {
			require.NoError(t, json.Unmarshal([]byte(out), &rows))
		} else {
			for line := range strings.Lines(out) {
				var r row
				require.NoError(t, json.Unmarshal([]byte(line), &r))
				rows = append(rows, r)
			}
		}
		got = got[:0]
		for _, r := range rows {
			if r.LastSearchedAt == nil {
				got = append(got, "")
			} else {
				got = append(got, *r.LastSearchedAt)
			}
		}
		assert.Equal(t, want, got, format)
		assert.Contains(t, out, `"lastSearchedAt":null`, "%s: an unreadable time is null", format)
	}

	mock := mockserver.Start(t, mockserver.WithSeed(200), mockserver.WithoutRateLimits())
	for _, format := range []string{"csv", "jsonl"} {
		out, stderr, code := runMintctl(t, mock, "analytics", "feedback", "--from", "2025-01-01", "--format", format)
		require.Equal(t, 0, code, stderr)
		assert.Regexp(t, `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`, out, "%s: the mock's milliseconds are kept", format)
		assert.NotRegexp(t, `T\d\d:\d\d:\d\dZ`, out, "%s: never Go's shorter form", format)
	}
}
