package redislimit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestMain needs redis-server (the Debian package): without it, a local
// run skips every test and example and says so, and a run under CI=true
// fails.
func TestMain(m *testing.M) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "redislimit: FAIL: redis-server not found, and CI=true needs it (apt-get install redis-server)")
			os.Exit(1)
		}
		fmt.Println("redislimit: SKIP: every test and example needs redis-server, which is not installed (apt-get install redis-server)")
		os.Exit(0)
	}
	redis.SetLogger(quiet{}) // the tests stop Redis on purpose: no log of each failed dial
	os.Exit(m.Run())
}

// redisServer is a redis-server process on a loopback port, with nothing
// saved to disk.
type redisServer struct {
	addr string
	dir  string // its working directory, empty: nothing is saved

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	log    bytes.Buffer
}

// startRedis starts a redis-server of the test's own, stopped when the
// test ends: each test counts from nothing, whatever the others did.
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	s, err := launchRedis()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.stop()
		_ = os.RemoveAll(s.dir)
	})
	return s
}

// launchRedis starts redis-server on a free loopback port: one the kernel
// picked a moment ago, tried again with a new one (at most 5 times) if
// another process took it in between.
func launchRedis() (*redisServer, error) {
	dir, err := os.MkdirTemp("", "redislimit-")
	if err != nil {
		return nil, err
	}
	for range 5 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		addr := l.Addr().String()
		_ = l.Close()
		s := &redisServer{addr: addr, dir: dir}
		if err = s.start(); err == nil {
			return s, nil
		}
	}
	_ = os.RemoveAll(dir)
	return nil, errors.New("redis-server did not start on a free loopback port in 5 tries")
}

// start runs redis-server on s.addr and waits until it answers PING (at
// most 10 seconds).
func (s *redisServer) start() error {
	_, port, _ := net.SplitHostPort(s.addr)
	s.mu.Lock()
	defer s.mu.Unlock()
	cmd := exec.Command("redis-server", "--port", port, "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--daemonize", "no", "--logfile", "")
	s.log.Reset()
	cmd.Stdout, cmd.Stderr = &s.log, &s.log
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.cmd, s.exited = cmd, exited

	rdb := redis.NewClient(&redis.Options{Addr: s.addr, MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer rdb.Close()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		select {
		case <-exited:
			return fmt.Errorf("redis-server on %s exited: %s", s.addr, s.log.String())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	<-exited
	return fmt.Errorf("redis-server on %s did not answer PING in 10s", s.addr)
}

// freeze stops redis-server without ending it (SIGSTOP): it holds its
// connections and answers nothing, as a stalled server does, until thaw.
func (s *redisServer) freeze(t *testing.T) {
	t.Helper()
	s.signal(t, syscall.SIGSTOP)
}

// thaw lets a frozen redis-server go on (SIGCONT).
func (s *redisServer) thaw(t *testing.T) {
	t.Helper()
	s.signal(t, syscall.SIGCONT)
}

func (s *redisServer) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// stop ends redis-server (SIGTERM, then SIGKILL after 5 seconds) and waits
// for it to be gone.
func (s *redisServer) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGCONT) // were it frozen
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
}

// client is a go-redis client of s, closed when the test ends.
func (s *redisServer) client(t testing.TB) *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: s.addr})
	t.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// quiet is a go-redis logger that writes nothing.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
