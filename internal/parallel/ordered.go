package parallel

import "runtime"

// Ordered runs work(0..n-1) on GOMAXPROCS goroutines and calls emit with
// each result in order of i, from the calling goroutine, as soon as it and
// every result before it are ready. At most a few results per worker wait
// to be emitted: a slow emit (a writer) holds the workers back rather than
// letting results pile up, so memory stays bounded whatever n is. A
// fault in work (a mapped input cut short) stops the emits and is raised
// again on the caller's goroutine once the workers are done.
func Ordered[T any](n int, work func(i int) T, emit func(i int, v T)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			emit(i, work(i))
		}
		return
	}
	window := workers * 4
	slots := make([]chan T, window)
	for k := range slots {
		slots[k] = make(chan T, 1)
	}
	// ahead holds one token per index handed out and not yet emitted, so
	// index i+window is handed out only once i has been emitted and its
	// slot is free again.
	ahead := make(chan struct{}, window)
	next := make(chan int)
	go func() {
		for i := range n {
			ahead <- struct{}{}
			next <- i
		}
		close(next)
	}()
	var fs faults
	for range workers {
		go func() {
			worker()
			for i := range next {
				var v T
				fs.run(func() { v = work(i) })
				slots[i%window] <- v
			}
		}()
	}
	for i := range n {
		v := <-slots[i%window]
		<-ahead
		if !fs.seen.Load() {
			emit(i, v)
		}
	}
	fs.raise()
}
