package fn

import (
	"slices"

	sdk "github.com/kptdev/krm-functions-sdk/go/fn"
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/version"
)

// patchNode writes the rendered state into a Node's tree and reports
// whether anything changed. nfd-master writes no annotation of its own
// beyond its tracking annotations, and by default neither does nfd-fn;
// with stampVersion, a Node nfd-fn changes records the nfd-fn version.
// With nodeOutput apply the tree is replaced by the apply-ready form
// (applyNode), written where the Node was read from.
func patchNode(tree *yaml.Node, n *master.NodeResult, s config.Settings) bool {
	if s.NodeOutput == config.NodeOutputApply {
		node := applyNode(n, s, tree)
		keepPlace(node, tree)
		*tree = *node
		return true
	}
	if !updateNodeItem(tree, &n.State) {
		return false
	}
	if s.StampVersion {
		stampVersion(tree)
	}
	return true
}

// newNode is the Node item written for a node with no Node object in the
// input: a local-config preview of the rendered state, or with nodeOutput
// apply the apply-ready form. A preview is nil when there is nothing to
// set: nfd-master would not create a Node, and there is nothing worth
// writing. The apply-ready form is written for every node, a name-only
// Node when NFD owns nothing on it: applied, it removes what the field
// manager applied before.
func newNode(n *master.NodeResult, s config.Settings) *yaml.Node {
	if s.NodeOutput == config.NodeOutputApply {
		return applyNode(n, s, nil)
	}
	if isEmptyState(&n.State) {
		return nil
	}
	node := newNodeItem(n.Name, &n.State, true)
	if s.StampVersion {
		stampVersion(node)
	}
	return node
}

// applyNode is the apply-ready form of a node: only the labels,
// annotations, taints and extended resources NFD owns, for
// `kubectl apply --server-side --field-manager=nfd-fn` (the status part
// with `--subresource=status`); it is not local-config. A Node's
// spec.taints is an atomic list for server-side apply: whoever applies
// it sets the whole list, and a field manager that stops applying a list
// it alone owns removes the whole list. So with the input's Node object
// (old) the whole rendered list is written, others' taints kept (an
// empty list once the last one goes), as nfd-master's patch of the list
// does, whenever nfd-fn's apply may own it (wholeTaints).
func applyNode(n *master.NodeResult, s config.Settings, old *yaml.Node) *yaml.Node {
	st := s.Options.OwnedState(&n.State)
	whole := old != nil && wholeTaints(old, len(st.Taints) > 0)
	if whole {
		st.Taints = n.State.Taints
	}
	node := newNodeItem(n.Name, &st, false)
	if whole && len(st.Taints) == 0 {
		krm.SetField(krm.EnsureMap(node, "spec"), "taints", taintsNode(nil))
	}
	if s.StampVersion {
		stampVersion(node)
	}
	return node
}

// wholeTaints reports whether the apply-ready form of the Node object n,
// as read, writes its whole taint list: NFD has taints on it (nfdTaints),
// had some (nfd-master's taints annotation), or nfd-fn's earlier apply
// may own its list, which leaving spec.taints out would remove with
// every taint in it: its managedFields say so, or it has taints and was
// exported without managedFields. A Node with no taints, whose list
// nfd-fn owned or not, loses nothing when spec.taints stays out; nor
// does one whose managedFields show nfd-fn not owning its list.
func wholeTaints(n *yaml.Node, nfdTaints bool) bool {
	md := krm.MapAt(n, "metadata")
	if nfdTaints || krm.ValueAt(krm.MapAt(md, "annotations"), master.TaintsAnnotation) != nil {
		return true
	}
	list := krm.ValueAt(krm.MapAt(n, "spec"), "taints")
	if list == nil || len(list.Content) == 0 {
		return false
	}
	owns, known := objects.AppliedTaints(md)
	return owns || !known
}

// applyTaints reports whether an apply-ready Node n sets spec.taints.
func applyTaints(n *yaml.Node) bool {
	return krm.ValueAt(krm.MapAt(n, "spec"), "taints") != nil
}

// keepPlace copies the file annotations of old onto n, so that the Node is
// written back where it was read from.
func keepPlace(n, old *yaml.Node) {
	krm.CopyPlace(krm.EnsureMap(krm.EnsureMap(n, "metadata"), "annotations"), krm.MapAt(krm.MapAt(old, "metadata"), "annotations"))
}

// NodePathPrefix is the directory, relative to the package, that new Node
// items are given in their path annotations: nodes/<node-name>.yaml.
const NodePathPrefix = "nodes/"

// LocalConfigAnnotation marks an object that tools must not apply (the kpt
// function SDK's KptLocalConfig, config.kubernetes.io/local-config).
const LocalConfigAnnotation = sdk.KptLocalConfig

// stampVersion records the nfd-fn version on a Node it changed. Nodes it
// leaves alone keep whatever version wrote them, so a re-render with a new
// release does not touch unchanged Nodes.
func stampVersion(n *yaml.Node) {
	krm.SetField(krm.EnsureMap(krm.EnsureMap(n, "metadata"), "annotations"), version.Annotation, krm.StrNode(version.Version))
}

// isEmptyState reports a state with nothing to write.
func isEmptyState(s *master.NodeState) bool {
	return len(s.Labels) == 0 && len(s.Annotations) == 0 && len(s.Taints) == 0 && len(s.Capacity) == 0
}

// newNodeItem builds a Node object for a node that is not in the input,
// with path annotations so kpt writes it to nodes/<name>.yaml. A preview
// of what nfd-master would set is not an object to create: it is marked
// local-config, so kpt live apply, Argo CD, Flux and kustomize build
// never create a Node from it.
func newNodeItem(name string, s *master.NodeState, preview bool) *yaml.Node {
	path := NodePathPrefix + name + ".yaml"
	annotations := krm.PlaceAnnotations(path, 0)
	if preview {
		annotations[LocalConfigAnnotation] = "true"
	}
	for k, v := range s.Annotations {
		annotations[k] = v
	}
	md := &yaml.Node{Kind: yaml.MappingNode}
	krm.SetField(md, "name", krm.StrNode(name))
	if len(s.Labels) > 0 {
		krm.SetField(md, "labels", krm.MapNode(s.Labels))
	}
	krm.SetField(md, "annotations", krm.MapNode(annotations))
	n := &yaml.Node{Kind: yaml.MappingNode}
	krm.SetField(n, "apiVersion", krm.StrNode("v1"))
	krm.SetField(n, "kind", krm.StrNode("Node"))
	krm.SetField(n, "metadata", md)
	if len(s.Taints) > 0 {
		spec := &yaml.Node{Kind: yaml.MappingNode}
		krm.SetField(spec, "taints", taintsNode(s.Taints))
		krm.SetField(n, "spec", spec)
	}
	if len(s.Capacity) > 0 {
		status := &yaml.Node{Kind: yaml.MappingNode}
		krm.SetField(status, "capacity", krm.MapNode(s.Capacity))
		krm.SetField(status, "allocatable", krm.MapNode(s.Allocatable))
		krm.SetField(n, "status", status)
	}
	return n
}

// updateNodeItem writes the rendered state into an existing Node, keeping
// everything nfd-master does not manage. It reports whether anything changed.
func updateNodeItem(n *yaml.Node, s *master.NodeState) bool {
	changed := false
	md := krm.EnsureMap(n, "metadata")
	changed = syncOptionalMap(md, "labels", s.Labels) || changed
	changed = syncOptionalMap(md, "annotations", s.Annotations) || changed
	old := objects.ReadNode(n).State
	if !slices.Equal(old.Taints, s.Taints) {
		changed = true
		if len(s.Taints) == 0 {
			if spec := krm.MapAt(n, "spec"); spec != nil {
				krm.RemoveField(spec, "taints")
			}
		} else {
			krm.SetField(krm.EnsureMap(n, "spec"), "taints", taintsNode(s.Taints))
		}
	}
	if len(s.Capacity) > 0 || krm.MapAt(n, "status") != nil {
		st := krm.EnsureMap(n, "status")
		changed = syncOptionalMap(st, "capacity", s.Capacity) || changed
		changed = syncOptionalMap(st, "allocatable", s.Allocatable) || changed
	}
	return changed
}

// syncOptionalMap syncs the mapping at key, leaving it absent when it was
// absent and stays empty.
func syncOptionalMap(parent *yaml.Node, key string, want map[string]string) bool {
	if krm.MapAt(parent, key) == nil && len(want) == 0 {
		return false
	}
	return krm.SyncStringMap(krm.EnsureMap(parent, key), want)
}

// taintsNode is the spec.taints list of taints.
func taintsNode(ts []api.Taint) *yaml.Node {
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, t := range ts {
		m := &yaml.Node{Kind: yaml.MappingNode}
		krm.SetField(m, "key", krm.StrNode(t.Key))
		if t.Value != "" {
			krm.SetField(m, "value", krm.StrNode(t.Value))
		}
		krm.SetField(m, "effect", krm.StrNode(t.Effect))
		if t.TimeAdded != "" {
			krm.SetField(m, "timeAdded", krm.StrNode(t.TimeAdded))
		}
		list.Content = append(list.Content, m)
	}
	return list
}

// applyShape returns what writes the part p of an apply-ready Node n: a
// copy holding apiVersion, kind, metadata and spec (ApplyObject),
// or apiVersion, kind, metadata.name and status (ApplyStatus). n is
// left as it is.
func applyShape(p ApplyPart) func(n *yaml.Node) *yaml.Node {
	return func(n *yaml.Node) *yaml.Node { return applyPart(p, n) }
}

// applyPart is applyShape's part p of n; a status part keeps its
// capacity and allocatable maps, empty ones included (withStatusMaps).
func applyPart(p ApplyPart, n *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode}
	keep := []string{"apiVersion", "kind", "metadata", "spec"}
	if p == ApplyStatus {
		keep = []string{"apiVersion", "kind", "metadata", "status"}
	}
	for _, k := range keep {
		v := krm.ValueAt(n, k)
		if v == nil {
			continue
		}
		if p == ApplyStatus && k == "metadata" {
			md := &yaml.Node{Kind: yaml.MappingNode}
			if name := krm.ValueAt(v, "name"); name != nil {
				krm.SetField(md, "name", name)
			}
			v = md
		}
		krm.SetField(out, k, v)
	}
	if p == ApplyStatus {
		withStatusMaps(out)
	}
	return out
}
