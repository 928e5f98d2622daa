// Package heapfloor keeps Go's garbage collector from running while the
// heap is small. nfd-fn holds little (a render streams: a few MiB of live
// heap whatever the fleet's size) but allocates a great deal on the way
// (every NodeFeature is decoded and let go), so with the default GOGC of
// 100 the collector runs every few MiB allocated: about 200 cycles for a
// 1,000-node fleet, a tenth of the CPU. With a floor, the heap may grow to
// the floor before a cycle, whatever is live: the collector runs about a
// fifth as often, and peak memory is the floor, flat in the fleet's size,
// instead of twice a small live heap.
//
// After each cycle the GC percentage is set so that the next goal is the
// floor, or twice the live heap once that is larger (GOGC=100's goal).
// Nothing is done when GOGC or GOMEMLIMIT is set: the user's settings
// rule.
package heapfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// DefaultFloor is the heap size below which nfd-fn does not collect.
const DefaultFloor = 64 << 20

// minHeap is the runtime's minimum heap, which it scales by the GC
// percentage (4 MiB at GOGC=100): before the first cycle, and whenever
// less is live, the goal is minHeap times the percentage over 100.
const minHeap = 4 << 20

// Percent is the GC percentage whose goal, with live bytes live after a
// cycle, is floor, and never below 100 (Go's default).
func Percent(live, floor uint64) int {
	live = max(live, minHeap)
	if live >= floor/2 {
		return 100
	}
	return int((floor - live) * 100 / live)
}

// Start keeps the heap floor until stop is called; it does nothing (and
// stop does nothing) when GOGC or GOMEMLIMIT is set in the environment.
func Start(floor uint64) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	t := &tuner{floor: floor, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.adjust()
	t.arm()
	return func() {
		t.stopped.Store(true)
		debug.SetGCPercent(100)
	}
}

type tuner struct {
	floor   uint64
	sample  []metrics.Sample
	stopped atomic.Bool
}

// adjust sets the GC percentage for the live heap now.
func (t *tuner) adjust() {
	metrics.Read(t.sample)
	var live uint64
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	debug.SetGCPercent(Percent(live, t.floor))
}

// sentinel is an object whose finalizer runs once per GC cycle.
type sentinel struct{ _ [64]byte }

// arm has adjust run after the next GC cycle, and again after each one
// until stopped.
func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		if !t.stopped.Load() {
			t.adjust()
			t.arm()
		}
	})
}
