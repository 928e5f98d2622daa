package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestGroupRuleMatchedDoesNotExistBeforeV018 is issue 34's §5: on v0.16
// and v0.17 a NodeFeatureGroup rule returns a bool only, so rule.matched
// never exists for the group's later rules (whatever vars the earlier
// ones have, which those CRDs prune anyway): a term on it never matches
// on v0.17 (DoesNotExist included) and fails the rule on v0.16. From
// v0.18 every group rule creates it, empty when it has no vars.
func TestGroupRuleMatchedDoesNotExistBeforeV018(t *testing.T) {
	nodeFeature := strings.Replace(releaseNodeFeature, `      kernel.version: {elements: {major: "6"}}`,
		`      kernel.version: {elements: {major: "6"}}`+"\n"+`      system.name: {elements: {nodename: node-1}}`, 1)
	group := `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureGroup
metadata:
  name: backrefs
  namespace: node-feature-discovery
spec:
  featureGroupRules:
  - name: first
    vars: {seen: "true"}
    matchFeatures:
    - feature: kernel.version
      matchExpressions: {major: {op: In, value: ["5"]}}
  - name: second
    matchFeatures:
    - feature: rule.matched
      matchExpressions: {seen: {op: DoesNotExist}}
`
	bin := filepath.Join(binDir, "nfd-fn")
	tests := []struct {
		release string
		members []string
		failed  bool // the rule fails with an error result
	}{
		{"v0.16.9", nil, true},
		{"v0.17.1", nil, false},
		{"v0.17.4", nil, false},
		{"v0.18.3", []string{"node-1"}, false},
		{"v0.19.0", []string{"node-1"}, false},
		{"openshift-5.0", []string{"node-1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.release, func(t *testing.T) {
			list := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n" +
				"  metadata: {name: c}\n  data: {nfdVersion: " + tt.release + ", featureGates: NodeFeatureGroupAPI=true}\nitems:\n" +
				testkit.Item(nodeFeature, "node-1.yaml") + testkit.Item(group, "group.yaml")
			out, stderr, _ := run(t, ".", commandEnv(nil), []byte(list), bin)
			l := testkit.Read(t, []byte(out))
			g := l.Item("NodeFeatureGroup", "backrefs")
			if g == nil {
				t.Fatalf("no group in the output:\n%s\n%s", out, stderr)
			}
			var members []string
			status, _ := g["status"].(map[string]any)
			nodes, _ := status["nodes"].([]any)
			for _, n := range nodes {
				members = append(members, n.(map[string]any)["name"].(string))
			}
			if strings.Join(members, ",") != strings.Join(tt.members, ",") {
				t.Errorf("members %v, want %v\n%s", members, tt.members, strings.Join(l.Texts(), "\n"))
			}
			failed := false
			for _, r := range l.Results {
				failed = failed || (r.Severity == "error" && strings.Contains(r.Message, "rule.matched"))
			}
			if failed != tt.failed {
				t.Errorf("an error result on rule.matched: %v, want %v\n%s", failed, tt.failed, strings.Join(l.Texts(), "\n"))
			}
		})
	}
}
