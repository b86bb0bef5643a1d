package assistant

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Page is one documentation page of a site. Paths carry no leading slash;
// Content is Markdown whose paragraphs are separated by blank lines.
//
// Groups protect a page: a page with groups is visible only to a request
// naming one of them. Version, Language and Tags are what the search
// filters match; a filter that is set admits only pages whose field
// equals it (one of whose tags equals it), so a page without the field is
// found only by requests that do not filter on it.
type Page struct {
	Path     string   `json:"path"`
	Title    string   `json:"title"`
	Content  string   `json:"content"`
	Groups   []string `json:"groups,omitempty"`
	Version  string   `json:"version,omitempty"`
	Language string   `json:"language,omitempty"`
	Tags     []string `json:"tags,omitempty"`
}

// Bounds of the stored pages. Every input is bounded so that what a
// control request sends cannot grow the mock without limit: at most
// MaxStoredBytes of page text in all, whatever is sent.
const (
	MaxPagesPerCall   = 100      // pages one AddPages call may carry
	MaxPagesPerDomain = 500      // pages of one site, defaults included
	MaxDomains        = 20       // sites, the default one included
	MaxPageBytes      = 64 << 10 // a page's content
	MaxStoredBytes    = 32 << 20 // the content of every page of every site
	MaxPathBytes      = 200      // a page's path, without its slashes
	MaxTitleBytes     = 200
	MaxLabels         = 20  // groups, and tags, of one page
	MaxLabelBytes     = 100 // one group, tag, version or language
	MaxDomainBytes    = 253 // a hostname's limit
)

// page is a stored page with what its score needs.
type page struct {
	Page
	terms  map[string]int // term frequencies of the title and content
	length int            // terms in the title and content
}

// site is the pages of one domain.
type site struct {
	pages  []*page
	byPath map[string]int // index in pages
	bytes  int            // content bytes
}

func newSite() *site { return &site{byPath: map[string]int{}} }

func (st *site) put(p Page) {
	terms := tokens(p.Title + "\n" + p.Content)
	ip := &page{Page: p, terms: make(map[string]int, len(terms)), length: len(terms)}
	for _, t := range terms {
		ip.terms[t]++
	}
	if i, ok := st.byPath[p.Path]; ok {
		st.bytes -= len(st.pages[i].Content)
		st.pages[i] = ip
	} else {
		st.byPath[p.Path] = len(st.pages)
		st.pages = append(st.pages, ip)
	}
	st.bytes += len(p.Content)
}

// domainKey is how sites are keyed: hostnames compare without case.
func domainKey(domain string) string { return strings.ToLower(domain) }

// validDomain reports whether d is a hostname-like identifier: letters,
// digits, dots and hyphens, as the SDK checks before sending.
func validDomain(d string) bool {
	if d == "" || len(d) > MaxDomainBytes {
		return false
	}
	for _, r := range d {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

// ValidDomain reports whether d may name a site: 1 to MaxDomainBytes
// letters, digits, dots and hyphens (the wire checks WithDomain with it).
func ValidDomain(d string) bool { return validDomain(d) }

// SiteURL is where a page of domain is read: the domain itself when it is
// a hostname (docs.example.com), else the vendor's hosted subdomain for a
// bare identifier (acme -> acme.mintlify.site).
func SiteURL(domain, path string) string {
	host := domainKey(domain)
	if !strings.Contains(host, ".") {
		host += ".mintlify.site"
	}
	return "https://" + host + "/" + cleanPath(path)
}

// cleanPath is a page path as stored: without leading or trailing slashes,
// so "/quickstart" and "quickstart/" name the same page.
func cleanPath(p string) string { return strings.Trim(p, "/") }

// checkPage reports what makes p unstorable.
func checkPage(i int, p *Page, bad *problems) {
	at := func(format string, args ...any) { bad.add("pages[%d]: "+format, append([]any{i}, args...)...) }
	switch path := cleanPath(p.Path); {
	case path == "":
		at("path is required")
	case len(path) > MaxPathBytes:
		at("path: at most %d bytes, got %d", MaxPathBytes, len(path))
	case !utf8.ValidString(path) || strings.IndexFunc(path, badPathRune) >= 0 || slices.Contains(strings.Split(path, "/"), ".."):
		at("path %q: no spaces, control characters, '?', '#', '\\' or '..' segments", path)
	}
	switch {
	case strings.TrimSpace(p.Title) == "":
		at("title is required")
	case len(p.Title) > MaxTitleBytes:
		at("title: at most %d bytes, got %d", MaxTitleBytes, len(p.Title))
	}
	switch {
	case strings.TrimSpace(p.Content) == "":
		at("content is required")
	case len(p.Content) > MaxPageBytes:
		at("content: at most %d bytes, got %d", MaxPageBytes, len(p.Content))
	}
	for _, l := range []struct {
		name   string
		labels []string
	}{{"groups", p.Groups}, {"tags", p.Tags}} {
		if len(l.labels) > MaxLabels {
			at("%s: at most %d, got %d", l.name, MaxLabels, len(l.labels))
		}
		for _, s := range l.labels {
			if s == "" || len(s) > MaxLabelBytes {
				at("%s: each 1 to %d bytes", l.name, MaxLabelBytes)
				break
			}
		}
	}
	if len(p.Version) > MaxLabelBytes || len(p.Language) > MaxLabelBytes {
		at("version and language: at most %d bytes each", MaxLabelBytes)
	}
}

func badPathRune(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || r == '?' || r == '#' || r == '\\'
}

// AddPages stores pages for domain, all or none, and says how many it
// stored. A page whose path is already stored replaces it (the last one
// wins within a call). Refusals are 400s naming every problem, bounds
// included (see the Max constants).
func (s *Store) AddPages(domain string, pages []Page) (added int, err error) {
	var bad problems
	if !validDomain(domain) {
		bad.add("domain %q: 1 to %d letters, digits, dots or hyphens", cut(domain, 64), MaxDomainBytes)
	}
	switch {
	case len(pages) == 0:
		bad.add("pages: at least one page")
	case len(pages) > MaxPagesPerCall:
		bad.add("pages: at most %d in one call, got %d", MaxPagesPerCall, len(pages))
		return 0, bad.err() // not worth checking each of a million pages
	}
	for i := range pages {
		checkPage(i, &pages[i], &bad)
	}
	if err := bad.err(); err != nil {
		return 0, err
	}

	s.pagesMu.Lock()
	defer s.pagesMu.Unlock()
	key := domainKey(domain)
	st := s.sites[key]
	if st == nil && len(s.sites) >= MaxDomains {
		bad.add("domain %s: the mock holds at most %d sites", key, MaxDomains)
		return 0, bad.err()
	}
	// Count what the site would hold before touching it.
	paths, grow := map[string]int{}, 0
	for i := range pages {
		paths[cleanPath(pages[i].Path)] = len(pages[i].Content)
	}
	count := len(paths)
	for path, size := range paths {
		grow += size
		if st != nil {
			if j, ok := st.byPath[path]; ok {
				count--
				grow -= len(st.pages[j].Content)
			}
		}
	}
	if st != nil {
		count += len(st.pages)
	}
	if count > MaxPagesPerDomain {
		bad.add("pages: a site holds at most %d pages; %s would hold %d", MaxPagesPerDomain, key, count)
	}
	if s.bytes+grow > MaxStoredBytes {
		bad.add("pages: the mock holds at most %d bytes of page content; this call would make it %d", MaxStoredBytes, s.bytes+grow)
	}
	if err := bad.err(); err != nil {
		return 0, err
	}
	if st == nil {
		st = newSite()
		s.sites[key] = st
	}
	for _, p := range pages {
		p.Path = cleanPath(p.Path)
		p.Groups, p.Tags = slices.Clone(p.Groups), slices.Clone(p.Tags)
		st.put(p)
	}
	s.bytes += grow
	return len(paths), nil
}

// PageContent is the page-content route's answer.
type PageContent struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// PageContent returns the page at path (with or without its leading
// slash) when groups may see it. An unknown page and a page the groups may
// not see are the same 404, so the answer never tells that a protected
// page exists.
func (s *Store) PageContent(domain, path string, groups []string) (PageContent, error) {
	clean := cleanPath(path)
	if clean == "" {
		return PageContent{}, &Error{Status: statusBadRequest, Message: "path is required"}
	}
	s.pagesMu.RLock()
	defer s.pagesMu.RUnlock()
	if st := s.sites[domainKey(domain)]; st != nil {
		if i, ok := st.byPath[clean]; ok && visible(&st.pages[i].Page, groups) {
			return PageContent{Path: clean, Content: st.pages[i].Content}, nil
		}
	}
	return PageContent{}, notFound("Page")
}

// Pages lists the pages of domain in the order they were first added.
func (s *Store) Pages(domain string) []Page {
	s.pagesMu.RLock()
	defer s.pagesMu.RUnlock()
	st := s.sites[domainKey(domain)]
	if st == nil {
		return nil
	}
	out := make([]Page, len(st.pages))
	for i, p := range st.pages {
		out[i] = p.Page
		out[i].Groups, out[i].Tags = slices.Clone(p.Groups), slices.Clone(p.Tags)
	}
	return out
}

// visible reports whether a request naming groups may see p.
func visible(p *Page, groups []string) bool {
	if len(p.Groups) == 0 {
		return true
	}
	for _, g := range groups {
		if slices.Contains(p.Groups, g) {
			return true
		}
	}
	return false
}

// cut shortens s to at most n bytes at a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
