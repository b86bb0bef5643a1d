package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const stored = "../../../testdata/openapi"

// newer copies the stored documents to a folder, each through edit (by
// file name) when one is given; an edit that returns nil leaves the file
// out.
func newer(t *testing.T, edits map[string]func(doc map[string]any) map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	files, err := filepath.Glob(filepath.Join(stored, "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 6)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		if edit, ok := edits[filepath.Base(f)]; ok {
			var doc map[string]any
			require.NoError(t, json.Unmarshal(b, &doc))
			if doc = edit(doc); doc == nil {
				continue
			}
			b, err = json.MarshalIndent(doc, "", "  ")
			require.NoError(t, err)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644))
	}
	return dir
}

// at walks a decoded document by keys.
func at(doc map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		doc = doc[k].(map[string]any)
	}
	return doc
}

func specdiff(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String() + errOut.String(), code
}

func TestUnchangedDocumentsShowNoChange(t *testing.T) {
	t.Parallel()
	out, code := specdiff(t, "-stored", stored, newer(t, nil))
	assert.Equal(t, 0, code, out)
	assert.Equal(t, "no change\n", out)
}

func TestChangesAreListedByDocument(t *testing.T) {
	t.Parallel()
	dir := newer(t, map[string]func(map[string]any) map[string]any{
		"admin-openapi.json": func(doc map[string]any) map[string]any {
			job := at(doc, "components", "schemas", "AgentJob", "properties")
			delete(job, "model")
			status := job["status"].(map[string]any)
			status["enum"] = append(status["enum"].([]any), "paused")
			return doc
		},
		"deployments-openapi.json": func(doc map[string]any) map[string]any {
			at(doc, "paths")["/project/rollback/{projectId}"] = map[string]any{"post": map[string]any{
				"parameters": []any{map[string]any{"name": "projectId", "in": "path", "required": true, "schema": map[string]any{"type": "string"}}},
				"responses":  map[string]any{"202": map[string]any{"description": "queued"}},
			}}
			return doc
		},
		"analytics.openapi.json": func(doc map[string]any) map[string]any {
			at(doc, "paths", "/v1/analytics/{projectId}/visitors", "get", "responses")["429"] = map[string]any{"description": "limited"}
			return doc
		},
		"discovery-openapi.json": func(doc map[string]any) map[string]any {
			delete(at(doc, "paths"), "/v1/assistant/{domain}/message")
			return doc
		},
		"index-openapi.json": func(map[string]any) map[string]any { return nil },
	})
	out, code := specdiff(t, "-stored", stored, dir)
	assert.Equal(t, 1, code, out)
	for _, want := range []string{
		"admin-openapi.json:\n",
		"  - GET /v2/agent/{projectId}/job/{id} 200 member model: string\n",
		`  + GET /v2/agent/{projectId}/job/{id} 200 enum status: "paused"` + "\n",
		"deployments-openapi.json:\n",
		"  + route POST /v1/project/rollback/{projectId}\n",
		"  + status POST /v1/project/rollback/{projectId} 202\n",
		"  + status GET /v1/analytics/{projectId}/visitors 429\n",
		"  - route POST /discovery/v1/assistant/{domain}/message\n",
		"index-openapi.json: removed",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "static-export-openapi.json", "an unchanged document is not listed")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		assert.Regexp(t, `^(  [-+] |[a-z.-]+\.json:( |$))`, l)
	}
}

func TestAFolderOfNoDocumentsIsAUsageError(t *testing.T) {
	t.Parallel()
	out, code := specdiff(t, "-stored", stored, t.TempDir())
	assert.Equal(t, 2, code)
	assert.Contains(t, out, "no *.json document")
	_, code = specdiff(t)
	assert.Equal(t, 2, code, "no NEWDIR")
}

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
