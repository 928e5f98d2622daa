package fn

import (
	"runtime/debug"

	"github.com/nfd-fn/nfd-fn/internal/krm"
)

// Guard runs run with the calling goroutine panicking on memory faults
// (debug.SetPanicOnFault; the worker pool's goroutines do too, and raise
// theirs again on their caller's). A fault on a mapped input, whose file
// was cut short while nfd-fn read it, becomes krm.ErrVanished naming the
// input, handed to failed, whose exit code Guard returns instead of
// crashing. Any other panic goes on.
func Guard(run func() int, failed func(error) int) (code int) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		err := krm.FaultError(r)
		if err == nil {
			panic(r)
		}
		code = failed(err)
	}()
	return run()
}
