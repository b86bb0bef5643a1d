package apishape_test

import (
	"fmt"

	"github.com/docsagent/mintlify-go/internal/apishape"
)

// A visitors page whose rows gained a member and lost a count.
func ExampleCheck() {
	page := apishape.Obj(
		apishape.Req("visitors", apishape.Arr(apishape.Obj(
			apishape.Req("path", apishape.Str()), apishape.Req("total", apishape.Of(apishape.Integer))))),
		apishape.Req("hasMore", apishape.Of(apishape.Boolean)))
	findings, err := apishape.Check([]byte(`{"visitors":[{"path":"/a","bounceRate":0.5}],"hasMore":false}`), page)
	if err != nil {
		panic(err)
	}
	for _, f := range findings {
		fmt.Println(f.Kind, f.Path)
	}
	// Output:
	// unknown member visitors[].bounceRate
	// required member missing visitors[].total
}
