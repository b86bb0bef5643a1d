package mockserver

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/docsagent/mintlify-go/mockserver/internal/access"
	"github.com/docsagent/mintlify-go/mockserver/internal/staticexport"
)

// ErrUnknownKey is returned by SetStaticExport for a key the server does not
// know.
var ErrUnknownKey = access.ErrUnknownKey

// SetStaticExport turns static export on or off for the organization that
// owns key.
func (s *Server) SetStaticExport(key string, enabled bool) error {
	return s.orgs.SetStaticExport(key, enabled)
}

// MaxBundleSize is the largest padded bundle (1 TiB): WithBundleSize and
// the control API refuse more, SetBundleSize caps at it.
const MaxBundleSize = staticexport.MaxSize

// SetBundleSize pads the bundles of links minted from now on to n bytes
// (still a valid tar.gz of the same pages; the storage host streams the
// padding without holding it). n smaller than the real bundle, or 0, gives
// the real bundle; n is capped at MaxBundleSize.
func (s *Server) SetBundleSize(n int64) { s.exports.bundleSize.Store(min(max(n, 0), MaxBundleSize)) }

// startStaticExport queues an export of the organization's site at domain.
func (s *Server) startStaticExport(c *call) reply {
	var body struct {
		Domain  *string  `json:"domain"`
		Version *string  `json:"version"`
		Paths   []string `json:"paths"`
	}
	if rep, ok := readBody(c, &body, ""); !ok {
		return rep
	}
	if _, enabled := s.orgs.Features(c.org); !enabled {
		return errorReply(http.StatusForbidden, "Static export is not enabled for this organization",
			"static export is an Enterprise feature; contact sales to enable it")
	}
	var details []string
	if body.Domain == nil || !staticexport.ValidDomain(*body.Domain) {
		details = append(details, staticexport.ErrDomain.Error())
	}
	pages, err := staticexport.CleanPages(body.Paths)
	if err != nil {
		details = append(details, err.Error())
	}
	if body.Version != nil && len(*body.Version) > staticexport.MaxVersion {
		// Every page of the bundle names the version: 10,000 pages of a
		// 900 KB version were gigabytes to render and gzip for one request.
		details = append(details, fmt.Sprintf("version: at most %d bytes", staticexport.MaxVersion))
	}
	if len(details) > 0 {
		return errorReply(http.StatusBadRequest, "Invalid request body", details...)
	}
	j := &staticexport.Job{
		ID: "se_" + randomHex()[:16], Org: c.org.ID, Domain: *body.Domain, Pages: pages,
		CreatedAt: c.now, Duration: s.cfg.jobDuration, Fails: s.runFails(c.forced, s.projectAt(c.org, *body.Domain)),
	}
	if body.Version != nil {
		j.Version = *body.Version
	}
	s.exports.jobs.Add(j)
	return jsonReply(http.StatusAccepted, j.JSON(c.now))
}

func (s *Server) staticExportStatus(c *call) reply {
	j := s.exports.jobs.Get(c.org.ID, c.r.PathValue("jobId"))
	if j == nil {
		return exportNotFound()
	}
	return jsonReply(http.StatusOK, j.JSON(c.now))
}

// staticExportBundle mints a fresh presigned link to the bundle of a
// completed export, on the storage host.
func (s *Server) staticExportBundle(c *call) reply {
	j := s.exports.jobs.Get(c.org.ID, c.r.PathValue("jobId"))
	if j == nil {
		return exportNotFound()
	}
	if st := j.At(c.now).Status; st != staticexport.Completed {
		return errorReply(http.StatusConflict, "The export job has not completed", "status: "+string(st))
	}
	if _, err := s.StorageURL(); err != nil {
		return errorReply(http.StatusInternalServerError, "Internal server error", "the storage host is unavailable")
	}
	base := s.exports.host.linkBase(c.r)
	ttl := s.cfg.bundleTTL
	if ttl <= 0 {
		ttl = DefaultBundleLinkTTL
	}
	size := staticexport.Pad(s.exports.jobs.Bundle(j), s.exports.bundleSize.Load()).Size()
	expires := c.now.Add(ttl).Truncate(time.Second)
	link := s.exports.signer.Sign(staticexport.Link{JobID: j.ID, Size: size, Expires: expires})
	return jsonReply(http.StatusOK, mustJSON(struct {
		JobID     string `json:"jobId"`
		BundleURL string `json:"bundleUrl"`
		SizeBytes int64  `json:"sizeBytes"`
		ExpiresAt string `json:"expiresAt"`
	}{j.ID, base + link, size, expires.UTC().Format(time.RFC3339)}))
}

func exportNotFound() reply { return errorReply(http.StatusNotFound, "Static export job not found") }

// exportState is the server's side of static export: the export jobs, the
// signer of bundle links, the padding of new links and the storage host
// that serves them (bundlehost.go). The rules live in internal/staticexport.
type exportState struct {
	jobs       *staticexport.Store
	signer     *staticexport.Signer
	bundleSize atomic.Int64
	host       storageHost
}

func newExportState() *exportState {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	return &exportState{jobs: staticexport.NewStore(), signer: staticexport.NewSigner(secret)}
}

// reset forgets every export and pads new links to bundleSize again.
func (e *exportState) reset(bundleSize int64) {
	e.jobs.Reset()
	e.bundleSize.Store(bundleSize)
}

// projectAt is the organization's project served at domain (its subdomain
// under mintlify.app), whose outcome an export of it takes; nil for any
// other domain, such as a custom one.
func (s *Server) projectAt(o *access.Organization, domain string) *project {
	for id, p := range s.projects {
		if o.Owns(id) && strings.EqualFold(domain, p.subdomain+".mintlify.app") {
			return p
		}
	}
	return nil
}
