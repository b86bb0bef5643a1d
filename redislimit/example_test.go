package redislimit_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
	"github.com/docsagent/mintlify-go/redislimit"
	"github.com/redis/go-redis/v9"
)

// Every replica of a backend gives its proxy a Limiter on the same Redis:
// a client's messages count once, whichever replica serves them.
func Example() {
	redisAddr, stopRedis := redisForExample() // yours: "localhost:6379", say
	defer stopRedis()
	a, stopMock := assistantOnMock()
	defer stopMock()

	var replicas []*mintlify.AssistantProxy
	for range 3 {
		rdb := redis.NewClient(&redis.Options{Addr: redisAddr})
		defer rdb.Close()
		limit, err := redislimit.New(rdb, 2, time.Hour) // (rdb, 20, time.Minute) is the proxy's default
		if err != nil {
			panic(err)
		}
		proxy, err := mintlify.NewAssistantProxy(a, mintlify.WithProxyLimiter(limit))
		if err != nil {
			panic(err)
		}
		replicas = append(replicas, proxy)
	}
	for i := range 4 {
		req := httptest.NewRequest(http.MethodPost, "/api/chat", strings.NewReader(
			`{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"What are the rate limits?"}]}]}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		replicas[i%3].ServeHTTP(rec, req) // the load balancer takes turns
		fmt.Println(rec.Code, "Retry-After", rec.Header().Values("Retry-After"))
	}
	// Output:
	// 200 Retry-After []
	// 200 Retry-After []
	// 429 Retry-After [1800]
	// 429 Retry-After [1800]
}

// redisForExample starts a redis-server of the example's own.
func redisForExample() (addr string, stop func()) {
	s, err := launchRedis()
	if err != nil {
		panic(err)
	}
	return s.addr, func() {
		s.stop()
		_ = os.RemoveAll(s.dir)
	}
}

// assistantOnMock is an assistant client of the bundled mock server.
func assistantOnMock() (*mintlify.AssistantClient, func()) {
	mock := mockserver.New()
	a, err := mintlify.NewAssistantClient(
		mintlify.WithAPIKey(mock.AssistantKey()),
		mintlify.WithDomain(mock.Domain()),
		mintlify.WithBaseURL(mock.URL()+"/discovery"),
	)
	if err != nil {
		panic(err)
	}
	return a, mock.Close
}
