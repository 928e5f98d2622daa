package admission

import (
	"slices"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// TestEveryReleasesCRDsAreRecognisedByTheirSchema reads each release's
// CRD file as an input would hold it: every CRD must name its own minor
// release, and the NodeFeatureRule CRD of v0.17 (no Ge) none of v0.18's.
func TestEveryReleasesCRDsAreRecognisedByTheirSchema(t *testing.T) {
	for _, line := range release.Lines() {
		minor, tag := line.Minor, line.CRDs.String()
		data, err := crdFiles.ReadFile("crds/nfd-api-crds-" + tag + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range splitDocuments(data) {
			kind, minors, err := CRDMinors(doc)
			if err != nil {
				t.Fatal(err)
			}
			if kind == "" {
				continue
			}
			if !slices.Contains(minors, minor) {
				t.Errorf("%s's %s CRD matches %v, not its own minor %d", tag, kind, minors, minor)
			}
			if kind == "NodeFeatureRule" && minor <= 17 && slices.Contains(minors, 18) {
				t.Errorf("%s's NodeFeatureRule CRD (no Ge) matches v0.18's", tag)
			}
		}
	}
}

func TestACRDOfAnotherKindOrSchemaMatchesNoRelease(t *testing.T) {
	_, minors, err := CRDMinors([]byte("kind: CustomResourceDefinition\nspec:\n  names: {kind: NodeFeatureRule}\n  versions:\n  - name: v1alpha1\n    schema:\n      openAPIV3Schema: {type: object}\n"))
	if err != nil || len(minors) != 0 {
		t.Errorf("minors %v, err %v; want none", minors, err)
	}
}
