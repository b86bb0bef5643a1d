package apishape_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	. "github.com/docsagent/mintlify-go/internal/apishape"
)

var page = Obj(
	Req("rows", Arr(Obj(Req("path", Str()), Req("total", Of(Integer)), Opt("status", Enum("open", "closed")),
		Opt("at", OrNull(Str())), Opt("ctr", Of(Number))))),
	Req("hasMore", Of(Boolean)),
	Opt("createdAt", Str("date-time")),
)

func TestCheckFindsEachKindOnce(t *testing.T) {
	t.Parallel()
	got, err := Check([]byte(`{"rows":[
		{"path":"/a","total":1,"status":"open","at":"2025-01-02","ctr":0.5,"bounce":1},
		{"path":"/b","total":1.5,"status":"paused","at":"yesterday","bounce":2},
		{"path":7,"total":2,"at":null,"ctr":1}],
		"createdAt":"2025-01-02 03:04:05","extra":{}}`), page, "rows[].at")
	require.NoError(t, err)
	assert.ElementsMatch(t, []Finding{
		{Kind: UnknownMember, Path: "rows[].bounce"},
		{Kind: WrongType, Path: "rows[].total", Value: "number"},
		{Kind: OutsideEnum, Path: "rows[].status", Value: "paused"},
		{Kind: BadFormat, Path: "rows[].at", Value: "yesterday"},
		{Kind: WrongType, Path: "rows[].path", Value: "integer"},
		{Kind: MissingRequired, Path: "hasMore"},
		{Kind: BadFormat, Path: "createdAt", Value: "2025-01-02 03:04:05"},
		{Kind: UnknownMember, Path: "extra"},
	}, got)
}

func TestCheckOfAMatchingValueFindsNothing(t *testing.T) {
	t.Parallel()
	got, err := Check([]byte(`{"rows":[{"path":"/a","total":3,"at":"2025-01-02T03:04:05.123Z"}],"hasMore":false,"createdAt":"2025-01-02T03:04:05+01:00"}`), page, "rows[].at")
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestCheckRefusesWhatIsNotOneJSONValue(t *testing.T) {
	t.Parallel()
	for _, body := range []string{"", "<html>", `{"a":1}{"b":2}`, `{"a":`, `{"a":1}]`, `{"a":1}}`, `{} x`} {
		_, err := Check([]byte(body), page)
		assert.Error(t, err, "%q", body)
	}
	got, err := Check([]byte(`null`), page)
	require.NoError(t, err)
	assert.Equal(t, []Finding{{Kind: WrongType, Value: "null"}}, got)
}

func TestCheckQuotesAtMostAShortValue(t *testing.T) {
	t.Parallel()
	long := make([]byte, 500)
	for i := range long {
		long[i] = 'x'
	}
	got, err := Check([]byte(`{"rows":[{"path":"/a","total":1,"status":"`+string(long)+`"}],"hasMore":true}`), page)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Less(t, len(got[0].Value), 100)

	got, err = Check([]byte(`{"rows":[{"path":"/a","total":1,"status":"`+strings.Repeat("é", 100)+`"}],"hasMore":true}`), page)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.True(t, utf8.ValidString(got[0].Value), "cut between runes: %q", got[0].Value)
}

func TestFactsAreOneLinePerMemberAndEnumValue(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{
		`GET /x 200 enum rows[].status: "closed"`,
		`GET /x 200 enum rows[].status: "open"`,
		"GET /x 200 member (body): object required",
		"GET /x 200 member createdAt: string format date-time",
		"GET /x 200 member hasMore: boolean required",
		"GET /x 200 member rows: array required",
		"GET /x 200 member rows[].at: null|string",
		"GET /x 200 member rows[].ctr: number",
		"GET /x 200 member rows[].path: string required",
		"GET /x 200 member rows[].status: string",
		"GET /x 200 member rows[].total: integer required",
		"GET /x 200 member rows[]: object required",
	}, Facts("GET /x 200", page))
}
