package testkit

import (
	"testing"
	"time"
)

// HangTimeout is how long a test waits for a call that must return
// promptly (a read that must refuse a FIFO, a worker that must start)
// before calling it hung. Such calls take milliseconds, so the wait costs
// nothing when they work; it is long enough for a CI machine at load 20
// and well inside go test's own ten-minute timeout, so a hang fails the
// one test with its name instead of the whole package.
const HangTimeout = 2 * time.Minute

// NoHang runs call in a goroutine and fails t when it has not returned
// within HangTimeout. call must not use t's Fatal methods (they must run
// on the test's goroutine): it stores its results for the test to check.
func NoHang(t testing.TB, what string, call func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		call()
	}()
	select {
	case <-done:
	case <-time.After(HangTimeout):
		t.Fatalf("%s: hung (no return within %v)", what, HangTimeout)
	}
}
