package mockserver_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/docsagent/mintlify-go/mockserver"
)

// atOnce runs every worker rounds times (its round number its argument),
// all workers at once, then reports each failure they sent to errs.
func atOnce(t *testing.T, rounds int, workers []func(int), errs chan string) {
	t.Helper()
	var wg sync.WaitGroup
	for _, work := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				work(i)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// Run with -race: every kind of request at once, from several goroutines.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	h := setup(t, mockserver.WithoutRateLimits(), mockserver.WithJobDuration(0), mockserver.WithSyntheticVisits(2000))
	const workers, perWorker = 8, 25
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := h.hc
			if w%2 == 1 {
				hc = h.s.Client() // half in memory
			}
			for i := range perWorker {
				prompt := fmt.Sprintf("worker %d job %d", w, i)
				r := h.send(hc, "POST", h.jobsPath(""), `{"prompt":"`+prompt+`"}`)
				if !assert.Equal(t, http.StatusCreated, r.Status) {
					return
				}
				var j job
				r.decode(t, &j)
				assert.Equal(t, http.StatusOK, h.send(hc, "GET", h.jobsPath("/"+j.ID), "").Status)
				assert.Equal(t, http.StatusOK, h.send(hc, "POST", h.jobsPath("/"+j.ID+"/message"), `{"prompt":"more"}`).Status)
				assert.Equal(t, http.StatusOK, h.send(hc, "GET", h.visitorsPath(fmt.Sprintf("limit=%d", 1+i)), "").Status)
				if i%5 == 0 {
					require.NoError(t, h.s.AddVisits(h.s.ProjectID(), mockserver.Visit{VisitorID: prompt, Path: "/p", Time: epoch}))
					_ = h.s.Journal()
					h.send(hc, "GET", "/_mock/jobs", "")
				}
			}
		}()
	}
	wg.Wait()

	jobs := h.s.Jobs()
	require.Len(t, jobs, workers*perWorker)
	prompts := map[string]bool{}
	prs := map[string]bool{}
	for _, j := range jobs {
		assert.False(t, prompts[j.Prompt], "prompt %q made two jobs", j.Prompt)
		prompts[j.Prompt] = true
		require.Equal(t, mockserver.StatusCompleted, j.Status)
		assert.False(t, prs[j.PRLink], "PR %s given twice", j.PRLink)
		prs[j.PRLink] = true
	}
	for n := 1; n <= len(jobs); n++ {
		assert.True(t, prs[jobs[0].Repository+"/pull/"+fmt.Sprint(n)], "PR numbers count 1..%d without gaps", len(jobs))
	}
	assert.Len(t, h.s.Journal(), workers*perWorker*4)
}

// Run with -race: events arrive while walks run, and every walk still
// gives each row once.
func TestConcurrentEventsAndWalks(t *testing.T) {
	t.Parallel()
	d := buildDataset(8)
	s := mockserver.Start(t, append(d.options(), mockserver.WithSeed(2000))...)
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				at := day0.Add(time.Duration(i) * time.Hour)
				id := fmt.Sprintf("w%d-%d", w, i)
				assert.NoError(t, s.AddSearches(s.ProjectID(), mockserver.SearchEvent{Query: id, Time: at}))
				assert.NoError(t, s.AddFeedback(s.ProjectID(), mockserver.Feedback{ID: id, Path: "/p", Source: mockserver.FeedbackAgent, CreatedAt: at}))
				assert.NoError(t, s.AddThreads(s.ProjectID(), mockserver.Thread{Turns: []mockserver.Turn{{Time: at, Query: id}}}))
				assert.NoError(t, s.AddVisits(s.ProjectID(), mockserver.Visit{VisitorID: id, Path: "/p", Time: at}))
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newRouteClient(t, s)
			for _, size := range []int{7, 50} {
				total := -1
				terms := walkCursor(c, "searches", "searches", "", size, searchesPage(t, &total), nil)
				assertEachOnce(t, nil, ids(terms, func(r searchRow) string { return r.SearchQuery }))
				entries := walkCursor(c, "feedback", "feedback", "", size, feedbackPage(t), nil)
				assertEachOnce(t, nil, ids(entries, func(r feedbackRow) string { return r.ID }))
				turns := walkCursor(c, "assistant", "assistant", "", size, conversationsPage(t), nil)
				assertEachOnce(t, nil, ids(turns, func(r conversationRow) string { return r.ID + "@" + r.Timestamp }))
				// Totals hold still only where no visit arrives: after
				// the writers' last hour (an offset walk over a window
				// that grows sees its totals change between pages).
				c.walkOffset("views", window{from: day0.Add(100 * time.Hour)}, 250)
			}
		}()
	}
	wg.Wait()
	counts, err := s.EventCounts(s.ProjectID())
	require.NoError(t, err)
	assert.Equal(t, len(d.feedback)+2000/50+200, counts.Feedback)
}
