package fn

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/golden"
)

// TestModePlanGatesOnThePlansErrors runs mode plan over the stale-labels
// fixture as kpt would hand it over: the items pass through untouched,
// the workload left with no eligible node is an error result (exit 1),
// and the plan comes as info results.
func TestModePlanGatesOnThePlansErrors(t *testing.T) {
	t.Chdir("../testdata/plan/stale-labels")
	var cfg yaml.Node
	if err := yaml.Unmarshal([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {mode: plan, enableTaints: \"true\"}\n"), &cfg); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code, err := RunFiles([]string{"snapshot.yaml", "rules", "workloads"}, nil, cfg.Content[0], &out, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	items, results, ok := strings.Cut(out.String(), "\nresults:\n")
	if !ok {
		t.Fatalf("no results in:\n%s", out.String())
	}
	if strings.Contains(items, "nfd.node.kubernetes.io/taints") {
		t.Error("mode plan changed a Node item")
	}
	golden.Check(t, "../../../fn/testdata/plan/stale-labels-results.golden", []byte(results))
}
