package inputs_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// TestLeanNodeFeaturesAfterTheSetClosesAreAnErrorNotAFault reads an
// export large enough to be mapped, whose NodeFeatures are read lean, and
// closes the set, which owns the files: loading a NodeFeature's spec
// afterwards returns krm.ErrClosed rather than reading unmapped memory.
func TestLeanNodeFeaturesAfterTheSetClosesAreAnErrorNotAFault(t *testing.T) {
	t.Chdir(t.TempDir())
	var features []string
	for i := range 40 { // well over the size krm maps rather than reads
		name := fmt.Sprintf("worker-%d", i)
		features = append(features, exportedNodeFeature(name, "nfd.node.kubernetes.io/node-name: "+name))
	}
	testkit.WriteFiles(t, ".", map[string]string{"export.yaml": kubectlList(features...) + "#" + strings.Repeat(" ", 80<<10) + "\n"})
	set := &objects.Set{}
	r := inputs.NewReader(set)
	if _, _, err := r.Read([]string{"export.yaml"}, false); err != nil {
		t.Fatal(err)
	}
	if len(set.Features) != len(features) || set.Features[0].Lean == nil {
		t.Fatalf("read %d NodeFeatures (lean: %v), want %d lean", len(set.Features), len(set.Features) > 0 && set.Features[0].Lean != nil, len(features))
	}
	if _, err := set.Features[0].Lean.Load(nil); err != nil {
		t.Fatalf("loading a spec before Close: %v", err)
	}
	if err := set.Close(); err != nil {
		t.Fatal(err)
	}
	for i := range set.Features {
		if spec, err := set.Features[i].Lean.Load(nil); !errors.Is(err, krm.ErrClosed) || spec != nil {
			t.Fatalf("loading a spec after Close = %v, %v; want krm.ErrClosed", spec, err)
		}
	}
	if err := r.Close(); err != nil {
		t.Errorf("closing the reader after its set: %v", err)
	}
}
