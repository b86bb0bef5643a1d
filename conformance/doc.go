// Package conformance holds no code: its tests let real clients judge the
// assistant proxy, the mock server and the Go SDK's stream reader. The
// folder is also a node project (package.json, package-lock.json) that
// installs four releases of the AI SDK, the oldest whose chunk schemas
// are strict (5.0.216) and the newest 5.x, 6.x and 7.x, under npm
// aliases, and playwright-core for the chat example's browser test.
//
// Install, then run:
//
//	npm ci --prefix conformance
//	go test ./conformance ./examples/assistant-chat
//
// The Go tests start the servers (the bundled mock, AssistantProxy
// instances, the AI SDK's own server in sdk-server.mjs) on loopback and
// run node's test runner on the *.test.mjs files with their URLs in the
// environment. Without node or the installed packages the tests skip and
// say so; with CI=true they fail instead. BenchmarkProxyVsNodeRoute times
// the proxy against node-route.mjs, the vendor's recommended embedding (a
// route that only posts upstream and returns the body):
//
//	go test -run '^$' -bench ProxyVsNodeRoute -benchtime 20x ./conformance
package conformance
