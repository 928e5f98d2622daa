package fn

import (
	"go.yaml.in/yaml/v3"

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
func decodeItem(it *item) {
	if it.node == nil || !isNFD(it.apiVersion) {
		return
	}
	var d decodedNFD
	switch it.kind {
	case api.KindNodeFeature:
		d.obj, d.errs = nfdyaml.DecodeNodeFeature(it.node)
	case api.KindNodeFeatureRule:
		d.obj, d.errs = nfdyaml.DecodeNodeFeatureRule(it.node)
	case api.KindNodeFeatureGroup:
		d.obj, d.errs = nfdyaml.DecodeNodeFeatureGroup(it.node)
	default:
		return
	}
	it.decoded = &d
}

// keepItemNode keeps the trees of the items nfd-fn may rewrite.
func keepItemNode(apiVersion, kind string) bool {
	return isNode(apiVersion, kind) || (isNFD(apiVersion) && kind == api.KindNodeFeatureGroup)
}

// nodeState reads the managed part of an existing Node item.
func nodeState(n *yaml.Node) *master.NodeState {
	md := mapAt(n, "metadata")
	st := mapAt(n, "status")
	s := &master.NodeState{
		Labels:      stringMap(mapAt(md, "labels")),
		Annotations: stringMap(mapAt(md, "annotations")),
		Capacity:    stringMap(mapAt(st, "capacity")),
		Allocatable: stringMap(mapAt(st, "allocatable")),
	}
	if ts := valueAt(mapAt(n, "spec"), "taints"); ts != nil && ts.Kind == yaml.SequenceNode {
		for _, t := range ts.Content {
			s.Taints = append(s.Taints, api.Taint{Key: scalarAt(t, "key"), Value: scalarAt(t, "value"),
				Effect: scalarAt(t, "effect"), TimeAdded: scalarAt(t, "timeAdded")})
		}
	}
	return s
}
