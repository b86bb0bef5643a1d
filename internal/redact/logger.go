package redact

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// Logger logs to a *slog.Logger with every message and value scrubbed, so
// that no line can carry the key, whatever an error quotes. Its methods
// are those of go-retryablehttp's LeveledLogger.
type Logger struct {
	l     *slog.Logger
	scrub Scrubber
}

// NewLogger returns a Logger that writes to l through scrub.
func NewLogger(l *slog.Logger, scrub Scrubber) *Logger { return &Logger{l: l, scrub: scrub} }

// Error logs at error level.
func (s *Logger) Error(msg string, kv ...any) { s.log(slog.LevelError, msg, kv) }

// Warn logs at warning level.
func (s *Logger) Warn(msg string, kv ...any) { s.log(slog.LevelWarn, msg, kv) }

// Info logs at info level.
func (s *Logger) Info(msg string, kv ...any) { s.log(slog.LevelInfo, msg, kv) }

// Debug logs at debug level.
func (s *Logger) Debug(msg string, kv ...any) { s.log(slog.LevelDebug, msg, kv) }

func (s *Logger) log(level slog.Level, msg string, kv []any) {
	ctx := context.Background()
	if !s.l.Enabled(ctx, level) {
		return
	}
	clean := make([]any, len(kv))
	for i, v := range kv {
		switch v := v.(type) {
		case string:
			clean[i] = s.scrub(v, false)
		case time.Duration, int:
			clean[i] = v
		default:
			clean[i] = s.scrub(fmt.Sprint(v), false)
		}
	}
	s.l.Log(ctx, level, s.scrub(msg, false), clean...)
}
