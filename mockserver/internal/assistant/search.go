package assistant

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
)

// The score's parameters (see the package doc for the formula).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Bounds of a search.
const (
	DefaultPageSize       = 10
	MaxPageSize           = 50
	MaxQueryTerms         = 64   // distinct terms of a query that count; the rest are ignored
	MaxResultContentBytes = 4096 // a result's paragraph is cut beyond this
)

// Filter narrows a search to pages a request may see and asked for.
type Filter struct {
	Version  string   `json:"version,omitempty"`
	Language string   `json:"language,omitempty"`
	Tag      string   `json:"tag,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

func (f *Filter) admits(p *Page) bool {
	return (f.Version == "" || p.Version == f.Version) &&
		(f.Language == "" || p.Language == f.Language) &&
		(f.Tag == "" || slices.Contains(p.Tags, f.Tag)) &&
		visible(p, f.Groups)
}

// SearchRequest is the search route's body. Nil pointers are absent
// fields: PageSize then is DefaultPageSize and there is no threshold.
type SearchRequest struct {
	Query          string   `json:"query"`
	PageSize       *int     `json:"pageSize,omitempty"`
	ScoreThreshold *float64 `json:"scoreThreshold,omitempty"`
	Filter         Filter   `json:"filter"`
}

// Result is one page found, as the search route answers it (and as the
// answer's search step outputs it).
type Result struct {
	Path     string   `json:"path"`
	Content  string   `json:"content"`
	Metadata Metadata `json:"metadata"`
}

// Metadata describes a result's page and its score.
type Metadata struct {
	Title    string   `json:"title"`
	Score    float64  `json:"score"`
	Version  string   `json:"version,omitempty"`
	Language string   `json:"language,omitempty"`
	Tags     []string `json:"tags,omitempty"`
}

// Search ranks the pages of domain for req: best first, ties by path. An
// unknown domain, or a query of stop words only, finds nothing.
func (s *Store) Search(domain string, req SearchRequest) ([]Result, error) {
	var bad problems
	if strings.TrimSpace(req.Query) == "" {
		bad.add("query is required")
	}
	size := DefaultPageSize
	if req.PageSize != nil {
		size = *req.PageSize
		if size < 1 || size > MaxPageSize {
			bad.add("pageSize must be between 1 and %d, got %d", MaxPageSize, size)
		}
	}
	var threshold float64
	if t := req.ScoreThreshold; t != nil {
		threshold = *t
		if !(threshold >= 0 && threshold <= 1) { // NaN too
			bad.add("scoreThreshold must be between 0 and 1, got %v", threshold)
		}
	}
	if err := bad.err(); err != nil {
		return nil, err
	}
	return s.search(domain, req.Query, &req.Filter, size, threshold), nil
}

func (s *Store) search(domain, query string, f *Filter, size int, threshold float64) []Result {
	s.pagesMu.RLock()
	defer s.pagesMu.RUnlock()
	out := []Result{} // [] rather than null on the wire
	st := s.sites[domainKey(domain)]
	terms := queryTerms(query)
	if st == nil || len(terms) == 0 {
		return out
	}
	// The corpus is the pages the request may see: a hidden page changes
	// no visible score.
	var corpus []*page
	total := 0
	for _, p := range st.pages {
		if f.admits(&p.Page) {
			corpus = append(corpus, p)
			total += p.length
		}
	}
	if len(corpus) == 0 {
		return out
	}
	idf := make(map[string]float64, len(terms))
	for _, t := range terms {
		df := 0
		for _, p := range corpus {
			if p.terms[t] > 0 {
				df++
			}
		}
		idf[t] = math.Log(1 + (float64(len(corpus)-df)+0.5)/(float64(df)+0.5))
	}
	avg := float64(total) / float64(len(corpus))
	type hit struct {
		p     *page
		score float64
	}
	var hits []hit
	best := 0.0
	for _, p := range corpus {
		if sc := bm25(terms, idf, p.terms, p.length, avg); sc > 0 {
			hits = append(hits, hit{p, sc})
			best = max(best, sc)
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(a.p.Path, b.p.Path))
	})
	for _, h := range hits {
		norm := h.score / best
		if norm < threshold || len(out) == size {
			break
		}
		out = append(out, Result{
			Path:    h.p.Path,
			Content: cut(bestParagraph(h.p.Content, terms, idf), MaxResultContentBytes),
			Metadata: Metadata{Title: h.p.Title, Score: norm, Version: h.p.Version, Language: h.p.Language,
				Tags: slices.Clone(h.p.Tags)},
		})
	}
	return out
}

// bm25 is the Okapi BM25 score of a document of length dl with term
// frequencies tf, among documents of average length avg.
func bm25(terms []string, idf map[string]float64, tf map[string]int, dl int, avg float64) float64 {
	if avg <= 0 {
		avg = 1
	}
	sc := 0.0
	for _, t := range terms {
		f := float64(tf[t])
		if f > 0 {
			sc += idf[t] * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(dl)/avg))
		}
	}
	return sc
}

// bestParagraph is the paragraph of text that scores best for the terms,
// with the page's IDFs and the page's paragraphs as the documents; the
// first on a tie, and the first when none holds a term (the page matched
// on its title).
func bestParagraph(text string, terms []string, idf map[string]float64) string {
	paras := paragraphs(text)
	if len(paras) == 0 {
		return ""
	}
	tfs := make([]map[string]int, len(paras))
	lens := make([]int, len(paras))
	total := 0
	for i, para := range paras {
		toks := tokens(para)
		tfs[i] = map[string]int{}
		for _, t := range toks {
			tfs[i][t]++
		}
		lens[i] = len(toks)
		total += len(toks)
	}
	avg := float64(total) / float64(len(paras))
	bestAt, best := 0, 0.0
	for i := range paras {
		if sc := bm25(terms, idf, tfs[i], lens[i], avg); sc > best {
			bestAt, best = i, sc
		}
	}
	return paras[bestAt]
}

// paragraphs splits Markdown text at blank lines. A heading alone is
// joined to the paragraph after it, so a result is never a bare title.
func paragraphs(text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) == 0 {
			return
		}
		p := strings.Join(cur, "\n")
		cur = cur[:0]
		if n := len(out); n > 0 && isHeading(out[n-1]) {
			out[n-1] += "\n" + p
			return
		}
		out = append(out, p)
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRight(line, " \t"))
	}
	flush()
	return out
}

func isHeading(p string) bool { return strings.HasPrefix(p, "#") && !strings.Contains(p, "\n") }

// queryTerms are the distinct terms of a query, in order, at most
// MaxQueryTerms of them.
func queryTerms(q string) []string {
	var out []string
	for _, t := range tokens(q) {
		if !slices.Contains(out, t) {
			out = append(out, t)
			if len(out) == MaxQueryTerms {
				break
			}
		}
	}
	return out
}

// tokens are the terms of text: runs of letters and digits, lower-cased,
// stop words dropped and plurals folded (see the package doc).
func tokens(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		w = strings.ToLower(w)
		if _, stop := stopWords[w]; !stop {
			out = append(out, fold(w))
		}
	}
	return out
}

// fold maps a plural to its singular by spelling alone, enough for
// "limits" to find "limit" and "entries" to find "entry".
func fold(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") &&
		!strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// stopWords carry no topic: without them "what is the capital of France"
// would match every page through "what", "is" and "the".
var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`a an the and or but if then than so of to in on at by for with from as into
		about over after before under is are was were be been being am do does did doing have has had having
		i me my you your yours he him his she her it its we us our they them their this that these those
		what which who whom whose when where why how can could should would will shall may might must
		not no nor there here very just also too any some all each both more most other such only own same
		please tell show explain know want need`) {
		m[w] = struct{}{}
	}
	return m
}()
