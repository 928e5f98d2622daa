package fn

import (
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
)

// withStatusMaps sets an apply-status Node's status to a copy of its
// status holding capacity and allocatable, empty where NFD sets no
// extended resource. Tested on kube-apiserver v1.35 (tools/controlplane):
// a status apply without these maps, after one that set an extended
// resource, removes the Node's whole capacity and allocatable, the
// kubelet's cpu, memory and pods included (a kubelet registers them with
// the Node's create, which owns no status field, so no manager holds
// them); with the maps present, only the extended resources nfd-fn no
// longer applies go.
func withStatusMaps(out *yaml.Node) {
	st := &yaml.Node{Kind: yaml.MappingNode}
	if old := krm.ValueAt(out, "status"); old != nil && old.Kind == yaml.MappingNode {
		st.Content = append(st.Content, old.Content...)
	}
	for _, k := range []string{"capacity", "allocatable"} {
		if krm.ValueAt(st, k) == nil {
			krm.SetField(st, k, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle})
		}
	}
	krm.SetField(out, "status", st)
}
