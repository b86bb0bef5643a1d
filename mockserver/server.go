package mockserver

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/access"
	"github.com/docsagent/mintlify-go/mockserver/internal/analytics"
	"github.com/docsagent/mintlify-go/mockserver/internal/assistant"
	"github.com/docsagent/mintlify-go/mockserver/internal/index"
	"github.com/docsagent/mintlify-go/mockserver/internal/jobs"
	"github.com/docsagent/mintlify-go/mockserver/internal/journal"
	"github.com/docsagent/mintlify-go/mockserver/internal/ratelimit"
)

// Version identifies the mock's behaviour; it is sent in VersionHeader on
// every response so a client (or a confused human) can tell it is not
// talking to the real service.
const Version = "0.1.0"

// Headers the mock sends or understands. The override headers let a test in
// any language steer one request without touching the control API.
const (
	VersionHeader   = "X-Mock-Version" // on every response: Version
	RequestIDHeader = "X-Request-Id"   // on every API response; also in the journal
	OutcomeHeader   = "X-Mock-Outcome" // on create, follow-up, deployment, preview or export: the run's Outcome
	FaultHeader     = "X-Mock-Fault"   // on any API request: a fault spec (see ParseFault)
)

// Errors returned by the Server's Go methods.
var (
	ErrJobNotFound    = jobs.ErrNotFound
	ErrUnknownProject = errors.New("mockserver: unknown project")
	ErrJobArchived    = jobs.ErrArchived
)

// Server is a stateful, in-process implementation of the Mintlify admin
// API: agent jobs, the analytics export, deployments and previews, and
// static export. It is safe for concurrent use; every piece of state (clock,
// keys, jobs, events, deployments, exports, journal) belongs to one Server,
// so parallel tests never share anything.
type Server struct {
	cfg        config
	apiKey     string
	projectID  string
	url        string
	listenHost string // the API listener's host: the storage host listens there too

	projects map[string]*project // fixed after New
	offset   atomic.Int64        // nanoseconds the control API moved the clock

	orgs           *access.Book      // organizations, their projects and keys
	signer         *analytics.Signer // seals analytics cursors; one key per server
	jobs           *jobs.Store
	deploys        *deployState     // deployments, previews and what triggers them
	exports        *exportState     // static export and its storage host
	assistant      *assistant.Store // the assistant API's pages, threads and credits
	index          *index.Store     // the Index API's corpus
	assistantKey   string
	indexKey       string
	domain         string
	limiter        *ratelimit.Limiter
	journal        *journal.Journal
	faults         *faultSet
	defaultOutcome atomic.Pointer[Outcome] // set over the control API; nil = ask the agent
	requestSeq     atomic.Uint64

	handler http.Handler
	api     *http.ServeMux
	control *http.ServeMux
	guard   controlGuard // who may use the control API

	ctx       context.Context // cancelled by Close to cut sleeps short
	cancel    context.CancelFunc
	srv       *http.Server
	serveDone chan struct{}
	closeMu   sync.RWMutex
	closed    bool
	inflight  sync.WaitGroup // handlers running, also in-memory ones
	conns     sync.WaitGroup // connection goroutines of srv
	closeOnce sync.Once
}

// project is what the server keeps of a project: its repository, its
// analytics events and what it has on the service's dashboard.
type project struct {
	id     string
	repo   string           // GitHub URL reported in every job's source
	events *analytics.Store // visits, searches, feedback, threads

	branch, subdomain string                  // the deployment branch; the docs' subdomain
	noPreviews        bool                    // the plan lacks preview deployments
	outcome           atomic.Pointer[Outcome] // how its deployments, previews and exports end; nil: success
}

// New starts a server on a random 127.0.0.1 port. It panics if the options
// are invalid or no port can be opened, like httptest.NewServer, because a
// test cannot proceed either way; use Start in tests to get t.Fatal instead.
func New(opts ...Option) *Server {
	s, err := newServer(opts)
	if err != nil {
		panic(err)
	}
	return s
}

// Start is New for tests: the server is closed by tb.Cleanup, and setup
// errors fail the test rather than panic. It keeps no global state, so it is
// safe in tests that call t.Parallel.
func Start(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s, err := newServer(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

func newServer(opts []Option) (*Server, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	if cfg.noLimits { // whatever the order of the options
		cfg.limits = [numLimitKinds]ratelimit.Limit{}
	}
	s, err := build(cfg)
	if err != nil {
		if cfg.listener != nil {
			cfg.listener.Close() // WithListener hands it over: ours to close
		}
		return nil, err
	}
	ln := cfg.listener
	if ln == nil {
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			s.cancel()
			return nil, fmt.Errorf("mockserver: listen: %w", err)
		}
	}
	s.url = "http://" + ln.Addr().String()
	s.listenHost = "127.0.0.1"
	if host, _, err := net.SplitHostPort(ln.Addr().String()); err == nil {
		s.listenHost = host
	}
	s.srv = &http.Server{
		Handler:           s.handler,
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
		ConnState:         s.trackConn,
		ReadHeaderTimeout: orDefault(cfg.timeouts.ReadHeader, DefaultTimeouts.ReadHeader),
		ReadTimeout:       orDefault(cfg.timeouts.Read, DefaultTimeouts.Read),
		WriteTimeout:      orDefault(cfg.timeouts.Write, DefaultTimeouts.Write),
		IdleTimeout:       orDefault(cfg.timeouts.Idle, DefaultTimeouts.Idle),
	}
	go func() {
		defer close(s.serveDone)
		_ = s.srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return s, nil
}

// orDefault is d, or def when d is zero.
func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// build assembles everything but the listener.
func build(cfg config) (*Server, error) {
	s := &Server{cfg: cfg, serveDone: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	ok := false
	defer func() {
		if !ok {
			s.cancel()
		}
	}()
	s.apiKey = cfg.apiKey
	if s.apiKey == "" {
		s.apiKey = "mint_" + randomToken()
	}
	s.projectID = cfg.projectID
	if s.projectID == "" {
		s.projectID = "proj_" + randomToken()[:12]
	}
	s.signer = analytics.NewSigner()
	if err := s.areaKeys(); err != nil {
		return nil, err
	}
	if err := s.buildProjects(); err != nil {
		return nil, err
	}
	if o := cfg.outcome; o != "" && !jobs.ValidOutcome(o) {
		return nil, fmt.Errorf("mockserver: WithOutcome: invalid outcome %q", o)
	}
	if n := cfg.bundleSize; n > MaxBundleSize {
		return nil, fmt.Errorf("mockserver: WithBundleSize(%d): want at most %d bytes (1 TiB)", n, int64(MaxBundleSize))
	}
	guard, err := newControlGuard(cfg.controlOrigins, cfg.controlHosts)
	if err != nil {
		return nil, err
	}
	s.guard = guard
	faults, err := newFaultSet(cfg.faults, cfg.faultSeed)
	if err != nil {
		return nil, err
	}
	s.faults = faults
	s.jobs = jobs.NewStore()
	s.deploys = newDeployState()
	s.exports = newExportState()
	s.resetRuns()
	s.limiter = ratelimit.New()
	s.newAssistant()
	s.index = index.NewStore()
	journalSize := cfg.journalSize
	if journalSize <= 0 {
		journalSize = DefaultJournalSize
	}
	s.journal = journal.New(journalSize)
	if err := s.seedEvents(); err != nil {
		return nil, err
	}
	s.routes()
	ok = true
	return s, nil
}

// buildProjects makes the projects, the organizations their keys form and
// the keys' restrictions, and applies each project's dashboard settings.
func (s *Server) buildProjects() error {
	grants := map[string]map[string]bool{} // key -> projects it may use
	s.projects = map[string]*project{}
	grant := func(key, projectID string) error {
		if err := access.CheckForm(key); err != nil {
			return err
		}
		if kind := access.KindOf(key); kind != access.KindAdmin {
			return fmt.Errorf("mockserver: the key of a project must be an admin key; %s is an %s key", access.RedactKey(key), kind)
		}
		if grants[key] == nil {
			grants[key] = map[string]bool{}
		}
		grants[key][projectID] = true
		return nil
	}
	addProject := func(id string, keys []string) error {
		if id == "" || strings.ContainsAny(id, "/?#") {
			return fmt.Errorf("mockserver: invalid project ID %q", id)
		}
		if _, dup := s.projects[id]; !dup {
			s.projects[id] = &project{id: id, repo: jobs.RepositoryURL(id), events: analytics.NewStore(id, s.signer)}
		}
		for _, k := range keys {
			if err := grant(k, id); err != nil {
				return err
			}
		}
		return nil
	}
	if err := addProject(s.projectID, []string{s.apiKey}); err != nil {
		return err
	}
	for _, p := range s.cfg.projects {
		keys := p.keys
		if len(keys) == 0 {
			keys = []string{s.apiKey}
		}
		if err := addProject(p.id, keys); err != nil {
			return err
		}
	}
	s.orgs = access.Build(grants, s.apiKey, !s.cfg.noPreviews, !s.cfg.noStaticExport)
	if err := s.orgs.Add(s.assistantKey, access.Spec{Domain: s.domain}); err != nil {
		return err
	}
	if err := s.orgs.Add(s.indexKey, access.Spec{}); err != nil {
		return err
	}
	s.orgs.SetIndexAccess(!s.cfg.noIndexAccess)
	for _, spec := range s.cfg.keys {
		if err := s.addKey(spec.key, spec.spec); err != nil {
			return err
		}
	}
	for id, p := range s.projects {
		ps := s.cfg.settings[id]
		p.branch, p.subdomain, p.noPreviews = ps.Branch, ps.Subdomain, ps.NoPreviews
		if p.branch == "" {
			p.branch = "main"
		}
		if p.subdomain == "" {
			p.subdomain = jobs.Slug(strings.TrimPrefix(id, "proj_"), 40, "docs")
		}
		if ps.Outcome != "" {
			if !jobs.ValidOutcome(ps.Outcome) {
				return fmt.Errorf("mockserver: project %s: invalid outcome %q", id, ps.Outcome)
			}
			o := ps.Outcome
			p.outcome.Store(&o)
		}
	}
	for id := range s.cfg.settings {
		if s.projects[id] == nil {
			return fmt.Errorf("mockserver: WithProjectSettings: %w %q (add it with WithProject)", ErrUnknownProject, id)
		}
	}
	return nil
}

// NewKey makes a key of the primary organization with the restrictions of
// spec, as POST /_mock/keys does: an admin key, or with spec.Type an
// assistant key (of spec.Domain, else the mock's) or an Index key.
func (s *Server) NewKey(spec KeySpec) (string, error) {
	var key string
	switch spec.Type {
	case "", KeyAdmin:
		key = keyPrefix + randomToken()
	case KeyAssistant:
		key = access.AssistantKeyPrefix + randomToken()
	case KeyIndex:
		key = access.IndexKeyPrefix + randomToken()
	default:
		return "", fmt.Errorf("mockserver: key type %q: want %s, %s or %s", spec.Type, KeyAdmin, KeyAssistant, KeyIndex)
	}
	return key, s.addKey(key, spec)
}

// addKey gives key the restrictions of spec; an assistant key without a
// domain belongs to the mock's.
func (s *Server) addKey(key string, spec KeySpec) error {
	kind := access.KindOf(key)
	if spec.Type != "" && string(spec.Type) != kind.String() {
		return fmt.Errorf("mockserver: key %s is an %s key, not %s", access.RedactKey(key), kind, spec.Type)
	}
	as := spec.access()
	if kind == access.KindAssistant && as.Domain == "" {
		as.Domain = s.domain
	}
	return s.orgs.Add(key, as)
}

// areaKeys sets the assistant key, the Index key and the domain from the
// options, drawing the keys at random when not given.
func (s *Server) areaKeys() error {
	s.domain = s.cfg.domain
	if !assistant.ValidDomain(s.domain) {
		return fmt.Errorf("mockserver: WithDomain(%.64q): want 1 to 253 letters, digits, dots or hyphens", s.domain)
	}
	s.assistantKey, s.indexKey = s.cfg.assistantKey, s.cfg.indexKey
	if s.assistantKey == "" {
		s.assistantKey = access.AssistantKeyPrefix + randomToken()
	}
	if s.indexKey == "" {
		s.indexKey = access.IndexKeyPrefix + randomToken()
	}
	if access.KindOf(s.assistantKey) != access.KindAssistant {
		return fmt.Errorf("mockserver: WithAssistantKey: %s does not start with %s", access.RedactKey(s.assistantKey), access.AssistantKeyPrefix)
	}
	if access.KindOf(s.indexKey) != access.KindIndex {
		return fmt.Errorf("mockserver: WithIndexKey: %s does not start with %s", access.RedactKey(s.indexKey), access.IndexKeyPrefix)
	}
	return nil
}

// tokenEncoding is lower-case base32 without padding: IDs that read well
// in URLs and logs.
var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// randomToken returns 26 characters from 128 random bits: IDs and default
// keys must not be guessable from one another.
func randomToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	return tokenEncoding.EncodeToString(b[:])
}

// URL is the base URL to give a client, such as "http://127.0.0.1:41234".
func (s *Server) URL() string { return s.url }

// APIKey is a valid key for ProjectID.
func (s *Server) APIKey() string { return s.apiKey }

// ProjectID is the primary project, the one the options without a project
// argument act on.
func (s *Server) ProjectID() string { return s.projectID }

// Now is the server's idea of the time: the clock plus any advance made over
// the control API. Build visits relative to it when the clock is real.
func (s *Server) Now() time.Time {
	return s.cfg.clock.Now().Add(time.Duration(s.offset.Load()))
}

// Handler serves the API and the control API, for mounting in a server of
// your own. It stays valid until Close.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the server: in-flight requests (including injected delays)
// are cut short, connections are closed, and no goroutine is left running
// when it returns. It is safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.closeMu.Lock()
		s.closed = true
		s.closeMu.Unlock()
		s.cancel()
		if s.srv != nil {
			_ = s.srv.Close()
			<-s.serveDone
		}
		s.closeStorage()
		s.inflight.Wait()
		s.conns.Wait()
	})
}

// Reset returns the server to its initial state: no jobs, the visits and
// fault rules given as options, an empty journal, fresh rate-limit windows,
// no forced outcome and no clock advance. Keys and projects stay.
func (s *Server) Reset() {
	s.jobs.Reset()
	for _, p := range s.projects {
		p.events.Reset()
	}
	s.assistant.Reset()
	s.index.Reset()
	s.journal.Clear()
	s.limiter.Reset()
	s.faults.reset()
	s.defaultOutcome.Store(nil)
	s.offset.Store(0)
	s.resetRuns()
}

// resetRuns returns deployments (with the seeded history), exports and the
// forced outcome to their initial state.
func (s *Server) resetRuns() {
	s.resetDeployments()
	s.exports.reset(s.cfg.bundleSize)
	if o := s.cfg.outcome; o != "" {
		s.defaultOutcome.Store(&o)
	}
}

// enter registers a request, or refuses it once Close has begun, so that
// Close can wait for every handler without racing against new ones.
func (s *Server) enter() bool {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	return true
}

func (s *Server) trackConn(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		s.conns.Add(1)
	case http.StateHijacked, http.StateClosed:
		s.conns.Done()
	}
}
