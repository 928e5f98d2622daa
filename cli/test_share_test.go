package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuitesWithTheSameInputsShareOneRender counts work, not time: 50
// RuleTests over the cluster export's rules and nodes allocate less than
// three times what one does, where a render per suite would take about
// fifty times as much (the 50-suite benchmark's premise: the fleet is
// read and rendered once for every suite that names it).
func TestSuitesWithTheSameInputsShareOneRender(t *testing.T) {
	export, err := filepath.Abs("../testdata/cluster-export")
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(n int) float64 {
		dir := t.TempDir()
		for i := range n {
			suite := fmt.Sprintf("apiVersion: nfd-fn.dev/v1alpha1\nkind: RuleTest\nmetadata:\n  name: s%02d\nspec:\n  config: %s/config.yaml\n  inputs: [%s/rules, %s/snapshot.yaml]\n  expect:\n    nodes:\n      - node: dgx-h100-01\n        labels: {nvidia.com/gds.capable: \"true\"}\n",
				i, export, export, export)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%02d.ruletest.yaml", i)), []byte(suite), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return testing.AllocsPerRun(2, func() {
			if code := Main([]string{"test", dir}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
				t.Fatalf("nfd-fn test over %d suites: exit %d, want 0", n, code)
			}
		})
	}
	one, fifty := allocs(1), allocs(50)
	if fifty >= 3*one {
		t.Errorf("50 suites allocate %.0f times, one %.0f: more than 3x, as if the suites did not share the render", fifty, one)
	}
	t.Logf("allocations: 1 suite %.0f, 50 suites %.0f (%.2fx)", one, fifty, fifty/one)
}
