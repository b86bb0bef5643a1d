package openapicheck

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Allowed is a difference the project knows of, and the reason it stays.
// Each field left empty matches anything.
type Allowed struct {
	Kind   Kind
	Method string
	// Route is a route pattern: a literal segment matches itself, a
	// "{name}" segment any one segment, and a last segment "*" any rest.
	Route    string
	Statuses []int
	Detail   string // a piece of the difference's detail
	Reason   string // why the mock or the SDK differs here (required)
}

// String is the entry as a test's message names it: its kind, route,
// statuses and detail.
func (a Allowed) String() string {
	s := string(a.Kind)
	if a.Method != "" || a.Route != "" {
		s += ": " + strings.TrimSpace(a.Method+" "+a.Route)
	}
	if len(a.Statuses) > 0 {
		s += fmt.Sprint(" ", a.Statuses)
	}
	if a.Detail != "" {
		s += fmt.Sprintf(" (%q)", a.Detail)
	}
	return s
}

func (a Allowed) matches(d Difference) bool {
	return (a.Kind == "" || a.Kind == d.Kind) &&
		(a.Method == "" || a.Method == d.Method) &&
		(a.Route == "" || RouteMatches(a.Route, d.Route)) &&
		(len(a.Statuses) == 0 || slices.Contains(a.Statuses, d.Status)) &&
		strings.Contains(d.Detail, a.Detail)
}

// Allowlist is a list of known differences that counts what each one
// accepted, so that an entry nothing needs any more shows.
type Allowlist struct {
	mu      sync.Mutex
	entries []Allowed
	hits    []int
}

// NewAllowlist makes an allowlist of entries, each of which must give its
// reason and name a kind.
func NewAllowlist(entries ...Allowed) (*Allowlist, error) {
	var errs []error
	for _, e := range entries {
		if strings.TrimSpace(e.Reason) == "" || e.Kind == "" {
			errs = append(errs, fmt.Errorf("openapicheck: allowlist entry %s: give its kind and its reason", e))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &Allowlist{entries: entries, hits: make([]int, len(entries))}, nil
}

// Allows reports whether an entry accepts d, and counts it for the first
// entry that does.
func (a *Allowlist) Allows(d Difference) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, e := range a.entries {
		if e.matches(d) {
			a.hits[i]++
			return true
		}
	}
	return false
}

// Hits reports how many differences each entry accepted, in the order of
// the entries.
func (a *Allowlist) Hits() []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.hits)
}

// Unused lists the entries that accepted nothing: each is stale.
func (a *Allowlist) Unused() []Allowed {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Allowed
	for i, e := range a.entries {
		if a.hits[i] > 0 {
			continue
		}
		out = append(out, e)
	}
	return out
}

// RouteMatches reports whether route fits pattern: segment by segment, a
// "{name}" segment of either matching any one non-empty segment, and a
// last pattern segment "*" matching whatever rest route has.
func RouteMatches(pattern, route string) bool {
	ps, rs := strings.Split(pattern, "/"), strings.Split(route, "/")
	for i, p := range ps {
		if i >= len(rs) {
			return false
		}
		if p == "*" && i == len(ps)-1 {
			return true
		}
		r := rs[i]
		switch {
		case isParam(p) || isParam(r):
			if r == "" || p == "" {
				return false
			}
		case p != r:
			return false
		}
	}
	return len(ps) == len(rs)
}

func isParam(seg string) bool {
	return len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}'
}
