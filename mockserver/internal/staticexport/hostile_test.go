package staticexport

import (
	"hash/crc32"
	"strconv"
	"strings"
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

// The store forgets its oldest jobs past MaxJobs, or past MaxBytes of
// pages, versions and the bundles built, so that a client looping on the
// start route (which has no rate limit) cannot grow it for ever.
func TestStoreKeepsABoundedNumberOfJobsAndBytes(t *testing.T) {
	st := NewStore()
	pages := make([]string, MaxPaths)
	for i := range pages {
		pages[i] = strings.Repeat("p", 90) + strconv.Itoa(i)
	}
	var jobs []*Job
	for i := range MaxBytes / (MaxPaths * 90) {
		j := &Job{ID: "se_" + strconv.Itoa(i), Org: "o", Domain: "docs.example.com", Pages: pages}
		st.Add(j)
		jobs = append(jobs, j)
		if i < 3 {
			st.Bundle(j) // counted once built
			st.Bundle(j)
		}
	}
	if st.Lookup(jobs[0].ID) != nil || st.Lookup(jobs[len(jobs)-1].ID) == nil {
		t.Errorf("past MaxBytes: the first kept %v, the last %v; want the oldest forgotten", st.Lookup(jobs[0].ID) != nil, st.Lookup(jobs[len(jobs)-1].ID) != nil)
	}
	if st.bytes > MaxBytes {
		t.Errorf("%d bytes kept, at most %d", st.bytes, MaxBytes)
	}

	st = NewStore()
	for i := range MaxJobs + 1 {
		st.Add(&Job{ID: "se_" + strconv.Itoa(i), Org: "o", Domain: "docs.example.com", Pages: DefaultPages})
	}
	if len(st.jobs) != MaxJobs || st.Lookup("se_0") != nil || st.Lookup("se_1") == nil {
		t.Errorf("%d jobs kept; the first kept %v", len(st.jobs), st.Lookup("se_0") != nil)
	}
	st.Reset()
	if len(st.jobs) != 0 || st.bytes != 0 || len(st.order) != 0 {
		t.Errorf("after Reset: %d jobs, %d bytes, %d in order", len(st.jobs), st.bytes, len(st.order))
	}
}
