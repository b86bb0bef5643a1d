package mintlify_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// assistantOnMock is an assistant client of a fresh mock server. Usually
// the key and the site come from $MINTLIFY_ASSISTANT_API_KEY and
// $MINTLIFY_DOMAIN: mintlify.NewAssistantClient() is enough.
func assistantOnMock() (*mintlify.AssistantClient, func()) {
	mock := mockserver.New()
	a, err := mintlify.NewAssistantClient(
		mintlify.WithAPIKey(mock.AssistantKey()), // mint_dsc_...
		mintlify.WithDomain(mock.Domain()),       // docs.example.com
		mintlify.WithBaseURL(mock.URL()+"/discovery"),
	)
	if err != nil {
		panic(err)
	}
	return a, mock.Close
}

func ExampleAssistantClient_Ask() {
	a, done := assistantOnMock()
	defer done()

	answer, err := a.Ask(context.Background(), "What are the rate limits?")
	if err != nil {
		panic(err)
	}
	fmt.Println(answer.Text)
	for _, s := range answer.Sources {
		fmt.Println("-", s.Title, s.URL)
	}
	// Output:
	// Here is what the documentation says.
	//
	// [Rate limits](https://docs.example.com/rate-limits): The API limits how many requests an organization may send. Limits count every key of the organization together, over a window that slides across the last hour.
	// - Rate limits https://docs.example.com/rate-limits
}

func ExampleAssistantClient_Message() {
	a, done := assistantOnMock()
	defer done()
	ctx := context.Background()

	s, err := a.Message(ctx, mintlify.MessageParams{
		FP:       "user-42", // your own ID of the user, or "" for anonymous
		Messages: []mintlify.ChatMessage{{Role: "user", Parts: []mintlify.ChatPart{{Text: "What are the rate limits?"}}}},
	})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	for ev, err := range s.Events() {
		if err != nil {
			panic(err)
		}
		if ev.Type == "text-delta" {
			fmt.Print(ev.Delta) // as the model writes it
		}
	}
	fmt.Println()
	fmt.Println(len(s.Sources()), "source,", s.FinishReason())

	// A follow-up continues the thread with its ID and key.
	next, err := a.Message(ctx, mintlify.MessageParams{
		ThreadID:  s.ThreadID(),
		ThreadKey: s.ThreadKey(),
		Messages: []mintlify.ChatMessage{
			{Role: "user", Parts: []mintlify.ChatPart{{Text: "What are the rate limits?"}}},
			{Role: "assistant", Parts: []mintlify.ChatPart{{Text: s.Text()}}},
			{Role: "user", Parts: []mintlify.ChatPart{{Text: "And how do previews work?"}}},
		},
	})
	if err != nil {
		panic(err)
	}
	defer next.Close()
	for _, err := range next.Events() {
		if err != nil {
			panic(err)
		}
	}
	fmt.Println(next.ThreadID() == s.ThreadID(), next.Sources()[0].Path)
	// Output:
	// Here is what the documentation says.
	//
	// [Rate limits](https://docs.example.com/rate-limits): The API limits how many requests an organization may send. Limits count every key of the organization together, over a window that slides across the last hour.
	// 1 source, stop
	// true /previews
}

func ExampleAssistantClient_SearchDocs() {
	a, done := assistantOnMock()
	defer done()
	ctx := context.Background()

	results, err := a.SearchDocs(ctx, mintlify.DocSearchParams{Query: "preview deployments", PageSize: 2})
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Printf("%s (%s)\n", r.Path, r.Metadata["title"])
	}
	page, err := a.GetPageContent(ctx, results[0].Path)
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.SplitN(page.Content, "\n", 2)[0])
	// Output:
	// previews (Preview deployments)
	// quickstart (Quickstart)
	// A preview deployment builds a branch other than the deployment branch and serves it at its own URL, so reviewers can read a change before it is merged.
}

func ExampleNewAssistantProxy() {
	a, done := assistantOnMock()
	defer done()

	proxy, err := mintlify.NewAssistantProxy(a,
		mintlify.WithAllowedOrigins("https://docs.example.com"),
		mintlify.WithProxyIdentity(func(r *http.Request) (mintlify.ProxyIdentity, error) {
			// Your session decides who asks and which pages they may see;
			// never the browser's body.
			return mintlify.ProxyIdentity{FP: "user-42", Groups: []string{"customers"}, RateKey: "user-42"}, nil
		}),
	)
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /api/chat", proxy)
	mux.Handle("OPTIONS /api/chat", proxy) // the CORS preflight of docs.example.com's pages
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// What the browser's chat client sends, and reads as a stream.
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/chat", strings.NewReader(
		`{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://docs.example.com")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Access-Control-Allow-Origin"))
	fmt.Println(strings.Count(string(body), `"type":"text-delta"`), "text chunks")
	fmt.Println(strings.HasSuffix(string(body), "data: [DONE]\n\n"))
	// Output:
	// 200 text/event-stream https://docs.example.com
	// 12 text chunks
	// true
}

// counterStore is what a store shared by every replica offers: Redis's
// INCR and EXPIRE, for one (with github.com/redis/go-redis, rdb.Incr and
// rdb.Expire). An in-memory one stands in for it here.
type counterStore interface {
	Incr(ctx context.Context, key string) (int64, error)
	Expire(ctx context.Context, key string, ttl time.Duration) error
}

// windowLimiter allows n requests per client in each window of per, counted
// in the shared store: every replica sees the same counts.
type windowLimiter struct {
	store counterStore
	n     int64
	per   time.Duration
}

func (l windowLimiter) Allow(ctx context.Context, key string) (bool, time.Duration, error) {
	now := time.Now()
	window := now.Truncate(l.per)
	counter := fmt.Sprintf("chat-limit:%s:%d", key, window.Unix())
	count, err := l.store.Incr(ctx, counter)
	if err != nil {
		return false, 0, err // the proxy answers 503: a limit it cannot check is not waived
	}
	if count == 1 {
		if err := l.store.Expire(ctx, counter, l.per); err != nil {
			return false, 0, err
		}
	}
	if count > l.n {
		return false, window.Add(l.per).Sub(now), nil
	}
	return true, 0, nil
}

// memoryCounters stands in for Redis.
type memoryCounters struct {
	mu sync.Mutex
	n  map[string]int64
}

func (m *memoryCounters) Incr(_ context.Context, key string) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n[key]++
	return m.n[key], nil
}

func (m *memoryCounters) Expire(context.Context, string, time.Duration) error { return nil }

// A limit shared by every replica of a backend: the proxy's limiter backed
// by a counter store. With Redis, use the module
// github.com/docsagent/mintlify-go/redislimit instead: its
// redislimit.New(rdb, 20, time.Minute) is the proxy's default limit,
// shared by every replica.
func ExampleWithProxyLimiter() {
	a, done := assistantOnMock()
	defer done()

	shared := &memoryCounters{n: map[string]int64{}}
	var replicas []*mintlify.AssistantProxy
	for range 2 {
		p, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyLimiter(windowLimiter{store: shared, n: 2, per: time.Hour}))
		if err != nil {
			panic(err)
		}
		replicas = append(replicas, p)
	}
	for i := range 3 {
		req := httptest.NewRequest(http.MethodPost, "/api/chat", strings.NewReader(
			`{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}]}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		replicas[i%2].ServeHTTP(rec, req) // the load balancer alternates
		fmt.Println(rec.Code)
	}
	// Output:
	// 200
	// 200
	// 429
}
