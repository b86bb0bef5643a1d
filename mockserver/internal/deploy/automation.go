package deploy

import (
	"slices"
	"sync"
)

// Trigger is what starts an automation.
type Trigger string

// The automation triggers of the service. A custom schedule can be run
// now over the trigger route, a webhook over the webhook route; the others
// wait for their event.
const (
	CustomSchedule Trigger = "custom_schedule"
	CodeChange     Trigger = "code_change"
	ContentUpdate  Trigger = "content_update"
	Webhook        Trigger = "webhook"
)

// Valid reports whether t is one of the service's triggers.
func (t Trigger) Valid() bool {
	return t == CustomSchedule || t == CodeChange || t == ContentUpdate || t == Webhook
}

// Automation is a stored automation with the runs it was asked for.
type Automation struct {
	ID      string  `json:"id"`
	Project string  `json:"project"`
	Trigger Trigger `json:"trigger"`
	Active  bool    `json:"active"`
	Runs    int     `json:"runs"`
}

// Run is one recorded run of an automation.
type Run struct {
	AutomationID, RunID, JobID string
}

// Automations keeps the automations of one server and counts their runs.
// It is safe for concurrent use; the zero value is an empty store.
type Automations struct {
	mu   sync.RWMutex
	list []Automation   // in the order they were added
	byID map[string]int // index in list
}

// NewAutomations returns an empty store.
func NewAutomations() *Automations { return &Automations{} }

// Reset forgets every automation.
func (as *Automations) Reset() {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.list, as.byID = nil, nil
}

// Add stores a; its ID must be new.
func (as *Automations) Add(a Automation) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	if _, dup := as.byID[a.ID]; dup {
		return false
	}
	if as.byID == nil {
		as.byID = map[string]int{}
	}
	a.Runs = 0
	as.byID[a.ID] = len(as.list)
	as.list = append(as.list, a)
	return true
}

// All lists the automations in the order they were added, as copies.
func (as *Automations) All() []Automation {
	as.mu.RLock()
	defer as.mu.RUnlock()
	return slices.Clone(as.list)
}

// Refusal says why an automation cannot run.
type Refusal int

// Why Trigger refused, in the order the checks are made.
const (
	Accepted    Refusal = iota
	NotFound            // unknown, or another project's (the same answer); for a webhook run, another trigger too
	Inactive            // switched off
	NotSchedule         // not on a custom schedule
)

// Trigger records a run of a custom-schedule automation for project (the
// trigger route), with the run and job IDs the caller drew, unless a rule
// refuses it.
func (as *Automations) Trigger(project, id, runID, jobID string) (Run, Refusal) {
	as.mu.Lock()
	defer as.mu.Unlock()
	i, ok := as.byID[id]
	switch {
	case !ok || as.list[i].Project != project:
		return Run{}, NotFound
	case !as.list[i].Active:
		return Run{}, Inactive
	case as.list[i].Trigger != CustomSchedule:
		return Run{}, NotSchedule
	}
	as.list[i].Runs++
	return Run{AutomationID: id, RunID: runID, JobID: jobID}, Accepted
}

// RunWebhook records a run of a webhook automation for project (the
// webhook route), with the run ID the caller drew, unless a rule refuses
// it. An automation of another trigger is not found, as an unknown one.
func (as *Automations) RunWebhook(project, id, runID string) (Run, Refusal) {
	as.mu.Lock()
	defer as.mu.Unlock()
	i, ok := as.byID[id]
	switch {
	case !ok || as.list[i].Project != project || as.list[i].Trigger != Webhook:
		return Run{}, NotFound
	case !as.list[i].Active:
		return Run{}, Inactive
	}
	as.list[i].Runs++
	return Run{AutomationID: id, RunID: runID}, Accepted
}
