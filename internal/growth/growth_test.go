package growth

import (
	"strconv"
	"strings"
	"testing"
)

// joinedPerItem rebuilds a comma-joined list of the names so far for each
// of n items: issue 17's quadratic report of one error on many nodes.
func joinedPerItem(n int) func() {
	return func() {
		var names []string
		var joined string
		for i := range n {
			names = append(names, "node-"+strconv.Itoa(i))
			joined = strings.Join(names, ",")
		}
		sink = joined
	}
}

// joinedOnce builds the same list once, at the end.
func joinedOnce(n int) func() {
	return func() {
		var names []string
		for i := range n {
			names = append(names, "node-"+strconv.Itoa(i))
		}
		sink = strings.Join(names, ",")
	}
}

// copyPerItem appends to a private copy of the list per item: quadratic
// in bytes with one allocation per step.
func copyPerItem(n int) func() {
	return func() {
		var list []int
		for i := range n {
			list = append(list[:len(list):len(list)], i)
		}
		sinkInts = list
	}
}

// clonePerItem copies every name so far, one string each, per item:
// quadratic in objects.
func clonePerItem(n int) func() {
	return func() {
		var names, copies []string
		for i := range n {
			names = append(names, "node-"+strconv.Itoa(i))
			copies = copies[:0]
			for _, s := range names {
				copies = append(copies, strings.Clone(s))
			}
		}
		sink = strings.Join(copies, ",")
	}
}

var (
	sink     string
	sinkInts []int
)

func TestCompareTellsLinearFromQuadraticWork(t *testing.T) {
	const n = 500
	for _, c := range []struct {
		name      string
		job       Job
		quadratic bool
	}{
		{"join-once-is-linear", joinedOnce, false},
		{"join-per-item-is-quadratic", joinedPerItem, true},
		{"copy-per-item-is-quadratic-in-bytes", copyPerItem, true},
		{"clone-per-item-is-quadratic-in-objects", clonePerItem, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg, tooMuch := Compare(c.name, n, c.job)
			t.Log(msg)
			if tooMuch != c.quadratic {
				t.Errorf("too much = %v, want %v: %s", tooMuch, c.quadratic, msg)
			}
		})
	}
}

func TestMeasureCountsTheJobsAllocations(t *testing.T) {
	w := Measure(func() {
		for range 100 {
			sinkInts = make([]int, 1024)
		}
	})
	if w.Objects < 100 || w.Bytes < 100*1024*8 {
		t.Errorf("100 slices of 8 KiB measured as %d objects, %d bytes", w.Objects, w.Bytes)
	}
}
