package staticexport

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/url"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func testJob() *Job {
	return &Job{ID: "se_test", Org: "org", Domain: "docs.example.com", Pages: []string{"index", "guides/webhooks"},
		CreatedAt: t0, Duration: 10 * time.Second}
}

// listTarGz reads a tar.gz the way a user's tools would and lists its files.
func listTarGz(t *testing.T, r io.Reader) []string {
	t.Helper()
	zr, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
	// Drain to the end so that gzip checks every member's CRC and length.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		t.Fatalf("after the archive: %v", err)
	}
	return names
}

func TestBundleListsPagesAtAnySize(t *testing.T) {
	archive := buildBundle(testJob())
	for _, size := range []int64{0, int64(len(archive)), int64(len(archive)) + MinPadding, int64(len(archive)) + MinPadding + 1,
		int64(len(archive)) + 65540 + 18, int64(len(archive)) + 65540 + 19, int64(len(archive)) + 65540 + 20, int64(len(archive)) + 65540 + 21, int64(len(archive)) + 2*65540 + 22, int64(len(archive)) + 3*65535 + 777, 1 << 20} {
		p := Pad(archive, size)
		want := max(size, int64(len(archive)))
		if size < int64(len(archive))+MinPadding {
			want = int64(len(archive))
		}
		if p.Size() != want {
			t.Fatalf("Pad(%d).Size() = %d, want %d", size, p.Size(), want)
		}
		names := listTarGz(t, io.NewSectionReader(p, 0, p.Size()))
		if len(names) != 2 || names[0] != "index.html" || names[1] != "guides/webhooks.html" {
			t.Fatalf("size %d: files %q", size, names)
		}
	}
}

func TestPaddedReadAtMatchesWholeRead(t *testing.T) {
	p := Pad(buildBundle(testJob()), 300_000)
	whole, err := io.ReadAll(io.NewSectionReader(p, 0, p.Size()))
	if err != nil || int64(len(whole)) != p.Size() {
		t.Fatalf("read %d bytes, err %v", len(whole), err)
	}
	for _, r := range [][2]int64{{0, 1}, {5, 100}, {p.Size() - 8, 8}, {p.Size() - 20, 20}, {70_000, 131_100}, {299_990, 10}} {
		b := make([]byte, r[1])
		if _, err := p.ReadAt(b, r[0]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, whole[r[0]:r[0]+r[1]]) {
			t.Fatalf("ReadAt(%d, %d) differs from the same bytes of a whole read", r[0], r[1])
		}
	}
}

func TestSignerRefusesAlteredAndExpiredLinks(t *testing.T) {
	s := NewSigner([]byte("secret"))
	link := s.Sign(Link{JobID: "se_1", Size: 100, Expires: t0.Add(time.Hour)})
	u, _ := url.Parse(link)
	if l, err := s.Verify(u.Path, u.Query(), t0); err != nil || l.JobID != "se_1" || l.Size != 100 {
		t.Fatalf("Verify = %+v, %v", l, err)
	}
	if _, err := s.Verify(u.Path, u.Query(), t0.Add(time.Hour)); !errors.Is(err, ErrExpired) {
		t.Fatalf("at expiry: %v", err)
	}
	q := u.Query()
	q.Set("size", "1000")
	if _, err := s.Verify(u.Path, q, t0); !errors.Is(err, ErrAltered) {
		t.Fatalf("size changed: %v", err)
	}
	if _, err := s.Verify("/bundles/se_2/bundle.tar.gz", u.Query(), t0); !errors.Is(err, ErrAltered) {
		t.Fatalf("job changed: %v", err)
	}
	if _, err := NewSigner([]byte("other")).Verify(u.Path, u.Query(), t0); !errors.Is(err, ErrAltered) {
		t.Fatalf("another server's secret: %v", err)
	}
}

func TestJobProgressesPageByPage(t *testing.T) {
	j := testJob()
	j.Pages = []string{"a", "b", "c", "d"}
	cases := []struct {
		at       time.Duration
		status   Status
		pages    int
		progress float64
	}{
		{0, Queued, 0, 0},
		{1999 * time.Millisecond, Queued, 0, 0},
		{2 * time.Second, Running, 0, 0},
		{4 * time.Second, Running, 1, 25},
		{8 * time.Second, Running, 3, 75},
		{9999 * time.Millisecond, Running, 3, 75},
		{10 * time.Second, Completed, 4, 100},
	}
	for _, c := range cases {
		v := j.At(t0.Add(c.at))
		if v.Status != c.status || v.PageCount != c.pages || v.Progress != c.progress {
			t.Errorf("at %s: %+v, want %s with %d pages, %v%%", c.at, v, c.status, c.pages, c.progress)
		}
	}
	j.Fails = true
	if v := j.At(t0.Add(time.Minute)); v.Status != Failed || v.Error == "" || v.PageCount != 3 {
		t.Errorf("failing job at the end: %+v", v)
	}
}

func TestValidation(t *testing.T) {
	for _, d := range []string{"docs.example.com", "acme.mintlify.app", "localhost"} {
		if !ValidDomain(d) {
			t.Errorf("ValidDomain(%q) = false", d)
		}
	}
	for _, d := range []string{"", "https://docs.example.com", "docs.example.com/", "docs.example.com/docs", "docs.example.com:443", "a..b", "-a.com", "a b.com"} {
		if ValidDomain(d) {
			t.Errorf("ValidDomain(%q) = true", d)
		}
	}
	if _, err := CleanPages([]string{"index", "/guides/a", ""}); !errors.Is(err, ErrPath) {
		t.Errorf("empty path: %v", err)
	}
	if _, err := CleanPages([]string{"../etc/passwd"}); !errors.Is(err, ErrPath) {
		t.Errorf("dot-dot: %v", err)
	}
	got, err := CleanPages([]string{"/index", "index", "guides/a"})
	if err != nil || len(got) != 2 {
		t.Errorf("CleanPages = %q, %v", got, err)
	}
}

func TestPaddedTailBytesAtEveryOffset(t *testing.T) {
	archive := buildBundle(testJob())
	for _, r := range []int64{1, 2, 4, 5, 6} {
		p := Pad(archive, int64(len(archive))+MinPadding-5+2*65540+r)
		whole, err := io.ReadAll(io.NewSectionReader(p, 0, p.Size()))
		if err != nil || int64(len(whole)) != p.Size() {
			t.Fatalf("read %d of %d bytes, err %v", len(whole), p.Size(), err)
		}
		if names := listTarGz(t, bytes.NewReader(whole)); len(names) != 2 {
			t.Fatalf("files %q", names)
		}
		for off := p.Size() - 70_000; off < p.Size(); off += 7 {
			b := make([]byte, 13)
			n, _ := p.ReadAt(b, off)
			if !bytes.Equal(b[:n], whole[off:off+int64(n)]) {
				t.Fatalf("r=%d: ReadAt(%d) = %x, a whole read has %x", r, off, b[:n], whole[off:off+int64(n)])
			}
		}
	}
}
