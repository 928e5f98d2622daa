package fn

import (
	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// writeNode updates an existing Node item in place, or appends a new Node
// item, with the rendered state.
func writeNode(rl *resourceList, existing *item, n *master.NodeResult) {
	if existing != nil {
		if updateNodeItem(existing.node, &n.State) {
			stampVersion(existing.node)
			existing.changed = true
		}
		return
	}
	if isEmptyState(&n.State) {
		// nfd-master would not create a Node; with nothing to set there is
		// nothing worth writing either.
		return
	}
	rl.items = append(rl.items, &item{node: newNodeItem(n.Name, &n.State), apiVersion: "v1", kind: "Node", name: n.Name})
}

// stampVersion records the nfd-fn version on a Node it changed. Nodes it
// leaves alone keep whatever version wrote them, so a re-render with a new
// release does not touch unchanged Nodes.
func stampVersion(n *yaml.Node) {
	setField(ensureMap(ensureMap(n, "metadata"), "annotations"), version.Annotation, strNode(version.Version))
}

func isEmptyState(s *master.NodeState) bool {
	return len(s.Labels) == 0 && len(s.Annotations) == 0 && len(s.Taints) == 0 && len(s.Capacity) == 0
}

// newNodeItem builds a Node object for a node that is not in the input,
// with path annotations so kpt writes it to nodes/<name>.yaml.
func newNodeItem(name string, s *master.NodeState) *yaml.Node {
	path := NodePathPrefix + name + ".yaml"
	annotations := map[string]string{pathAnnotation: path, indexAnnotation: "0",
		legacyPathAnnotation: path, legacyIndexAnnotation: "0", version.Annotation: version.Version}
	for k, v := range s.Annotations {
		annotations[k] = v
	}
	md := &yaml.Node{Kind: yaml.MappingNode}
	setField(md, "name", strNode(name))
	if len(s.Labels) > 0 {
		setField(md, "labels", mapNode(s.Labels))
	}
	setField(md, "annotations", mapNode(annotations))
	n := &yaml.Node{Kind: yaml.MappingNode}
	setField(n, "apiVersion", strNode("v1"))
	setField(n, "kind", strNode("Node"))
	setField(n, "metadata", md)
	if len(s.Taints) > 0 {
		spec := &yaml.Node{Kind: yaml.MappingNode}
		setField(spec, "taints", taintsNode(s.Taints))
		setField(n, "spec", spec)
	}
	if len(s.Capacity) > 0 {
		status := &yaml.Node{Kind: yaml.MappingNode}
		setField(status, "capacity", mapNode(s.Capacity))
		setField(status, "allocatable", mapNode(s.Allocatable))
		setField(n, "status", status)
	}
	return n
}

// updateNodeItem writes the rendered state into an existing Node, keeping
// everything nfd-master does not manage. It reports whether anything changed.
func updateNodeItem(n *yaml.Node, s *master.NodeState) bool {
	changed := false
	md := ensureMap(n, "metadata")
	changed = syncOptionalMap(md, "labels", s.Labels) || changed
	changed = syncOptionalMap(md, "annotations", s.Annotations) || changed
	old := nodeState(n)
	if !sameTaints(old.Taints, s.Taints) {
		changed = true
		if len(s.Taints) == 0 {
			if spec := mapAt(n, "spec"); spec != nil {
				removeField(spec, "taints")
			}
		} else {
			setField(ensureMap(n, "spec"), "taints", taintsNode(s.Taints))
		}
	}
	if len(s.Capacity) > 0 || mapAt(n, "status") != nil {
		st := ensureMap(n, "status")
		changed = syncOptionalMap(st, "capacity", s.Capacity) || changed
		changed = syncOptionalMap(st, "allocatable", s.Allocatable) || changed
	}
	return changed
}

// syncOptionalMap syncs the mapping at key, leaving it absent when it was
// absent and stays empty.
func syncOptionalMap(parent *yaml.Node, key string, want map[string]string) bool {
	if mapAt(parent, key) == nil && len(want) == 0 {
		return false
	}
	return syncStringMap(ensureMap(parent, key), want)
}

func sameTaints(a, b []api.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func taintsNode(ts []api.Taint) *yaml.Node {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, t := range ts {
		m := &yaml.Node{Kind: yaml.MappingNode}
		setField(m, "key", strNode(t.Key))
		if t.Value != "" {
			setField(m, "value", strNode(t.Value))
		}
		setField(m, "effect", strNode(t.Effect))
		if t.TimeAdded != "" {
			setField(m, "timeAdded", strNode(t.TimeAdded))
		}
		list.Content = append(list.Content, m)
	}
	return list
}
