package deploy

import (
	"encoding/json"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestDeploymentMovesOnTheClock(t *testing.T) {
	d := &Deployment{ID: "d", ProjectID: "p", Branch: "main", Subdomain: "acme", CreatedAt: t0, Duration: 10 * time.Second,
		Commit: CommitFor("p", "main", 0)}
	steps := len(d.script())
	cases := []struct {
		at     time.Duration
		status Status
		logs   int
	}{
		{0, Queued, 0},
		{1999 * time.Millisecond, Queued, 0},
		{2 * time.Second, InProgress, 1},
		{6 * time.Second, InProgress, 1 + (steps-1)/2},
		{9999 * time.Millisecond, InProgress, steps - 1 + 0},
		{10 * time.Second, Success, steps + 1},
		{time.Hour, Success, steps + 1},
	}
	prev := 0
	for _, c := range cases {
		v := d.At(t0.Add(c.at))
		if v.Status != c.status {
			t.Errorf("at %s: status %s, want %s", c.at, v.Status, c.status)
		}
		if c.at != 9999*time.Millisecond && len(v.Logs) != c.logs {
			t.Errorf("at %s: %d log lines, want %d", c.at, len(v.Logs), c.logs)
		}
		if len(v.Logs) < prev {
			t.Errorf("at %s: the log shrank from %d to %d lines", c.at, prev, len(v.Logs))
		}
		prev = len(v.Logs)
		if ended := !v.EndedAt.IsZero(); ended != (c.status == Success) {
			t.Errorf("at %s: endedAt %v", c.at, v.EndedAt)
		}
	}
	d.Fails = true
	if v := d.At(t0.Add(time.Hour)); v.Status != Failure || v.Logs[len(v.Logs)-1] != "Deployment failed" {
		t.Errorf("failing run: %+v", v)
	}
	zero := &Deployment{CreatedAt: t0, Commit: CommitFor("p", "main", 1)}
	if v := zero.At(t0); v.Status != Success {
		t.Errorf("a zero-length run is over at once: %s", v.Status)
	}
}

func TestStatusJSONHasVendorNamesAndNullAuthor(t *testing.T) {
	st := NewStore()
	d := st.Start(&Deployment{ID: "d1", ProjectID: "p", Branch: "main", Subdomain: "acme", Source: "api", CreatedAt: t0, Duration: time.Second})
	var m map[string]any
	if err := json.Unmarshal(st.JSON(d, t0), &m); err != nil {
		t.Fatal(err)
	}
	if v, ok := m["author"]; !ok || v != nil {
		t.Errorf("author = %v (present %v), want null", v, ok)
	}
	if _, ok := m["endedAt"]; ok {
		t.Error("endedAt before the run ended")
	}
	if m["_id"] != "d1" || m["status"] != "queued" {
		t.Errorf("answer %v", m)
	}
	files := m["commit"].(map[string]any)["filesChanged"].(map[string]any)
	for _, k := range []string{"added", "modified", "removed"} {
		if _, ok := files[k].([]any); !ok {
			t.Errorf("filesChanged.%s = %v, want an array", k, files[k])
		}
	}
}

func TestSuccessiveCommitsDiffer(t *testing.T) {
	a, b := CommitFor("p", "main", 0), CommitFor("p", "main", 1)
	if a.SHA == b.SHA || a.SHA != CommitFor("p", "main", 0).SHA {
		t.Errorf("SHAs %s, %s: want stable per run and different between runs", a.SHA, b.SHA)
	}
}

func TestAutomationRules(t *testing.T) {
	st := NewAutomations()
	st.Add(Automation{ID: "a", Project: "p", Trigger: CustomSchedule, Active: true})
	st.Add(Automation{ID: "off", Project: "p", Trigger: CustomSchedule})
	st.Add(Automation{ID: "push", Project: "p", Trigger: CodeChange, Active: true})
	st.Add(Automation{ID: "hook", Project: "p", Trigger: Webhook, Active: true})
	st.Add(Automation{ID: "hook-off", Project: "p", Trigger: Webhook})
	for _, c := range []struct {
		project, id string
		want        Refusal
	}{
		{"p", "a", Accepted}, {"q", "a", NotFound}, {"p", "nope", NotFound}, {"p", "off", Inactive}, {"p", "push", NotSchedule},
		{"p", "hook", NotSchedule},
	} {
		if _, got := st.Trigger(c.project, c.id, "r", "j"); got != c.want {
			t.Errorf("trigger %s/%s: %d, want %d", c.project, c.id, got, c.want)
		}
	}
	for _, c := range []struct {
		project, id string
		want        Refusal
	}{
		{"p", "hook", Accepted}, {"p", "hook", Accepted}, {"q", "hook", NotFound}, {"p", "nope", NotFound},
		{"p", "a", NotFound}, {"p", "push", NotFound}, {"p", "hook-off", Inactive},
	} {
		run, got := st.RunWebhook(c.project, c.id, "r1")
		if got != c.want || (got == Accepted && run != Run{AutomationID: c.id, RunID: "r1"}) {
			t.Errorf("webhook %s/%s: %d %+v, want %d", c.project, c.id, got, run, c.want)
		}
	}
	for _, a := range st.All() {
		if want := map[string]int{"a": 1, "hook": 2}[a.ID]; a.Runs != want {
			t.Errorf("%s ran %d times, want %d", a.ID, a.Runs, want)
		}
	}
}

func TestPreviewURLDependsOnBranchOnly(t *testing.T) {
	if PreviewURL("acme", "feat/x") != PreviewURL("acme", "feat/x") || PreviewURL("acme", "feat/x") == PreviewURL("acme", "feat-x") {
		t.Error("preview URLs must be stable per branch and distinct between branches")
	}
}
