// Command assistant-chat serves a minimal chat page and, at /api/chat, the
// SDK's assistant proxy: the browser talks to your server, your server to
// the assistant API with the key, which never reaches the browser. The
// page is plain HTML and a little JavaScript that reads the answer's
// stream with fetch and renders its Markdown; no build step, and nothing
// that needs HTTPS, so it works over plain HTTP on any host name you
// allow. With MINTLIFY_ASSISTANT_API_KEY unset it answers from the bundled
// mock server.
//
//	go run ./examples/assistant-chat                      # then open http://127.0.0.1:8080/
//	go run ./examples/assistant-chat -addr :8080 -origin http://chat.internal:8080
//	MINTLIFY_ASSISTANT_API_KEY=mint_dsc_... MINTLIFY_DOMAIN=docs.example.com go run ./examples/assistant-chat
//
// Origins: the proxy answers only pages of the origins it is given
// (mintlify.WithAllowedOrigins), here the -origin flags, by default the
// address it listens on and, on loopback, localhost too. A browser sends
// its page's origin with every POST; any other origin is refused (403),
// so another site cannot spend your credits through your visitors'
// browsers, nor reach the proxy by pointing a name of its own at your
// address (DNS rebinding), which the proxy's default check, the request's
// own Host, would let through. Name every origin your page is served at.
//
// The limit: the proxy allows each client 20 messages a minute, and by
// default a client is the address the connection comes from. Behind a
// reverse proxy (nginx, a load balancer), every connection comes from the
// reverse proxy, so all your visitors would share one limit: the
// identity's RateKey names whom the limit counts instead. Here
// -rate-key-header names the header your reverse proxy sets to the
// visitor's address (X-Real-IP, say); a backend with sessions would give
// the user's ID. Trust such a header only behind a reverse proxy that
// overwrites it: a client reaching the server directly writes its own.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
	"github.com/docsagent/mintlify-go/mockserver"
)

//go:embed static
var static embed.FS

func main() {
	var cfg config
	demo.Main("assistant-chat", 0,
		func(args []string, errOut io.Writer) (err error) {
			cfg, err = parse(args, errOut)
			return err
		},
		func(ctx context.Context) error { return run(ctx, cfg, os.Stderr) })
}

// config is what the flags set.
type config struct {
	addr          string   // where to listen
	origins       []string // the page's origins; none: those of addr
	rateKeyHeader string   // the header a reverse proxy sets to the visitor's address; "": count by connection
}

func parse(args []string, errOut io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("assistant-chat", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "the address to serve the chat page on")
	fs.Func("origin", "an origin the page is served at, such as http://chat.internal:8080 (repeat for several; default: the -addr's, and localhost's on loopback)", func(o string) error {
		cfg.origins = append(cfg.origins, o)
		return nil
	})
	fs.StringVar(&cfg.rateKeyHeader, "rate-key-header", "", "behind a reverse proxy, the header it sets to the visitor's address (X-Real-IP): the limit counts each visitor, not the reverse proxy")
	demo.Usage(fs, "assistant-chat [-addr HOST:PORT] [-origin URL]... [-rate-key-header NAME]", `
Serves a chat page and the assistant proxy at /api/chat. With
MINTLIFY_ASSISTANT_API_KEY unset it answers from the bundled mock server;
with a key (and MINTLIFY_DOMAIN) from your docs site's assistant.`)
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments %q", fs.Args())
		fmt.Fprintln(errOut, "assistant-chat:", err)
		fs.Usage()
		return config{}, err
	}
	return cfg, nil
}

// originsAt is the origins the page may call the proxy from: cfg's, else
// the listener's address, with localhost beside a loopback address and
// both loopback names for an unspecified one (":8080").
func (cfg config) originsAt(addr net.Addr) []string {
	if len(cfg.origins) > 0 {
		return cfg.origins
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return []string{"http://" + addr.String()}
	}
	port := strconv.Itoa(tcp.Port)
	switch {
	case tcp.IP.IsUnspecified():
		return []string{"http://127.0.0.1:" + port, "http://localhost:" + port}
	case tcp.IP.IsLoopback():
		return []string{"http://" + net.JoinHostPort(tcp.IP.String(), port), "http://localhost:" + port}
	}
	return []string{"http://" + net.JoinHostPort(tcp.IP.String(), port)}
}

// connect is the assistant client of MINTLIFY_ASSISTANT_API_KEY and
// MINTLIFY_DOMAIN or, only when the key is unset, of the bundled mock
// server, which it says on log and returns (the caller closes it). A key
// set but empty is an error: never a silent fallback to the mock.
func connect(log io.Writer) (*mintlify.AssistantClient, *mockserver.Server, error) {
	if key, set := os.LookupEnv(mintlify.EnvAssistantAPIKey); set {
		if strings.TrimSpace(key) == "" {
			return nil, nil, fmt.Errorf("%w: %s is set but empty: set it to an assistant key (mint_dsc_...), or unset it to use the bundled mock server",
				mintlify.ErrInvalidInput, mintlify.EnvAssistantAPIKey)
		}
		a, err := mintlify.NewAssistantClient(mintlify.WithUserAgent("assistant-chat"))
		return a, nil, err
	}
	mock := mockserver.New(mockserver.WithStreamDelay(30 * time.Millisecond))
	fmt.Fprintf(log, "%s is unset: answering from the bundled mock server at %s (site %s)\n",
		mintlify.EnvAssistantAPIKey, mock.URL(), mock.Domain())
	a, err := mintlify.NewAssistantClient(mintlify.WithAPIKey(mock.AssistantKey()), mintlify.WithDomain(mock.Domain()),
		mintlify.WithBaseURL(mock.URL()+"/discovery"), mintlify.WithUserAgent("assistant-chat"))
	if err != nil {
		mock.Close()
		return nil, nil, err
	}
	return a, mock, nil
}

// handler serves the page and the proxy: only pages of origins may post,
// 20 messages a minute per client (by rateKeyHeader's value when set,
// else by address). A backend with sessions would give
// mintlify.WithProxyIdentity the user's ID as RateKey, and fp and the
// user's groups from the session.
func handler(a *mintlify.AssistantClient, origins []string, rateKeyHeader string) (http.Handler, error) {
	opts := []mintlify.ProxyOption{mintlify.WithAllowedOrigins(origins...)}
	if rateKeyHeader != "" {
		opts = append(opts, mintlify.WithProxyIdentity(func(r *http.Request) (mintlify.ProxyIdentity, error) {
			// The reverse proxy's word for the visitor's address; "" (a
			// request that did not pass it) counts by the connection.
			return mintlify.ProxyIdentity{RateKey: r.Header.Get(rateKeyHeader)}, nil
		}))
	}
	proxy, err := mintlify.NewAssistantProxy(a, opts...)
	if err != nil {
		return nil, err
	}
	pages, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	files := http.FileServerFS(pages)
	mux := http.NewServeMux()
	mux.Handle("POST /api/chat", proxy)
	mux.Handle("OPTIONS /api/chat", proxy) // a preflight, if another origin is ever allowed
	mux.Handle("GET /", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		files.ServeHTTP(w, r)
	}))
	return mux, nil
}

func run(ctx context.Context, cfg config, log io.Writer) error {
	a, mock, err := connect(log)
	if err != nil {
		return err
	}
	if mock != nil {
		defer mock.Close()
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	return serve(ctx, ln, cfg, a, log)
}

// serve serves the page and the proxy on ln until ctx ends, then lets the
// answers under way finish (for up to 5 seconds).
func serve(ctx context.Context, ln net.Listener, cfg config, a *mintlify.AssistantClient, log io.Writer) error {
	origins := cfg.originsAt(ln.Addr())
	h, err := handler(a, origins, cfg.rateKeyHeader)
	if err != nil {
		ln.Close()
		return err
	}
	// No ReadTimeout or WriteTimeout: an answer streams for as long as the
	// model writes, and the proxy bounds a body that stalls and a browser
	// that stops reading on its own.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	fmt.Fprintf(log, "chat at http://%s/ for pages of %s (Ctrl-C to stop)\n", ln.Addr(), strings.Join(origins, ", "))
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-done // the answers under way have ended
	return nil
}
