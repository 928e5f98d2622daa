package fn

import (
	"fmt"
	"io"
	"time"
)

// progress returns a callback that shows on w, a terminal, how many nodes
// are rendered and how fast: at most ten updates a second, erased at the
// end; nil when w is.
func progress(w io.Writer) func(done, total int) {
	if w == nil {
		return nil
	}
	start, last := time.Now(), time.Time{}
	return func(done, total int) {
		now := time.Now()
		if done < total && now.Sub(last) < 100*time.Millisecond {
			return
		}
		last = now
		rate := float64(done) / max(now.Sub(start).Seconds(), 1e-3)
		fmt.Fprintf(w, "\rrendering: %d/%d nodes (%.0f/s)", done, total, rate)
		if done == total {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}
