// Package redact keeps an API key out of text: the SDK's errors, log lines
// and observed headers, the proxy's streamed text and mintctl's output and
// step outputs scrub through it, so that "which copies of the key are
// found" has one answer and one set of tests.
//
// A [Scrubber] is built from the keys in use and finds each as sent,
// percent-encoded, JSON-escaped, inside base64 (a proxy echoing a Basic
// auth header), and a long enough start of it (an echo cut short). A
// [Writer] applies the same scrubber to a stream, holding back a tail that
// could start a copy until the next write, so that a key split across two
// writes is never half-printed. A [Logger] scrubs every message and value
// of a log line. A server that re-encodes the key on purpose, or splits it
// across texts, was sent the key: those forms are not looked for.
package redact
