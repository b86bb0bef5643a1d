package mockserver

import "testing"

// RouteRow is a row of the route table with what its sample knows of it,
// for the package's external tests: they take their routes from
// RouteTable, so a new route reaches each of them once it has a sample.
type RouteRow struct {
	Name, Method string
	Path         string // the pattern, as /v2/agent/{projectId}/job
	API          string // "admin", "assistant" or "index"
	// Limit names the bucket of its rate limit ("" for none): routes with
	// the same Limit draw on one quota.
	Limit  string
	Stream bool   // its success is a stream, not JSON
	Schema string // the project's JSON Schema of its success, "" for a stream
}

// RouteTable is the route table, in its order. A route without a sample
// fails t.
func RouteTable(t testing.TB) []RouteRow {
	t.Helper()
	apis := map[apiKind]string{adminAPI: "admin", assistantAPI: "assistant", indexAPI: "index"}
	var rows []RouteRow
	for _, rt := range apiRoutes {
		smp, ok := sampleOf(rt)
		if !ok {
			t.Fatalf("route %s has no sample in conformanceSamples (conformance_test.go)", rt.pattern)
		}
		if smp.schema == "" && !rt.streams {
			t.Fatalf("route %s: its sample names no schema of its answer", rt.pattern)
		}
		rows = append(rows, RouteRow{Name: rt.name, Method: rt.method, Path: rt.path, API: apis[rt.api],
			Limit: limits[rt.limit].what, Stream: rt.streams, Schema: smp.schema})
	}
	return rows
}

// SampleRequest is a request a route accepts on one server, sent with the
// key of the route's API.
type SampleRequest struct {
	Method, Path, Body string
	Status             int // what the route answers
}

// Sample makes, on s, the request of the route named name that the route
// accepts, after the setup it needs (a job, a deployment, an export, an
// automation, made through s's in-memory client).
func Sample(t testing.TB, s *Server, name string) SampleRequest {
	t.Helper()
	for _, rt := range apiRoutes {
		if rt.name != name {
			continue
		}
		smp, ok := sampleOf(rt)
		if !ok {
			t.Fatalf("route %s has no sample", rt.pattern)
		}
		x := &conformer{t: t, route: rt}
		p := smp.valid(x, s)
		return SampleRequest{Method: p.method, Path: p.path, Body: p.body, Status: p.want}
	}
	t.Fatalf("no route %q", name)
	return SampleRequest{}
}
