package mintlify

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// The in-process limit: n a window per client, a steady rate after the
// burst, clients forgotten once back to zero, and a bounded table.
func TestProxyMemoryLimiter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l := newMemoryLimiter(20, time.Minute)
	l.now = func() time.Time { return now }
	ctx := context.Background()
	for i := range 20 {
		if ok, _, _ := l.Allow(ctx, "a"); !ok {
			t.Fatalf("request %d refused", i+1)
		}
	}
	ok, wait, _ := l.Allow(ctx, "a")
	if ok || wait != 3*time.Second {
		t.Fatalf("the 21st: allowed %v, wait %v; want a refusal and 3s", ok, wait)
	}
	if ok, _, _ := l.Allow(ctx, "b"); !ok {
		t.Fatal("another client is counted apart")
	}
	now = now.Add(3 * time.Second)
	if ok, _, _ := l.Allow(ctx, "a"); !ok {
		t.Fatal("one more after 3 seconds")
	}
	now = now.Add(2 * time.Minute)
	l.Allow(ctx, "c")
	if len(l.tat) != 1 {
		t.Fatalf("%d clients kept after a quiet window, want 1 (the new one)", len(l.tat))
	}

	// The table is bounded: a flood of new clients waits.
	for i := range maxProxyLimiterKeys {
		l.Allow(ctx, "flood"+strconv.Itoa(i))
	}
	if ok, _, _ := l.Allow(ctx, "one too many"); ok || len(l.tat) > maxProxyLimiterKeys {
		t.Fatalf("a new client past the bound: allowed %v, %d kept", ok, len(l.tat))
	}
	now = now.Add(2 * time.Minute)
	if ok, _, _ := l.Allow(ctx, "later"); !ok || len(l.tat) != 1 {
		t.Fatalf("after the window: allowed %v, %d kept", ok, len(l.tat))
	}
}

func TestProxyRemoteKey(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"203.0.113.9:5000":              "203.0.113.9",
		"[2001:db8:1:2:3:4:5:6]:443":    "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff:4:5:6]:443": "2001:db8:1:2::/64",
		"[::ffff:203.0.113.9]:1":        "203.0.113.9",
		"pipe":                          "pipe",
	} {
		if got := remoteKey(addr); got != want {
			t.Errorf("remoteKey(%q) = %q, want %q", addr, got, want)
		}
	}
}
