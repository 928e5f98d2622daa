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

// TestModePlanOnStdinReadsWorkloadItems: as kpt sends it, a ResourceList
// whose items' trees the reader lets go; the workload is read all the
// same and loses its node to the stale label's removal.
func TestModePlanOnStdinReadsWorkloadItems(t *testing.T) {
	items := `- apiVersion: v1
  kind: Node
  metadata:
    name: n1
    labels: {feature.node.kubernetes.io/old: "true"}
    annotations: {nfd.node.kubernetes.io/feature-labels: old}
- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeature
  metadata:
    name: n1
    namespace: node-feature-discovery
    labels: {nfd.node.kubernetes.io/node-name: n1}
  spec: {}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: app}
  spec:
    template:
      spec:
        nodeSelector: {feature.node.kubernetes.io/old: "true"}
        containers: [{name: c}]
`
	out, code := runList(t, configList("{mode: plan}", items))
	if code != 1 || !strings.Contains(out, "no node is eligible for its pods after the change (before: node n1)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
