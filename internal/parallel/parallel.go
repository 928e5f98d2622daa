// Package parallel runs a loop body on every CPU. It is the one worker
// pool of nfd-fn: the ResourceList reader decodes items with it and the
// master pipeline renders nodes with it.
package parallel

import (
	"runtime"
	"sync"
)

// For runs f(0..n-1) on GOMAXPROCS goroutines and returns when all
// calls have returned.
func For(n int, f func(i int)) {
	add, wait := Stream(f)
	for i := range n {
		add(i)
	}
	wait()
}

// Stream starts GOMAXPROCS goroutines that run f on every value given to
// add, in no particular order, as values come: work starts while the
// caller is still producing. wait, called once after the last add,
// returns when every f has returned. add blocks while the workers are a
// few values per goroutine behind. A fault in f (a mapped input cut
// short) is raised again by wait, on the caller's goroutine.
func Stream[T any](f func(T)) (add func(T), wait func()) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var fs faults
	next := make(chan T, workers*16)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker()
			for v := range next {
				fs.run(func() { f(v) })
			}
		}()
	}
	return func(v T) { next <- v }, func() { close(next); wg.Wait(); fs.raise() }
}
