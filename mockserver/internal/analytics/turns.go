package analytics

import (
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// NewULID makes a ULID for t with randomness from rng: the IDs the mock's
// assistant API gives threads and messages, which these routes read back.
func NewULID(t time.Time, rng *rand.Rand) string { return newULID(t, rng) }

// AddTurn stores one more turn of thread id, creating the thread with
// caller when it is new. The assistant API answers a thread one message at
// a time, while AddThreads takes whole threads and refuses a stored ID.
// The turn must not come before the thread's last one, and at the same
// millisecond as a stored turn it must differ from it in query, as
// AddThreads requires of every thread; a stored thread keeps its caller.
func (st *Store) AddTurn(id string, caller Caller, turn Turn) error {
	return st.write(func(e *events) error {
		d := &e.threads
		in := Thread{ID: strings.ToUpper(id), Caller: caller, Turns: []Turn{turn}}
		// The stored thread's own IDs are not taken for its new version.
		own := map[string]bool{}
		old := d.byID[in.ID]
		if old != nil {
			in.Caller = old.Caller
			in.Turns = append(slices.Clone(old.Turns), turn)
			own[old.ID] = true
			for _, t := range old.Turns {
				own[t.UserMessageID], own[t.AssistantMessageID] = true, true
			}
		}
		taken := func(s string) bool {
			if own[s] {
				return false
			}
			_, stored := d.messages[s]
			_, thread := d.byID[s]
			return stored || thread
		}
		t, err := st.prepareThread(in, taken)
		if err != nil {
			return err
		}
		// A new Thread value rather than an append in place: the frozen
		// set Reset returns to may share the old one. Earlier turn refs keep
		// pointing at the old value, whose turns are the same.
		d.byID[t.ID] = t
		d.addTurn(t, len(t.Turns)-1)
		return nil
	})
}
