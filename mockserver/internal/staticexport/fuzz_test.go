package staticexport

import (
	"bytes"
	"net/url"
	"testing"
)

// A link the signer did not mint is refused, whatever its path and query.
//
//	go test -run '^$' -fuzz FuzzVerify -fuzztime 20000x ./mockserver/internal/staticexport
func FuzzVerify(f *testing.F) {
	s := NewSigner([]byte("secret"))
	minted := Link{JobID: "se_1", Size: 10, Expires: t0.Add(1e12).Truncate(1e9)}
	u, _ := url.Parse(s.Sign(minted))
	f.Add(u.Path, u.RawQuery)
	f.Add("/bundles/se_1/bundle.tar.gz", "expires=1&size=1&signature=00")
	f.Add("/bundles//bundle.tar.gz", "")
	f.Fuzz(func(t *testing.T, path, rawQuery string) {
		q, err := url.ParseQuery(rawQuery)
		if err != nil {
			return
		}
		l, err := s.Verify(path, q, t0)
		if err == nil && (l.JobID != minted.JobID || l.Size != minted.Size || !l.Expires.Equal(minted.Expires)) {
			t.Fatalf("accepted a link it did not mint: %s?%s", path, rawQuery)
		}
	})
}

// Every window of a padded bundle reads the same bytes as a whole read.
//
//	go test -run '^$' -fuzz FuzzPaddedReadAt -fuzztime 20000x ./mockserver/internal/staticexport
func FuzzPaddedReadAt(f *testing.F) {
	archive := buildBundle(testJob())
	f.Add(int64(200_000), int64(70_000), uint16(500))
	f.Add(int64(len(archive)+MinPadding+65540+2), int64(65_000), uint16(100))
	f.Fuzz(func(t *testing.T, size, off int64, n uint16) {
		size = int64(len(archive)) + (size%300_000+300_000)%300_000
		p := Pad(archive, size)
		whole := make([]byte, p.Size())
		if _, err := p.ReadAt(whole, 0); err != nil {
			t.Fatal(err)
		}
		off = (off%p.Size() + p.Size()) % p.Size()
		b := make([]byte, n)
		got, _ := p.ReadAt(b, off)
		want := whole[off:min(off+int64(n), p.Size())]
		if !bytes.Equal(b[:got], want) {
			t.Fatalf("size %d: ReadAt(%d, %d) differs from a whole read", size, off, n)
		}
	})
}
