package mockserver

import (
	"fmt"
	"net/http"
)

// staticExportControl switches static export and pads new bundle links.
var staticExportControl = []*controlRoute{
	{route: route{method: "PUT", path: "/_mock/static-export"}, doc: `{"enabled": false} turns static export off for the organization; {"bundleSize": N} pads new bundle links to N bytes`, serve: (*Server).ctlStaticExport},
}

func (s *Server) ctlStaticExport(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Enabled    *bool  `json:"enabled"`
		BundleSize *int64 `json:"bundleSize"`
	}
	if !decodeControl(w, r, &body) {
		return
	}
	if body.BundleSize != nil && (*body.BundleSize < 0 || *body.BundleSize > MaxBundleSize) {
		writeProblem(w, http.StatusBadRequest, fmt.Sprintf("bundleSize: want 0 to %d bytes (1 TiB)", int64(MaxBundleSize)))
		return
	}
	if body.Enabled != nil {
		_ = s.SetStaticExport(s.apiKey, *body.Enabled) // the primary key always exists
	}
	if body.BundleSize != nil {
		s.SetBundleSize(*body.BundleSize)
	}
	_, enabled := s.orgs.Features(s.orgs.Primary())
	writeJSON(w, http.StatusOK, map[string]any{"enabled": enabled, "bundleSize": s.exports.bundleSize.Load()})
}
