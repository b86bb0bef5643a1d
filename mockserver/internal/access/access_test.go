package access

import (
	"strings"
	"testing"
	"time"
)

// Keys named together on a project form one organization, joined through
// any project they share; the primary key's is org_primary.
func TestKeysThatShareAProjectShareAnOrganization(t *testing.T) {
	b := Build(map[string]map[string]bool{
		"mint_a": {"p1": true},
		"mint_b": {"p2": true},
		"mint_c": {"p1": true, "p2": true}, // joins a's and b's
		"mint_d": {"p3": true},
	}, "mint_a", true, false)
	a, bk, c, d := b.Lookup("mint_a"), b.Lookup("mint_b"), b.Lookup("mint_c"), b.Lookup("mint_d")
	if a.Org != bk.Org || a.Org != c.Org || a.Org == d.Org {
		t.Fatal("organizations not formed by shared projects")
	}
	if a.Org.ID != "org_primary" || !a.Org.Owns("p2") || a.Org.Owns("p3") {
		t.Errorf("primary %s owns p2 %t, p3 %t", a.Org.ID, a.Org.Owns("p2"), a.Org.Owns("p3"))
	}
	if previews, export := b.Features(d.Org); !previews || export {
		t.Errorf("features %t, %t", previews, export)
	}
	if err := b.SetStaticExport("mint_d", true); err != nil {
		t.Fatal(err)
	}
	if _, export := b.Features(d.Org); !export {
		t.Error("SetStaticExport did not switch the key's organization")
	}
	if b.SetStaticExport("mint_nope", true) != ErrUnknownKey {
		t.Error("unknown key")
	}
}

// A key's own rules: expiry first (401), then the address, then the scope.
func TestAKeyIsCheckedForExpiryAddressAndScope(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := Build(map[string]map[string]bool{"mint_a": {"p": true}}, "mint_a", true, true)
	for _, spec := range []struct {
		key  string
		spec Spec
	}{
		{"mint_read", Spec{Scopes: []string{ScopeRead}, AllowIPs: []string{"10.0.0.0/8", "::1"}}},
		{"mint_old", Spec{ExpiresAt: now}},
	} {
		if err := b.Add(spec.key, spec.spec); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		key, method, addr string
		want              Denial
	}{
		{"mint_read", "GET", "10.1.2.3:5", Allowed},
		{"mint_read", "HEAD", "[::1]:5", Allowed},
		{"mint_read", "POST", "10.1.2.3:5", NoScope},
		{"mint_read", "GET", "192.168.0.1:5", NotFromHere},
		{"mint_old", "GET", "10.1.2.3:5", Expired},
		{"mint_a", "DELETE", "anything", Allowed},
	} {
		if got, detail := b.Lookup(c.key).Check(c.method, c.addr, now); got != c.want {
			t.Errorf("%s %s from %s: %d (%s), want %d", c.key, c.method, c.addr, got, detail, c.want)
		}
	}
	if b.Lookup("mint_read").Org != b.Primary() {
		t.Error("a new key joins the primary organization")
	}
}

func TestBadKeysAndSpecsAreRefused(t *testing.T) {
	b := Build(map[string]map[string]bool{"mint_a": {"p": true}}, "mint_a", true, true)
	for key, spec := range map[string]Spec{
		"mint_a b": {}, "other": {}, "mint_": {},
		"mint_x": {Scopes: []string{"admin"}},
		"mint_y": {AllowIPs: []string{"example.com"}},
	} {
		if err := b.Add(key, spec); err == nil {
			t.Errorf("%q %+v accepted", key, spec)
		}
	}
}

// The three kinds of key are told apart by prefix; an assistant key
// belongs to one domain, and only it does; scopes are for admin keys.
func TestKeyKindsAndTheirRules(t *testing.T) {
	b := Build(map[string]map[string]bool{"mint_a": {"p": true}}, "mint_a", true, true)
	for key, want := range map[string]Kind{"mint_a": KindAdmin, "mint_dsc_x": KindAssistant, "mint_us_x": KindIndex, "mint_dscx": KindAdmin, "other": KindAdmin} {
		if got := KindOf(key); got != want {
			t.Errorf("KindOf(%s) = %s, want %s", key, got, want)
		}
	}
	if err := b.Add("mint_dsc_docs", Spec{Domain: "Docs.Example.com"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Add("mint_us_idx", Spec{AllowIPs: []string{"10.0.0.0/8"}}); err != nil {
		t.Fatal(err)
	}
	if k := b.Lookup("mint_dsc_docs"); k.Kind != KindAssistant || k.Domain != "docs.example.com" || k.Org != b.Primary() {
		t.Errorf("assistant key: %+v", k)
	}
	if k := b.Lookup("mint_us_idx"); k.Kind != KindIndex || k.Domain != "" {
		t.Errorf("index key: %+v", k)
	}
	for key, spec := range map[string]Spec{
		"mint_dsc_qqq1": {},
		"mint_us_qqq2":  {Domain: "docs.example.com"},
		"mint_qqq3":     {Domain: "docs.example.com"},
		"mint_dsc_qqq4": {Domain: "d", Scopes: []string{ScopeRead}},
		"mint_us_qqq5":  {Scopes: []string{ScopeWrite}},
	} {
		err := b.Add(key, spec)
		if err == nil {
			t.Errorf("%s %+v accepted", key, spec)
			continue
		}
		if strings.Contains(err.Error(), "qqq") {
			t.Errorf("the error repeats the key: %v", err)
		}
	}
	if !b.IndexAccess(b.Primary()) {
		t.Error("organizations start with Index access")
	}
	b.SetIndexAccess(false)
	if b.IndexAccess(b.Primary()) {
		t.Error("SetIndexAccess(false) left the access")
	}
}
