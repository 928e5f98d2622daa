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
		"rules.yaml": `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: refused}
spec:
  rules:
  - name: valid-sibling
    labels: {example.com/sibling: "true"}
    matchFeatures:
    - feature: kernel.version
      matchExpressions: {major: {op: In, value: ["6"]}}
  - name: op-outside-the-enum
    labels: {example.com/equals: "true"}
    matchFeatures:
    - feature: kernel.version
      matchExpressions: {major: {op: Equals, value: ["6"]}}
  - name: taint-without-effect
    taints: [{key: example.com/t, value: "x"}]
    matchFeatures:
    - feature: kernel.version
      matchExpressions: {major: {op: In, value: ["6"]}}
`,
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
		for _, want := range []string{
			`rules.yaml:15:38: error: NodeFeatureRule/refused spec.rules[1].matchFeatures[0].matchExpressions.major.op: the API server of NFD v0.19.0 refuses this NodeFeatureRule whole`,
			`rules.yaml:17:14: error: NodeFeatureRule/refused spec.rules[2].taints[0].effect: the API server of NFD v0.19.0 refuses this NodeFeatureRule whole`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("validate lacks %q:\n%s", want, out)
			}
		}
		if code != 1 || strings.Contains(out, "fails on every node") || strings.Contains(out, "nfd-master drops it") {
			t.Errorf("validate: exit %d, or says what only follows if nfd-master saw the rule:\n%s", code, out)
		}
		labels, stderr, _ := run(t, dir, commandEnv(nil), nil, bin, "render", "-o", "labels", "ok", "rules.yaml")
		if strings.Contains(labels, "example.com/sibling") || strings.Count(stderr, "[NFD300]") != 2 || strings.Contains(stderr, "[NFD004]") {
			t.Errorf("render: the refused object's sibling rule labelled, or the verdicts differ from validate's:\n%s\n%s", labels, stderr)
		}
	})
}
