package main

// Red-team tests of specdiff against a hostile (or merely recursive) newer
// document.

import (
	"strings"
	"testing"
	"time"
)

// TestARecursiveSchemaEndsPromptly: a newer document whose schema refers
// to itself from three members (a tree whose node has children, parent
// and next, say) is compared at once: each member once, the recursion cut
// where it repeats. Cut at a depth of 16 only, it cost 3^16 shapes, a walk
// that had not ended after a minute and took gigabytes.
func TestARecursiveSchemaEndsPromptly(t *testing.T) {
	t.Parallel()
	dir := newer(t, map[string]func(map[string]any) map[string]any{
		"index-openapi.json": func(doc map[string]any) map[string]any {
			node := map[string]any{"$ref": "#/components/schemas/Node"}
			at(doc, "components", "schemas")["Node"] = map[string]any{"type": "object",
				"properties": map[string]any{"children": node, "parent": node, "next": node}}
			at(doc, "components", "schemas", "ContextResponse", "properties")["tree"] = node
			return doc
		},
	})
	type result struct {
		out  string
		code int
	}
	done := make(chan result, 1)
	go func() {
		out, code := specdiff(t, "-stored", stored, dir)
		done <- result{out, code}
	}()
	select {
	case r := <-done:
		if r.code != 1 || !strings.Contains(r.out, "  + POST /api/universal-search/v1/context 200 member tree: object\n") ||
			!strings.Contains(r.out, "  + POST /api/universal-search/v1/context 200 member tree.parent: any\n") {
			t.Errorf("exit %d:\n%.3000s", r.code, r.out)
		}
		if n := strings.Count(r.out, "\n"); n > 100 {
			t.Errorf("%d lines for one recursive member", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("specdiff had not ended after 30s")
	}
}
