package fn

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// gatesList is a ResourceList whose functionConfig sets n unknown
// feature gates.
func gatesList(n int) []byte {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("UnknownGate%d=true", i)
	}
	return []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n" +
		"  metadata: {name: c}\n  data:\n    featureGates: \"" + strings.Join(parts, ",") + "\"\nitems: []\n")
}

// TestFeatureGatesCostIsLinearInTheirNumber is issue 34's §4 point on
// featureGates (8,000 unknown gates took 48 s: every problem located the
// functionConfig by encoding it again, gate list and all). It counts
// work, not time: the bytes a run with 4n gates allocates may be at most
// maxGrowth times those with n (linear work gives about 4, quadratic 16),
// on any machine load.
func TestFeatureGatesCostIsLinearInTheirNumber(t *testing.T) {
	const n, factor, maxGrowth = 500, 4, 6.0
	allocated := func(data []byte) float64 {
		run := func() {
			var out bytes.Buffer
			if code, err := Run(data, &out, RunOptions{}); err != nil || code != 1 {
				t.Fatalf("Run: exit %d, %v, want 1 (an unknown gate is an error)", code, err)
			}
		}
		run() // warm up: one-time set-up is not the gates' cost
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		run()
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc - before.TotalAlloc)
	}
	small, large := allocated(gatesList(n)), allocated(gatesList(factor*n))
	t.Logf("%d gates: %.0f bytes allocated; %d gates: %.0f (x%.1f)", n, small, factor*n, large, large/small)
	if large/small > maxGrowth {
		t.Errorf("%d times the feature gates allocated %.1f times the bytes (%.0f, then %.0f): the cost is not linear", factor, large/small, small, large)
	}
}
