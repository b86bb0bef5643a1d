package mintlify_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// indexExampleClient is an Index client of a fresh mock. Usually the key
// comes from $MINTLIFY_INDEX_API_KEY and the address is the default.
func indexExampleClient() (*mintlify.IndexClient, func()) {
	mock := mockserver.New()
	x, err := mintlify.NewIndexClient(
		mintlify.WithAPIKey(mock.IndexKey()), // mint_us_...
		mintlify.WithBaseURL(mock.URL()+"/api/universal-search"),
	)
	if err != nil {
		panic(err)
	}
	return x, mock.Close
}

func ExampleNewIndexClient() {
	// An admin key is refused before anything is sent: each API has its
	// own key type.
	_, err := mintlify.NewIndexClient(mintlify.WithAPIKey("mint_admin_key_0123456789"))
	fmt.Println(errors.Is(err, mintlify.ErrInvalidInput))

	x, err := mintlify.NewIndexClient(mintlify.WithAPIKey("mint_us_0123456789abcdef"))
	if err != nil {
		panic(err)
	}
	fmt.Println(x)
	// Output:
	// true
	// mintlify.IndexClient{baseURL: "https://leaves.mintlify.com/api/universal-search"}
}

func ExampleIndexClient_Search() {
	x, stop := indexExampleClient()
	defer stop()
	found, err := x.Search(context.Background(), mintlify.IndexSearchParams{
		Query:         "caching",
		NumResults:    3,
		MaxCharacters: 40, // some text of each result (Text: true for all of it)
	})
	if err != nil {
		panic(err)
	}
	for _, r := range found.Results {
		fmt.Printf("%.2f %-8s %s\n", r.Score, r.Source, r.ID)
		fmt.Printf("     %q (cut: %t)\n", r.Text, r.Truncated)
	}
	// Output:
	// 1.00 web      https://blog.example.org/http-caching-headers
	//      "Most caching bugs come from a misunderst" (cut: true)
	// 0.96 mintlify example:/guides/caching
	//      "Example caches the result of every data " (cut: true)
	// 0.83 mintlify widget:/deploy/edge
	//      "Publishing a widget creates a new deploy" (cut: true)
}

func ExampleIndexClient_BuildContext() {
	x, stop := indexExampleClient()
	defer stop()
	c, err := x.BuildContext(context.Background(), mintlify.ContextParams{
		Query:       "Which HTTP caching headers should I send?",
		TokenBudget: 120, // tokens; 0 is the API's default, 3000
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(c.ResultsCount, "source(s),", c.OutputTokens <= 120)
	fmt.Println(c.Response[:strings.Index(c.Response, "\n\n")])
	// Output:
	// 1 source(s), true
	// ## A field guide to HTTP caching headers
}

func ExampleIndexClient_Contents() {
	x, stop := indexExampleClient()
	defer stop()
	got, err := x.Contents(context.Background(), mintlify.ContentsParams{
		IDs:           []string{"example:/guides/caching", "example:/no-such-page"}, // "mintlify" results
		URLs:          []string{"https://blog.example.org/http-caching-headers"},    // "web" results, or any page
		MaxCharacters: 500,
	})
	if err != nil {
		panic(err) // the call failed: no item was fetched
	}
	// An item that could not be fetched is a status, not an error.
	for _, s := range got.Statuses {
		if s.Status == "error" {
			fmt.Println("not fetched:", s.ID, s.ErrorTag)
			continue
		}
		fmt.Println("fetched:", s.ID)
	}
	for _, r := range got.Results {
		fmt.Printf("%s: %d of %d characters\n", r.Title, len([]rune(r.Text)), r.TotalCharacters)
	}
	// Output:
	// fetched: example:/guides/caching
	// not fetched: example:/no-such-page NOT_FOUND
	// fetched: https://blog.example.org/http-caching-headers
	// Caching and revalidation: 500 of 938 characters
	// A field guide to HTTP caching headers: 500 of 797 characters
}

// A 429 beyond the client's maximum wait (the day's 1,000 spent, say)
// returns at once with the wait the API asked for.
func ExampleIndexClient_Search_rateLimited() {
	mock := mockserver.New(mockserver.WithIndexDailyRateLimit(1, mockserver.DailyWindow))
	defer mock.Close()
	x, _ := mintlify.NewIndexClient(mintlify.WithAPIKey(mock.IndexKey()), mintlify.WithBaseURL(mock.URL()+"/api/universal-search"))
	ctx := context.Background()
	p := mintlify.IndexSearchParams{Query: "deployment", NumResults: 1}

	_, err := x.Search(ctx, p)
	fmt.Println(err)
	_, err = x.Search(ctx, p)
	var apiErr *mintlify.APIError
	if errors.Is(err, mintlify.ErrRateLimited) && errors.As(err, &apiErr) {
		fmt.Println("rate limited; retry after more than an hour:", apiErr.RetryAfter > time.Hour)
	}
	// Output:
	// <nil>
	// rate limited; retry after more than an hour: true
}
