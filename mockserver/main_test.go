package mockserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/docsagent/mintlify-go/mockserver"
)

// TestMain fails the run if any test leaves a goroutine behind: Close must
// leave nothing running.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(closingSeeded{m})
}

// closingSeeded closes the benchmarks' shared seeded server after the run,
// before goleak looks.
type closingSeeded struct{ m *testing.M }

func (c closingSeeded) Run() int {
	code := c.m.Run()
	if seeded != nil {
		seeded.Close()
	}
	return code
}

// epoch is where fake clocks start in these tests.
var epoch = time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)

// harness is a server plus an HTTP client over loopback whose idle
// connections are closed with the test.
type harness struct {
	t  testing.TB
	s  *mockserver.Server
	hc *http.Client
}

func setup(t testing.TB, opts ...mockserver.Option) *harness {
	t.Helper()
	s := mockserver.Start(t, opts...)
	tr := &http.Transport{MaxIdleConnsPerHost: 4}
	t.Cleanup(tr.CloseIdleConnections)
	return &harness{t: t, s: s, hc: &http.Client{Transport: tr, Timeout: 10 * time.Second}}
}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// do sends a request with the server's key; headers are name, value pairs
// and override the default Authorization (an empty value removes it).
func (h *harness) do(method, path, body string, headers ...string) *response {
	h.t.Helper()
	return h.send(h.hc, method, path, body, headers...)
}

func (h *harness) send(hc *http.Client, method, path, body string, headers ...string) *response {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.s.URL()+path, rd)
	require.NoError(h.t, err)
	req.Header.Set("Authorization", "Bearer "+h.s.APIKey())
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := hc.Do(req)
	require.NoError(h.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(h.t, err)
	return &response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

func (r *response) decode(t testing.TB, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.Body, v), "body: %s", r.Body)
}

// apiError is the service's error body.
type apiError struct {
	Error   string `json:"error"`
	Details []struct {
		Message string `json:"message"`
	} `json:"details"`
}

func (r *response) apiError(t testing.TB) apiError {
	t.Helper()
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	var e apiError
	r.decode(t, &e)
	require.NotEmpty(t, e.Error, "error message in %s", r.Body)
	return e
}

func (e apiError) details() []string {
	var out []string
	for _, d := range e.Details {
		out = append(out, d.Message)
	}
	return out
}

// job is the API's job object, with pointers where the API may send null.
type job struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Source struct {
		Repository string  `json:"repository"`
		Ref        *string `json:"ref"`
	} `json:"source"`
	Model      string  `json:"model"`
	PRLink     *string `json:"prLink"`
	CreatedAt  string  `json:"createdAt"`
	ArchivedAt *string `json:"archivedAt"`
}

func (h *harness) jobsPath(suffix string) string {
	return "/v2/agent/" + h.s.ProjectID() + "/job" + suffix
}

func (h *harness) createJob(prompt string, headers ...string) job {
	h.t.Helper()
	r := h.do("POST", h.jobsPath(""), `{"prompt":`+quote(prompt)+`}`, headers...)
	require.Equal(h.t, http.StatusCreated, r.Status, "body: %s", r.Body)
	var j job
	r.decode(h.t, &j)
	return j
}

func (h *harness) getJob(id string) job {
	h.t.Helper()
	r := h.do("GET", h.jobsPath("/"+id), "")
	require.Equal(h.t, http.StatusOK, r.Status, "body: %s", r.Body)
	var j job
	r.decode(h.t, &j)
	return j
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// page is the visitors export's page.
type page struct {
	Totals   counts `json:"totals"`
	Visitors []row  `json:"visitors"`
	HasMore  bool   `json:"hasMore"`
}

type counts struct {
	Human int `json:"human"`
	AI    int `json:"ai"`
	Total int `json:"total"`
}

type row struct {
	Path  string `json:"path"`
	Human int    `json:"human"`
	AI    int    `json:"ai"`
	Total int    `json:"total"`
}

func (h *harness) visitorsPath(query string) string {
	p := "/v1/analytics/" + h.s.ProjectID() + "/visitors"
	if query != "" {
		p += "?" + query
	}
	return p
}

func (h *harness) visitors(query string) page {
	h.t.Helper()
	r := h.do("GET", h.visitorsPath(query), "")
	require.Equal(h.t, http.StatusOK, r.Status, "body: %s", r.Body)
	var p page
	r.decode(h.t, &p)
	return p
}

// The routes of the mock's route table and their sample requests
// (RouteTable and Sample, export_test.go): the tests that cover every route,
// or every route of a kind, take them from there.

// routes are the table's routes that keep keeps, all of them for nil.
func routes(t testing.TB, keep func(rt mockserver.RouteRow) bool) []mockserver.RouteRow {
	t.Helper()
	var out []mockserver.RouteRow
	for _, rt := range mockserver.RouteTable(t) {
		if keep == nil || keep(rt) {
			out = append(out, rt)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// routeNamed is the table's route named name.
func routeNamed(t testing.TB, name string) mockserver.RouteRow {
	t.Helper()
	for _, rt := range mockserver.RouteTable(t) {
		if rt.Name == name {
			return rt
		}
	}
	t.Fatalf("no route %q", name)
	return mockserver.RouteRow{}
}

// keyOf is s's key of an API of the route table.
func keyOf(s *mockserver.Server, api string) string {
	switch api {
	case "assistant":
		return s.AssistantKey()
	case "index":
		return s.IndexKey()
	}
	return s.APIKey()
}

// errorSchema is the schema of an API's error body.
func errorSchema(api string) string {
	switch api {
	case "assistant":
		return "discovery-error"
	case "index":
		return "index-error"
	}
	return "error"
}

// hasProject reports a route whose path names the project.
func hasProject(rt mockserver.RouteRow) bool { return strings.Contains(rt.Path, "{projectId}") }

// inProject is path, a request of s's project, as a request of project.
func inProject(s *mockserver.Server, path, project string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if seg == s.ProjectID() {
			segs[i] = project
			return strings.Join(segs, "/")
		}
	}
	return path
}

// sendSample sends a route's sample request with the key of the route's
// API, then headers (as do takes them).
func (h *harness) sendSample(rt mockserver.RouteRow, req mockserver.SampleRequest, headers ...string) *response {
	h.t.Helper()
	return h.do(req.Method, req.Path, req.Body, append([]string{"Authorization", "Bearer " + keyOf(h.s, rt.API)}, headers...)...)
}
