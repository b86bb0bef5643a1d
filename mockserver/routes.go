package mockserver

import (
	"net"
	"net/http"
	"strings"

	"github.com/docsagent/mintlify-go/mockserver/internal/ratelimit"
)

// Route names identify the API's endpoints in the journal and in fault
// rules.
const (
	RouteCreateJob = "create-job" // POST /v2/agent/{projectId}/job
	RouteGetJob    = "get-job"    // GET  /v2/agent/{projectId}/job/{id}
	RouteFollowUp  = "follow-up"  // POST /v2/agent/{projectId}/job/{id}/message
	RouteVisitors  = "visitors"   // GET  /v1/analytics/{projectId}/visitors

	RouteViews          = "views"            // GET /v1/analytics/{projectId}/views
	RouteSearches       = "searches"         // GET /v1/analytics/{projectId}/searches
	RouteFeedback       = "feedback"         // GET /v1/analytics/{projectId}/feedback
	RouteFeedbackByPage = "feedback-by-page" // GET /v1/analytics/{projectId}/feedback/by-page
	RouteConversations  = "assistant"        // GET /v1/analytics/{projectId}/assistant
	RouteThread         = "thread"           // GET /v1/analytics/{projectId}/assistant/threads/{threadId}
	RouteCallerStats    = "caller-stats"     // GET /v1/analytics/{projectId}/assistant/caller-stats
)

// Routes of deployments, previews, automations and static export.
const (
	RouteTriggerDeployment  = "trigger-deployment"   // POST /v1/project/update/{projectId}
	RouteDeploymentStatus   = "deployment-status"    // GET  /v1/project/update-status/{statusId}
	RouteTriggerPreview     = "trigger-preview"      // POST /v1/project/preview/{projectId}
	RouteTriggerAutomation  = "trigger-automation"   // POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger
	RouteAutomationWebhook  = "automation-webhook"   // POST /v2/workflow/{projectId}/{workflowSchemaId}/webhook
	RouteStartStaticExport  = "start-static-export"  // POST /v1/static-export/jobs
	RouteStaticExportStatus = "static-export-status" // GET  /v1/static-export/jobs/{jobId}
	RouteStaticExportBundle = "static-export-bundle" // POST /v1/static-export/jobs/{jobId}/bundle
)

// Routes of the assistant API (under /discovery) and of the Index API
// (under /api/universal-search), on the same listener.
const (
	RouteAssistantMessage   = "assistant-message"    // POST /discovery/v2/assistant/{domain}/message
	RouteAssistantMessageV1 = "assistant-message-v1" // POST /discovery/v1/assistant/{domain}/message
	RouteDocsSearch         = "docs-search"          // POST /discovery/v1/search/{domain}
	RoutePageContent        = "page-content"         // POST /discovery/v1/page/{domain}
	RouteIndexContext       = "index-context"        // POST /api/universal-search/v1/context
	RouteIndexSearch        = "index-search"         // POST /api/universal-search/v1/search
	RouteIndexContents      = "index-contents"       // POST /api/universal-search/v1/contents
)

// The limit kinds of the route table's limit columns.
const (
	noLimit ratelimit.Kind = iota
	jobLimit
	analyticsLimit
	deployLimit
	previewLimit
	messageLimit     // assistant messages, v1 and v2 together, per organization
	messageIPLimit   // assistant messages per client address
	docsSearchLimit  // docs searches per organization
	pageContentLimit // page content requests per organization
	indexLimit       // Index requests per organization, the short window
	indexDayLimit    // Index requests per organization, the day

	numLimitKinds
)

// limits says, per limit kind, which bucket a request counts in and how
// its 429 names it (the figures are in config.limits). Job creations and
// follow-ups share a budget per project; analytics requests one per
// organization, every analytics route together; deployments and previews
// one each per organization, deployments with both automation routes.
var limits = [numLimitKinds]struct {
	bucket func(*call) string
	what   string
}{
	jobLimit:         {perProject, "job creations and follow-ups per project"},
	analyticsLimit:   {perOrg, "analytics requests per organization"},
	deployLimit:      {perOrg, "deployment and automation triggers per organization"},
	previewLimit:     {perOrg, "preview deployments per organization"},
	messageLimit:     {perOrg, "assistant messages per organization"},
	messageIPLimit:   {perIP, "assistant messages per IP address"},
	docsSearchLimit:  {perOrg, "docs searches per organization"},
	pageContentLimit: {perOrg, "page content requests per organization"},
	indexLimit:       {perOrg, "Index requests per organization"},
	indexDayLimit:    {perOrg, "Index requests per organization"},
}

func perProject(c *call) string { return c.project.id }
func perOrg(c *call) string     { return c.org.ID }

// perIP is the client's address, the TCP peer's (forwarded-for headers are
// not trusted, as for IP allowlists).
func perIP(c *call) string {
	host, _, err := net.SplitHostPort(c.r.RemoteAddr)
	if err != nil {
		return c.r.RemoteAddr
	}
	return host
}

// apiKind is which of the service's three APIs a route belongs to: it
// decides the kind of key the route takes and the shape of its errors.
type apiKind uint8

const (
	adminAPI     apiKind = iota // mint_ keys; {"error", "details"}
	assistantAPI                // mint_dsc_ keys of the path's domain; {"message"}; CORS for any origin
	indexAPI                    // mint_us_ keys; {"error"} and nothing else; no CORS
)

// The path prefixes of the assistant and Index APIs: a client's base URL is
// the mock's URL plus one of them.
const (
	discoveryPrefix = "/discovery"
	indexPrefix     = "/api/universal-search"
)

// apiOf is the API a request belongs to: its route's, or for a request
// that matched none, the one its path prefix names (so its 404 has that
// API's error body).
func apiOf(rt *route, path string) apiKind {
	switch {
	case rt != unmatched:
		return rt.api
	case strings.HasPrefix(path, discoveryPrefix+"/"):
		return assistantAPI
	case strings.HasPrefix(path, indexPrefix+"/"):
		return indexAPI
	}
	return adminAPI
}

// route is a row of the route table: how a request is matched, which
// limit it takes, and the handler of its API area.
type route struct {
	name    string
	method  string
	path    string // ServeMux pattern path, also shown in not-found hints
	limit   ratelimit.Kind
	outer   ratelimit.Kind // a second limit, taken before limit: the longer window, so a request it refuses takes no slot of limit
	api     apiKind        // the key it takes and its error body (zero: the admin API)
	streams bool           // answers a stream (reply.stream), which stream-error faults reach
	outcome bool           // reads OutcomeHeader: the run it starts ends as the header says
	handle  func(s *Server, c *call) reply
	segs    []string // path split on "/", for the closest-route hint
	pattern string   // "METHOD path"
}

// apiRoutes is the route table of the API, grouped by area. Its order
// breaks ties in the closest-route hint of a 404.
var apiRoutes = []*route{
	// Agent jobs.
	{name: RouteCreateJob, method: http.MethodPost, path: "/v2/agent/{projectId}/job", limit: jobLimit, outcome: true, handle: (*Server).createJob},
	{name: RouteGetJob, method: http.MethodGet, path: "/v2/agent/{projectId}/job/{id}", handle: (*Server).getJob},
	{name: RouteFollowUp, method: http.MethodPost, path: "/v2/agent/{projectId}/job/{id}/message", limit: jobLimit, outcome: true, handle: (*Server).followUp},

	// The analytics export.
	{name: RouteVisitors, method: http.MethodGet, path: "/v1/analytics/{projectId}/visitors", limit: analyticsLimit, handle: (*Server).visitors},
	{name: RouteViews, method: http.MethodGet, path: "/v1/analytics/{projectId}/views", limit: analyticsLimit, handle: (*Server).views},
	{name: RouteSearches, method: http.MethodGet, path: "/v1/analytics/{projectId}/searches", limit: analyticsLimit, handle: (*Server).searches},
	{name: RouteFeedback, method: http.MethodGet, path: "/v1/analytics/{projectId}/feedback", limit: analyticsLimit, handle: (*Server).feedback},
	{name: RouteFeedbackByPage, method: http.MethodGet, path: "/v1/analytics/{projectId}/feedback/by-page", limit: analyticsLimit, handle: (*Server).feedbackByPage},
	{name: RouteConversations, method: http.MethodGet, path: "/v1/analytics/{projectId}/assistant", limit: analyticsLimit, handle: (*Server).conversations},
	{name: RouteThread, method: http.MethodGet, path: "/v1/analytics/{projectId}/assistant/threads/{threadId}", limit: analyticsLimit, handle: (*Server).thread},
	{name: RouteCallerStats, method: http.MethodGet, path: "/v1/analytics/{projectId}/assistant/caller-stats", limit: analyticsLimit, handle: (*Server).callerStats},

	// Deployments, previews and automations.
	{name: RouteTriggerDeployment, method: http.MethodPost, path: "/v1/project/update/{projectId}", limit: deployLimit, outcome: true, handle: (*Server).triggerDeployment},
	{name: RouteDeploymentStatus, method: http.MethodGet, path: "/v1/project/update-status/{statusId}", handle: (*Server).deploymentStatus},
	{name: RouteTriggerPreview, method: http.MethodPost, path: "/v1/project/preview/{projectId}", limit: previewLimit, outcome: true, handle: (*Server).triggerPreview},
	{name: RouteTriggerAutomation, method: http.MethodPost, path: "/v1/workflow/{projectId}/{workflowSchemaId}/trigger", limit: deployLimit, handle: (*Server).triggerAutomation},
	{name: RouteAutomationWebhook, method: http.MethodPost, path: "/v2/workflow/{projectId}/{workflowSchemaId}/webhook", limit: deployLimit, handle: (*Server).runWebhook},

	// Static export.
	{name: RouteStartStaticExport, method: http.MethodPost, path: "/v1/static-export/jobs", outcome: true, handle: (*Server).startStaticExport},
	{name: RouteStaticExportStatus, method: http.MethodGet, path: "/v1/static-export/jobs/{jobId}", handle: (*Server).staticExportStatus},
	{name: RouteStaticExportBundle, method: http.MethodPost, path: "/v1/static-export/jobs/{jobId}/bundle", handle: (*Server).staticExportBundle},

	// The assistant API.
	{name: RouteAssistantMessage, method: http.MethodPost, path: discoveryPrefix + "/v2/assistant/{domain}/message", api: assistantAPI, outer: messageIPLimit, limit: messageLimit, streams: true, handle: (*Server).assistantMessage},
	{name: RouteAssistantMessageV1, method: http.MethodPost, path: discoveryPrefix + "/v1/assistant/{domain}/message", api: assistantAPI, outer: messageIPLimit, limit: messageLimit, streams: true, handle: (*Server).assistantMessageV1},
	{name: RouteDocsSearch, method: http.MethodPost, path: discoveryPrefix + "/v1/search/{domain}", api: assistantAPI, limit: docsSearchLimit, handle: (*Server).docsSearch},
	{name: RoutePageContent, method: http.MethodPost, path: discoveryPrefix + "/v1/page/{domain}", api: assistantAPI, limit: pageContentLimit, handle: (*Server).pageContent},

	// The Index API.
	{name: RouteIndexContext, method: http.MethodPost, path: indexPrefix + "/v1/context", api: indexAPI, outer: indexDayLimit, limit: indexLimit, handle: (*Server).indexContext},
	{name: RouteIndexSearch, method: http.MethodPost, path: indexPrefix + "/v1/search", api: indexAPI, outer: indexDayLimit, limit: indexLimit, handle: (*Server).indexSearch},
	{name: RouteIndexContents, method: http.MethodPost, path: indexPrefix + "/v1/contents", api: indexAPI, outer: indexDayLimit, limit: indexLimit, handle: (*Server).indexContents},
}

func init() {
	for _, rt := range apiRoutes {
		rt.pattern = rt.method + " " + rt.path
		rt.segs = strings.Split(rt.path, "/")
	}
}

// unmatched stands for requests that fit no route; it has no handler, the
// pipeline answers 404 with a hint.
var unmatched = &route{}

const controlPrefix = "/_mock"

func (s *Server) routes() {
	s.api = http.NewServeMux()
	for _, rt := range apiRoutes {
		s.api.HandleFunc(rt.pattern, func(w http.ResponseWriter, r *http.Request) { s.serve(w, r, rt) })
	}
	s.api.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { s.serve(w, r, unmatched) })
	s.api.HandleFunc("OPTIONS "+discoveryPrefix+"/", preflight) // CORS, for a browser calling the assistant API
	s.control = s.controlRoutes()
	s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serveHTTP(w, r, true) })
}

// serveHTTP answers a request; fromNetwork is false for the in-memory
// client, whose requests no web page can make, whatever host they name.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request, fromNetwork bool) {
	w.Header()[VersionHeader] = versionValue
	if !s.enter() {
		writeReply(w, errorReply(http.StatusServiceUnavailable, "Service unavailable", "the mock server is closed"))
		return
	}
	defer s.inflight.Done()
	path := r.URL.Path
	switch {
	case !isCleanPath(path):
		// ServeMux would redirect "/job/../x" to another resource; an ID
		// must never lead anywhere but its own route, so such paths are
		// simply not found.
		s.serve(w, r, unmatched)
	case path == controlPrefix || strings.HasPrefix(path, controlPrefix+"/"):
		if s.guard.admit(w, r, fromNetwork) {
			s.control.ServeHTTP(w, r)
		}
	default:
		s.api.ServeHTTP(w, r)
	}
}

// isCleanPath reports whether p has no empty, "." or ".." segments.
func isCleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for i := 1; i <= len(p); {
		j := strings.IndexByte(p[i:], '/')
		if j < 0 {
			j = len(p) - i
		}
		seg := p[i : i+j]
		last := i+j == len(p)
		if (seg == "" && !last) || seg == "." || seg == ".." {
			return false
		}
		i += j + 1
	}
	return true
}

// closestRoute names the route a mistyped request most likely meant: the
// fewest segment edits, wildcards matching any segment, the method a
// tie-breaker.
func closestRoute(routes []*route, method, path string) *route {
	segs := strings.Split(path, "/")
	var best *route
	bestScore := 1 << 30
	for _, rt := range routes {
		score := 2 * segmentDistance(segs, rt.segs)
		if method != rt.method {
			score++
		}
		if score < bestScore {
			best, bestScore = rt, score
		}
	}
	return best
}

func segmentDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if !segmentMatches(a[i-1], b[j-1]) {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func segmentMatches(got, want string) bool {
	if strings.HasPrefix(want, "{") {
		return got != ""
	}
	return got == want
}
