// Package assistant is the state and the rules of the mock's assistant
// API (the "discovery" routes), without HTTP: the pages of each site, docs
// search, page content, validated message bodies, deterministic streamed
// answers, threads and their keys, and credits. The wire (routes, keys,
// limits, faults, pacing of the frames) lives in mockserver/assistant.go;
// errors here carry the status and the message of its {"message"} body.
//
// Where to look:
//
//   - store.go: Store, Reset, credits, the Recorder that takes every turn
//     to the analytics export;
//   - pages.go, defaultpages.go: pages, their bounds, page content;
//   - search.go: the tokenizer, the score, filters, the chosen paragraph;
//   - message.go: message bodies, their validation, the composed answer;
//   - stream.go: an answer as AI SDK v5 chunks and as v4 data-stream lines;
//   - threads.go: threads, keys and what memory keeps of them.
//
// # Score
//
// Text is split into terms: runs of letters and digits, lower-cased, stop
// words ("the", "how", "is"...) dropped, plurals folded by spelling
// ("limits" -> "limit", "entries" -> "entry"). A page's document is its
// title and content together; a query counts its distinct terms (at most
// MaxQueryTerms). The corpus is the pages the request may see (filters
// and groups applied), so a hidden page changes no score. For a page D
// and query terms q:
//
//	bm25(D) = sum over q in D of idf(q) * f(q,D) * (k1 + 1) / (f(q,D) + k1 * (1 - b + b * |D| / avgdl))
//	idf(q)  = ln(1 + (N - n(q) + 0.5) / (n(q) + 0.5))
//	score   = bm25(D) / max over the corpus of bm25
//
// with k1 = 1.2, b = 0.75, f(q,D) the count of q in D, |D| the terms of
// D, avgdl their mean over the corpus, N the corpus size and n(q) the
// pages holding q. A page matches when bm25 > 0; the best match scores 1,
// every match scores in (0, 1], so scoreThreshold is relative to the best
// match. Results come best first, ties by path; scoreThreshold keeps
// scores at or above it, then pageSize cuts. A result's content is the
// page's best paragraph (paragraphs are split at blank lines, a lone
// heading joined to what follows) by the same formula, with the page's
// idf and its paragraphs as the documents; the first on a tie or when only
// the title matched.
//
// # Answers
//
// A message searches with the user's last text (RetrievalPageSize
// results, no threshold) and quotes the best paragraph of each of the
// first three results, each after a Markdown link to its page; those pages
// are the answer's sources. No result: the answer says the docs do not
// cover it, and the turn is unanswered. The stream is a search tool step
// (input {query}, output the results), a text step of deltas of three
// words, one source-url per cited page, finish {finishReason "stop",
// threadId} and [DONE]; see [Answer.Chunks] and [Answer.DataStream].
// Everything but the IDs is a function of the pages and the request; the
// IDs (thread, messages) come from the seed of NewStore; thread keys come
// from crypto/rand.
//
// # Wiring
//
// A v2 handler decodes the body into a MessageRequest and calls
// Store.Message with the request's time; an [*Error] is the status and
// {"message"}. Otherwise it sends UIMessageStreamHeaders, X-Thread-Id and,
// when the Answer has one, X-Thread-Key, then writes each chunk's Frame
// with the stream delay between them. The v1 handler sets V1 and writes
// DataStream lines under DataStreamHeaders. ErrorChunk and ErrorPart are
// what a mid-stream fault writes. Search and PageContent answer JSON of
// their results; AddPages backs POST /_mock/pages and Credits GET
// /_mock/credits. SetRecorder with the primary project's analytics store
// puts every turn in its export.
//
// # Bounds and decisions
//
//   - Pages: see the Max constants of pages.go. AddPages is all or none; a
//     page at a stored path replaces it. Groups protect a page; a filter
//     that is set admits only pages whose field equals it.
//   - Threads: MaxThreads, MaxThreadBytes (least recently used forgotten),
//     MaxTurnsPerThread (oldest turns forgotten); a turn keeps MaxQueryBytes
//     of its query. An unknown or forgotten thread, a missing or wrong key,
//     and another domain's thread are the same 404.
//   - A thread's turns are strictly later than the one before, to the
//     millisecond (the analytics export identifies a turn by thread and
//     time): a follow-up in the same millisecond is recorded 1 ms later.
//   - Credits: CreditsPerMessage per answered message; refusals are free.
//   - Message bodies: an empty fp is missing; a user message with no text
//     is a 400; only text parts are read, others ignored (a chat client
//     sends back the tool and source parts of earlier answers).
//   - finish carries threadId at its top level, as the vendor documents
//     and the real service sends. AI SDK v5 clients check chunks against strict
//     schemas (loosened only in later releases) and may refuse that key, as
//     they would the vendor's own stream.
//   - Site URLs: a domain with a dot is the site's host; a bare identifier
//     is served at <identifier>.mintlify.site.
package assistant
