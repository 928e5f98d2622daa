package lint

import (
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// TestUncoveredDropsPerNodeFindingsAStaticOneReports checks that a render
// reports a literal output once (statically), not again per node, while
// per-node findings about other outputs and other checks stay.
func TestUncoveredDropsPerNodeFindingsAStaticOneReports(t *testing.T) {
	obj := diag.ObjectRef{Kind: "NodeFeatureRule", Name: "r"}
	other := diag.ObjectRef{Kind: "NodeFeatureRule", Name: "s"}
	static := diag.List{
		{Check: "taint", Object: obj, Field: "spec.rules[0].taints[0].key"},
		{Check: "taint-disabled", Object: obj, Field: "spec.rules[1].taints"},
		{Check: "output-annotation", Object: obj, Field: `spec.rules[0].annotations["kubernetes.io/x"]`},
		{Check: "backref", Object: obj, Field: "spec.rules[2].matchFeatures[0].matchExpressions.y"},
	}
	perNode := diag.List{
		{Check: "output-dropped", Object: obj, Field: "spec.rules[0].taints[0]"},
		{Check: "taint-disabled", Object: obj, Field: "spec.rules[1].taints[3]"},
		{Check: "output-dropped", Object: obj, Field: `spec.rules[0].annotations["kubernetes.io/x"]`},
		{Check: "output-dropped", Object: obj, Field: "spec.rules[0].taints[1]"},
		{Check: "output-dropped", Object: other, Field: "spec.rules[0].taints[0]"},
		{Check: "rule-failed", Object: obj, Field: "spec.rules[0].taints[0]"},
		{Check: "output-dropped", Object: obj, Field: "spec.rules[2].matchFeatures[0].matchExpressions.y"},
	}
	got := Uncovered(perNode, static)
	want := perNode[3:]
	if len(got) != len(want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Object != want[i].Object || got[i].Field != want[i].Field || got[i].Check != want[i].Check {
			t.Errorf("kept[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}
