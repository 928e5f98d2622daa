package heapfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

func TestPercentAimsTheNextCycleAtTheFloor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, floor uint64
		want        int
	}{
		{8 * mib, 64 * mib, 700},  // goal 8 + 56 = 64 MiB
		{16 * mib, 64 * mib, 300}, // goal 64 MiB
		{32 * mib, 64 * mib, 100}, // twice the live heap is the floor
		{200 * mib, 64 * mib, 100},
		{0, 64 * mib, 1500},       // nothing live yet: the runtime's 4 MiB minimum, scaled, is the goal
		{1 * mib, 64 * mib, 1500}, // likewise
	} {
		if got := Percent(c.live, c.floor); got != c.want {
			t.Errorf("Percent(%d MiB, %d MiB) = %d, want %d", c.live/mib, c.floor/mib, got, c.want)
		}
	}
}

// TestStartFollowsTheLiveHeapAndStopRestoresTheDefault runs collections
// with the floor kept and checks the percentage it leaves. The tuner runs
// on the finalizer goroutine after each cycle, whenever the scheduler gets
// to it, so the test waits for the percentage to change (a loaded machine
// may take a while) and fails only if it never does.
func TestStartFollowsTheLiveHeapAndStopRestoresTheDefault(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	stop := Start(DefaultFloor)
	for range 3 {
		runtime.GC()
	}
	deadline := time.Now().Add(testkit.HangTimeout)
	for gcPercent() <= 100 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if p := gcPercent(); p <= 100 {
		t.Errorf("with a 64 MiB floor and a small heap, GC percent is %d, want more than 100", p)
	}
	stop()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("after stop, GC percent is %d, want 100", p)
	}
}

// gcPercent reads the GC percentage without setting it.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

func TestStartLeavesTheUsersSettingsAlone(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "200")
			before := debug.SetGCPercent(123)
			stop := Start(DefaultFloor)
			runtime.GC()
			if p := debug.SetGCPercent(before); p != 123 {
				t.Errorf("with %s set, Start changed the GC percent to %d", env, p)
			}
			stop()
		})
	}
}
