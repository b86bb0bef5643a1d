package index

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Lengths are counted in characters (runes), as the schema's
// maxCharacters and totalCharacters are, never in bytes.

// Tokens is the mock's token count of s: ⌈characters / 4⌉.
func Tokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// excerptText is a page's text as a result carries it.
type excerptText struct {
	text      string
	truncated bool // text is shorter than the page's
	total     int  // the page's length
}

// excerpt is at most limit characters of text (0: all of it). Without
// query terms it is the text's beginning. With them (a contents request's
// query), it is the paragraphs that share most words with the query, as
// many as fit whole, kept in page order; if not even the best one fits,
// its beginning. A query that matches no paragraph gives the beginning.
func excerpt(text string, limit int, terms []string) excerptText {
	total := utf8.RuneCountInString(text)
	if limit == 0 || total <= limit {
		return excerptText{text: text, total: total}
	}
	cut := excerptText{text: prefix(text, limit), truncated: true, total: total}
	if len(terms) == 0 {
		return cut
	}
	type paragraph struct {
		at, score int
		text      string
	}
	var ranked []paragraph
	for at, p := range strings.Split(text, "\n\n") {
		if s := overlap(p, terms); s > 0 {
			ranked = append(ranked, paragraph{at, s, p})
		}
	}
	if len(ranked) == 0 {
		return cut
	}
	slices.SortStableFunc(ranked, func(a, b paragraph) int { return cmp.Compare(b.score, a.score) })
	var kept []paragraph
	used := 0
	for _, p := range ranked {
		n := utf8.RuneCountInString(p.text)
		if len(kept) > 0 {
			n += 2 // the blank line between two paragraphs
		}
		if used+n <= limit {
			kept = append(kept, p)
			used += n
		}
	}
	if len(kept) == 0 {
		cut.text = prefix(ranked[0].text, limit)
		return cut
	}
	slices.SortFunc(kept, func(a, b paragraph) int { return cmp.Compare(a.at, b.at) })
	parts := make([]string, len(kept))
	for i, p := range kept {
		parts[i] = p.text
	}
	cut.text = strings.Join(parts, "\n\n")
	return cut
}

// overlap counts the occurrences of the query terms in a paragraph.
func overlap(paragraph string, terms []string) int {
	n := 0
	for _, w := range tokens(paragraph) {
		if slices.Contains(terms, w) {
			n++
		}
	}
	return n
}

// prefix is the first n characters of s.
func prefix(s string, n int) string {
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
