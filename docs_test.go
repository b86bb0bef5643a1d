package mintlify_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocLinks: every relative link of every Markdown document in the
// repository names a file or folder that exists, and every #anchor a
// heading (or an id="...") of the document it points into, as GitHub
// renders them.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	var docs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules"):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".md"):
			docs = append(docs, path)
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, docs, "README.md")
	require.Contains(t, docs, filepath.Join("docs", "mock.md"))

	anchors := map[string]map[string]bool{} // by document
	anchorsOf := func(doc string) map[string]bool {
		if a, ok := anchors[doc]; ok {
			return a
		}
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		anchors[doc] = docAnchors(string(data))
		return anchors[doc]
	}
	links := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, target := range docLinks(string(data)) {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, fragment, _ := strings.Cut(target, "#")
			into := doc
			if path != "" {
				into = filepath.Join(filepath.Dir(doc), filepath.FromSlash(path))
				if _, err := os.Stat(into); err != nil {
					t.Errorf("%s: link %q: no %s", doc, target, into)
					continue
				}
			}
			if fragment != "" && strings.HasSuffix(into, ".md") && !anchorsOf(into)[fragment] {
				t.Errorf("%s: link %q: %s has no heading for #%s", doc, target, into, fragment)
			}
		}
	}
	t.Logf("%d relative links in %d documents", links, len(docs))
}

var (
	// mdLink is an inline link or image, [text](target "title"), or a
	// reference definition, [label]: target.
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)|(?m)^\s*\[[^\]]+\]:\s+(\S+)`)
	codeSpan = regexp.MustCompile("`+[^`]*`+")
	htmlID   = regexp.MustCompile(`\bid="([^"]+)"`)
	// headingLink is a link in a heading's text: only its text counts.
	headingLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// docLinks returns the link targets of a Markdown document, outside code
// blocks and code spans.
func docLinks(doc string) []string {
	var targets []string
	inCode := false
	for line := range strings.Lines(doc) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			targets = append(targets, m[1]+m[2])
		}
	}
	return targets
}

// docAnchors returns the anchors of a Markdown document: its headings'
// as GitHub makes them (the text lower-cased, punctuation dropped, spaces
// made hyphens, a repeated one numbered), and its id="..." attributes.
func docAnchors(doc string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	inCode := false
	for line := range strings.Lines(doc) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		for _, m := range htmlID.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		text, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		text = headingLink.ReplaceAllString(text, "$1")
		var slug strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				slug.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		s := slug.String()
		if n := seen[s]; n > 0 {
			anchors[s+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[s] = true
		}
		seen[s]++
	}
	return anchors
}

// TestDocAnchors: the anchors are GitHub's.
func TestDocAnchors(t *testing.T) {
	t.Parallel()
	got := docAnchors("# mintlify-go\n## A short tour\n### `-seed N`: the synthetic data set\n" +
		"## Bounds: what an answer may cost\n## The API's JSON\n## In CI\n## In CI\n" +
		"```sh\n# not a heading\n```\n## [Links](x.md) and `code`\n<a id=\"kept\"></a>\n")
	for _, want := range []string{"mintlify-go", "a-short-tour", "-seed-n-the-synthetic-data-set",
		"bounds-what-an-answer-may-cost", "the-apis-json", "in-ci", "in-ci-1", "links-and-code", "kept"} {
		assert.True(t, got[want], "%s in %v", want, got)
	}
	assert.False(t, got["not-a-heading"])
	assert.Equal(t, []string{"docs/x.md#a", "y.md", "https://e.com"},
		docLinks("see [x](docs/x.md#a) and ![y](y.md \"t\"), `[no](z.md)`\n```\n[no](w.md)\n```\n[ref]: https://e.com\n"))
}
