package jobs

import (
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// A run is active for its duration, then takes its outcome; nothing runs
// in the background, so the time asked is all that moves it.
func TestARunEndsWithItsOutcome(t *testing.T) {
	st := NewStore()
	for _, c := range []struct {
		outcome Outcome
		status  Status
		pr      bool
	}{{PullRequest, StatusCompleted, true}, {NoChange, StatusCompleted, false}, {Failed, StatusFailed, false}} {
		j := st.Create(&Job{ID: "job_" + string(c.outcome), ProjectID: "p", Repo: RepositoryURL("p"), CreatedAt: t0, Prompt: "x"}, c.outcome, t0, time.Minute)
		if s, pr := j.View(t0.Add(time.Minute - 1)); s != StatusActive || pr {
			t.Errorf("%s before the end: %s, pr %t", c.outcome, s, pr)
		}
		if s, pr := j.View(t0.Add(time.Minute)); s != c.status || pr != c.pr {
			t.Errorf("%s at the end: %s, pr %t; want %s, %t", c.outcome, s, pr, c.status, c.pr)
		}
	}
}

// Pull requests are numbered per repository in the order runs start, and a
// pull request stays on the job through later runs.
func TestPullRequestsAreNumberedInRequestOrder(t *testing.T) {
	st := NewStore()
	a := st.Create(&Job{ID: "job_a", ProjectID: "p", Repo: "r", CreatedAt: t0}, PullRequest, t0, time.Minute)
	b := st.Create(&Job{ID: "job_b", ProjectID: "p", Repo: "r", CreatedAt: t0}, PullRequest, t0, 0)
	if a.PRNumber != 1 || b.PRNumber != 2 || b.PRLink() != "r/pull/2" {
		t.Fatalf("numbers %d, %d; link %s", a.PRNumber, b.PRNumber, b.PRLink())
	}
	j, r := st.FollowUp("job_b", "p", "again", Failed, t0.Add(time.Second), time.Minute)
	if r != Accepted {
		t.Fatal(r)
	}
	if s, pr := j.View(t0.Add(2 * time.Minute)); s != StatusFailed || !pr {
		t.Errorf("after a failed follow-up: %s, pr %t; want failed with the pull request kept", s, pr)
	}
}

// Another project's job is as unknown as none; an archived job takes no
// follow-up and cannot be finished.
func TestFollowUpsAndArchiving(t *testing.T) {
	st := NewStore()
	st.Create(&Job{ID: "job_a", ProjectID: "p", CreatedAt: t0}, NoChange, t0, time.Hour)
	if r := st.Followable("job_a", "q"); r != NotFound {
		t.Errorf("another project: %d", r)
	}
	if err := st.Finish("job_a", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if j, _ := st.Get("job_a", ""); j.RunEnd != t0.Add(time.Minute) {
		t.Errorf("finished at %s", j.RunEnd)
	}
	_ = st.Archive("job_a", t0.Add(2*time.Minute))
	_ = st.Archive("job_a", t0.Add(3*time.Minute))
	j, _ := st.Get("job_a", "p")
	if s, _ := j.View(t0.Add(time.Hour)); s != StatusArchived || j.ArchivedAt != t0.Add(2*time.Minute) {
		t.Errorf("%s, archived at %s", s, j.ArchivedAt)
	}
	if _, r := st.FollowUp("job_a", "p", "x", NoChange, t0, 0); r != Archived {
		t.Errorf("follow-up of an archived job: %d", r)
	}
	if err := st.Finish("job_a", t0); !errors.Is(err, ErrArchived) {
		t.Errorf("finish: %v", err)
	}
	if err := st.SetOutcome("job_nope", Failed); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown job: %v", err)
	}
}

func TestBranchNamesFollowThePrompt(t *testing.T) {
	j := NewStore().Create(&Job{ID: "job_abcdefgh", Prompt: "Document the Webhooks API!"}, NoChange, t0, 0)
	if j.Ref != "mintlify/document-the-webhooks-api-abcdef" {
		t.Errorf("ref %q", j.Ref)
	}
	if Slug("???", 40, "docs") != "docs" || RepositoryURL("proj_X1") != "https://github.com/acme/proj-x1" {
		t.Error("slug fallback or repository name")
	}
}
