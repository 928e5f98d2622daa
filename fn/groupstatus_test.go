package fn

import (
	"bytes"
	"strings"
	"testing"
)

// groupStatusList is a ResourceList with the functionConfig data given,
// one node of kernel 6, a NodeFeatureGroup in namespace default that it
// matches (its status, flow style with a comment, lists an old member)
// and the extra items.
func groupStatusList(data string, extra ...string) string {
	return listOf(data, append([]string{kernelSixFeature("a", "        system.name: {elements: {nodename: a}}\n"), `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureGroup
  metadata: {name: k6, namespace: default}
  spec:
    featureGroupRules:
    - name: k6
      matchFeatures:
      - feature: kernel.version
        matchExpressions: {major: {op: In, value: ["6"]}}
  status: {nodes: [{name: old}]}  # as the cluster has it
`}, extra...)...)
}

const keptStatus = `  status: {nodes: [{name: old}]}  # as the cluster has it`

// renderText runs the list and returns the output text.
func renderText(t *testing.T, input string) string {
	t.Helper()
	var out bytes.Buffer
	if _, err := Run([]byte(input), &out, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestGroupOutsideAKnownMasterNamespaceKeepsItsStatus(t *testing.T) {
	for name, input := range map[string]string{
		"nfdNamespace":          groupStatusList("nfdNamespace: node-feature-discovery"),
		"nfd-master Deployment": groupStatusList("", masterDeployment("registry.k8s.io/nfd/node-feature-discovery:v0.19.0")),
	} {
		out := renderText(t, input)
		if !strings.Contains(out, keptStatus) {
			t.Errorf("%s: the group's status changed:\n%s", name, out)
		}
		if !strings.Contains(out, `NodeFeatureGroup in namespace "default", outside nfd-master''s "node-feature-discovery"`) || !strings.Contains(out, "NFD #2385") {
			t.Errorf("%s: no NFD054 warning naming both namespaces:\n%s", name, out)
		}
		if !strings.Contains(out, "render leaves the status as it was") {
			t.Errorf("%s: the warning does not say the status is kept:\n%s", name, out)
		}
	}
}

func TestGroupStatusAllNamespacesWritesAFixedMastersStatus(t *testing.T) {
	out := renderText(t, groupStatusList(`nfdNamespace: node-feature-discovery, groupStatusAllNamespaces: "true"`))
	if strings.Contains(out, keptStatus) || !strings.Contains(out, "status: {nodes: [{name: a}]}") {
		t.Errorf("the group's status is not rewritten:\n%s", out)
	}
	if strings.Contains(out, "outside nfd-master") {
		t.Errorf("a warning for a status the user asked for:\n%s", out)
	}
}

func TestGroupOutsideAnUnknownMasterNamespaceGetsAFixedMastersStatus(t *testing.T) {
	out := renderText(t, groupStatusList(""))
	if strings.Contains(out, keptStatus) || !strings.Contains(out, "status: {nodes: [{name: a}]}") {
		t.Errorf("the group's status is not rewritten:\n%s", out)
	}
	if !strings.Contains(out, "outside nfd-master''s default namespace") {
		t.Errorf("no warning that the namespace is assumed:\n%s", out)
	}
}

func TestGroupInTheMasterNamespaceShownGetsItsStatus(t *testing.T) {
	out := renderText(t, groupStatusList("nfdNamespace: default"))
	if strings.Contains(out, keptStatus) || !strings.Contains(out, "status: {nodes: [{name: a}]}") || strings.Contains(out, "outside nfd-master") {
		t.Errorf("the group in nfd-master's namespace:\n%s", out)
	}
}
