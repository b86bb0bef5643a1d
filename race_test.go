//go:build race

package mintlify_test

// raceDetector is set under -race, whose instrumentation makes scanning
// tens of megabytes of JSON slow and whose memory is not the program's.
const raceDetector = true
