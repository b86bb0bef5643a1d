// Package redact keeps an API key out of text: the SDK's errors, log lines
// and observed headers, mintctl's output and step outputs, and the mock
// server's journal scrub through it, so that "which copies of the key are
// found" has one answer and one set of tests.
//
// A [Scrubber] is built from the one key in use and finds it as sent,
// percent-encoded, JSON-escaped, inside base64 (a proxy echoing a Basic
// auth header), quoted or escaped once more, and a long enough start of it
// (an echo cut short). A [Writer] applies the same scrubber to a stream,
// holding back a tail that could start a copy until the next write, so that
// a key split across two writes is never half-printed. A [Logger] scrubs
// every message and value of a log line. Where no key is known and the
// text is the credential itself, [Authorization] (a request's header, for
// the mock's journal) and [Prefixed] (a configured key, for an error) keep
// only its kind.
package redact
