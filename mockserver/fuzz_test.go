package mockserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/docsagent/mintlify-go/mockserver"
)

// fuzzServer serves fuzz inputs in memory; rate limits are off so that only
// parsing decides the answer.
func fuzzServer(f *testing.F) *mockserver.Server {
	s := mockserver.New(mockserver.WithoutRateLimits(), mockserver.WithVisits(handMade...), mockserver.WithJournalSize(16))
	f.Cleanup(s.Close)
	return s
}

// checkError insists on the service's error format: a JSON object with a
// non-empty "error" string and, if present, details with messages.
func checkError(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("status %d with Content-Type %q", rec.Code, ct)
	}
	var e struct {
		Error   *string `json:"error"`
		Details []struct {
			Message *string `json:"message"`
		} `json:"details"`
	}
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || e.Error == nil || *e.Error == "" {
		t.Fatalf("status %d with a malformed error body %q: %v", rec.Code, rec.Body, err)
	}
	for _, d := range e.Details {
		if d.Message == nil || *d.Message == "" {
			t.Fatalf("detail without message in %q", rec.Body)
		}
	}
}

func FuzzVisitorsQuery(f *testing.F) {
	for _, q := range []string{"", "limit=250", "limit=0&offset=-1", "dateFrom=2025-03-01&dateTo=2025-03-03",
		"dateFrom=2025-03-01T10:00:00%2B01:00", "limit=%zz", "limit=1&limit=2", "offset=99999999999999999999"} {
		f.Add(q)
	}
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, query string) {
		req := httptest.NewRequest("GET", "/v1/analytics/"+s.ProjectID()+"/visitors", nil)
		req.URL.RawQuery = query
		req.Header.Set("Authorization", "Bearer "+s.APIKey())
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
			var p struct {
				Totals   *struct{ Human, AI, Total *int } `json:"totals"`
				Visitors []struct {
					Path             string
					Human, AI, Total int
				} `json:"visitors"`
				HasMore *bool `json:"hasMore"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Totals == nil || p.HasMore == nil {
				t.Fatalf("bad page %q: %v", rec.Body, err)
			}
		case http.StatusBadRequest:
			checkError(t, rec)
		default:
			t.Fatalf("status %d for %q", rec.Code, query)
		}
	})
}

func FuzzJobBody(f *testing.F) {
	for _, b := range []string{`{"prompt":"x"}`, ``, `{}`, `{"prompt":""}`, `{"prompt":null}`, `{"prompt":1}`,
		`[]`, `{"prompt":"x"}x`, `{"prompt":"\ud800"}`, "{\"prompt\":\"\xff\"}"} {
		f.Add([]byte(b))
	}
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, path := range []string{"/v2/agent/" + s.ProjectID() + "/job", "/v2/agent/" + s.ProjectID() + "/job/job_missing/message"} {
			req := httptest.NewRequest("POST", path, bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+s.APIKey())
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			switch rec.Code {
			case http.StatusCreated:
				// The prompt is the member named exactly "prompt": a
				// variant such as "PROMPT" is ignored, which
				// encoding/json's struct decoding would not do.
				var in map[string]json.RawMessage
				var prompt string
				if json.Unmarshal(body, &in) != nil || json.Unmarshal(in["prompt"], &prompt) != nil || prompt == "" {
					t.Fatalf("created a job from %q", body)
				}
			case http.StatusBadRequest, http.StatusNotFound, http.StatusRequestEntityTooLarge:
				checkError(t, rec)
			default:
				t.Fatalf("status %d for %q", rec.Code, body)
			}
		}
	})
}

func FuzzFaultSpec(f *testing.F) {
	for _, spec := range []string{"status=503", "route=create-job,status=429,retry-after=30s,times=2", "reset,p=0.5",
		"latency=1ms", "slow=1ms", "status=504,processed", "status=429,retry-after=0", "kind=html", "=", ",,,", "route=get-job,status-value=queued,times=2"} {
		f.Add(spec)
	}
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, spec string) {
		rule, err := mockserver.ParseFault(spec)
		if err == nil {
			again, err := mockserver.ParseFault(rule.String())
			if err != nil || again != rule {
				t.Fatalf("%q parsed as %+v, printed as %q, re-parsed as %+v (%v)", spec, rule, rule.String(), again, err)
			}
		}
		if rule.Delay > 0 || rule.Kind == mockserver.FaultSlowBody || rule.Kind == mockserver.FaultLatency {
			return // keep the fuzzer fast: delays are tested elsewhere
		}
		req := httptest.NewRequest("GET", "/v1/analytics/"+s.ProjectID()+"/visitors", nil)
		req.Header.Set("Authorization", "Bearer "+s.APIKey())
		req.Header.Set(mockserver.FaultHeader, spec)
		rec := httptest.NewRecorder()
		func() {
			defer func() {
				// A connection fault on a recorder (which cannot be hijacked)
				// aborts the handler the way net/http expects.
				if r := recover(); r != nil && r != http.ErrAbortHandler {
					t.Fatalf("panic for %q: %v", spec, r)
				}
			}()
			s.Handler().ServeHTTP(rec, req)
		}()
		if rec.Code >= 400 && rec.Header().Get("Content-Type") == "application/json" {
			checkError(t, rec)
		}
	})
}

// FuzzAnalyticsQuery: whatever the query string (and thread ID), every
// analytics route answers 200 with a body of its schema or 400 with the
// error body; never a 500, a panic or a hang.
//
//	go test -run '^$' -fuzz FuzzAnalyticsQuery -fuzztime 20000x ./mockserver
func FuzzAnalyticsQuery(f *testing.F) {
	for _, q := range []string{"", "limit=1000", "limit=0&offset=-1", "dateFrom=2025-03-01&dateTo=2025-03-03",
		"source=agent&status=pending,resolved", "status=,", "cursor=01ARZ3NDEKTSV4RRFFQ69G5FAV", "cursor=AAAA",
		"limit=%zz", "dateTo=2025-01-01T00:00:00.999999999%2B14:00"} {
		f.Add(q, "01ARZ3NDEKTSV4RRFFQ69G5FAV")
	}
	s := mockserver.New(mockserver.WithSeed(2000), mockserver.WithoutRateLimits())
	f.Cleanup(s.Close)
	visitors := routeNamed(f, mockserver.RouteVisitors)
	analytics := routes(f, func(rt mockserver.RouteRow) bool { return rt.Limit == visitors.Limit })
	f.Fuzz(func(t *testing.T, query, threadID string) {
		for _, rt := range analytics {
			path := strings.NewReplacer("{projectId}", s.ProjectID(), "{threadId}", url.PathEscape(threadID)).Replace(rt.Path)
			req := httptest.NewRequest(rt.Method, path, nil)
			req.URL.RawQuery = query
			req.Header.Set("Authorization", "Bearer "+s.APIKey())
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			switch rec.Code {
			case http.StatusOK:
				validate(t, rt.Schema, rec.Body.Bytes())
			case http.StatusBadRequest, http.StatusNotFound:
				checkError(t, rec)
			default:
				t.Fatalf("status %d for %s?%s", rec.Code, path, query)
			}
		}
	})
}
