// Package index is the state and the rules of the mock's Index API
// (Universal Search), without HTTP: a fixed corpus, the validation of the
// three request bodies, and the computation of every answer from them.
// The wire layer (mockserver/index.go) decodes a body into a request type,
// calls the Store and writes the answer or the *Error.
//
// Where to look:
//
//   - corpus.go: the pages, three small Mintlify-hosted sites (acme,
//     example, widget) and three web pages, each text written for the mock;
//   - request.go: the request types, Text (false, true or
//     {"maxCharacters": n}), Validate per route, AllowedFields, CheckNulls;
//   - errors.go: Error and the vendor's error texts;
//   - score.go: tokens, stemming and the BM25 score;
//   - store.go: the Store, request IDs, result types, Search and Contents,
//     domain filters, published dates;
//   - text.go: truncation and the paragraph choice of contents' query;
//   - context.go: Context, its two formats and the token budget.
//
// # The score
//
// Okapi BM25 (k1 1.2, b 0.75) over a page's title (counted twice), its
// breadcrumbs and its text, with words lower-cased, stop words dropped and
// a few English endings folded ("caching" and "cache" meet). Document
// frequencies come from the whole corpus. A search's scores are divided by
// its best one, so the first result scores 1 and every result is in
// (0, 1], rounded to four decimals; equal scores keep corpus order. Pages
// sharing no term with the query are not results. Contents answers score
// 0, as the schema says.
//
// # Decisions (where the vendor is silent)
//
//   - Validation: each schema rule is a 400 {"error": "Invalid request
//     body"}, except more than 20 contents items in all, which has the
//     vendor's own message (MsgTooManyItems). Null is refused for every
//     member (CheckNulls; no member is nullable). Integers must be
//     integers (2.5 is refused, not rounded). URLs must be absolute URIs.
//   - text false (or absent): text "" (the member is required) and neither
//     truncated nor totalCharacters. Text true: the whole text, truncated
//     false. {maxCharacters: n}: the first n characters (runes); truncated
//     true when cut; totalCharacters is always the page's full length.
//   - Domain filters: a domain admits its host and every subdomain
//     ("example.com" admits docs.example.com), without case; a scheme, a
//     path or a trailing dot given with it is ignored. Exclusion wins.
//   - Contents: statuses for ids first, then urls, each in its order (a
//     decoded body does not say which member came first); duplicates are
//     answered twice. ids find Mintlify pages only (a web page's ID is its
//     URL, and belongs in urls); urls find any page, matched without case
//     in scheme and host, without fragment or trailing slash. Not found:
//     an ID is {"tag": "NOT_FOUND", "httpStatusCode": null} (nothing was
//     fetched), a URL {"tag": "CRAWL_NOT_FOUND", "httpStatusCode": 404}
//     (as if fetched). Without maxCharacters the whole text is answered.
//     query only matters when the text is longer than maxCharacters: the
//     paragraphs sharing most words with it are kept whole, in page order,
//     as many as fit; if none fits, the best one's beginning; if none
//     matches, the text's beginning.
//   - publishedDate: null when the source has none; search and contents
//     by ID normalize it to RFC 3339 UTC with milliseconds; contents by URL
//     pass the source's own string (some are date-only, one has an
//     offset), as the vendor documents.
//   - Context: at most 10 pages, in search order, whole while they fit;
//     the first that does not is cut (at a word's end) to fill the budget
//     and ends the answer. Tokens are ⌈characters / 4⌉ (Tokens), so
//     outputTokens never exceeds tokenBudget (default 3000). txt is one
//     Markdown section per page ("## title", "Source: url", the text)
//     separated by "---" rules; json is {"results": [{"title", "url",
//     "siteName", "text"}]}, the "serialized JSON object containing result
//     items" of the schema. No match, or no room: response "", 0 results.
//   - product is a hint that narrows: when it names a Mintlify site
//     (equal to its siteName ignoring case and all but letters and digits:
//     "Acme" names docs.acme.dev), only that site's pages are used; a
//     product naming no site changes nothing.
//   - requestId: 6d696e74-0000-4000-8000-<n>, n the store's answer count
//     in 12 hex digits, from 1, all routes together; refused requests take
//     none; Reset starts again. Deterministic, never random.
//   - No clock: nothing in the Index changes over time. The limits (10
//     requests a second and 1,000 a day per organization, all keys
//     together) are the wire layer's, as for every area.
package index
