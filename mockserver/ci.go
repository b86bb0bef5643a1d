package mockserver

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/deploy"
	"github.com/docsagent/mintlify-go/mockserver/internal/staticexport"
)

// ciState is the server's side of deployments, previews, automations and
// static export. The rules live in internal/deploy and
// internal/staticexport; this holds them together with the per-project
// settings and the storage host.
type ciState struct {
	deploys    *deploy.Store
	exports    *staticexport.Store
	signer     *staticexport.Signer
	projects   map[string]*ciProject // fixed after New
	bundleSize atomic.Int64
	storage    storageHost
}

// ciProject is what a project has on the dashboard.
type ciProject struct {
	branch, subdomain string
	noPreviews        bool
	outcome           atomic.Pointer[Outcome] // nil: success
}

func (s *Server) buildCI() error {
	if err := s.buildOrgs(); err != nil {
		return err
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	s.ci = &ciState{
		deploys:  deploy.NewStore(),
		exports:  staticexport.NewStore(),
		signer:   staticexport.NewSigner(secret),
		projects: map[string]*ciProject{},
	}
	for id := range s.projects {
		ps := s.cfg.ci.projects[id]
		p := &ciProject{branch: ps.Branch, subdomain: ps.Subdomain, noPreviews: ps.NoPreviews}
		if p.branch == "" {
			p.branch = "main"
		}
		if p.subdomain == "" {
			p.subdomain = slug(strings.TrimPrefix(id, "proj_"), 40, "docs")
		}
		if ps.Outcome != "" {
			if !ps.Outcome.valid() {
				return fmt.Errorf("mockserver: project %s: invalid outcome %q", id, ps.Outcome)
			}
			o := ps.Outcome
			p.outcome.Store(&o)
		}
		s.ci.projects[id] = p
	}
	for id := range s.cfg.ci.projects {
		if s.projects[id] == nil {
			return fmt.Errorf("mockserver: WithProjectSettings: %w %q (add it with WithProject)", ErrUnknownProject, id)
		}
	}
	if o := s.cfg.ci.outcome; o != "" && !o.valid() {
		return fmt.Errorf("mockserver: WithOutcome: invalid outcome %q", o)
	}
	if n := s.cfg.ci.bundleSize; n > MaxBundleSize {
		return fmt.Errorf("mockserver: WithBundleSize(%d): want at most %d bytes (1 TiB)", n, int64(MaxBundleSize))
	}
	s.resetCI()
	return nil
}

// resetCI returns deployments, automations, exports and the forced outcome
// to their initial state (part of Reset).
func (s *Server) resetCI() {
	s.ci.deploys.Reset()
	s.ci.exports.Reset()
	s.ci.bundleSize.Store(s.cfg.ci.bundleSize)
	if o := s.cfg.ci.outcome; o != "" {
		s.defaultOutcome.Store(&o)
	}
	s.seedCI()
}

// seedCI gives every project, with or without -seed, the automations -seed
// promises (an active custom-schedule one, an inactive one, a code-change
// and a content-update one) and a short deployment history of three
// GitHub-triggered runs, all with stable IDs: tests in any language can
// name them without asking first.
func (s *Server) seedCI() {
	now := s.Now()
	for id, p := range s.ci.projects {
		for _, a := range []struct {
			name    string
			trigger deploy.Trigger
			active  bool
		}{
			{"weekly", deploy.CustomSchedule, true},
			{"paused", deploy.CustomSchedule, false},
			{"on-push", deploy.CodeChange, true},
			{"on-content", deploy.ContentUpdate, true},
		} {
			s.ci.deploys.AddAutomation(deploy.Automation{ID: stableHex(id, a.name), Project: id, Trigger: a.trigger, Active: a.active})
		}
		for i := 3; i >= 1; i-- {
			s.ci.deploys.Start(&deploy.Deployment{
				ID: stableHex(id, fmt.Sprint("deployment", i)), ProjectID: id, Branch: p.branch, Subdomain: p.subdomain,
				Source: "github", CreatedAt: now.Add(-time.Duration(i) * 24 * time.Hour), Duration: 2 * time.Minute,
				Fails:  i == 2,
				Author: &deploy.Author{Name: "Ada Lovelace", AvatarURL: "https://avatars.githubusercontent.com/u/1001", GitHubUserID: 1001},
			})
		}
	}
}

// stableHex is a 24-hex-digit ID (the service's IDs look like MongoDB
// ObjectIds) that depends only on its parts, for seeded data.
func stableHex(parts ...string) string {
	sum := sha1.Sum([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:12])
}

// randomHex is a fresh 24-hex-digit ID.
func randomHex() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// isHexID reports whether id has the shape of the service's IDs.
func isHexID(id string) bool {
	if len(id) != 24 {
		return false
	}
	for i := range len(id) {
		if c := id[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// runFails decides whether a new deployment, preview or export ends in
// failure: the override header, then the outcome forced on every run (the
// flag or the control API), then the project's own outcome.
func (s *Server) runFails(forced Outcome, p *ciProject) bool {
	if forced != "" {
		return forced == OutcomeFailed
	}
	if o := s.defaultOutcome.Load(); o != nil {
		return *o == OutcomeFailed
	}
	if p != nil {
		if o := p.outcome.Load(); o != nil {
			return *o == OutcomeFailed
		}
	}
	return false
}

// SetProjectOutcome sets how the project's new deployments, previews and
// exports end ("" or a success outcome: success; OutcomeFailed: failure).
func (s *Server) SetProjectOutcome(projectID string, o Outcome) error {
	p := s.ci.projects[projectID]
	if p == nil {
		return fmt.Errorf("%w %q", ErrUnknownProject, projectID)
	}
	if o == "" {
		p.outcome.Store(nil)
		return nil
	}
	if !o.valid() {
		return fmt.Errorf("mockserver: invalid outcome %q", o)
	}
	p.outcome.Store(&o)
	return nil
}

// readBody reads a JSON object body into v, bounded like every API body.
func readBody(c *call, v any) (reply, bool) {
	if c.r.ContentLength > maxBodyBytes {
		return tooLarge(), false
	}
	buf := getBuf()
	defer putBuf(buf)
	body, err := readAll(http.MaxBytesReader(c.w, c.r.Body, maxBodyBytes), *buf)
	*buf = body
	if err != nil {
		if _, ok := err.(*http.MaxBytesError); ok {
			return tooLarge(), false
		}
		return invalidBody("the request body could not be read: " + err.Error()), false
	}
	if trimmed := bytes.TrimSpace(body); len(trimmed) == 0 || trimmed[0] != '{' {
		return invalidBody("the request body must be a JSON object"), false
	}
	// Keys as the schema spells them; others are ignored, as the service
	// ignores them.
	if err := decodeExact(body, v, false); err != nil {
		return invalidBody(err.Error()), false
	}
	return reply{}, true
}

func jsonReply(status int, body []byte) reply { return reply{status: status, body: body} }
