package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestWhatTheAPIServerRefusesIsRefused is issue 34's "what the API server
// refuses, refused": a NodeFeature whose instance feature has elements:
// null ("Required value") is refused, not rendered from; an op outside
// the enum or a taint without an effect refuses the whole
// NodeFeatureRule, its valid sibling rules included, and validate says
// so (NFD300) as render does, not "the rule fails on every node" or
// "nfd-master drops it".
func TestWhatTheAPIServerRefusesIsRefused(t *testing.T) {
	bin := filepath.Join(binDir, "nfd-fn")
	dir := t.TempDir()
	nullElements := strings.Replace(releaseNodeFeature, "    instances: {}", "    instances:\n      pci.device: {elements: null}", 1)
	testkit.WriteFiles(t, dir, map[string]string{
		"null/node-1.yaml": nullElements,
		"ok/node-1.yaml":   releaseNodeFeature,
		"rules.yaml": kernelRule("refused",
			kernelTerm{"valid-sibling", `labels: {example.com/sibling: "true"}`, "In"},
			kernelTerm{"op-outside-the-enum", `labels: {example.com/equals: "true"}`, "Equals"},
			kernelTerm{"taint-without-effect", `taints: [{key: example.com/t, value: "x"}]`, "In"}),
	})
	t.Run("elements-null", func(t *testing.T) {
		out, _, code := run(t, dir, commandEnv(nil), nil, bin, "validate", "null")
		want := `null/node-1.yaml:14:30: error: NodeFeature/node-1 spec.features.instances["pci.device"].elements: Required value`
		if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "[NFD002]") {
			t.Errorf("validate: exit %d\n%s\nwant %s", code, out, want)
		}
		labels, stderr, code := run(t, dir, commandEnv(nil), nil, bin, "render", "-o", "labels", "null")
		if code != 1 || strings.Contains(labels, "node-1") || !strings.Contains(stderr, "Required value") {
			t.Errorf("render rendered from a NodeFeature the API server refuses: exit %d\n%s\n%s", code, labels, stderr)
		}
	})
	t.Run("refused-rule-object", func(t *testing.T) {
		out, _, code := run(t, dir, commandEnv(nil), nil, bin, "validate", "rules.yaml")
		wantAll(t, out,
			`rules.yaml:16:38: error: NodeFeatureRule/refused spec.rules[1].matchFeatures[0].matchExpressions.major.op: the API server of NFD v0.19.0 refuses this NodeFeatureRule whole`,
			`rules.yaml:18:14: error: NodeFeatureRule/refused spec.rules[2].taints[0].effect: the API server of NFD v0.19.0 refuses this NodeFeatureRule whole`)
		if code != 1 || strings.Contains(out, "fails on every node") || strings.Contains(out, "nfd-master drops it") {
			t.Errorf("validate: exit %d, or says what only follows if nfd-master saw the rule:\n%s", code, out)
		}
		labels, stderr, _ := run(t, dir, commandEnv(nil), nil, bin, "render", "-o", "labels", "ok", "rules.yaml")
		if strings.Contains(labels, "example.com/sibling") || strings.Count(stderr, "[NFD300]") != 2 || strings.Contains(stderr, "[NFD004]") {
			t.Errorf("render: the refused object's sibling rule labelled, or the verdicts differ from validate's:\n%s\n%s", labels, stderr)
		}
	})
}

// TestValidateNodesRefusesANegativeExtendedResource is issue 34's §4 point
// on validateNodes: nfd-master passes an extended resource of -1 on (it
// only parses the quantity), the API server refuses a negative quantity,
// so with validateNodes: "true" the node update fails at the status patch.
func TestValidateNodesRefusesANegativeExtendedResource(t *testing.T) {
	rule := kernelRule("negative", kernelTerm{"minus-one", `extendedResources: {example.com/gpus: "-1"}`, "In"})
	node := `apiVersion: v1
kind: Node
metadata:
  name: node-1
status:
  capacity: {cpu: "4"}
  allocatable: {cpu: "4"}
`
	list := func(validate string) []byte {
		return []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n" +
			"  metadata: {name: c}\n  data: {validateNodes: \"" + validate + "\", nfdVersion: v0.18.3}\nitems:\n" +
			testkit.Item(releaseNodeFeature, "node-1-features.yaml") + testkit.Item(rule, "rule.yaml") + testkit.Item(node, "node-1.yaml"))
	}
	bin := filepath.Join(binDir, "nfd-fn")
	out, stderr, code := run(t, ".", commandEnv(nil), list("true"), bin)
	got := testkit.Read(t, []byte(out)).WithCheck("node-update-failed")
	if code != 1 || len(got) != 1 || !strings.Contains(got[0].Message, `status.capacity[example.com/gpus]: Invalid value: "-1": must be greater than or equal to 0`) {
		t.Errorf("validateNodes true: exit %d, results %+v\n%s", code, got, stderr)
	}
	out, _, code = run(t, ".", commandEnv(nil), list("false"), bin)
	if l := testkit.Read(t, []byte(out)); code != 0 || len(l.WithCheck("node-update-failed")) != 0 || !strings.Contains(out, `example.com/gpus: "-1"`) {
		t.Errorf("validateNodes false: nfd-master sends -1 on; exit %d\n%s", code, out)
	}
}

// kernelTerm is a rule of kernelRule: its name, one line of outputs and
// the op its term on kernel.version's major uses (value 6).
type kernelTerm struct{ name, outputs, op string }

// kernelRule is a NodeFeatureRule of rules matching on kernel.version.
func kernelRule(name string, rules ...kernelTerm) string {
	out := "apiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeatureRule\nmetadata:\n  name: " + name + "\nspec:\n  rules:\n"
	for _, r := range rules {
		out += "  - name: " + r.name + "\n    " + r.outputs + "\n    matchFeatures:\n    - feature: kernel.version\n" +
			"      matchExpressions: {major: {op: " + r.op + `, value: ["6"]}}` + "\n"
	}
	return out
}
