package plan

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// TestPlanWarnsWhereNFDMasterOwnsWhatItRemoves: a Node whose
// managedFields show nfd-master owning the stale label the plan removes
// gets a takeover warning (NFD314) saying that label would be orphaned
// by nfd-fn's apply; the others get none.
func TestPlanWarnsWhereNFDMasterOwnsWhatItRemoves(t *testing.T) {
	in := fixtureInput(t, "")
	found := false
	for i := range in.Head.Nodes {
		if n := in.Head.Nodes[i].Obj; n.Name == "gpu-1" {
			n.MasterFields, found = &objects.ManagedFields{Labels: []string{"feature.node.kubernetes.io/old-gpu"}}, true
		}
	}
	if !found {
		t.Fatal("the fixture has no Node gpu-1")
	}
	var got []string
	for _, d := range Make(in).Diagnostics {
		if d.Check == "nfd-master-managed" {
			got = append(got, d.Object.Name+": "+d.Message)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "gpu-1: ") ||
		!strings.Contains(got[0], "1 field nfd-fn's render removes (label feature.node.kubernetes.io/old-gpu) will be orphaned") {
		t.Errorf("takeover warnings = %q, want one on gpu-1 naming old-gpu", got)
	}
}
