//go:build !race

package mintlify_test

// raceDetector is set under -race (see race_test.go).
const raceDetector = false
