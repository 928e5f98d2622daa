package fastread

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// masterEntries are nfd-master's managedFields entries as
// `kubectl get node -o yaml --show-managed-fields` prints them: its patch
// of the Node (labels, annotations, taints) and of its status (extended
// resources), beside an Apply entry under its name, which is not its.
const masterEntries = `  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:annotations:
          f:nfd.node.kubernetes.io/feature-labels: {}
          f:nfd.node.kubernetes.io/taints: {}
        f:labels:
          f:feature.node.kubernetes.io/cpu-cpuid.AVX: {}
          f:feature.node.kubernetes.io/old-rule: {}
      f:spec:
        f:taints: {}
    manager: nfd-master
    operation: Update
    time: "2025-11-20T10:00:00Z"
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:status:
        f:allocatable:
          f:example.com/widget: {}
        f:capacity:
          f:example.com/widget: {}
        f:conditions:
          k:{"type":"Ready"}:
            f:status: {}
    manager: nfd-master
    operation: Update
    subresource: status
    time: "2025-11-20T10:00:00Z"
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:labels:
          f:not-nfd-masters: {}
    manager: nfd-master
    operation: Apply
`

// TestNodeFastDecodeReadsNFDMastersManagedFields: both Node readers keep
// the fields of nfd-master's Update entries (labels, annotations, the
// taint list, extended resources) and nothing of other managers' or of
// an Apply entry, from kubectl's YAML and JSON; the fast reader reads
// such a Node without falling back.
func TestNodeFastDecodeReadsNFDMastersManagedFields(t *testing.T) {
	node := strings.Replace(kubectlNode, "  name: worker-1\n", masterEntries+"  name: worker-1\n", 1)
	if node == kubectlNode {
		t.Fatal("the fixture changed")
	}
	want := &objects.ManagedFields{
		Labels:      []string{"feature.node.kubernetes.io/cpu-cpuid.AVX", "feature.node.kubernetes.io/old-rule"},
		Annotations: []string{"nfd.node.kubernetes.io/feature-labels", "nfd.node.kubernetes.io/taints"},
		Capacity:    []string{"example.com/widget"}, Allocatable: []string{"example.com/widget"},
		Taints: true,
	}
	for name, raw := range map[string]string{"yaml": node, "yaml-item": entry(node, 2), "json": kubectlItem(t, node)} {
		if !checkAgreesNode(t, []byte(raw)) {
			t.Errorf("%s: DecodeNodeFast fell back on a Node with nfd-master's managedFields", name)
			continue
		}
		d, _ := DecodeNodeFast([]byte(raw))
		if got := d.Obj.(*objects.Node).MasterFields; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: MasterFields = %+v, want %+v", name, got, want)
		}
	}
	d, ok := DecodeNodeFast([]byte(kubectlNode))
	if !ok || d.Obj.(*objects.Node).MasterFields != nil {
		t.Errorf("a Node only kubelet manages: ok=%v, MasterFields=%+v", ok, d.Obj.(*objects.Node).MasterFields)
	}
	twice := strings.Replace(node, "    manager: nfd-master\n    operation: Update\n    time", "    manager: nfd-master\n    manager: kubelet\n    operation: Update\n    time", 1)
	if _, ok := DecodeNodeFast([]byte(twice)); ok {
		t.Error("DecodeNodeFast read an entry naming its manager twice; want a fallback")
	}
}
