// Package growth tells linear work from quadratic work in tests by
// counting the work a job does, never by timing it: the bytes and the
// objects it allocates (runtime.MemStats), on an input of size n and of
// Factor*n. Counts do not depend on the machine's load, so the verdict is
// the same on a quiet laptop and on a CI machine at load 20.
//
// Linear work allocates about Factor times as much for Factor times the
// input, n log n a little more, quadratic work Factor² times; MaxRatio
// sits between them. The cost blow-ups this guards against allocate as
// they grow (a joined list rebuilt per item, a copy per step, a result
// tree encoded whole). A loop that grows quadratically without allocating
// is not seen here: the benchmarks (make bench) time the same inputs.
//
// A growth test must not call t.Parallel, and the package's other tests
// then run either before it or, if parallel, after it: the counts are
// the process's, and must be the job's alone.
package growth

import (
	"fmt"
	"runtime"
	"testing"
)

const (
	// Factor is how much larger the large input is.
	Factor = 4
	// MaxRatio is the most the large input may allocate, relative to the
	// small one, in bytes and in objects: 6, against 4 for linear and 16
	// for quadratic work.
	MaxRatio = 6.0
)

// Work is what one run of a job allocated.
type Work struct {
	Bytes   uint64 // bytes allocated
	Objects uint64 // heap objects allocated
}

// Measure runs run once and returns what it allocated, counted from the
// runtime's totals before and after; a garbage collection first leaves
// no earlier work to finish in the count.
func Measure(run func()) Work {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return Work{Bytes: after.TotalAlloc - before.TotalAlloc, Objects: after.Mallocs - before.Mallocs}
}

// Job makes the work for an input of size n ready (its input built, its
// state set up: not counted) and returns the run to count.
type Job func(n int) (run func())

// Compare runs job once on n to warm up whatever it starts lazily (a
// compiled expression, a pool), then counts a run on n and one on
// Factor*n, and says whether the large run did more than MaxRatio times
// the work of the small one, in bytes or in objects: a message naming
// what (the work), the counts and the ratios, and whether that is too
// much.
func Compare(what string, n int, job Job) (msg string, tooMuch bool) {
	job(n)()
	s := Measure(job(n))
	l := Measure(job(Factor * n))
	rb, ro := ratio(l.Bytes, s.Bytes), ratio(l.Objects, s.Objects)
	msg = fmt.Sprintf("%s: %d bytes in %d objects at n=%d, then %d bytes in %d objects at %d times n (x%.1f bytes, x%.1f objects, at most x%.0f)",
		what, s.Bytes, s.Objects, n, l.Bytes, l.Objects, Factor, rb, ro, MaxRatio)
	return msg, rb > MaxRatio || ro > MaxRatio
}

// ratio is large over small, with an empty small run counting as one.
func ratio(large, small uint64) float64 {
	return float64(large) / float64(max(small, 1))
}

// Check compares job's work on n and on Factor*n (Compare) and fails t
// when the large run did more than MaxRatio times the work of the small
// one: the cost is not linear. It skips in -short mode.
func Check(t *testing.T, what string, n int, job Job) {
	t.Helper()
	if testing.Short() {
		t.Skip("growth test")
	}
	msg, tooMuch := Compare(what, n, job)
	t.Log(msg)
	if tooMuch {
		t.Errorf("%s: the cost is not linear", msg)
	}
}
