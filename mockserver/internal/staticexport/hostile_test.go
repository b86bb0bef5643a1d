package staticexport

import (
	"hash/crc32"
	"testing"
)

// zeroCRC against the standard library's CRC of real zeros.
func TestZeroCRCMatchesZeros(t *testing.T) {
	for _, n := range []int64{0, 1, 2, 3, 4, 7, 8, 9, 255, 256, 65535, 65536, 65540, 1<<20 + 3} {
		if got, want := zeroCRC(n), crc32.ChecksumIEEE(make([]byte, n)); got != want {
			t.Errorf("zeroCRC(%d) = %08x, want %08x", n, got, want)
		}
	}
}

// Near 2^63 the block count wrapped negative and a range read panicked
// with a negative slice index; past MaxSize the archive is not padded.
func TestPadRefusesSizesPastTheBound(t *testing.T) {
	archive := []byte("not really a gzip, but Pad does not care")
	for _, size := range []int64{MaxSize + 1, 1<<62 + 12345, 1<<63 - 1} {
		p := Pad(archive, size)
		if p.Size() != int64(len(archive)) {
			t.Errorf("Pad(%d).Size() = %d, want the real %d", size, p.Size(), len(archive))
		}
	}
	p := Pad(archive, MaxSize)
	if p.Size() != MaxSize {
		t.Fatalf("Pad(MaxSize).Size() = %d", p.Size())
	}
	for _, off := range []int64{MaxSize / 2, MaxSize - 100, MaxSize - gzipTrailerLen} {
		b := make([]byte, 100)
		if _, err := p.ReadAt(b, off); err != nil && off+100 <= MaxSize {
			t.Errorf("ReadAt(%d): %v", off, err)
		}
	}
}
