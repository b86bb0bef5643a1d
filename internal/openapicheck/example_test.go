package openapicheck_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/docsagent/mintlify-go/internal/openapicheck"
)

// A job answer with a status the admin document does not list.
func ExampleDocuments_Check() {
	docs, err := openapicheck.Load("../../testdata/openapi")
	if err != nil {
		panic(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:8080/v2/agent/p1/job/job_1", nil)
	req.Header.Set("Authorization", "Bearer mint_example")
	for _, d := range docs.Check(context.Background(), openapicheck.Exchange{
		Request: req, Status: 429, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"error":"slow down"}`),
	}) {
		fmt.Println(d)
	}
	// Output:
	// undocumented status: GET /v2/agent/{projectId}/job/{id} 429
}
