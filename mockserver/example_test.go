package mockserver_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/docsagent/mintlify-go/mockserver"
)

// post and get are the few lines of HTTP a test would otherwise write with
// the SDK's client.
func post(s *mockserver.Server, hc *http.Client, path, body string, headers ...string) (*http.Response, map[string]any) {
	req, _ := http.NewRequest("POST", s.URL()+path, strings.NewReader(body))
	return send(s, hc, req, headers...)
}

func get(s *mockserver.Server, hc *http.Client, path string) (*http.Response, map[string]any) {
	req, _ := http.NewRequest("GET", s.URL()+path, nil)
	return send(s, hc, req)
}

func send(s *mockserver.Server, hc *http.Client, req *http.Request, headers ...string) (*http.Response, map[string]any) {
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := hc.Do(req)
	if err != nil {
		fmt.Println("error:", err)
		return nil, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var v map[string]any
	_ = json.Unmarshal(body, &v)
	return resp, v
}

// A job runs for the job duration on the server's clock. With a fake clock
// the test moves time instead of sleeping.
func Example() {
	clock := mockserver.NewFakeClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	s := mockserver.New(
		mockserver.WithProjectID("docs"),
		mockserver.WithClock(clock),
		mockserver.WithJobDuration(time.Minute),
	)
	defer s.Close()

	resp, created := post(s, http.DefaultClient, "/v2/agent/docs/job", `{"prompt":"Document the webhooks"}`)
	fmt.Println(resp.StatusCode, created["status"], created["prLink"])

	clock.Advance(time.Minute)
	_, polled := get(s, http.DefaultClient, "/v2/agent/docs/job/"+created["id"].(string))
	fmt.Println(polled["status"], polled["prLink"])
	// Output:
	// 201 active <nil>
	// completed https://github.com/acme/docs/pull/1
}

// Client reaches the server in memory, with no socket: the fastest way to
// test code that takes an *http.Client.
func ExampleServer_Client() {
	s := mockserver.New(mockserver.WithProjectID("docs"))
	defer s.Close()

	resp, page := get(s, s.Client(), "/v1/analytics/docs/visitors?limit=0")
	fmt.Println(resp.StatusCode, page["error"], page["details"])
	// Output:
	// 400 Invalid query parameters [map[message:limit: must be an integer from 1 to 250, got "0"]]
}

// The visitors export counts distinct visitors: someone seen as human and
// as AI counts once in total.
func ExampleWithVisits() {
	day := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := mockserver.New(mockserver.WithProjectID("docs"), mockserver.WithVisits(
		mockserver.Visit{VisitorID: "ann", Path: "/quickstart", Time: day},
		mockserver.Visit{VisitorID: "ann", Path: "/quickstart", Time: day.Add(time.Hour)},
		mockserver.Visit{VisitorID: "ann", Path: "/quickstart", AI: true, Time: day.Add(2 * time.Hour)},
		mockserver.Visit{VisitorID: "bot", Path: "/quickstart", AI: true, Time: day},
		mockserver.Visit{VisitorID: "bob", Path: "/api", Time: day.Add(24 * time.Hour)},
	))
	defer s.Close()

	_, page := get(s, s.Client(), "/v1/analytics/docs/visitors?dateTo=2025-01-02")
	out, _ := json.Marshal(page)
	fmt.Println(string(out))
	// Output:
	// {"hasMore":false,"totals":{"ai":2,"human":1,"total":2},"visitors":[{"ai":2,"human":1,"path":"/quickstart","total":2}]}
}

// The journal counts what a client did, retries included, and says
// whether each request was processed.
func ExampleServer_Journal() {
	s := mockserver.New(mockserver.WithFaults(mockserver.FaultRule{
		Route: mockserver.RouteGetJob,
		Fault: mockserver.Fault{Kind: mockserver.FaultStatus, Status: 503},
		Times: 2,
	}))
	defer s.Close()

	_, job := post(s, s.Client(), "/v2/agent/"+s.ProjectID()+"/job", `{"prompt":"x"}`)
	for range 3 { // a client retrying a GET on 503
		get(s, s.Client(), "/v2/agent/"+s.ProjectID()+"/job/"+job["id"].(string))
	}
	for _, e := range s.Journal() {
		fmt.Printf("%s %d processed=%t fault=%q\n", e.Route, e.Status, e.Processed, e.Fault)
	}
	// Output:
	// create-job 201 processed=true fault=""
	// get-job 503 processed=false fault="status"
	// get-job 503 processed=false fault="status"
	// get-job 200 processed=true fault=""
}

// A reset after processing is the case a POST retry policy must survive:
// the job exists, but the client saw no answer.
func ExampleServer_InjectFault() {
	s := mockserver.New()
	defer s.Close()

	rule, _ := mockserver.ParseFault("route=create-job,reset,times=1")
	_ = s.InjectFault(rule)

	req, _ := http.NewRequest("POST", s.URL()+"/v2/agent/"+s.ProjectID()+"/job", strings.NewReader(`{"prompt":"x"}`))
	req.Header.Set("Authorization", "Bearer "+s.APIKey())
	_, err := s.Client().Do(req)
	fmt.Println("connection reset:", errors.Is(err, syscall.ECONNRESET))
	fmt.Println("jobs stored:", len(s.Jobs()))
	fmt.Println("processed:", s.Journal()[0].Processed)
	// Output:
	// connection reset: true
	// jobs stored: 1
	// processed: true
}

// The override header steers one request from any language.
func ExampleOutcomeHeader() {
	clock := mockserver.NewFakeClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	s := mockserver.New(mockserver.WithClock(clock))
	defer s.Close()

	_, job := post(s, s.Client(), "/v2/agent/"+s.ProjectID()+"/job", `{"prompt":"x"}`,
		mockserver.OutcomeHeader, string(mockserver.OutcomeFailed))
	clock.Advance(mockserver.DefaultJobDuration)
	_, polled := get(s, s.Client(), "/v2/agent/"+s.ProjectID()+"/job/"+job["id"].(string))
	fmt.Println(polled["status"])
	// Output:
	// failed
}

// Searches, feedback and assistant threads are stored as events; every
// analytics route is computed from them.
func ExampleWithSearches() {
	at := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	s := mockserver.New(
		mockserver.WithSearches(
			mockserver.SearchEvent{Query: "webhooks", Time: at, ClickedPath: "/webhooks"},
			mockserver.SearchEvent{Query: "webhooks", Time: at.Add(time.Minute)},
		),
		mockserver.WithThreads(mockserver.Thread{
			ID:     "01JNGJ5W0000000000000000AA",
			Caller: mockserver.CallerAPI,
			Turns: []mockserver.Turn{
				{Time: at, Query: "How do I sign webhooks?", Response: "With the secret in the dashboard."},
				{Time: at.Add(time.Minute), Query: "Where is it?", Response: "Settings, then Webhooks."},
			},
		}),
	)
	defer s.Close()
	hc := s.Client()

	_, page := get(s, hc, "/v1/analytics/"+s.ProjectID()+"/searches?dateFrom=2025-03-01")
	term := page["searches"].([]any)[0].(map[string]any)
	fmt.Println(term["searchQuery"], term["hits"], term["ctr"], term["topClickedPage"])

	_, stats := get(s, hc, "/v1/analytics/"+s.ProjectID()+"/assistant/caller-stats")
	fmt.Println("api queries:", stats["api"], "total:", stats["total"])

	_, thread := get(s, hc, "/v1/analytics/"+s.ProjectID()+"/assistant/threads/01JNGJ5W0000000000000000AA")
	fmt.Println(len(thread["messages"].([]any)), "messages")
	// Output:
	// webhooks 2 0.5 /webhooks
	// api queries: 2 total: 2
	// 4 messages
}
