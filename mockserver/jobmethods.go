package mockserver

import "fmt"

// Jobs returns every stored job in creation order, across projects, with
// the prompts each was given.
func (s *Server) Jobs() []Job {
	now := s.Now()
	st := s.jobs
	st.mu.RLock()
	defer st.mu.RUnlock()
	out := make([]Job, len(st.order))
	for i, j := range st.order {
		out[i] = j.snapshot(now)
	}
	return out
}

// Job returns one stored job, in any project.
func (s *Server) Job(id string) (Job, bool) {
	now := s.Now()
	st := s.jobs
	st.mu.RLock()
	defer st.mu.RUnlock()
	j := st.lookup(id, nil)
	if j == nil {
		return Job{}, false
	}
	return j.snapshot(now), true
}

// SetOutcome changes how the job's current run ends. If the run is already
// over, the job's status changes at once, which is how a test makes a
// finished job fail.
func (s *Server) SetOutcome(jobID string, o Outcome) error {
	if !o.valid() {
		return fmt.Errorf("mockserver: invalid outcome %q", o)
	}
	return s.updateJob(jobID, func(st *jobStore, j *job) error {
		j.outcome = o
		st.reservePR(j)
		return nil
	})
}

// FinishJob ends the job's current run now, with its outcome, for tests on
// a real clock that should not wait for the job duration.
func (s *Server) FinishJob(jobID string) error {
	now := s.Now()
	return s.updateJob(jobID, func(_ *jobStore, j *job) error {
		if j.archived {
			return ErrJobArchived
		}
		if now.Before(j.runEnd) {
			j.runEnd = now
		}
		return nil
	})
}

// ArchiveJob archives the job, as the dashboard would: its status becomes
// archived and follow-ups are refused. Archiving twice keeps the first
// archivedAt.
func (s *Server) ArchiveJob(jobID string) error {
	now := s.Now()
	return s.updateJob(jobID, func(_ *jobStore, j *job) error {
		if !j.archived {
			j.archived, j.archivedAt = true, now
		}
		return nil
	})
}

func (s *Server) updateJob(jobID string, update func(*jobStore, *job) error) error {
	st := s.jobs
	st.mu.Lock()
	defer st.mu.Unlock()
	j := st.lookup(jobID, nil)
	if j == nil {
		return fmt.Errorf("%w: %q", ErrJobNotFound, jobID)
	}
	return update(st, j)
}
