package mintlify

import "time"

// SetProxyTimeouts shortens, for a test, how long p gives a browser's body
// to arrive and each frame of an answer to reach the browser.
func SetProxyTimeouts(p *AssistantProxy, body, frame time.Duration) {
	p.bodyTimeout, p.frameTimeout = body, frame
}
