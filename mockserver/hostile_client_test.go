package mockserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/internal/syncbuf"
	"github.com/docsagent/mintlify-go/mockserver"
	"github.com/docsagent/mintlify-go/mockserver/internal/staticexport"
)

// Hostile clients, route by route.

// A key given twice loses one of its values whatever the parser keeps,
// so every JSON body, API and control, refuses an exact repeat as it
// refuses a case variant.
func TestRepeatedJSONKeysAreRefused(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits(), mockserver.WithJobDuration(time.Hour))
	p := h.s.ProjectID()
	j := h.createJob("first")
	api := map[string]string{
		h.jobsPath(""):                      `{"prompt":"a","prompt":"b"}`,
		h.jobsPath("/" + j.ID + "/message"): `{"prompt":"a","prompt":"b"}`,
		"/v1/project/preview/" + p:          `{"branch":"a","branch":"b"}`,
		"/v1/static-export/jobs":            `{"domain":"a.example.com","domain":"b.example.com"}`,
	}
	for path, body := range api {
		r := h.do("POST", path, body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s %s: %s", path, body, r.Body)
		assert.Contains(t, r.apiError(t).details()[0], "given more than once", path)
	}
	control := []struct{ method, path, body string }{
		{"PUT", "/_mock/outcome", `{"outcome":"failed","outcome":""}`},
		{"POST", "/_mock/clock", `{"advance":"1h","advance":"2h"}`},
		{"POST", "/_mock/faults", `{"faults":["status=503"],"faults":[]}`},
		{"POST", "/_mock/keys", `{"scopes":["read"],"scopes":["read","write"]}`},
		{"POST", "/_mock/automations", `{"trigger":"code_change","trigger":"custom_schedule"}`},
		{"PUT", "/_mock/static-export", `{"enabled":false,"enabled":true}`},
		{"POST", "/_mock/searches", `{"searches":[{"query":"a","query":"b","timestamp":"2025-03-01T00:00:00Z"}]}`},
		{"POST", "/_mock/jobs/" + j.ID + "/outcome", `{"outcome":"failed","outcome":"no-change"}`},
		{"PUT", "/_mock/projects/" + p + "/outcome", `{"outcome":"failed","outcome":"no-change"}`},
	}
	for _, c := range control {
		r := h.do(c.method, c.path, c.body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s %s %s: %s", c.method, c.path, c.body, r.Body)
		assert.Contains(t, r.apiError(t).details()[0], "given more than once", c.path)
	}
	assert.Len(t, h.s.Jobs(), 1, "no job was created")
	for _, d := range h.s.Deployments() {
		assert.NotContains(t, []string{"a", "b"}, d.Branch, "no preview was started")
	}
	assert.Empty(t, h.s.Faults())
	assert.Equal(t, "0s", h.controlClock(t)["advance"])
	// Keys that repeat in different objects are no repeat.
	r := h.do("POST", "/_mock/searches", `{"searches":[{"query":"a","timestamp":"2025-03-01T00:00:00Z"},{"query":"b","timestamp":"2025-03-01T00:00:00Z"}]}`)
	assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// null decoded into a settings struct changes nothing and created a key
// with every scope. A control body that is not UTF-8 would have its bytes
// replaced and store an event nobody sent: the control API refuses it.
func TestBodiesThatAreNotObjectsAreRefused(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	for _, body := range []string{`null`, `[]`, `"x"`, `1`, `true`} {
		for _, c := range [][2]string{{"POST", "/_mock/keys"}, {"PUT", "/_mock/outcome"}, {"POST", "/_mock/automations"}, {"PUT", "/_mock/static-export"}} {
			r := h.do(c[0], c[1], body)
			assert.Equal(t, http.StatusBadRequest, r.Status, "%s %s %s: %s", c[0], c[1], body, r.Body)
		}
	}
	before := len(h.s.Deployments())
	p := h.s.ProjectID()
	for _, body := range []string{`{"branch":"a\u0000b"}`, `{"branch":"main\n::set-output"}`} {
		r := h.do("POST", "/v1/project/preview/"+p, body)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%q: %s", body, r.Body)
	}
	assert.Len(t, h.s.Deployments(), before, "no preview started")
	r := h.do("POST", "/_mock/searches", "{\"prompt\":\"\xfe\",\"domain\":\"a.example.com\",\"searches\":[]}")
	assert.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)
	assert.Contains(t, r.apiError(t).details()[0], "UTF-8")
	assert.Equal(t, http.StatusAccepted, h.do("POST", "/v1/project/preview/"+p, `{"branch":"feature/ü-ok"}`).Status)
}

// The mock accepts every API body the vendor's schema accepts: members
// the schema does not name are ignored, case variants of
// the names it does included, and invalid UTF-8 is read as JSON parsers
// read it, each bad byte a U+FFFD. What the schema refuses is still
// refused: a body with only a case variant has no prompt.
func TestAPIBodiesAreReadAsTheVendorSchemaReadsThem(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits(), mockserver.WithJobDuration(time.Hour))
	p := h.s.ProjectID()

	r := h.do("POST", h.jobsPath(""), `{"prompt":"a","PROMPT":""}`)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var j job
	r.decode(t, &j)
	stored, _ := h.s.Job(j.ID)
	assert.Equal(t, "a", stored.Prompt)
	r = h.do("POST", h.jobsPath("/"+j.ID+"/message"), `{"Prompt":"no","prompt":"yes","pROMPT":1}`)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	stored, _ = h.s.Job(j.ID)
	assert.Equal(t, []string{"yes"}, stored.FollowUps)
	r = h.do("POST", h.jobsPath(""), "{\"prompt\":\"a\xffb\xfe\"}")
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	r.decode(t, &j)
	stored, _ = h.s.Job(j.ID)
	assert.Equal(t, "a\uFFFDb\uFFFD", stored.Prompt)

	for _, body := range []string{`{"PROMPT":"x"}`, `{"Prompt":"x","prompt":null}`} {
		r = h.do("POST", h.jobsPath(""), body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", body, r.Body)
		assert.Equal(t, []string{"prompt: required"}, r.apiError(t).details(), body)
	}
	assert.Len(t, h.s.Jobs(), 2)

	branches := map[string]string{
		`{"branch":"main","BRANCH":"x"}`:         "main",
		`{"Branch":1,"branch":"feature/x"}`:      "feature/x",
		"{\"branch\":\"a\xffb\"}":                "a\uFFFDb",
		`{"branch":"b","x":{"Branch":1},"y":[]}`: "b",
	}
	for body, want := range branches {
		r = h.do("POST", "/v1/project/preview/"+p, body)
		require.Equal(t, http.StatusAccepted, r.Status, "%q: %s", body, r.Body)
		var started struct{ StatusID string }
		r.decode(t, &started)
		for _, d := range h.s.Deployments() {
			if d.ID == started.StatusID {
				assert.Equal(t, want, d.Branch, body)
			}
		}
	}
	r = h.do("POST", "/v1/project/preview/"+p, `{"BRANCH":"main"}`)
	assert.Equal(t, http.StatusBadRequest, r.Status, "%s", r.Body)

	// Each variant has a type the field would refuse: were it read, the
	// export would be a 400.
	r = h.do("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com","Domain":"x","PATHS":1,"version":"v1","VERSION":2}`)
	assert.Equal(t, http.StatusAccepted, r.Status, "%s", r.Body)
}

// A JSON number is a number, however it is written: 3.0, 3e0 and 30e-1
// are the integer 3 to the vendor's JSON parser (JavaScript's, which has
// no other kind of number), and so an integer field takes them, as any
// client writing floats sends them (Python's json.dumps(3.0) is "3.0"). A
// fraction is still refused, as what it is.
func TestWholeNumbersWrittenAsFractionsAreIntegers(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits())
	for _, c := range []struct{ path, body string }{
		{"/v1/search", `{"query":"caching","numResults":3.0}`},
		{"/v1/search", `{"query":"caching","numResults":3e0,"text":{"maxCharacters":1E2}}`},
		{"/v1/context", `{"query":"caching","format":"txt","tokenBudget":30e1}`},
		{"/v1/contents", `{"ids":["acme:/caching"],"maxCharacters":100.000}`},
	} {
		r := h.idx(c.path, c.body)
		assert.Equal(t, http.StatusOK, r.Status, "%s %s: %s", c.path, c.body, r.Body)
	}
	var results []json.RawMessage
	r := h.asst(h.domainPath("/v1/search"), `{"query":"deployments","pageSize":1.0}`)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r.decode(t, &results)
	assert.Len(t, results, 1)
	r = h.asst(h.domainPath("/v2/assistant")+"/message", `{"fp":"a","retrievalPageSize":2e0,"messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"deploy"}]}]}`)
	assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	r = h.asst(h.domainPath("/v1/search"), `{"query":"deployments","pageSize":1.5}`)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, string(r.Body), "pageSize: must be a whole number")
}

// A 404 repeated the whole path, up to the megabyte the header limit
// allows, on the API and on the control API.
func TestErrorsEchoAtMostAFewBytesOfTheRequest(t *testing.T) {
	t.Parallel()
	h := setup(t)
	long := strings.Repeat("a", 200<<10)
	for _, path := range []string{
		"/v1/" + long,
		"/_mock/" + long,
		"/_mock/jobs/" + long,
		"/v2/agent/" + h.s.ProjectID() + "/job/" + long + "/x",
	} {
		for _, method := range []string{"GET", "PUT"} {
			r := h.do(method, path, "")
			assert.NotEqual(t, http.StatusOK, r.Status)
			assert.Less(t, len(r.Body), 2<<10, "%s %.40s...: %d bytes", method, path, len(r.Body))
			r.apiError(t)
		}
	}
	r := h.do("PUT", "/_mock/projects/"+long+"/outcome", `{"outcome":"failed"}`)
	assert.Equal(t, http.StatusNotFound, r.Status)
	assert.Less(t, len(r.Body), 2<<10)
	r = h.do("POST", "/_mock/searches", `{"`+long+`":1}`)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.Less(t, len(r.Body), 2<<10)
}

// The key, put where no key belongs, is repeated nowhere: not in error
// details, the journal (path, query, method, header scheme) or the log.
func TestAKeyInOddPlacesIsNeverEchoed(t *testing.T) {
	t.Parallel()
	logs := &syncbuf.Buffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	h := setup(t, mockserver.WithLogger(logger), mockserver.WithoutRateLimits())
	key, p := h.s.APIKey(), h.s.ProjectID()
	upper := strings.ToUpper(key[:1]) + key[1:]
	encoded := "%6D" + key[1:] // the same key, its first byte percent-encoded
	paths := []string{
		"/v1/analytics/" + p + "/visitors?api_key=" + key + "&dateFrom=" + key,
		"/v1/analytics/" + p + "/views?dateTo=" + encoded,
		"/v1/analytics/" + p + "/searches?cursor=" + key,
		"/v1/analytics/" + p + "/feedback?source=" + key,
		"/v1/" + key + "/nothing?token=" + key,
		"/_mock/jobs/" + key,
		"/_mock/" + key,
	}
	type seen struct{ what, text string }
	var answers []seen
	check := func(label string, r *response) {
		answers = append(answers, seen{label, string(r.Body)})
		for name, vs := range r.Header {
			answers = append(answers, seen{label + " header " + name, strings.Join(vs, ",")})
		}
	}
	for i, path := range paths {
		check(fmt.Sprintf("path %d", i), h.do("GET", path, ""))
	}
	// The key, as sent and percent-encoded, in each parameter of each
	// route's path, the others filled as a request would.
	params := regexp.MustCompile(`\{[a-zA-Z]+\}`)
	for _, rt := range routes(t, nil) {
		fill := strings.NewReplacer("{projectId}", p, "{domain}", h.s.Domain())
		for _, param := range params.FindAllString(rt.Path, -1) {
			for _, form := range []string{key, encoded} {
				path := params.ReplaceAllString(fill.Replace(strings.Replace(rt.Path, param, form, 1)), "x")
				check(rt.Name+" "+param, h.do(rt.Method, path, "", "Authorization", "Bearer "+keyOf(h.s, rt.API)))
				paths = append(paths, path)
			}
		}
	}
	check("preview body", h.do("POST", "/v1/project/preview/"+p, `{"branch":"`+key+`","`+key+`":1,"`+key+`":2}`))
	check("export body", h.do("POST", "/v1/static-export/jobs", `{"domain":"`+key+`"}`))
	check("control body", h.do("PUT", "/_mock/outcome", `{"outcome":"`+key+`"}`))
	for i, auth := range []string{"Basic " + key, key, key + " " + key, "bearer  " + upper, "Token " + key, "Bearer " + key + "x"} {
		check(fmt.Sprintf("auth %d", i), h.do("GET", "/v1/analytics/"+p+"/views", "", "Authorization", auth))
	}
	check("method", h.rawRequest(t, key+" /v1/analytics/"+p+"/views HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+key+"\r\nConnection: close\r\n\r\n"))
	journal := h.do("GET", "/_mock/journal", "")
	require.Equal(t, http.StatusOK, journal.Status)
	answers = append(answers, seen{"GET /_mock/journal", string(journal.Body)}, seen{"logs", logs.String()},
		seen{"Journal()", fmt.Sprintf("%+v", h.s.Journal())})
	for _, a := range answers {
		for _, form := range []string{key[len("mint_"):], strings.ToLower(encoded[3:])} {
			assert.NotContains(t, strings.ToLower(a.text), strings.ToLower(form), "the key is echoed in %s: %.300s", a.what, a.text)
		}
	}
	assert.Contains(t, string(journal.Body), "mint_***", "the journal still says a key was there")
	assert.Greater(t, len(h.s.Journal()), len(paths)-4)
}

// rawRequest writes a request as given (a method net/http would not send)
// and reads the answer.
func (h *harness) rawRequest(t *testing.T, raw string) *response {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.s.URL(), "http://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(5*time.Second)))
	_, err = io.WriteString(conn, raw)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return &response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Moving the clock past time.Duration's range wrapped it: the second
// call of 2562047h put the server's time back by an hour and a half.
func TestClockAdvanceCannotWrap(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithClock(mockserver.NewFakeClock(epoch)))
	before := h.s.Now()
	first := h.do("POST", "/_mock/clock", `{"advance":"2562047h"}`)
	second := h.do("POST", "/_mock/clock", `{"advance":"2562047h"}`)
	assert.Equal(t, http.StatusBadRequest, first.Status, "%s", first.Body)
	assert.Equal(t, http.StatusBadRequest, second.Status, "%s", second.Body)
	assert.False(t, h.s.Now().Before(before), "the clock never goes back")
	require.Equal(t, http.StatusOK, h.do("POST", "/_mock/clock", `{"advance":"8760h"}`).Status, "a year is fine")
	assert.Equal(t, before.Add(8760*time.Hour), h.s.Now())
}

// The storage host has idle and read timeouts: no client holds its
// connections for ever.
func TestStorageHostClosesStalledAndIdleConnections(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithTimeouts(mockserver.Timeouts{Read: 300 * time.Millisecond, Idle: 300 * time.Millisecond, ReadHeader: 300 * time.Millisecond}))
	base, err := s.StorageURL()
	require.NoError(t, err)
	addr := strings.TrimPrefix(base, "http://")
	for name, send := range map[string]string{
		"idle after an answer": "GET /bundles/x/bundle.tar.gz HTTP/1.1\r\nHost: x\r\n\r\n",
		"stalled headers":      "GET /bundles/x/bundle.tar.gz HTTP/1.1\r\nHost: x\r\n",
	} {
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		_, err = io.WriteString(conn, send)
		require.NoError(t, err)
		start := time.Now()
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
		_, err = io.Copy(io.Discard, conn)
		assert.NoError(t, err, "%s: the server hung up before our 5 s deadline", name)
		assert.Less(t, time.Since(start), 3*time.Second, name)
	}
}

// The storage host's Range answers, edge by edge, against the whole
// object: a range past the end or malformed is a 416 with a JSON error
// (never net/http's plain text), "bytes=-0" among them; the unit is read
// whatever its case, and another unit is served the whole object, as RFC
// 9110 says.
func TestStorageHostRangeEdges(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(0), mockserver.WithClock(mockserver.NewFakeClock(epoch)))
	b := h.bundle(h.startExport(`{"domain":"docs.example.com"}`).JobID)
	whole := download(t, b.BundleURL)
	require.Equal(t, http.StatusOK, whole.Status)
	n := int64(len(whole.Body))
	require.Equal(t, b.SizeBytes, n)
	size := fmt.Sprint(n)
	for _, c := range []struct {
		rng    string
		status int
		body   []byte // for 200 and 206
		cr     string // Content-Range, when one is due
	}{
		{"bytes=0-0", 206, whole.Body[:1], "bytes 0-0/" + size},
		{"bytes=-10", 206, whole.Body[n-10:], fmt.Sprintf("bytes %d-%d/%s", n-10, n-1, size)},
		{fmt.Sprintf("bytes=%d-", n-1), 206, whole.Body[n-1:], fmt.Sprintf("bytes %d-%d/%s", n-1, n-1, size)},
		{fmt.Sprintf("bytes=0-%d", n+100), 206, whole.Body, fmt.Sprintf("bytes 0-%d/%s", n-1, size)},
		{fmt.Sprintf("bytes=-%d", n+100), 206, whole.Body, fmt.Sprintf("bytes 0-%d/%s", n-1, size)},
		{"Bytes=0-9", 206, whole.Body[:10], "bytes 0-9/" + size},
		{"items=0-9", 200, whole.Body, ""},
		{fmt.Sprintf("bytes=%d-", n), 416, nil, "bytes */" + size},
		{fmt.Sprintf("bytes=%d-%d", n+5, n+10), 416, nil, "bytes */" + size},
		{"bytes=-0", 416, nil, "bytes */" + size},
		{"bytes=0-1,-0", 206, whole.Body[:2], "bytes 0-1/" + size},
		{"bytes=abc", 416, nil, ""},
		{"bytes=5-1", 416, nil, ""},
		{"bytes=99999999999999999999-", 416, nil, ""},
	} {
		r := download(t, b.BundleURL, "Range", c.rng)
		require.Equal(t, c.status, r.Status, "%s: %s", c.rng, r.Body)
		if c.cr != "" {
			assert.Equal(t, c.cr, r.Header.Get("Content-Range"), c.rng)
		}
		if c.status == 416 {
			validate(t, "error", r.Body)
			assert.Equal(t, "application/json", r.Header.Get("Content-Type"), c.rng)
			continue
		}
		assert.Equal(t, c.body, r.Body, c.rng)
	}
	multi := download(t, b.BundleURL, "Range", "bytes=0-1,5-6")
	require.Equal(t, http.StatusPartialContent, multi.Status)
	assert.Contains(t, multi.Header.Get("Content-Type"), "multipart/byteranges")
	assert.Equal(t, http.StatusPreconditionFailed, download(t, b.BundleURL, "If-Match", `"other"`).Status)
	validate(t, "error", download(t, b.BundleURL, "If-Match", `"other"`).Body)

	req, err := http.NewRequest("HEAD", b.BundleURL, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, size, resp.Header.Get("Content-Length"))
}

// A cursor is unpadded base64: its last character carries bits past the
// data, which a lenient decoder drops, so some edits of that character
// opened as the very cursor the server issued. Every edit must be a 400.
// And "DateFrom", ignored as an unknown parameter, exported the default
// window as if the client had asked for it.
func TestAlteredCursorsAndCaseVariantParametersAreRefused(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits(), mockserver.WithSeed(2000), mockserver.WithClock(mockserver.NewFakeClock(epoch)))
	win := "dateFrom=2025-01-01&dateTo=2025-03-01&limit=2"
	base := "/v1/analytics/" + h.s.ProjectID() + "/"
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for _, route := range []string{"searches", "feedback"} {
		r := h.do("GET", base+route+"?"+win, "")
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var page struct {
			NextCursor *string `json:"nextCursor"`
		}
		r.decode(t, &page)
		require.NotNil(t, page.NextCursor, route)
		cursor := *page.NextCursor
		require.Equal(t, http.StatusOK, h.do("GET", base+route+"?"+win+"&cursor="+cursor, "").Status)
		last := cursor[len(cursor)-1]
		for i := range len(alphabet) {
			if alphabet[i] == last {
				continue
			}
			altered := cursor[:len(cursor)-1] + alphabet[i:i+1]
			r := h.do("GET", base+route+"?"+win+"&cursor="+altered, "")
			assert.Equal(t, http.StatusBadRequest, r.Status, "%s: last character %q → %q opened", route, last, alphabet[i])
		}
	}
	for _, q := range []string{"DateFrom=2025-01-01", "dateto=2025-03-01", "LIMIT=5", "Offset=10"} {
		r := h.do("GET", base+"views?"+q, "")
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", q, r.Body)
		assert.Contains(t, r.apiError(t).details()[0], "case-sensitive", q)
	}
	r := h.do("GET", base+"searches?Offset=1", "")
	assert.Equal(t, http.StatusOK, r.Status, "a parameter the route does not take stays ignored: %s", r.Body)
	assert.Equal(t, http.StatusOK, h.do("GET", base+"views?unknown=1&"+win, "").Status)
}

// The control API bounds bundleSize (2^63-1 would overflow the padding's
// block count and panic a range read), and a tail range of a large padded
// bundle is prompt: it does not stream every zero through CRC-32 first (a
// tenth of a second per gigabyte, minutes for 1 TiB).
func TestBundleSizesAreBoundedAndTheirTailIsPrompt(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(0), mockserver.WithClock(mockserver.NewFakeClock(epoch)))
	for _, n := range []string{"9223372036854775807", "1099511627777", "-1"} {
		r := h.do("PUT", "/_mock/static-export", `{"bundleSize":`+n+`}`)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", n, r.Body)
	}
	assert.Panics(t, func() { mockserver.New(mockserver.WithBundleSize(mockserver.MaxBundleSize + 1)).Close() }, "WithBundleSize past the bound")
	for _, n := range []int{-5, mockserver.MaxSeed + 1} {
		assert.Panics(t, func() { mockserver.New(mockserver.WithSeed(n)).Close() }, "WithSeed(%d)", n)
	}
	// WithSyntheticVisits reaches the same generator: a huge n would make a
	// slice past any length, and a negative one means nothing.
	for _, n := range []int{-5, mockserver.MaxSeed + 1, math.MaxInt} {
		assert.PanicsWithError(t, fmt.Sprintf("mockserver: WithSyntheticVisits(%d): want 0 to %d visits", n, mockserver.MaxSeed),
			func() { mockserver.New(mockserver.WithSyntheticVisits(n)).Close() }, "WithSyntheticVisits(%d)", n)
	}

	require.Equal(t, http.StatusOK, h.do("PUT", "/_mock/static-export", fmt.Sprintf(`{"bundleSize":%d}`, int64(mockserver.MaxBundleSize))).Status)
	b := h.bundle(h.startExport(`{"domain":"docs.example.com"}`).JobID)
	require.Equal(t, int64(mockserver.MaxBundleSize), b.SizeBytes)
	for _, rng := range []string{"bytes=-8", "bytes=549755813888-549755813899", "bytes=1099511627700-"} {
		start := time.Now()
		r := download(t, b.BundleURL, "Range", rng)
		require.Equal(t, http.StatusPartialContent, r.Status, "%s: %s", rng, r.Body)
		assert.Less(t, time.Since(start), 5*time.Second, rng)
	}
}

// Run with -race: every route at once, writes and walks and downloads
// mixed with control-API mutations, resets included. Whatever the
// interleaving, no request breaks its connection (a handler panic) or gets
// a 5xx, and every answer but a download or a stream is JSON.
func TestEveryRouteAtOnceWithResets(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits(), mockserver.WithJobDuration(time.Millisecond), mockserver.WithSeed(3000))
	p := h.s.ProjectID()
	win := "dateFrom=2025-01-01&dateTo=2030-01-01"
	errs := make(chan string, 1000)
	send := func(api string, stream bool, method, path, body string) []byte {
		req, err := http.NewRequest(method, h.s.URL()+path, strings.NewReader(body))
		if err != nil {
			errs <- err.Error()
			return nil
		}
		req.Header.Set("Authorization", "Bearer "+keyOf(h.s, api))
		resp, err := h.hc.Do(req)
		if err != nil {
			errs <- fmt.Sprintf("%s %s: %v", method, path, err)
			return nil
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		switch {
		case err != nil:
			errs <- fmt.Sprintf("%s %s: reading: %v", method, path, err)
		case resp.StatusCode >= 500:
			errs <- fmt.Sprintf("%s %s: %d %s", method, path, resp.StatusCode, b)
		case resp.StatusCode != http.StatusNoContent && !(stream && resp.StatusCode == http.StatusOK) && !json.Valid(b):
			errs <- fmt.Sprintf("%s %s: not JSON: %.200s", method, path, b)
		}
		return b
	}
	do := func(method, path, body string) []byte { return send("admin", false, method, path, body) }
	table := routes(t, nil)
	samples := make([]mockserver.SampleRequest, len(table))
	for i, rt := range table {
		samples[i] = mockserver.Sample(t, h.s, rt.Name)
	}
	walk := func(route string) {
		cursor := ""
		for range 20 {
			q := win + "&limit=7"
			if cursor != "" {
				q += "&cursor=" + url.QueryEscape(cursor)
			}
			var page struct {
				NextCursor *string `json:"nextCursor"`
			}
			if json.Unmarshal(do("GET", "/v1/analytics/"+p+"/"+route+"?"+q, ""), &page) != nil || page.NextCursor == nil {
				return
			}
			cursor = *page.NextCursor
		}
	}
	workers := []func(i int){
		func(i int) {
			var j struct{ ID string }
			_ = json.Unmarshal(do("POST", "/v2/agent/"+p+"/job", fmt.Sprintf(`{"prompt":"p%d"}`, i)), &j)
			do("GET", "/v2/agent/"+p+"/job/"+j.ID, "")
			do("POST", "/v2/agent/"+p+"/job/"+j.ID+"/message", `{"prompt":"again"}`)
		},
		func(int) {
			var d struct{ StatusID string }
			_ = json.Unmarshal(do("POST", "/v1/project/update/"+p, ""), &d)
			do("GET", "/v1/project/update-status/"+d.StatusID, "")
			do("POST", "/v1/project/preview/"+p, `{"branch":"feature/x"}`)
		},
		func(int) {
			var autos []struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(do("GET", "/_mock/automations", ""), &autos)
			for _, a := range autos {
				do("POST", "/v1/workflow/"+p+"/"+a.ID+"/trigger", "")
			}
		},
		func(int) {
			var e struct{ JobID string }
			_ = json.Unmarshal(do("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`), &e)
			do("POST", "/_mock/clock", `{"advance":"1m"}`)
			do("GET", "/v1/static-export/jobs/"+e.JobID, "")
			var b struct{ BundleURL string }
			if json.Unmarshal(do("POST", "/v1/static-export/jobs/"+e.JobID+"/bundle", ""), &b) == nil && b.BundleURL != "" {
				for _, rng := range []string{"", "bytes=0-9", "bytes=-5"} {
					req, _ := http.NewRequest("GET", b.BundleURL, nil)
					if rng != "" {
						req.Header.Set("Range", rng)
					}
					if resp, err := h.hc.Do(req); err != nil {
						errs <- "download: " + err.Error()
					} else {
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}
			}
		},
		func(int) { walk("searches"); walk("feedback"); walk("assistant") },
		func(int) { // every route of the table, its resources made before the resets
			for i, rt := range table {
				send(rt.API, rt.Stream, samples[i].Method, samples[i].Path, samples[i].Body)
			}
		},
		func(i int) {
			do("POST", "/_mock/searches", fmt.Sprintf(`{"searches":[{"query":"q%d","timestamp":"2025-06-01T00:00:00Z"}]}`, i))
			do("POST", "/_mock/visits", `{"synthetic":50}`)
			do("POST", "/_mock/keys", `{"scopes":["read"]}`)
			do("GET", "/_mock/journal", "")
			do("GET", "/_mock/deployments", "")
			do("PUT", "/_mock/static-export", `{"bundleSize":4096}`)
		},
		func(i int) {
			if i%3 == 2 {
				do("POST", "/_mock/reset", "")
			}
			do("POST", "/_mock/faults", `{"faults":["route=views,status=429,times=1"]}`)
			do("DELETE", "/_mock/faults", "")
		},
	}
	atOnce(t, 6, workers, errs)
}

// Odd but valid requests get answers of the route's schema; refused ones
// the error schema; whatever the attack, no other shape.
func TestHostileRequestsGetSchemaValidAnswers(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits(), mockserver.WithSeed(3000), mockserver.WithJobDuration(0))
	p := h.s.ProjectID()
	a := "/v1/analytics/" + p + "/"
	long := strings.Repeat("x", 10<<10)
	thread := func() string {
		var page struct {
			Conversations []struct {
				ID string `json:"id"`
			} `json:"conversations"`
		}
		h.do("GET", a+"assistant?dateFrom=2025-01-01", "").decode(t, &page)
		require.NotEmpty(t, page.Conversations)
		return page.Conversations[0].ID
	}()
	cases := []struct{ method, path, body, schema string }{
		{"GET", a + "visitors?dateFrom=2025-01-01T00:00:00%2B14:00&dateTo=2030-01-01T00:00:00-12:00&limit=05", "", "visitors"},
		{"GET", a + "views?dateFrom=0001-01-01&dateTo=9999-12-31&offset=9223372036854775807", "", "views"},
		{"GET", a + "views?limit=250&unknown=" + long, "", "views"},
		{"GET", a + "searches?dateFrom=2025-01-01&limit=100", "", "searches"},
		{"GET", a + "feedback?dateFrom=2025-01-01&source=code_snippet&status=pending,resolved", "", "feedback"},
		{"GET", a + "feedback?dateFrom=2025-01-01&source=agent", "", "feedback"},
		{"GET", a + "feedback/by-page?dateFrom=2025-01-01&limit=1", "", "feedback-by-page"},
		{"GET", a + "assistant?dateFrom=2025-01-01&limit=1", "", "assistant"},
		{"GET", a + "assistant/threads/" + strings.ToLower(thread), "", "thread"},
		{"GET", a + "assistant/caller-stats?dateTo=2030-01-01", "", "caller-stats"},
		{"POST", "/v1/project/preview/" + p, `{"branch":"` + strings.Repeat("ü", 300) + `","unknown":[1,{"a":null}]}`, "preview"},
		{"POST", "/v1/project/update/" + p, `{"ignored":true}`, "deployment-trigger"},
		{"POST", "/v1/static-export/jobs", `{"domain":"DOCS.Example.COM","version":null,"paths":["/a","a"]}`, "static-export-job"},
		{"POST", "/v2/agent/" + p + "/job", `{"prompt":"` + strings.Repeat("\\u0000", 10) + `"}`, "job"},
		// refused
		{"GET", a + "views?dateFrom=" + long, "", ""},
		{"GET", a + "views?limit=1&limit=2&offset=-1&dateTo=x&DateFrom=y", "", ""},
		{"GET", a + "searches?cursor=" + long, "", ""},
		{"GET", a + "feedback?status=" + strings.Repeat("bad,", 500), "", ""},
		{"GET", a + "assistant/threads/" + long, "", ""},
		{"GET", a + "assistant?cursor=%00%ff", "", ""},
		{"POST", "/v1/project/preview/" + p, `{"branch":"a","branch":"b"}`, ""},
		{"POST", "/v1/project/preview/" + p, strings.Repeat("[", 100) + strings.Repeat("]", 100), ""},
		{"POST", "/v1/static-export/jobs", `{"domain":"` + long + `","paths":["../x"]}`, ""},
		{"POST", "/v1/static-export/jobs/" + long + "/bundle", "", ""},
		{"GET", "/v1/project/update-status/" + long, "", ""},
		{"POST", "/v1/workflow/" + p + "/" + long + "/trigger", "", ""},
		{"POST", "/v2/agent/" + p + "/job", `{"prompt":1}`, ""},
		{"DELETE", "/v2/agent/" + p + "/job", "", ""},
		{"GET", "/" + long, "", ""},
	}
	for _, c := range cases {
		r := h.do(c.method, c.path, c.body)
		label := fmt.Sprintf("%s %.80s", c.method, c.path)
		if c.schema != "" {
			require.Less(t, r.Status, 300, "%s: %s", label, r.Body)
			validate(t, c.schema, r.Body)
			continue
		}
		require.GreaterOrEqual(t, r.Status, 400, "%s: %s", label, r.Body)
		validate(t, "error", r.Body)
		assert.Less(t, len(r.Body), 4<<10, "%s: a refusal of %d bytes", label, len(r.Body))
	}
	// Every 401, whatever the route, names the scheme that works.
	for _, rt := range routes(t, nil) {
		req := mockserver.Sample(t, h.s, rt.Name)
		for _, auth := range []string{"", "Basic eA==", "Bearer ", "Bearer mint_wrong", "bearer"} {
			r := h.do(req.Method, req.Path, req.Body, "Authorization", auth)
			require.Equal(t, http.StatusUnauthorized, r.Status, "%s %q: %s", req.Path, auth, r.Body)
			assert.Equal(t, "Bearer", r.Header.Get("WWW-Authenticate"), req.Path)
			validate(t, errorSchema(rt.API), r.Body)
		}
	}
}

// A control body declared past the bound is refused on sight, as the API
// refuses one, not read until the client sends it or the read timeout
// strikes.
func TestControlRefusesADeclaredOversizeBodyAtOnce(t *testing.T) {
	t.Parallel()
	h := setup(t)
	for _, path := range []string{"/_mock/visits", "/_mock/searches", "/_mock/keys", "/v2/agent/" + h.s.ProjectID() + "/job"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(h.s.URL(), "http://"))
		require.NoError(t, err)
		require.NoError(t, conn.SetDeadline(time.Now().Add(3*time.Second)))
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n{\"", path, h.s.APIKey(), 64<<20)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err, "%s: no answer before the body arrived", path)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		conn.Close()
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "%s: %s", path, b)
		validate(t, "error", b)
	}
}

// A configured key with a space or other delimiter could not be redacted
// whole: "mint_a b" put in a query left " b" in the journal.
func TestConfiguredKeysAreOneToken(t *testing.T) {
	t.Parallel()
	for _, opt := range []mockserver.Option{
		mockserver.WithAPIKey("mint_a b"),
		mockserver.WithAPIKey("mint_"),
		mockserver.WithAPIKey("mint_a&b=c"),
		mockserver.WithProject("other", "mint_line\nbreak"),
		mockserver.WithKey("mint_50%", mockserver.KeySpec{}),
	} {
		assert.Panics(t, func() { mockserver.New(opt).Close() })
	}
	s := mockserver.Start(t, mockserver.WithAPIKey("mint_Fine-key_1"))
	assert.Equal(t, "mint_Fine-key_1", s.APIKey())
}

// Two Authorization headers: the mock read the first, a proxy in front of
// it might read the last; the request passed with either one valid.
func TestTwoAuthorizationHeadersAreRefused(t *testing.T) {
	t.Parallel()
	h := setup(t)
	for _, pair := range [][2]string{
		{"Bearer mint_wrong", "Bearer " + h.s.APIKey()},
		{"Bearer " + h.s.APIKey(), "Bearer mint_wrong"},
		{"Bearer " + h.s.APIKey(), "Bearer " + h.s.APIKey()},
	} {
		req, err := http.NewRequest("GET", h.s.URL()+"/v1/analytics/"+h.s.ProjectID()+"/views", nil)
		require.NoError(t, err)
		req.Header["Authorization"] = []string{pair[0], pair[1]}
		resp, err := h.hc.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s", b)
		validate(t, "error", b)
		assert.NotContains(t, string(b), h.s.APIKey()[5:])
	}
}

// One export request names a bounded number of pages: 1 MiB of 124,000
// short paths would have the server build (120 MB allocated) and keep
// (9 MB) a bundle of them all.
func TestOneExportNamesABoundedNumberOfPages(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(0), mockserver.WithoutRateLimits())
	paths := func(n int) string {
		var sb strings.Builder
		sb.WriteString(`{"domain":"docs.example.com","paths":[`)
		for i := range n {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `"p%x"`, i)
		}
		return sb.String() + `]}`
	}
	r := h.do("POST", "/v1/static-export/jobs", paths(100_000))
	require.Equal(t, http.StatusBadRequest, r.Status, "%.300s", r.Body)
	assert.Contains(t, r.apiError(t).details()[0], "at most 10000")
	r = h.do("POST", "/v1/static-export/jobs", paths(10_000))
	require.Equal(t, http.StatusAccepted, r.Status, "%.300s", r.Body)
	var e export
	r.decode(t, &e)
	assert.Equal(t, 10_000, e.PageCount)
}

// Starting an export has no rate limit, and an export keeps its pages
// and, once asked for, its bundle (some 3.6 MB for 1 MiB of paths): the
// oldest exports are forgotten past a number of them and a byte budget,
// so a client looping on the start route cannot grow the server without
// bound.
func TestExportsKeptAreBounded(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(0))
	first := h.startExport(`{"domain":"docs.example.com"}`)
	h.bundle(first.JobID)
	for range staticexport.MaxJobs {
		h.startExport(`{"domain":"docs.example.com"}`)
	}
	r := h.do("GET", "/v1/static-export/jobs/"+first.JobID, "")
	assert.Equal(t, http.StatusNotFound, r.Status, "the oldest export is forgotten: %s", r.Body)
	last := h.startExport(`{"domain":"docs.example.com"}`)
	h.bundle(last.JobID)
}

// The in-memory client ends a request whose body stalls with the
// request's context, and Close (which waits for the handler) ends it too.
func TestInMemoryStalledBodyEndsWithItsContextAndClose(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	hc := s.Client()
	for _, path := range []string{"/v2/agent/" + s.ProjectID() + "/job", "/v1/project/preview/" + s.ProjectID(), "/_mock/searches"} {
		pr, pw := io.Pipe()
		go func() { _, _ = pw.Write([]byte(`{"pro`)) }() // then nothing
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		req, err := http.NewRequestWithContext(ctx, "POST", s.URL()+path, pr)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+s.APIKey())
		done := make(chan error, 1)
		go func() {
			resp, err := hc.Do(req)
			if err == nil {
				resp.Body.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			assert.ErrorIs(t, err, context.DeadlineExceeded, path)
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the in-memory request outlived its context", path)
		}
		cancel()
		pw.Close()
	}

	s2 := mockserver.New()
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() { _, _ = pw.Write([]byte(`{"pro`)) }()
	req, err := http.NewRequest("POST", s2.URL()+"/v2/agent/"+s2.ProjectID()+"/job", pr)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+s2.APIKey())
	sent := make(chan struct{})
	go func() {
		close(sent)
		if resp, err := s2.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-sent
	time.Sleep(50 * time.Millisecond) // the handler is reading
	closed := make(chan struct{})
	go func() { s2.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for a handler reading a stalled in-memory body")
	}
}

// Repeats are found in objects of any size, past the first few keys too.
func TestRepeatedKeysInLargeObjects(t *testing.T) {
	t.Parallel()
	h := setup(t)
	var keys []string
	for i := range 20 {
		keys = append(keys, fmt.Sprintf(`"k%d":%d`, i, i))
	}
	for _, dup := range []string{`"k0":1`, `"k8":1`, `"k19":1`} {
		body := `{"domain":"docs.example.com",` + strings.Join(keys, ",") + "," + dup + "}"
		r := h.do("POST", "/v1/static-export/jobs", body)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", dup, r.Body)
	}
	r := h.do("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com",`+strings.Join(keys, ",")+"}")
	assert.Equal(t, http.StatusAccepted, r.Status, "%s", r.Body)
}

// "/_mock" without its slash got ServeMux's own 307 in HTML.
func TestControlPrefixWithoutSlashIsJSON(t *testing.T) {
	t.Parallel()
	h := setup(t)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, method := range []string{"GET", "POST", "DELETE"} {
		r := h.send(noRedirect, method, "/_mock", "")
		assert.Equal(t, http.StatusNotFound, r.Status, method)
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"), method)
		validate(t, "error", r.Body)
		assert.Contains(t, string(r.Body), "closest route: "+method+" /_mock/", "the hint names a control route")
	}
}

// Every page repeats the version: 10,000 paths and a 900 KB version would
// be about 9 GB to render and gzip, from one 1 MiB request, so a version
// holds at most 256 bytes.
func TestExportVersionIsBounded(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithJobDuration(0))
	r := h.do("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com","paths":["a","b"],"version":"`+strings.Repeat("v", 100<<10)+`"}`)
	require.Equal(t, http.StatusBadRequest, r.Status, "%.200s", r.Body)
	assert.Contains(t, r.apiError(t).details()[0], "version: at most 256 bytes")
	assert.Less(t, len(r.Body), 1<<10)
	r = h.do("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com","version":"`+strings.Repeat("v", 256)+`"}`)
	assert.Equal(t, http.StatusAccepted, r.Status, "%.200s", r.Body)
}

// Every limited route, at a limit of one: the request after the first
// its quota counted (its own, or its sample's setup on a route of the same
// quota) is a 429 in its API's error schema with Retry-After in whole
// seconds, and another organization's key is not limited by it.
func TestEveryLimitedRouteSaysWhenToRetry(t *testing.T) {
	t.Parallel()
	limits := []mockserver.Option{
		mockserver.WithJobRateLimit(1, time.Hour), mockserver.WithAnalyticsRateLimit(1, time.Hour),
		mockserver.WithDeployRateLimit(1, time.Hour), mockserver.WithPreviewRateLimit(1, time.Hour),
		mockserver.WithAssistantRateLimit(1, time.Hour), mockserver.WithDocsRateLimit(1, time.Hour),
		mockserver.WithIndexRateLimit(1, time.Hour),
		mockserver.WithProject("theirs", "mint_their_key"), mockserver.WithJobDuration(time.Hour),
	}
	table := routes(t, nil)
	quota := map[string]string{} // route name -> its limit
	for _, rt := range table {
		quota[rt.Name] = rt.Limit
	}
	for _, rt := range table {
		if rt.Limit == "" {
			continue
		}
		h := setup(t, limits...)
		req := mockserver.Sample(t, h.s, rt.Name)
		counted := 0
		for _, e := range h.s.Journal() {
			if quota[e.Route] == rt.Limit && e.Status < 400 {
				counted++
			}
		}
		if counted == 0 {
			first := h.sendSample(rt, req)
			require.Less(t, first.Status, 429, "%s %s: %s", req.Method, req.Path, first.Body)
		}
		second := h.sendSample(rt, req)
		require.Equal(t, http.StatusTooManyRequests, second.Status, "%s %s: %s", req.Method, req.Path, second.Body)
		validate(t, errorSchema(rt.API), second.Body)
		assert.Regexp(t, `^[1-9][0-9]*$`, second.Header.Get("Retry-After"), req.Path)
		if hasProject(rt) {
			theirs := inProject(h.s, req.Path, "theirs")
			other := h.do(req.Method, theirs, req.Body, "Authorization", "Bearer mint_their_key")
			assert.NotEqual(t, http.StatusTooManyRequests, other.Status, "%s: another organization's quota", theirs)
		}
	}
}

// An API body's arrays hold at most 10,000 items, counted before anything
// is decoded (400 past them), and problems past the tenth are only
// counted: a 1 MiB message body of {} (350,000 messages, parts or context
// items) costs a bounded heap, not a Go value and a problem text each.
func TestAPIBodiesOfEmptyObjectsCostBoundedMemory(t *testing.T) {
	h := setup(t, mockserver.WithoutRateLimits())
	message := h.domainPath("/discovery/v2/assistant") + "/message"
	const question = `{"role":"user","parts":[{"type":"text","text":"q"}]}`
	fill := func(open, close string, n int) string {
		if n == 0 {
			n = (1<<20 - len(open) - len(close)) / 3
		}
		return open + strings.Repeat(`{},`, n-1) + `{}` + close
	}
	for _, c := range []struct {
		name, path, body string
		refused          bool // past the bound, rather than for its empty items
	}{
		{"messages", message, fill(`{"fp":"x","messages":[`, `]}`, 0), true},
		{"parts", message, fill(`{"fp":"x","messages":[{"role":"user","parts":[`, `]}]}`, 0), true},
		{"context", message, fill(`{"fp":"x","messages":[`+question+`],"context":[`, `]}`, 0), true},
		{"v1 messages", h.domainPath("/discovery/v1/assistant") + "/message", fill(`{"fp":"x","messages":[`, `]}`, 0), true},
		{"search groups", h.domainPath("/discovery/v1/search"), strings.ReplaceAll(fill(`{"query":"x","filter":{"groups":[`, `]}}`, 0), "{}", `""`), true},
		{"page groups", h.domainPath("/discovery/v1/page"), strings.ReplaceAll(fill(`{"path":"quickstart","groups":[`, `]}`, 0), "{}", `""`), true},
		{"10,000 messages", message, fill(`{"fp":"x","messages":[`, `]}`, 10_000), false},
		{"10,000 parts", message, fill(`{"fp":"x","messages":[{"role":"user","parts":[`, `]}]}`, 10_000), false},
	} {
		var r *response
		peak := peakHeap(func() {
			r = h.do("POST", c.path, c.body, "Authorization", "Bearer "+h.s.AssistantKey())
		})
		t.Logf("%s (%d KiB): %d, peak heap %.1f MiB: %.120s", c.name, len(c.body)>>10, r.Status, float64(peak)/(1<<20), r.Body)
		assert.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", c.name, r.Body)
		if c.refused {
			assert.Contains(t, string(r.Body), "at most 10000 items", c.name)
		}
		assert.LessOrEqual(t, peak, uint64(16<<20), "%s: peak heap %d MiB", c.name, peak>>20)
		assert.Less(t, len(r.Body), 2<<10, c.name)
	}
}
