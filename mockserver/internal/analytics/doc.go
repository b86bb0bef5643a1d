// Package analytics is the state and the rules of the mock's analytics
// export, without HTTP: the stored events of one project (visits, searches,
// feedback, assistant threads), the computation of every route's answer
// from them, query validation, keyset cursors and the synthetic data set.
//
// Where to look:
//
//   - events.go: the event types; store.go: one project's events, kept
//     copy-on-write so that Reset returns to the initial set cheaply;
//   - query.go: the parameters each route takes, and their validation;
//   - visits.go, report.go: visitors and views (offset pages);
//   - searches.go: search terms, hits, ctr, the most-clicked page;
//   - feedback.go: feedback entries, filters, and the by-page counts;
//   - assistant.go: threads, conversation turns, transcripts, caller stats;
//   - cursor.go, ulid.go: cursors that bind their query and stay valid as
//     events arrive;
//   - synthetic.go: the deterministic data set behind -seed.
//
// Answers are Go values that the server writes with encoding/json; a
// refused request is an [*Error] carrying the status and one detail per
// problem.
package analytics
