package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRenderPlacesNodeFeatureProblemsAtTheirLineAsValidateDoes: render
// reads a package's NodeFeatures without their trees, yet a problem of
// one (no node-name label: NFD026) names its line and column on stderr,
// as validate's does.
func TestRenderPlacesNodeFeatureProblemsAtTheirLineAsValidateDoes(t *testing.T) {
	bin := buildListTestBinary(t)
	dir := linterCases + "nodefeature-problems"
	want := []string{"nodefeature-problems/nodefeatures.yaml:7:3 warning NFD026"}
	validate := runBinary(t, bin, nil, "validate", dir)
	render := runBinary(t, bin, nil, "render", dir)
	for name, out := range map[string]string{"validate": validate.stdout, "render": render.stderr} {
		if diff := cmp.Diff(want, findings(out)); diff != "" {
			t.Errorf("%s (-want +got):\n%s\n%s", name, diff, out)
		}
	}
}
