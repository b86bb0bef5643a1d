package ratelimit

import (
	"testing"
	"time"
)

// A slot given back is free again, and only the one taken at that instant
// goes: the window's other admissions keep their times.
func TestGiveBackFreesTheSlotTakenAtThatInstant(t *testing.T) {
	l := New()
	lim := Limit{N: 2, Per: time.Minute}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, ok := l.Take(1, "org", t0, lim); !ok {
		t.Fatal("first")
	}
	if _, ok := l.Take(1, "org", t0.Add(time.Second), lim); !ok {
		t.Fatal("second")
	}
	l.GiveBack(1, "org", t0) // the older one: the later stays
	l.GiveBack(1, "org", t0.Add(time.Hour))
	l.GiveBack(2, "org", t0)
	l.GiveBack(1, "nobody", t0)
	if _, ok := l.Take(1, "org", t0.Add(2*time.Second), lim); !ok {
		t.Fatal("the slot given back is free")
	}
	wait, ok := l.Take(1, "org", t0.Add(3*time.Second), lim)
	if ok || wait != 58*time.Second {
		t.Errorf("full again until the second admission leaves: %v %t", wait, ok)
	}
}
