package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneVerdictForLargeInputs is issue 34's "one verdict for large
// inputs": the same problem on 3,300 NodeFeatures is one result naming
// how many and where the first is, in validate, render and plan alike;
// and plan says it could not plan when every NodeFeature is refused,
// not "no changes".
func TestOneVerdictForLargeInputs(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 3300 {
		fmt.Fprintf(&b, "---\napiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata:\n  name: node-%d\n  namespace: nfd\n"+
			"  labels: {nfd.node.kubernetes.io/node-name: node-%d}\nspec:\n  features:\n    instances:\n      pci.device: {elements: null}\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "snapshot.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(binDir, "nfd-fn")
	const want = `snapshot.yaml:11:30: error: NodeFeature/node-0 spec.features.instances["pci.device"].elements: NFD002 on 3,300 NodeFeatures, first at snapshot.yaml:11: Required value`
	for _, args := range [][]string{{"validate"}, {"render", "-o", "labels"}, {"plan", "--detailed-exitcode"}} {
		t.Run(args[0], func(t *testing.T) {
			stdout, stderr, code := run(t, dir, commandEnv(nil), nil, bin, append(args, "snapshot.yaml")...)
			out := stdout + stderr
			if code != 1 || strings.Count(out, "[NFD002]") != 1 || !strings.Contains(out, want) {
				t.Errorf("exit %d, %d NFD002 results, want one grouped result, exit 1:\n%.2000s", code, strings.Count(out, "[NFD002]"), out)
			}
			if args[0] == "plan" && (!strings.Contains(stdout, "could not plan: every NodeFeature of the snapshot (3300 NodeFeatures) is one the API server refuses") ||
				strings.Contains(stdout, "no changes")) {
				t.Errorf("plan does not say it could not plan:\n%s", stdout)
			}
		})
	}
}
