// Package openapicheck holds the project's exchanges to the vendor's OpenAPI
// documents (testdata/openapi) with a maintained validator, kin-openapi.
//
// It is for tests: the mock server's conformance test sends every route of
// the mock through it, the SDK's sends every request the SDK makes. An
// exchange is a request, and the answer when there is one, on the mock's
// address space: the admin and analytics routes at the root, the
// deployments and static-export routes under /v1, the assistant API under
// /discovery and the Index API under /api/universal-search, which are the
// path parts of the documents' own server URLs. Check names each way an
// exchange breaks the documents as a Difference; an Allowlist accepts the
// differences the project knows of, each with its reason.
package openapicheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// routingHost is the host every request is routed under: the documents'
// servers are rewritten to it, keeping their paths, so that a request to
// any address (a mock's loopback port, the in-memory transport) finds its
// operation by path alone.
const routingHost = "http://openapicheck.invalid"

// Documents are the vendor's documents of one folder, loaded and checked.
type Documents struct {
	docs []*document
}

type document struct {
	file   string // the file's name, "deployments-openapi.json"
	base   string // the path of its server URL, "/v1"
	spec   *openapi3.T
	router routers.Router
}

// Load reads every *.json document of dir, checks that each is a valid
// OpenAPI document, and prepares its router. A folder without documents
// is an error: a test that validated against nothing would pass.
func Load(dir string) (*Documents, error) { return loadAll(dir, loadDocument) }

// loadAll reads every *.json document of dir with load, in name order.
func loadAll(dir string, load func(file string) (*document, error)) (*Documents, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("openapicheck: no *.json document in %s", dir)
	}
	sort.Strings(files)
	d := &Documents{}
	for _, f := range files {
		doc, err := load(f)
		if err != nil {
			return nil, err
		}
		d.docs = append(d.docs, doc)
	}
	return d, nil
}

func loadDocument(file string) (*document, error) {
	doc, err := readDocument(file)
	if err != nil {
		return nil, err
	}
	if err := doc.spec.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapicheck: %s is not a valid OpenAPI document: %w", doc.file, err)
	}
	if doc.router, err = gorillamux.NewRouter(doc.spec); err != nil {
		return nil, fmt.Errorf("openapicheck: %s: %w", doc.file, err)
	}
	return doc, nil
}

// readDocument parses a document and moves its server to routingHost,
// keeping the server's path as the document's base.
func readDocument(file string) (*document, error) {
	name := filepath.Base(file)
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	spec, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		return nil, fmt.Errorf("openapicheck: %s: %w", name, err)
	}
	if len(spec.Servers) == 0 {
		return nil, fmt.Errorf("openapicheck: %s names no server, so its paths have no base", name)
	}
	u, err := url.Parse(spec.Servers[0].URL)
	if err != nil {
		return nil, fmt.Errorf("openapicheck: %s: server URL: %w", name, err)
	}
	base := strings.TrimSuffix(u.Path, "/")
	spec.Servers = openapi3.Servers{{URL: routingHost + base}}
	return &document{file: name, base: base, spec: spec}, nil
}

// Operation is a documented operation: its document and its route on the
// mock's address space.
type Operation struct {
	File   string // the document's file name
	Method string
	Route  string // the document's path after its server's base path, "/v1/project/update/{projectId}"
}

// Operations lists every documented operation, in a stable order.
func (d *Documents) Operations() []Operation {
	var out []Operation
	for _, doc := range d.docs {
		for path, item := range doc.spec.Paths.Map() {
			for method := range item.Operations() {
				out = append(out, Operation{File: doc.file, Method: method, Route: doc.base + path})
			}
		}
	}
	slices.SortFunc(out, func(a, b Operation) int {
		return strings.Compare(a.File+" "+a.Route+" "+a.Method, b.File+" "+b.Route+" "+b.Method)
	})
	return out
}

// Kind is a kind of difference between an exchange and the documents.
type Kind string

// The kinds of difference.
const (
	// UndocumentedRoute: no document has the request's method and path.
	UndocumentedRoute Kind = "undocumented route"
	// InvalidRequest: the documents refuse the request (parameters, body,
	// the Authorization header). Only a request that was accepted (a 2xx)
	// or that came from the SDK counts: refusing such a request is what an
	// answer of 4xx is for.
	InvalidRequest Kind = "invalid request"
	// UndocumentedStatus: the operation documents no answer with this
	// status.
	UndocumentedStatus Kind = "undocumented status"
	// MediaType: the answer's Content-Type is not one the operation
	// documents for its status.
	MediaType Kind = "media type"
	// InvalidResponse: the answer's body or a documented header breaks the
	// operation's schema for its status.
	InvalidResponse Kind = "invalid response"
	// ErrorShape: the body of an answer with an undocumented error status
	// does not have the shape of the document's documented errors.
	ErrorShape Kind = "error shape"
)

// Difference is one way an exchange breaks the documents.
type Difference struct {
	Kind   Kind
	Method string
	// Route is the documented route on the mock's address space
	// ("/v1/project/update/{projectId}"), or the request's own path when
	// no document has it.
	Route  string
	Status int    // the answer's status; 0 for a request alone
	Detail string // the validator's words
}

// String is the difference on one line: kind, method, route, status and
// the validator's words.
func (d Difference) String() string {
	s := fmt.Sprintf("%s: %s %s", d.Kind, d.Method, d.Route)
	if d.Status != 0 {
		s += " " + strconv.Itoa(d.Status)
	}
	if d.Detail != "" {
		s += ": " + d.Detail
	}
	return s
}

// Exchange is a request as sent and, when Status is not 0, its answer.
type Exchange struct {
	Request     *http.Request // its Body is not read: RequestBody holds the bytes sent
	RequestBody []byte
	Status      int
	Header      http.Header
	Body        []byte
}

// match is the documented operation a request resolves to.
type match struct {
	doc    *document
	route  *routers.Route
	params map[string]string
}

// find resolves a method and path on the mock's address space.
func (d *Documents) find(method string, u *url.URL) (*match, error) {
	probe := &http.Request{Method: method, URL: &url.URL{Scheme: "http", Host: "openapicheck.invalid", Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}}
	for _, doc := range d.docs {
		if doc.base != "" && !strings.HasPrefix(u.Path, doc.base+"/") {
			continue
		}
		route, params, err := doc.router.FindRoute(probe)
		if err == nil {
			return &match{doc: doc, route: route, params: params}, nil
		}
	}
	return nil, routers.ErrPathNotFound
}

// Check validates an exchange against the documents and names every
// difference it finds.
func (d *Documents) Check(ctx context.Context, ex Exchange) []Difference {
	req := ex.Request
	m, err := d.find(req.Method, req.URL)
	if err != nil {
		return []Difference{{Kind: UndocumentedRoute, Method: req.Method, Route: req.URL.Path, Status: ex.Status}}
	}
	diff := func(kind Kind, detail string) Difference {
		return Difference{Kind: kind, Method: req.Method, Route: m.doc.base + m.route.Path, Status: ex.Status, Detail: detail}
	}
	var out []Difference
	input := d.requestInput(req, ex.RequestBody, m)
	reqErr := openapi3filter.ValidateRequest(ctx, input)
	if reqErr != nil && (ex.Status == 0 || ex.Status/100 == 2) {
		out = append(out, diff(InvalidRequest, flatten(reqErr)))
	}
	if ex.Status == 0 {
		return out
	}
	responses := m.route.Operation.Responses
	if responses.Status(ex.Status) == nil && responses.Default() == nil {
		out = append(out, diff(UndocumentedStatus, ""))
		if ex.Status >= 400 {
			if msg := d.checkErrorShape(ctx, m, ex); msg != "" {
				out = append(out, diff(ErrorShape, msg))
			}
		}
		return out
	}
	respInput := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: input,
		Status:                 ex.Status,
		Header:                 ex.Header,
		Body:                   io.NopCloser(bytes.NewReader(ex.Body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(ctx, respInput); err != nil {
		kind := InvalidResponse
		if strings.Contains(err.Error(), "Content-Type") {
			kind = MediaType
		}
		out = append(out, diff(kind, flatten(err)))
	}
	return out
}

func (d *Documents) requestInput(req *http.Request, body []byte, m *match) *openapi3filter.RequestValidationInput {
	r := req.Clone(context.Background())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: m.params,
		Route:      m.route,
		Options: &openapi3filter.Options{
			MultiError:                        true,
			AuthenticationFunc:                bearerOnly,
			RejectWhenRequestBodyNotSpecified: false,
		},
	}
}

// bearerOnly checks the one kind of security the documents use, an HTTP
// bearer token: exactly one Authorization header, "Bearer " and a token.
func bearerOnly(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s := in.SecurityScheme
	if s == nil || s.Type != "http" || !strings.EqualFold(s.Scheme, "bearer") {
		return fmt.Errorf("security scheme %q is not an HTTP bearer token", in.SecuritySchemeName)
	}
	values := in.RequestValidationInput.Request.Header.Values("Authorization")
	if len(values) != 1 {
		return fmt.Errorf("want one Authorization header, got %d", len(values))
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return errors.New("the Authorization header is not a Bearer token")
	}
	return nil
}

// checkErrorShape validates the body of an answer whose error status the
// operation does not document against the error schema its document uses
// elsewhere: the operation's own documented errors first, else those of
// the document's other operations. "" when it fits or the document
// documents no error body at all.
func (d *Documents) checkErrorShape(ctx context.Context, m *match, ex Exchange) string {
	schema := errorSchema(m.route.Operation)
	if schema == nil {
		for _, path := range m.doc.spec.Paths.InMatchingOrder() {
			for _, op := range sortedOperations(m.doc.spec.Paths.Value(path)) {
				if schema = errorSchema(op); schema != nil {
					break
				}
			}
			if schema != nil {
				break
			}
		}
	}
	if schema == nil {
		return ""
	}
	if ct := ex.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Sprintf("Content-Type %q, not JSON like the document's errors", ct)
	}
	var value any // one JSON value and nothing after it
	if err := json.Unmarshal(ex.Body, &value); err != nil {
		return "the body is not JSON: " + err.Error()
	}
	opts := []openapi3.SchemaValidationOption{openapi3.MultiErrors(), openapi3.VisitAsResponse()}
	if m.doc.spec.IsOpenAPI31OrLater() {
		opts = append(opts, openapi3.EnableJSONSchema2020())
	}
	if err := schema.VisitJSON(value, opts...); err != nil {
		return "the body is not the document's error: " + flatten(err)
	}
	return ""
}

// errorSchema is the JSON schema of op's first documented error answer
// (4xx or 5xx, lowest status first), or nil.
func errorSchema(op *openapi3.Operation) *openapi3.Schema {
	if op == nil || op.Responses == nil {
		return nil
	}
	for _, code := range slices.Sorted(maps.Keys(op.Responses.Map())) {
		if code < "400" || code > "599" {
			continue
		}
		r := op.Responses.Value(code)
		if r == nil || r.Value == nil {
			continue
		}
		if mt := r.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
			return mt.Schema.Value
		}
	}
	return nil
}

func sortedOperations(item *openapi3.PathItem) []*openapi3.Operation {
	ops := item.Operations()
	out := make([]*openapi3.Operation, 0, len(ops))
	for _, m := range slices.Sorted(maps.Keys(ops)) {
		out = append(out, ops[m])
	}
	return out
}

// flatten is an error's text on one line, each of several errors once.
func flatten(err error) string {
	var multi openapi3.MultiError
	if errors.As(err, &multi) {
		parts := make([]string, 0, len(multi))
		for _, e := range multi {
			parts = append(parts, flatten(e))
		}
		return strings.Join(slices.Compact(parts), " | ")
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
