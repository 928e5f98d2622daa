package objects

import (
	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	ys "github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Node is a v1 Node as nfd-master sees it: its name and the parts NFD
// manages. The rest of the object stays in Origin.Node, untouched.
type Node struct {
	Name  string
	State NodeState
	// MasterFields are the fields nfd-master's metadata.managedFields
	// entries list (nil when it has none): nfd-fn's server-side apply
	// shares them rather than owning them (lint's takeover check).
	MasterFields *ManagedFields
}

// NodeState is the part of a Node object that nfd-master manages.
type NodeState struct {
	Labels      map[string]string
	Annotations map[string]string
	Taints      []api.Taint
	Capacity    map[string]string
	Allocatable map[string]string
}

// IsEmpty reports whether the state holds nothing.
func (s *NodeState) IsEmpty() bool {
	return len(s.Labels) == 0 && len(s.Annotations) == 0 && len(s.Taints) == 0 &&
		len(s.Capacity) == 0 && len(s.Allocatable) == 0
}

// ReadNode reads the name and the managed part of a v1 Node.
func ReadNode(n *yaml.Node) *Node {
	md := ys.Mapping(n, "metadata")
	st := ys.Mapping(n, "status")
	node := &Node{Name: ys.Scalar(md, "name"), MasterFields: readMasterFields(ys.Value(md, "managedFields")), State: NodeState{
		Labels:      ys.StringMap(ys.Mapping(md, "labels")),
		Annotations: ys.StringMap(ys.Mapping(md, "annotations")),
		Capacity:    ys.StringMap(ys.Mapping(st, "capacity")),
		Allocatable: ys.StringMap(ys.Mapping(st, "allocatable")),
	}}
	if ts := ys.Value(ys.Mapping(n, "spec"), "taints"); ts != nil && ts.Kind == yaml.SequenceNode {
		for _, t := range ts.Content {
			node.State.Taints = append(node.State.Taints, api.Taint{Key: ys.Scalar(t, "key"), Value: ys.Scalar(t, "value"),
				Effect: ys.Scalar(t, "effect"), TimeAdded: ys.Scalar(t, "timeAdded")})
		}
	}
	return node
}

// Namespace is a v1 Namespace as nfd-master's NodeFeature namespace
// selector sees it.
type Namespace struct {
	Name   string
	Labels map[string]string
}
