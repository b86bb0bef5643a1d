package index

import (
	"math"
	"strings"
	"unicode"
)

// The text score is Okapi BM25 with the usual constants, over a page's
// title (counted twice: a word in the title says more than one in the
// body), its breadcrumbs and its text. Inverse document frequencies come
// from the whole corpus, whatever the filters, so a filter changes which
// pages answer but never how a page scores against another.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25 holds the corpus statistics, computed once.
type bm25 struct {
	terms  []map[string]int // per page: term -> occurrences
	length []int            // per page: terms counted
	avgLen float64
	idf    map[string]float64
}

func newBM25(pages []Page) *bm25 {
	m := &bm25{idf: map[string]float64{}}
	df := map[string]int{}
	total := 0
	for _, p := range pages {
		words := tokens(p.Title)
		words = append(words, words...)
		words = append(words, tokens(strings.Join(p.Breadcrumbs, " "))...)
		words = append(words, tokens(p.Text)...)
		tf := map[string]int{}
		for _, w := range words {
			tf[w]++
		}
		for w := range tf {
			df[w]++
		}
		m.terms = append(m.terms, tf)
		m.length = append(m.length, len(words))
		total += len(words)
	}
	m.avgLen = float64(total) / float64(max(len(pages), 1))
	n := float64(len(pages))
	for w, d := range df {
		// The "+1" form never goes negative for a term in most pages.
		m.idf[w] = math.Log(1 + (n-float64(d)+0.5)/(float64(d)+0.5))
	}
	return m
}

// score is page i's raw BM25 score for the query terms (each counted once).
func (m *bm25) score(i int, query []string) float64 {
	s := 0.0
	norm := bm25K1 * (1 - bm25B + bm25B*float64(m.length[i])/m.avgLen)
	for _, w := range query {
		tf := float64(m.terms[i][w])
		if tf > 0 {
			s += m.idf[w] * tf * (bm25K1 + 1) / (tf + norm)
		}
	}
	return s
}

// queryTerms are the distinct terms of a query, in order.
func queryTerms(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range tokens(q) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// normalize maps raw scores to (0, 1]: the best page of an answer is 1 and
// the others are proportional, rounded to four decimals for readability
// but never to 0, which the schema reserves for contents answers.
func normalize(raw, best float64) float64 {
	return max(math.Round(raw/best*1e4)/1e4, 1e-4)
}

// tokens splits text into lower-case stemmed words, without stop words.
func tokens(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !stopWords[w] {
			out = append(out, stem(w))
		}
	}
	return out
}

// stem folds the few English endings that matter for a small technical
// corpus, so that "caching" finds "cache" and "deployments" finds
// "deploy". It is deliberately crude: both sides go through it, so only
// consistency counts.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		w = w[:len(w)-1]
	}
	for _, suffix := range []string{"ation", "ment", "ing", "ed"} {
		if len(w)-len(suffix) >= 4 && strings.HasSuffix(w, suffix) {
			w = w[:len(w)-len(suffix)]
			break
		}
	}
	if len(w) > 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// stopWords carry no meaning for ranking; read-only after start.
var stopWords = wordSet(`a an and are as at be but by can do does for from
	how i if in into is it its my of on or so than that the their then there these
	this to too use using was we what when where which while who why will with you your`)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}
