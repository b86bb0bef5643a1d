package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

func termIsTerminal(fd int) bool { return term.IsTerminal(fd) }

// plainEvery is how often a plain progress line is written when stderr is
// not a terminal (a CI log): often enough to show the run is alive, rarely
// enough not to flood the log.
const plainEvery = 5 * time.Second

// analyticsQuota is the organization's analytics requests per hour: the
// export bar counts requests against it.
const analyticsQuota = 100

// spinner shows a wait: on a terminal a spinner with the status and the
// elapsed time, elsewhere a plain line every few seconds, nothing with
// --quiet.
type spinner struct {
	mu     sync.Mutex
	w      io.Writer
	what   string // "job job_123"
	start  time.Time
	bar    *progressbar.ProgressBar // nil unless stderr is a terminal
	last   time.Time                // of the last plain line
	status string
	quiet  bool
}

// newSpinner starts a spinner labelled what ("job " and an ID): the label
// and each status are server text, made printable.
func (a *app) newSpinner(what string) *spinner {
	what = printable(what)
	s := &spinner{w: a.stderr, what: what, start: time.Now(), quiet: a.quiet}
	if !a.quiet && a.term {
		s.bar = progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(a.stderr),
			progressbar.OptionSetDescription(what),
			progressbar.OptionSpinnerType(14),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionClearOnFinish(),
		)
	}
	return s
}

// update shows the status read last.
func (s *spinner) update(status string) {
	status = printable(status)
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := status != s.status
	s.status = status
	switch {
	case s.quiet:
	case s.bar != nil:
		s.bar.Describe(fmt.Sprintf("%s %s", s.what, status))
	case changed || time.Since(s.last) >= plainEvery:
		s.last = time.Now()
		fmt.Fprintf(s.w, "%s: %s (%s)\n", s.what, status, time.Since(s.start).Round(time.Second))
	}
}

// done removes the spinner, leaving the terminal line clean.
func (s *spinner) done() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bar != nil {
		_ = s.bar.Finish()
		s.bar = nil
	}
}

// exportBar shows an analytics export: rows written, pages read and
// requests sent (retries included) against the hourly quota.
type exportBar struct {
	mu                    sync.Mutex
	w                     io.Writer
	route                 string
	start, last           time.Time
	bar                   *progressbar.ProgressBar
	rows, pages, requests int
	quiet                 bool
	drawn                 time.Time // the bar's last redraw
}

func (a *app) newExportBar(route string) *exportBar {
	b := &exportBar{w: a.stderr, route: route, start: time.Now(), last: time.Now(), quiet: a.quiet}
	if !a.quiet && a.term {
		b.bar = progressbar.NewOptions(analyticsQuota,
			progressbar.OptionSetWriter(a.stderr),
			progressbar.OptionSetDescription(route),
			progressbar.OptionSetWidth(20),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("requests"),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionClearOnFinish(),
		)
	}
	return b
}

func (b *exportBar) addRows(n int) { b.add(n, 0, 0) }
func (b *exportBar) addPage()      { b.add(0, 1, 0) }

// addRequests counts requests sent, retries included.
func (b *exportBar) addRequests(n int) { b.add(0, 0, n) }

func (b *exportBar) add(rows, pages, requests int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.rows += rows
	b.pages += pages
	b.requests += requests
	switch {
	case b.quiet:
	case b.bar != nil:
		// A row alone redraws at most ten times a second: rows come fast.
		if requests == 0 && pages == 0 && time.Since(b.drawn) < 100*time.Millisecond {
			return
		}
		b.drawn = time.Now()
		if b.requests >= b.bar.GetMax() {
			b.bar.ChangeMax(b.requests + 1) // past the quota: keep counting
		}
		b.bar.Describe(b.describe())
		_ = b.bar.Set(b.requests)
	case time.Since(b.last) >= plainEvery:
		b.last = time.Now()
		fmt.Fprintln(b.w, b.line())
	}
}

func (b *exportBar) describe() string {
	return fmt.Sprintf("%s: %s, %s, requests of the hourly %d:", b.route, count(b.rows, "row"), count(b.pages, "page"), analyticsQuota)
}

func (b *exportBar) line() string {
	return fmt.Sprintf("%s: %s, %s, %d of %d hourly requests (%s)",
		b.route, count(b.rows, "row"), count(b.pages, "page"), b.requests, analyticsQuota, time.Since(b.start).Round(time.Second))
}

// done removes the bar and, unless quiet, leaves one summary line.
func (b *exportBar) done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		_ = b.bar.Finish()
		b.bar = nil
	}
	if !b.quiet {
		fmt.Fprintln(b.w, b.line())
	}
}

// count writes "1 row", "2 rows".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
