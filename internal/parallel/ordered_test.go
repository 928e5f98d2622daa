package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestOrderedEmitsEveryResultInIndexOrder(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		var got []int
		Ordered(n, func(i int) int {
			if i%3 == 0 {
				time.Sleep(time.Microsecond * time.Duration(i%5))
			}
			return i * i
		}, func(i, v int) {
			if i != len(got) || v != i*i {
				t.Fatalf("n=%d: emit(%d, %d) after %d results", n, i, v, len(got))
			}
			got = append(got, v)
		})
		if len(got) != n {
			t.Fatalf("n=%d: %d results emitted", n, len(got))
		}
	}
}

func TestOrderedHoldsWorkersBackWhileEmitIsSlow(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two workers")
	}
	var started atomic.Int64
	window := int64(runtime.GOMAXPROCS(0) * 4)
	Ordered(200, func(i int) int {
		started.Add(1)
		return i
	}, func(i, _ int) {
		if s := started.Load(); s > int64(i)+window+1 {
			t.Fatalf("%d items started before item %d was emitted: more than the window of %d", s, i, window)
		}
		time.Sleep(50 * time.Microsecond)
	})
}

func TestStreamRunsEveryValueGivenWhileTheCallerStillGives(t *testing.T) {
	var sum, done atomic.Int64
	started := make(chan struct{})
	add, wait := Stream(func(v int) {
		if v == 0 {
			close(started)
		}
		sum.Add(int64(v))
		done.Add(1)
	})
	add(0)
	select {
	case <-started: // work began before the last value was given
	case <-time.After(2 * time.Minute): // a hang, even at load 20
		t.Fatal("the first value was not run while the caller was still adding")
	}
	for v := 1; v <= 1000; v++ {
		add(v)
	}
	wait()
	if done.Load() != 1001 || sum.Load() != 1000*1001/2 {
		t.Fatalf("%d values run, sum %d", done.Load(), sum.Load())
	}
}
