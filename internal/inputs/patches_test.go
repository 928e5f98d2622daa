package inputs

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestKustomizePatchesAreTheFilesKustomizationsNameAsPatches: every form
// of patch a kustomization names by path is found, relative to its
// kustomization, under each of kustomize's file names; an inline patch
// and a hidden directory's kustomization are not.
func TestKustomizePatchesAreTheFilesKustomizationsNameAsPatches(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"a/kustomization.yaml":    "patches:\n  - path: p1.yaml\n  - patch: |-\n      kind: NodeFeatureRule\n      metadata: {name: inline}\npatchesStrategicMerge:\n  - ../shared/p2.yaml\npatchesJson6902:\n  - path: p3.json\n",
		"b/kustomization.yml":     "patches: [{path: p4.yaml}]\n",
		"c/Kustomization":         "patches: [{path: p5.yaml}]\n",
		".git/kustomization.yaml": "patches: [{path: hidden.yaml}]\n",
		"d/kustomization.yaml":    "patches: [oops\n", // does not parse: names nothing
	})
	got := findKustomizePatches([]string{dir})
	var names []string
	for p := range got {
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel+" "+got[p].field)
	}
	slices.Sort(names)
	want := []string{"a/p1.yaml patches[0].path", "a/p3.json patchesJson6902[0].path", "b/p4.yaml patches[0].path", "c/p5.yaml patches[0].path", "shared/p2.yaml patchesStrategicMerge[0]"}
	if !slices.Equal(names, want) {
		t.Errorf("patches %q, want %q", names, want)
	}
}
