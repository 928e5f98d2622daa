package fn

import (
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/nfdyaml"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// decodedNFD is what decodeItem stores for NFD kinds.
type decodedNFD struct {
	obj  any
	errs []*yamlstrict.FieldError
}

func isNFD(apiVersion string) bool { return apiVersion == api.APIVersion }

func isNode(apiVersion, kind string) bool { return apiVersion == "v1" && kind == "Node" }

// decodeItem decodes the NFD kinds into typed objects. It runs in
// parallel over items.
func decodeItem(it *krm.Item) {
	if it.Node == nil || !isNFD(it.APIVersion) {
		return
	}
	var d decodedNFD
	switch it.Kind {
	case api.KindNodeFeature:
		d.obj, d.errs = nfdyaml.DecodeNodeFeature(it.Node)
	case api.KindNodeFeatureRule:
		d.obj, d.errs = nfdyaml.DecodeNodeFeatureRule(it.Node)
	case api.KindNodeFeatureGroup:
		d.obj, d.errs = nfdyaml.DecodeNodeFeatureGroup(it.Node)
	default:
		return
	}
	it.Decoded = &d
}

// keepItemNode keeps the trees of the items nfd-fn may rewrite.
func keepItemNode(it *krm.Item) bool {
	return isNode(it.APIVersion, it.Kind) || (isNFD(it.APIVersion) && it.Kind == api.KindNodeFeatureGroup)
}

// nodeState reads the managed part of an existing Node item.
func nodeState(n *yaml.Node) *master.NodeState {
	md := krm.MapAt(n, "metadata")
	st := krm.MapAt(n, "status")
	s := &master.NodeState{
		Labels:      krm.StringMap(krm.MapAt(md, "labels")),
		Annotations: krm.StringMap(krm.MapAt(md, "annotations")),
		Capacity:    krm.StringMap(krm.MapAt(st, "capacity")),
		Allocatable: krm.StringMap(krm.MapAt(st, "allocatable")),
	}
	if ts := krm.ValueAt(krm.MapAt(n, "spec"), "taints"); ts != nil && ts.Kind == yaml.SequenceNode {
		for _, t := range ts.Content {
			s.Taints = append(s.Taints, api.Taint{Key: krm.ScalarAt(t, "key"), Value: krm.ScalarAt(t, "value"),
				Effect: krm.ScalarAt(t, "effect"), TimeAdded: krm.ScalarAt(t, "timeAdded")})
		}
	}
	return s
}
