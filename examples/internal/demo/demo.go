// Package demo connects the example programs to the real API when
// MINTLIFY_API_KEY is set, and to the bundled mock server otherwise, so every
// example runs on a fresh machine with nothing but Go.
package demo

import (
	"fmt"
	"io"
	"os"
	"time"

	mintlify "github.com/docsagent/mintlify-go"
	"github.com/docsagent/mintlify-go/mockserver"
)

// Session is a connected client and how to poll with it.
type Session struct {
	Client *mintlify.Client
	// PollInterval is the first wait between polls: the SDK's default for
	// the real API, shorter for the mock's quick jobs.
	PollInterval time.Duration
	closeMock    func()
}

// Close stops the mock server, if one was started.
func (s *Session) Close() {
	if s.closeMock != nil {
		s.closeMock()
	}
}

// Connect reads MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID (and
// MINTLIFY_BASE_URL). Without a key it starts the mock server in-process
// and says so on log.
func Connect(log io.Writer, opts ...mintlify.Option) (*Session, error) {
	if os.Getenv(mintlify.EnvAPIKey) != "" {
		c, err := mintlify.NewClient(opts...)
		if err != nil {
			return nil, err
		}
		return &Session{Client: c, PollInterval: 5 * time.Second}, nil
	}
	mock := mockserver.New(
		mockserver.WithJobDuration(2*time.Second),
		mockserver.WithSyntheticVisits(20_000),
	)
	fmt.Fprintf(log, "No %s set: using the bundled mock server at %s\n", mintlify.EnvAPIKey, mock.URL())
	opts = append([]mintlify.Option{
		mintlify.WithBaseURL(mock.URL()),
		mintlify.WithAPIKey(mock.APIKey()),
		mintlify.WithProjectID(mock.ProjectID()),
	}, opts...)
	c, err := mintlify.NewClient(opts...)
	if err != nil {
		mock.Close()
		return nil, err
	}
	return &Session{Client: c, PollInterval: 250 * time.Millisecond, closeMock: mock.Close}, nil
}
