package mintlify

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pagerTestPage is the smallest page type the pager accepts.
type pagerTestPage struct {
	rows []int
	more bool
}

func (p *pagerTestPage) pageRows() []int   { return p.rows }
func (p *pagerTestPage) pageHasMore() bool { return p.more }

// pagerSource serves rows 0..n-1 in pages of size and records the offsets
// it was asked for.
type pagerSource struct {
	n, size int
	offsets []int
}

func (s *pagerSource) fetch(_ context.Context, offset int) (*pagerTestPage, error) {
	s.offsets = append(s.offsets, offset)
	end := min(offset+s.size, s.n)
	p := &pagerTestPage{more: end < s.n}
	for i := offset; i < end; i++ {
		p.rows = append(p.rows, i)
	}
	return p, nil
}

func pagerKey(r int) string { return strconv.Itoa(r) }

func TestWalkPagesFromStartOffset(t *testing.T) {
	src := &pagerSource{n: 10, size: 4}
	var rows []int
	for row, err := range walkRows(walkPages(context.Background(), 3, src.fetch), pagerKey) {
		require.NoError(t, err)
		rows = append(rows, row)
	}
	assert.Equal(t, []int{3, 4, 5, 6, 7, 8, 9}, rows)
	assert.Equal(t, []int{3, 7}, src.offsets)
}

func TestWalkPagesCanBeWalkedAgain(t *testing.T) {
	src := &pagerSource{n: 5, size: 2}
	pages := walkPages(context.Background(), 0, src.fetch)
	for range 2 {
		var n int
		for p, err := range pages {
			require.NoError(t, err)
			n += len(p.rows)
		}
		assert.Equal(t, 5, n)
	}
	assert.Equal(t, []int{0, 2, 4, 0, 2, 4}, src.offsets, "each walk starts over")
}

func TestWalkPagesStopsAtPageCap(t *testing.T) {
	var calls int
	endless := func(_ context.Context, offset int) (*pagerTestPage, error) {
		calls++
		return &pagerTestPage{rows: []int{offset}, more: true}, nil
	}
	var pages int
	var walkErr error
	for p, err := range walkPages(context.Background(), 0, endless) {
		if err != nil {
			assert.Nil(t, p)
			walkErr = err
			continue
		}
		pages++
	}
	assert.Equal(t, maxWalkPages, calls)
	assert.Equal(t, maxWalkPages, pages)
	require.Error(t, walkErr)
	assert.Contains(t, walkErr.Error(), fmt.Sprintf("stopped at offset %d", maxWalkPages))
}

func TestWalkPagesStopsOnDoneContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := &pagerSource{n: 5, size: 2}
	var errs []error
	for _, err := range walkPages(ctx, 0, src.fetch) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
	assert.Empty(t, src.offsets, "nothing fetched")
}

func TestWalkRowsPassesErrorOnce(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	fetch := func(_ context.Context, offset int) (*pagerTestPage, error) {
		calls++
		if offset > 0 {
			return nil, boom
		}
		return &pagerTestPage{rows: []int{7}, more: true}, nil
	}
	var got []int
	var errs []error
	for row, err := range walkRows(walkPages(context.Background(), 0, fetch), pagerKey) {
		if err != nil {
			errs = append(errs, err)
			assert.Zero(t, row)
			continue
		}
		got = append(got, row)
	}
	assert.Equal(t, []int{7}, got)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], boom)
	assert.Equal(t, 2, calls)
}

func TestRecentKeysWindow(t *testing.T) {
	r := newRecentKeys(3)
	key := func(i int) string { return fmt.Sprint("/p", i) }
	for i := range 10 {
		assert.False(t, r.check(key(i)), "first sight of %d", i)
		// The last size keys are always remembered...
		for back := range min(i+1, r.size) {
			assert.True(t, r.check(key(i-back)), "%d after adding %d", i-back, i)
		}
	}
	// ...and nothing beyond twice the window is kept.
	assert.False(t, r.check(key(0)), "0 was forgotten")
}

func TestRecentKeysNeverDropsANewKey(t *testing.T) {
	// Many more keys than the filters hold: false positives happen, and
	// must be caught by the exact check.
	r := newRecentKeys(64)
	for i := range 100_000 {
		require.False(t, r.check(fmt.Sprint("/p", i)), "key %d", i)
	}
}

func TestRecentKeysSteadyStateDoesNotAllocate(t *testing.T) {
	r := newRecentKeys(100)
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprint("/p", i)
	}
	for _, k := range keys[:300] {
		r.check(k)
	}
	i := 300
	allocs := testing.AllocsPerRun(500, func() {
		r.check(keys[i%len(keys)])
		i++
	})
	assert.Zero(t, allocs)
}
