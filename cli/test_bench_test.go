package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFleetSuites writes n RuleTests over the fleet at fleet, each with
// expectations on five of its nodes and the findings the generated fleet
// has (its rules include templates NFD006 and NFD027 report), into dir.
func writeFleetSuites(t testing.TB, dir, fleet string, n int) {
	t.Helper()
	for i := range n {
		var nodes strings.Builder
		for k := range 5 {
			fmt.Fprintf(&nodes, "      - node: worker-%05d\n        absentLabels: [example.com/never]\n", (i*20+k)%1000)
		}
		suite := fmt.Sprintf("apiVersion: nfd-fn.dev/v1alpha1\nkind: RuleTest\nmetadata:\n  name: fleet-%02d\nspec:\n  inputs: [%s]\n  expect:\n    nodes:\n%s    findings:\n      - {check: NFD006}\n      - {check: NFD027}\n",
			i, fleet, nodes.String())
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("fleet-%02d.ruletest.yaml", i)), []byte(suite), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkTest50SuitesOverFleet runs `nfd-fn test` on 50 RuleTest files
// over the 1,000-node fleet in $NFD_FN_FLEET (make bench-go sets it):
// the suites share one render of their common inputs. Issue 36's target
// is under 2 s a run, whole process (farm-bench on the built binary
// measures that; this is the in-process figure).
func BenchmarkTest50SuitesOverFleet(b *testing.B) {
	fleet := os.Getenv("NFD_FN_FLEET")
	if fleet == "" {
		b.Skip("NFD_FN_FLEET names no fleet file (make bench-go sets it)")
	}
	dir := b.TempDir()
	writeFleetSuites(b, dir, fleet, 50)
	for b.Loop() {
		if code := Main([]string{"test", dir}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("nfd-fn test: exit %d, want 0", code)
		}
	}
}

// BenchmarkValidateFleetTestFloor is `nfd-fn validate` on the same
// fleet: the read, admission, render and checks that
// BenchmarkTest50SuitesOverFleet's one shared render makes too, so the
// difference between the two is what the 50 suites cost on their own.
func BenchmarkValidateFleetTestFloor(b *testing.B) {
	fleet := os.Getenv("NFD_FN_FLEET")
	if fleet == "" {
		b.Skip("NFD_FN_FLEET names no fleet file (make bench-go sets it)")
	}
	for b.Loop() {
		// The fleet's rules have errors (NFD006, NFD027): exit 1.
		if code := Main([]string{"validate", fleet}, strings.NewReader(""), io.Discard, io.Discard); code != 1 {
			b.Fatalf("nfd-fn validate: exit %d, want 1", code)
		}
	}
}

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
