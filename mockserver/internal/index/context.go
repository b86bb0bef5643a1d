package index

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ContextResponse is the answer of POST /v1/context.
type ContextResponse struct {
	RequestID    string `json:"requestId"`
	Query        string `json:"query"`        // as requested
	Response     string `json:"response"`     // "" when nothing matches or fits
	ResultsCount int    `json:"resultsCount"` // pages in Response
	OutputTokens int    `json:"outputTokens"` // Tokens(Response), never above the budget
}

// maxContextPages bounds how many pages one context answer draws on.
const maxContextPages = 10

// Context answers a context request: the best pages for the query, whole,
// in rank order, as long as they fit the token budget; the first page that
// does not fit whole is cut to fit (if a character of its text can), and
// the answer ends there, since every later page ranks lower.
func (st *Store) Context(req ContextRequest) (*ContextResponse, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	budget := DefaultTokenBudget
	if req.TokenBudget != nil {
		budget = *req.TokenBudget
	}
	f := filter{include: req.IncludeDomains, exclude: req.ExcludeDomains}
	if req.Product != nil {
		f.site = st.productSite(*req.Product)
	}
	hits := st.search(req.Query, f)
	hits = hits[:min(len(hits), maxContextPages)]

	// ⌈runes/4⌉ ≤ budget exactly when runes ≤ 4·budget: the whole
	// assembly can count characters.
	limit := 4 * budget
	var sections []section
	fits := func(next section) bool {
		with := append(sections[:len(sections):len(sections)], next) // never writes into sections
		return utf8.RuneCountInString(render(req.Format, with)) <= limit
	}
	for _, h := range hits {
		p := st.pages[h.page]
		next := section{Title: p.Title, URL: p.URL, SiteName: p.SiteName, Text: p.Text}
		if fits(next) {
			sections = append(sections, next)
			continue
		}
		// The longest beginning of the text that fits; the rendered length
		// grows with it (JSON escaping only adds), so a binary search finds it.
		text := []rune(p.Text)
		n := sort.Search(len(text), func(k int) bool {
			next.Text = string(text[:k+1])
			return !fits(next)
		})
		if n > 0 {
			next.Text = wordCut(text, n)
			sections = append(sections, next)
		}
		break
	}
	response := render(req.Format, sections)
	return &ContextResponse{RequestID: st.nextID(), Query: req.Query, Response: response,
		ResultsCount: len(sections), OutputTokens: Tokens(response)}, nil
}

// wordCut is the first n characters of text without a partial last word
// (or trailing spaces), so an agent never reads half a word; a cut inside
// the first word keeps it as is. Never longer than n, so it still fits.
func wordCut(text []rune, n int) string {
	s := string(text[:n])
	if n < len(text) && !unicode.IsSpace(text[n]) {
		if i := strings.LastIndexFunc(s, unicode.IsSpace); i > 0 {
			s = s[:i]
		}
	}
	return strings.TrimRightFunc(s, unicode.IsSpace)
}

// section is one page in a context answer; in the json format, an item of
// the "results" array.
type section struct {
	Title    string `json:"title"`
	URL      string `json:"url"`
	SiteName string `json:"siteName"`
	Text     string `json:"text"`
}

// render writes the sections in the request's format: for txt, a Markdown
// section per page (heading, source line, text) separated by rules; for
// json, the object {"results": [...]} that the vendor describes as a
// serialized JSON object of result items. No sections is "".
func render(format string, sections []section) string {
	if len(sections) == 0 {
		return ""
	}
	if format == FormatJSON {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // text is read by agents, not embedded in HTML
		_ = enc.Encode(struct {
			Results []section `json:"results"`
		}{sections}) // strings only: cannot fail
		return strings.TrimSuffix(b.String(), "\n")
	}
	parts := make([]string, len(sections))
	for i, s := range sections {
		parts[i] = "## " + s.Title + "\n\nSource: " + s.URL + "\n\n" + s.Text
	}
	return strings.Join(parts, "\n\n---\n\n")
}

// productSite is the site a product hint names, or "" when it names none
// (a hint, not a filter: an unknown product leaves the search unchanged).
// A product names a site when both are equal ignoring case and everything
// but letters and digits: "Acme", "ACME" and "acme" name docs.acme.dev.
func (st *Store) productSite(product string) string {
	want := foldName(product)
	for _, p := range st.pages {
		if p.Source == SourceMintlify && foldName(p.SiteName) == want {
			return p.SiteName
		}
	}
	return ""
}

func foldName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}
