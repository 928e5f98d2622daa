package parallel

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// faults carries the first memory fault of a pool's workers to the
// goroutine that started the pool. Workers run with
// debug.SetPanicOnFault, so that touching a page of a mapped input whose
// file was cut short panics instead of crashing the process; the caller
// raises that panic again (raise), where its own recovery (the command's)
// turns it into an error naming the input. Any other panic is left to
// crash the process as it would have.
type faults struct {
	once  sync.Once
	value any
	seen  atomic.Bool
}

// fault is what a panic on a fault carries: its address.
type fault interface{ Addr() uintptr }

// worker makes the calling goroutine, a new worker, panic on faults.
func worker() { debug.SetPanicOnFault(true) }

// run runs f, recording a fault panic instead of letting it end the
// goroutine; it reports whether f returned. After a fault, the rest of
// the work is skipped.
func (fs *faults) run(f func()) (ok bool) {
	if fs.seen.Load() {
		return false
	}
	defer func() {
		if ok {
			return
		}
		r := recover()
		if _, isFault := r.(fault); !isFault {
			panic(r)
		}
		fs.once.Do(func() { fs.value = r })
		fs.seen.Store(true)
	}()
	f()
	return true
}

// raise panics again, on the caller's goroutine, with the first fault
// recorded.
func (fs *faults) raise() {
	if fs.seen.Load() {
		panic(fs.value)
	}
}
