package staticexport

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"html"
	"io"
)

// buildBundle renders the job's pages as HTML files in a tar.gz. The same
// job always gives the same bytes (fixed times, fixed order), so a resumed
// download continues the very archive it began.
func buildBundle(j *Job) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed) // a valid level: cannot fail
	zw.ModTime = j.CreatedAt
	tw := tar.NewWriter(zw)
	for _, p := range j.Pages {
		body := renderPage(j, p)
		hdr := &tar.Header{
			Name:    PageFile(p),
			Mode:    0o644,
			Size:    int64(len(body)),
			ModTime: j.CreatedAt,
			Format:  tar.FormatPAX,
		}
		// Writes to a bytes.Buffer cannot fail.
		_ = tw.WriteHeader(hdr)
		_, _ = tw.Write(body)
	}
	_ = tw.Close()
	_ = zw.Close()
	return buf.Bytes()
}

// PageFile is the file a page is exported to: "guides/webhooks" becomes
// "guides/webhooks.html".
func PageFile(page string) string { return page + ".html" }

func renderPage(j *Job, page string) []byte {
	version := j.Version
	if version == "" {
		version = "latest"
	}
	return fmt.Appendf(nil, "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>"+
		"<link rel=\"canonical\" href=\"https://%s/%s\"></head>\n<body><main><h1>%s</h1>"+
		"<p>Exported from %s, version %s.</p></main></body></html>\n",
		html.EscapeString(page), j.Domain, html.EscapeString(page), html.EscapeString(page), j.Domain, html.EscapeString(version))
}

// A padded bundle is the real tar.gz followed by a second gzip member of
// zero bytes in stored (uncompressed) deflate blocks. Gzip readers read
// both members; tar ignores zeros after its end-of-archive marker; so the
// file stays a valid tar.gz of the same pages at any size, and every byte
// of it can be computed from its offset, which is what lets the storage
// host stream gigabytes and serve ranges without holding them.
const (
	gzipHeaderLen  = 10
	gzipTrailerLen = 8
	blockHeaderLen = 5     // BFINAL/BTYPE byte, LEN, NLEN
	maxStored      = 65535 // bytes of data in one stored block
	// MinPadding is the smallest padding member: header, one empty final
	// block, trailer.
	MinPadding = gzipHeaderLen + blockHeaderLen + gzipTrailerLen
)

var gzipHeader = [gzipHeaderLen]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// Padded is a bundle of an exact size: the real archive, then padding.
// It implements io.ReaderAt; nothing beyond the real archive is stored.
type Padded struct {
	archive []byte
	size    int64
	data    int64 // zero bytes in the padding member
	blocks  int64 // stored blocks carrying them
	short   int64 // bytes the next-to-last block lacks (see Pad)
}

// MaxSize is the largest padded bundle: 1 TiB serves any download
// benchmark, and keeps the block arithmetic far from int64 overflow (near
// 2^63 the block count wrapped negative and a range read panicked).
const MaxSize = 1 << 40

// Pad returns the bundle real made size bytes long. A size smaller than
// the real archive plus MinPadding, or larger than MaxSize, gives the real
// archive unchanged.
func Pad(archive []byte, size int64) *Padded {
	p := &Padded{archive: archive, size: int64(len(archive))}
	if size > MaxSize {
		return p
	}
	x := size - int64(len(archive)) - gzipHeaderLen - gzipTrailerLen // block headers plus data
	if x < blockHeaderLen {
		return p
	}
	// k blocks carry x-5k data bytes, all full but the last; k must be at
	// least x/65540 so that no block exceeds 65535 bytes. When x is 1 to 4
	// bytes past a multiple of 65540, the last block would need a negative
	// length: it is left empty and the one before it gives up the rest.
	const full = maxStored + blockHeaderLen
	k := (x + full - 1) / full
	p.size, p.blocks, p.data = size, k, x-blockHeaderLen*k
	if r := x - full*(k-1); r < blockHeaderLen {
		p.short = blockHeaderLen - r
	}
	return p
}

// blockLen is the data length of stored block i.
func (p *Padded) blockLen(i int64) int64 {
	switch {
	case i == p.blocks-1:
		return p.data - (p.blocks-1)*maxStored + p.short
	case i == p.blocks-2:
		return maxStored - p.short
	}
	return maxStored
}

// Size is the bundle's length in bytes.
func (p *Padded) Size() int64 { return p.size }

// ReadAt fills b from offset off.
func (p *Padded) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("staticexport: negative offset %d", off)
	}
	n := 0
	for n < len(b) && off < p.size {
		m := p.fill(b[n:], off)
		n += m
		off += int64(m)
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// fill copies the bytes at off from the one segment holding off.
func (p *Padded) fill(b []byte, off int64) int {
	archive := int64(len(p.archive))
	if off < archive {
		return copy(b, p.archive[off:])
	}
	off -= archive
	if off < gzipHeaderLen {
		return copy(b, gzipHeader[off:])
	}
	off -= gzipHeaderLen
	blocksLen := p.blocks*blockHeaderLen + p.data
	if off < blocksLen {
		// Every block but the last two is full, so off lands in block i or,
		// past a shortened block, in the next.
		i := min(off/(maxStored+blockHeaderLen), p.blocks-1)
		in := off - i*(maxStored+blockHeaderLen)
		if i == p.blocks-1 {
			in += p.short // the last block starts early by what the one before lacks
		}
		length := p.blockLen(i)
		if in >= blockHeaderLen+length {
			in -= blockHeaderLen + length
			i++
			length = p.blockLen(i)
		}
		if in < blockHeaderLen {
			var h [blockHeaderLen]byte
			if i == p.blocks-1 {
				h[0] = 1 // BFINAL, BTYPE 00 (stored)
			}
			binary.LittleEndian.PutUint16(h[1:], uint16(length))
			binary.LittleEndian.PutUint16(h[3:], ^uint16(length))
			return copy(b, h[in:])
		}
		zeros := min(int64(len(b)), length-(in-blockHeaderLen))
		clear(b[:zeros])
		return int(zeros)
	}
	off -= blocksLen
	var t [gzipTrailerLen]byte
	binary.LittleEndian.PutUint32(t[:4], zeroCRC(p.data))
	binary.LittleEndian.PutUint32(t[4:], uint32(p.data)) // ISIZE is the size mod 2^32
	return copy(b[:min(int64(len(b)), gzipTrailerLen-off)], t[off:])
}

// zeroCRC is the CRC-32 (IEEE) of n zero bytes, in O(log n): a range
// request near the end of a large bundle needs the trailer at once. (It
// used to stream n zeros under a lock shared by every server: a tenth of a
// second per gigabyte, minutes for a tail range of a terabyte.) Feeding a
// zero byte to the CRC register is a linear map over GF(2); its n-th power
// is built by squaring, as zlib's crc32_combine does.
func zeroCRC(n int64) uint32 {
	var even, odd gf2Matrix
	odd[0] = 0xedb88320 // the reflected IEEE polynomial: one zero bit
	for i, row := 1, uint32(1); i < 32; i, row = i+1, row<<1 {
		odd[i] = row
	}
	even.square(&odd) // two zero bits
	odd.square(&even) // four
	reg := ^uint32(0)
	for n > 0 {
		even.square(&odd) // one zero byte, then 4, 16, ...
		if n&1 != 0 {
			reg = even.times(reg)
		}
		if n >>= 1; n == 0 {
			break
		}
		odd.square(&even) // 2, 8, 32, ... zero bytes
		if n&1 != 0 {
			reg = odd.times(reg)
		}
		n >>= 1
	}
	return ^reg
}

// gf2Matrix is a 32x32 matrix over GF(2), one column per bit.
type gf2Matrix [32]uint32

func (m *gf2Matrix) times(vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= m[i]
		}
	}
	return sum
}

// square sets m to a·a.
func (m *gf2Matrix) square(a *gf2Matrix) {
	for i := range m {
		m[i] = a.times(a[i])
	}
}
