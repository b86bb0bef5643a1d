// Command assistant-chat serves a minimal chat page and, at /api/chat, the
// SDK's assistant proxy: the browser talks to your server, your server to
// the assistant API with the key, which never reaches the browser. The
// page is plain HTML and a little JavaScript that reads the answer's
// stream with fetch; no build step. With MINTLIFY_ASSISTANT_API_KEY unset
// it answers from the bundled mock server.
//
//	go run ./examples/assistant-chat                      # then open http://127.0.0.1:8080/
//	MINTLIFY_ASSISTANT_API_KEY=mint_dsc_... MINTLIFY_DOMAIN=docs.example.com go run ./examples/assistant-chat
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
	"strings"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/examples/internal/demo"
	"github.com/docsagent/mintlify-go/mockserver"
)

//go:embed static
var static embed.FS

func main() {
	var addr string
	demo.Main("assistant-chat", 0,
		func(args []string, errOut io.Writer) (err error) {
			addr, err = parse(args, errOut)
			return err
		},
		func(ctx context.Context) error { return run(ctx, addr, os.Stderr) })
}

func parse(args []string, errOut io.Writer) (string, error) {
	fs := flag.NewFlagSet("assistant-chat", flag.ContinueOnError)
	fs.SetOutput(errOut)
	addr := fs.String("addr", "127.0.0.1:8080", "the address to serve the chat page on")
	demo.Usage(fs, "assistant-chat [-addr HOST:PORT]", `
Serves a chat page and the assistant proxy at /api/chat. With
MINTLIFY_ASSISTANT_API_KEY unset it answers from the bundled mock server;
with a key (and MINTLIFY_DOMAIN) from your docs site's assistant.`)
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments %q", fs.Args())
		fmt.Fprintln(errOut, "assistant-chat:", err)
		fs.Usage()
		return "", err
	}
	return *addr, nil
}

// connect is the assistant client of MINTLIFY_ASSISTANT_API_KEY and
// MINTLIFY_DOMAIN or, only when the key is unset, of the bundled mock
// server, which it says on log. A key set but empty is an error: never a
// silent fallback to the mock.
func connect(log io.Writer) (*mintlify.AssistantClient, func(), error) {
	if key, set := os.LookupEnv(mintlify.EnvAssistantAPIKey); set {
		if strings.TrimSpace(key) == "" {
			return nil, nil, fmt.Errorf("%w: %s is set but empty: set it to an assistant key (mint_dsc_...), or unset it to use the bundled mock server",
				mintlify.ErrInvalidInput, mintlify.EnvAssistantAPIKey)
		}
		a, err := mintlify.NewAssistantClient(mintlify.WithUserAgent("assistant-chat"))
		return a, func() {}, err
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
	return a, mock.Close, nil
}

// handler serves the page and the proxy. The proxy's defaults fit a page
// served from the same host: only that origin may post, 20 messages a
// minute per address. A backend with sessions would add
// mintlify.WithProxyIdentity, so that fp and the user's groups come from
// the session.
func handler(a *mintlify.AssistantClient) (http.Handler, error) {
	proxy, err := mintlify.NewAssistantProxy(a)
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

func run(ctx context.Context, addr string, log io.Writer) error {
	a, stop, err := connect(log)
	if err != nil {
		return err
	}
	defer stop()
	h, err := handler(a)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	// No ReadTimeout or WriteTimeout: an answer streams for as long as the
	// model writes, and the proxy bounds a body that stalls and a browser
	// that stops reading on its own.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	fmt.Fprintf(log, "chat at http://%s/ (Ctrl-C to stop)\n", ln.Addr())
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
