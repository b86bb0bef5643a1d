package assistant

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestDefaultPages(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	pages := s.Pages(DefaultDomain)
	if len(pages) < 6 {
		t.Fatalf("%d default pages, want at least 6", len(pages))
	}
	protected := 0
	for i, p := range pages {
		var bad problems
		checkPage(i, &p, &bad)
		if bad.err() != nil || strings.HasPrefix(p.Path, "/") || len(paragraphs(p.Content)) < 3 {
			t.Errorf("page %s: %v, %d paragraphs", p.Path, bad.err(), len(paragraphs(p.Content)))
		}
		if len(p.Groups) > 0 {
			protected++
		}
	}
	for _, want := range []string{"quickstart", "authentication", "rate-limits", "deployments", "previews"} {
		if _, err := s.PageContent(DefaultDomain, want, nil); err != nil {
			t.Errorf("%s: %v", want, err)
		}
	}
	if protected == 0 {
		t.Error("no default page is protected by a group")
	}
}

func TestPageContent(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	for _, path := range []string{"rate-limits", "/rate-limits", "rate-limits/"} {
		got, err := s.PageContent(DefaultDomain, path, nil)
		if err != nil || got.Path != "rate-limits" || !strings.Contains(got.Content, "Retry-After") {
			t.Errorf("%q: %+v, %v", path, got, err)
		}
	}
	if _, err := s.PageContent("DOCS.example.com", "quickstart", nil); err != nil {
		t.Errorf("domains compare without case: %v", err)
	}
	if got, err := s.PageContent(DefaultDomain, "/internal/runbook", []string{"support", "staff"}); err != nil || got.Path != "internal/runbook" {
		t.Errorf("the runbook with the staff group: %+v, %v", got, err)
	}
	_, hidden := s.PageContent(DefaultDomain, "internal/runbook", []string{"support"})
	_, unknown := s.PageContent(DefaultDomain, "no/such/page", nil)
	mustStatus(t, hidden, 404, "a protected page without its group")
	mustStatus(t, unknown, 404, "an unknown page")
	if hidden.Error() != unknown.Error() {
		t.Errorf("a hidden page (%v) must look like an unknown one (%v)", hidden, unknown)
	}
	_, err := s.PageContent("other.example", "quickstart", nil)
	mustStatus(t, err, 404, "another domain's page")
	_, err = s.PageContent(DefaultDomain, "/", nil)
	mustStatus(t, err, 400, "an empty path")
}

func TestAddPagesValidates(t *testing.T) {
	ok := Page{Path: "guides/x", Title: "X", Content: "text"}
	with := func(f func(*Page)) []Page { p := ok; f(&p); return []Page{p} }
	for name, c := range map[string]struct {
		domain string
		pages  []Page
	}{
		"bad domain":      {"docs example.com", []Page{ok}},
		"no pages":        {DefaultDomain, nil},
		"too many pages":  {DefaultDomain, make([]Page, MaxPagesPerCall+1)},
		"no path":         {DefaultDomain, with(func(p *Page) { p.Path = "/" })},
		"long path":       {DefaultDomain, with(func(p *Page) { p.Path = strings.Repeat("p", MaxPathBytes+1) })},
		"path with space": {DefaultDomain, with(func(p *Page) { p.Path = "a b" })},
		"dot-dot path":    {DefaultDomain, with(func(p *Page) { p.Path = "a/../b" })},
		"no title":        {DefaultDomain, with(func(p *Page) { p.Title = " " })},
		"no content":      {DefaultDomain, with(func(p *Page) { p.Content = "" })},
		"big content":     {DefaultDomain, with(func(p *Page) { p.Content = strings.Repeat("x", MaxPageBytes+1) })},
		"many groups":     {DefaultDomain, with(func(p *Page) { p.Groups = make([]string, MaxLabels+1) })},
		"empty tag":       {DefaultDomain, with(func(p *Page) { p.Tags = []string{""} })},
		"long version":    {DefaultDomain, with(func(p *Page) { p.Version = strings.Repeat("v", MaxLabelBytes+1) })},
	} {
		n, err := NewStore(DefaultDomain, 1).AddPages(c.domain, c.pages)
		mustStatus(t, err, 400, name)
		if n != 0 {
			t.Errorf("%s: added %d", name, n)
		}
	}

	s := NewStore(DefaultDomain, 1)
	_, err := s.AddPages(DefaultDomain, []Page{{Path: "fine", Title: "Fine", Content: "sandpiper"}, {Path: "bad"}})
	mustStatus(t, err, 400, "one bad page")
	if res, _ := s.Search(DefaultDomain, SearchRequest{Query: "sandpiper"}); len(res) != 0 {
		t.Error("a call with a bad page stored its good one: AddPages is all or none")
	}
	var e *Error
	if _, err := s.AddPages(DefaultDomain, make([]Page, 30)); !errors.As(err, &e) || !strings.HasSuffix(e.Message, "; and 80 more problems") {
		t.Errorf("30 empty pages (3 problems each): %v, want ten problems and a count of the rest", err)
	}
}

func TestAddPagesReplacesByPath(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	before := len(s.Pages(DefaultDomain))
	n, err := s.AddPages(DefaultDomain, []Page{
		{Path: "/quickstart", Title: "Quickstart", Content: "first draft"},
		{Path: "quickstart/", Title: "Quickstart", Content: "Pelican setup."},
	})
	if err != nil || n != 1 {
		t.Fatalf("added %d, %v; want 1 (two versions of one path)", n, err)
	}
	if got := len(s.Pages(DefaultDomain)); got != before {
		t.Errorf("%d pages after a replacement, want %d", got, before)
	}
	if got, _ := s.PageContent(DefaultDomain, "quickstart", nil); got.Content != "Pelican setup." {
		t.Errorf("content %q, want the last version", got.Content)
	}
	s.Reset()
	if got, _ := s.PageContent(DefaultDomain, "quickstart", nil); got.Content == "Pelican setup." {
		t.Error("Reset kept an added page")
	}
}

func TestAddPagesBounds(t *testing.T) {
	s := NewStore(DefaultDomain, 1)
	batch := func(prefix string, n, size int) []Page {
		pages := make([]Page, n)
		for i := range pages {
			pages[i] = Page{Path: fmt.Sprintf("%s/%d", prefix, i), Title: "T", Content: strings.Repeat("x", size)}
		}
		return pages
	}
	// A site holds MaxPagesPerDomain pages, defaults included.
	room := MaxPagesPerDomain - len(DefaultPages())
	for i := 0; room > 0; i++ {
		n := min(room, MaxPagesPerCall)
		if _, err := s.AddPages(DefaultDomain, batch(fmt.Sprint("p", i), n, 1)); err != nil {
			t.Fatal(err)
		}
		room -= n
	}
	_, err := s.AddPages(DefaultDomain, batch("over", 1, 1))
	mustStatus(t, err, 400, "a page past the site's bound")
	if _, err := s.AddPages(DefaultDomain, batch("p0", 1, 2)); err != nil {
		t.Errorf("replacing a page of a full site: %v", err)
	}

	// At most MaxStoredBytes of content in all, across sites.
	s = NewStore(DefaultDomain, 1)
	stored := 0
	for i := 0; ; i++ {
		_, err := s.AddPages(fmt.Sprintf("site%d.test", i), batch("big", MaxPagesPerCall, MaxPageBytes))
		if err != nil {
			mustStatus(t, err, 400, "content past MaxStoredBytes")
			break
		}
		stored += MaxPagesPerCall * MaxPageBytes
		if stored > MaxStoredBytes {
			t.Fatalf("stored %d bytes, more than %d", stored, MaxStoredBytes)
		}
	}

	// At most MaxDomains sites.
	s = NewStore(DefaultDomain, 1)
	for i := 1; i < MaxDomains; i++ {
		if _, err := s.AddPages(fmt.Sprintf("d%d.test", i), batch("a", 1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	_, err = s.AddPages("one-more.test", batch("a", 1, 1))
	mustStatus(t, err, 400, "a site past MaxDomains")
}
