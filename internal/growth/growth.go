// Package growth tells linear work from quadratic work in tests, by
// comparing how long the same job takes on an input of size n and of
// Factor*n, never by a wall-clock threshold: linear work takes about
// Factor times as long, n log n a little more, quadratic work Factor²
// times. MaxRatio sits between them, with room for a loaded machine (the
// test suite runs packages in parallel on two shared cores).
package growth

import (
	"runtime"
	"testing"
	"time"
)

const (
	// Factor is how much larger the large input is.
	Factor = 4
	// MaxRatio is the most the large input may take, relative to the
	// small one: 12, against 4 for linear and 16 for quadratic work.
	MaxRatio = 12.0
	// rounds is how many times each size runs; the best time counts.
	rounds = 5
)

// Check times small and large alternately, after a garbage collection
// each, keeps the best time of each, and fails t when large took more
// than MaxRatio times as long. what names the work in the message. It
// skips in -short mode.
func Check(t *testing.T, what string, small, large func() time.Duration) {
	t.Helper()
	if testing.Short() {
		t.Skip("growth test")
	}
	bestSmall, bestLarge := time.Duration(1<<62), time.Duration(1<<62)
	for range rounds {
		runtime.GC()
		bestSmall = min(bestSmall, small())
		runtime.GC()
		bestLarge = min(bestLarge, large())
	}
	ratio := float64(bestLarge) / float64(bestSmall)
	t.Logf("%s: %v, then %v for %d times the input (x%.1f)", what, bestSmall, bestLarge, Factor, ratio)
	if ratio > MaxRatio {
		t.Errorf("%s: %d times the input took %.1f times as long (%v, then %v): the cost is not linear", what, Factor, ratio, bestSmall, bestLarge)
	}
}
