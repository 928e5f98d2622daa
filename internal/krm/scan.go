package krm

import (
	"bytes"

	"github.com/nfd-fn/nfd-fn/internal/parallel"
)

// scanWindow is the size of the pieces a scan of the whole input is cut
// into: small enough to spread over the worker pool and to stay in cache
// while several searches read one.
const scanWindow = 1 << 20

// scanWindows runs scan on data[from:to] for consecutive windows of
// scanWindow bytes, on the worker pool, and tells release (may be nil) of
// each window once scanned. A scan may read a few bytes past to.
func scanWindows(data []byte, release func([]byte), scan func(from, to int)) {
	n := (len(data) + scanWindow - 1) / scanWindow
	each := func(w int) {
		from, to := w*scanWindow, min((w+1)*scanWindow, len(data))
		scan(from, to)
		if release != nil {
			release(data[from:to])
		}
	}
	if n <= 1 {
		for w := range n {
			each(w)
		}
		return
	}
	parallel.For(n, each)
}

// lineStarts are the offsets, in order, of the lines of data that start
// with each marker, found in one scan of windows on the worker pool;
// also (when not nil) runs on each window while it is read.
func lineStarts(data []byte, release func([]byte), also func(from, to int), markers ...string) [][]int {
	n := (len(data) + scanWindow - 1) / scanWindow
	found := make([][][]int, len(markers)) // marker, window -> offsets
	for m := range markers {
		found[m] = make([][]int, n)
	}
	scanWindows(data, release, func(from, to int) {
		if also != nil {
			also(from, to)
		}
		for m, marker := range markers {
			found[m][from/scanWindow] = startsIn(data, from, to, marker)
		}
	})
	out := make([][]int, len(markers))
	for m := range markers {
		for _, offs := range found[m] {
			out[m] = append(out[m], offs...)
		}
	}
	return out
}

// startsIn are the offsets in [from, to) of lines starting with marker.
// The marker alone is searched (it is rare in manifests, and its first
// byte is rarer than "\n"), then checked to start a line.
func startsIn(data []byte, from, to int, marker string) []int {
	var offs []int
	needle := []byte(marker)
	end := min(to+len(needle)-1, len(data))
	for at := from; at < to; {
		i := bytes.Index(data[at:end], needle)
		if i < 0 {
			break
		}
		at += i
		if at == 0 || data[at-1] == '\n' {
			offs = append(offs, at)
		}
		at++
	}
	return offs
}
