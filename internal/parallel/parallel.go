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
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int, workers*4)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
