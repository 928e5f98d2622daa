package fn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// gpuTaintRule taints every node of kernel 6 with example.com/gpu.
const gpuTaintRule = `- apiVersion: nfd.k8s-sigs.io/v1alpha1
  kind: NodeFeatureRule
  metadata: {name: gpu-taint}
  spec:
    rules:
    - name: gpu-taint
      taints: [{key: example.com/gpu, value: present, effect: NoSchedule}]
      matchFeatures:
      - feature: kernel.version
        matchExpressions:
          major: {op: In, value: ["6"]}
`

// exportedNode is Node a as `kubectl get nodes -o yaml` shows it, with
// the taints given (one `- {...}` line each) and, when nfdTaints is not
// empty, nfd-master's taints annotation listing them.
func exportedNode(nfdTaints string, taints ...string) string {
	ann := "{}"
	if nfdTaints != "" {
		ann = "{nfd.node.kubernetes.io/taints: \"" + nfdTaints + "\"}"
	}
	spec := "  spec: {}\n"
	if len(taints) > 0 {
		spec = "  spec:\n    taints:\n"
		for _, t := range taints {
			spec += "    - " + t + "\n"
		}
	}
	return `- apiVersion: v1
  kind: Node
  metadata:
    name: a
    annotations: ` + ann + `
    labels: {kubernetes.io/hostname: a}
` + spec + `  status:
    capacity: {cpu: "4"}
    allocatable: {cpu: "4"}
`
}

// taintsManagedBy is node (an exportedNode) as exported with
// --show-managed-fields: manager, with operation op, owns its taint list.
func taintsManagedBy(node, manager, op string) string {
	return strings.Replace(node, "    labels: {kubernetes.io/hostname: a}\n", `    labels: {kubernetes.io/hostname: a}
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1:
        f:spec:
          f:taints: {}
      manager: `+manager+`
      operation: `+op+`
`, 1)
}

const (
	notReadyTaint = "{key: node.kubernetes.io/not-ready, effect: NoSchedule}"
	gpuTaint      = "{key: example.com/gpu, value: present, effect: NoSchedule}"
)

// applyTaintsOf is Node a's spec.taints in an apply output, as
// key=value:effect, and whether the output sets spec.taints at all.
func applyTaintsOf(t *testing.T, l testkit.List) ([]string, bool) {
	t.Helper()
	n := l.Item("Node", "a")
	if n == nil {
		t.Fatal("the output has no Node a")
	}
	spec, _ := n["spec"].(map[string]any)
	list, set := spec["taints"].([]any)
	var out []string
	for _, x := range list {
		m := x.(map[string]any)
		out = append(out, fmt.Sprintf("%v=%v:%v", m["key"], m["value"], m["effect"]))
	}
	return out, set
}

// TestApplyOutputWritesTheNodesWholeTaintList: spec.taints is an atomic
// list for server-side apply, so with the Node object in the input the
// apply output writes the node's whole rendered taint list whenever NFD
// owns taints or owned some, or nfd-fn's earlier apply may own the list
// (others' kept, NFD's removed ones gone, an empty list when none is
// left), and leaves spec.taints out when the Node has no taints or its
// managedFields show the list is not nfd-fn's; without the Node object it writes NFD's taints alone
// and warns once (NFD315).
func TestApplyOutputWritesTheNodesWholeTaintList(t *testing.T) {
	const nfdOld = "example.com/gpu=present:NoSchedule"
	cases := []struct {
		name     string
		node     string // "" for no Node object
		rule     string
		taints   string // enableTaints
		want     []string
		set      bool
		warnings int
	}{
		{"others' taints kept beside NFD's new one", exportedNode("", notReadyTaint), gpuTaintRule, "true",
			[]string{"node.kubernetes.io/not-ready=<nil>:NoSchedule", "example.com/gpu=present:NoSchedule"}, true, 0},
		{"NFD's removed taint goes and others' stay", exportedNode(nfdOld, notReadyTaint, gpuTaint), "", "true",
			[]string{"node.kubernetes.io/not-ready=<nil>:NoSchedule"}, true, 0},
		{"an empty list when NFD's last taint goes and no other is left", exportedNode(nfdOld, gpuTaint), "", "true",
			nil, true, 0},
		{"NFD's taints removed by enableTaints off still write the list", exportedNode(nfdOld, notReadyTaint, gpuTaint), gpuTaintRule, "false",
			[]string{"node.kubernetes.io/not-ready=<nil>:NoSchedule"}, true, 0},
		{"no managedFields: others' taints written, nfd-fn's earlier apply may own the list", exportedNode("", notReadyTaint), "", "true",
			[]string{"node.kubernetes.io/not-ready=<nil>:NoSchedule"}, true, 0},
		{"managedFields show nfd-fn's apply owning the list: written whole", taintsManagedBy(exportedNode("", notReadyTaint), "nfd-fn", "Apply"), "", "true",
			[]string{"node.kubernetes.io/not-ready=<nil>:NoSchedule"}, true, 0},
		{"no spec.taints when managedFields show another manager's list and NFD owns none", taintsManagedBy(exportedNode("", notReadyTaint), "kubectl-taint", "Update"), "", "true",
			nil, false, 0},
		{"no spec.taints on a Node without taints that NFD never tainted", exportedNode(""), "", "true",
			nil, false, 0},
		{"no Node object: NFD's taints alone and one warning", "", gpuTaintRule, "true",
			[]string{"example.com/gpu=present:NoSchedule"}, true, 1},
		{"no Node object with taints enabled: no taints seen, still one warning", "", "", "true",
			nil, false, 1},
		{"no Node object with taints off: no warning", "", "", "false",
			nil, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			items := []string{kernelSixFeature("a")}
			for _, it := range []string{c.node, c.rule} {
				if it != "" {
					items = append(items, it)
				}
			}
			out, _ := testkit.Run(t, runWith(RunOptions{}), []byte(listOf("nodeOutput: apply, enableTaints: \""+c.taints+"\"", items...)))
			l := testkit.Read(t, out)
			got, set := applyTaintsOf(t, l)
			if strings.Join(got, " ") != strings.Join(c.want, " ") || set != c.set {
				t.Errorf("spec.taints %q (set %v), want %q (set %v)", got, set, c.want, c.set)
			}
			var warned []string
			for _, r := range l.Results {
				if r.Tags["checkID"] == "NFD315" {
					warned = append(warned, r.Text())
				}
			}
			if len(warned) != c.warnings {
				t.Errorf("%d NFD315 results, want %d: %q\nall results:\n%s", len(warned), c.warnings, warned, results(l))
			}
			if c.warnings > 0 && !strings.Contains(warned[0], "1 apply-ready Node (a first) written with no Node object in the input") {
				t.Errorf("NFD315 reads %q", warned[0])
			}
		})
	}
}

// TestTakeoverCountsNFDMastersTaintListAsShared: the taint list is
// atomic and nfd-fn's apply writes it whole while NFD has or had taints
// on the node, so on a Node whose list nfd-master owns, NFD314 names
// spec.taints among the fields nfd-fn sets too (shared, or taken over
// with --force-conflicts), never among those it would orphan, even when
// the rule that tainted the node is gone.
func TestTakeoverCountsNFDMastersTaintListAsShared(t *testing.T) {
	node := taintsManagedBy(exportedNode("example.com/gpu=present:NoSchedule", notReadyTaint, gpuTaint), "nfd-master", "Update")
	for _, c := range []struct{ name, rule string }{{"rule still there", gpuTaintRule}, {"rule removed", ""}} {
		t.Run(c.name, func(t *testing.T) {
			items := []string{kernelSixFeature("a"), node}
			if c.rule != "" {
				items = append(items, c.rule)
			}
			out, _ := testkit.Run(t, runWith(RunOptions{}), []byte(listOf("enableTaints: \"true\"", items...)))
			res := results(testkit.Read(t, out))
			if !strings.Contains(res, "1 field nfd-fn sets too (spec.taints)") || strings.Contains(res, "orphaned") {
				t.Errorf("NFD314 must count the taint list as shared:\n%s", res)
			}
		})
	}
}
