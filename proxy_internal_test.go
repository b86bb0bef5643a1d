package mintlify

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
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

// FuzzProxyChunk: whatever an event holds, the proxy relays a chunk only
// when it is a JSON object with a non-empty string type, and then writes
// one data line of valid JSON that reads, member by member, as the event
// read by a JSON parser that keeps the last of a repeated member (as the
// browser's JSON.parse does), less the members its type's schema leaves
// out.
func FuzzProxyChunk(f *testing.F) {
	f.Add([]byte(`{"type":"text-delta","id":"t","delta":"Hi","threadId":"x"}`))
	f.Add([]byte(`{"type":"finish","finishReason":"unknown","finishReason":"stop"}`))
	f.Add([]byte("{\"typ\\u0065\" : \"x-future\",\n\"a\":[1,{\"b\":\"}\"}],\"a\":null, \"c\":-1.5e3}"))
	f.Add([]byte(`{"type":"data-x","data":{"k":"v"},"x":true}`))
	f.Add([]byte(`{"type":5}`))
	f.Add([]byte(`[{"type":"finish"}]`))
	f.Add([]byte(`{"type":"a","\"":"\\","<":">"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c proxyChunk
		ok := c.parse(data)
		var members map[string]json.RawMessage
		isObject := json.Unmarshal(data, &members) == nil && members != nil
		var typ string
		typed := isObject && json.Unmarshal(members["type"], &typ) == nil && typ != "" && members["type"][0] == '"'
		if ok != (typed && len(members) <= maxProxyChunkMembers) {
			t.Fatalf("parse = %v for %q (an object with a string type: %v, %d members)", ok, data, typed, len(members))
		}
		if !ok {
			return
		}
		frame := string(c.appendFrame(nil))
		body, found := strings.CutPrefix(frame, "data: ")
		body, ended := strings.CutSuffix(body, "\n\n")
		if !found || !ended || strings.ContainsAny(body, "\r\n") {
			t.Fatalf("not one data line: %q", frame)
		}
		var out map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		allowed, known := proxyChunkMembers[typ]
		if !known && strings.HasPrefix(typ, "data-") {
			allowed, known = proxyChunkMembers["data-"], true
		}
		for name, v := range members {
			got, kept := out[name]
			switch {
			case !kept && (name == "type" || !known || slices.Contains(allowed, name)) && !(typ == "finish" && name == "finishReason"):
				t.Fatalf("%q lost member %q", body, name)
			case kept && !jsonEqual(t, got, v):
				t.Fatalf("member %q: %s, want %s", name, got, v)
			}
		}
		for name := range out {
			if _, in := members[name]; !in {
				t.Fatalf("%q: member %q came from nowhere", body, name)
			}
		}
	})
}

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatalf("not JSON: %s or %s", a, b)
	}
	return reflect.DeepEqual(x, y)
}
