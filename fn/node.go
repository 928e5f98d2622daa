package fn

import (
	"slices"

	"github.com/nfd-fn/nfd-fn/internal/config"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// updateNode writes the rendered state of a node into its Node object
// (an item, or an item of a List item), in place (patchNode).
func updateNode(rl *krm.ResourceList, existing *objects.Object[*objects.Node], n *master.NodeResult, s config.Settings) {
	it := rl.Items[existing.Origin.Item]
	tree := existing.Origin.Node
	if tree == nil {
		tree = it.Tree() // read lean: parsed again from its text
	}
	if tree != nil && patchNode(tree, n, s) {
		it.Changed = true
	}
}

// nodeText is the output text of a Node item read lean (its tree let go)
// once its node is rendered: the item parsed again from its text and
// patched (patchNode), or nil when nothing changes (the item is then
// written as it was).
func nodeText(rl *krm.ResourceList, it *krm.Item, old *objects.NodeState, n *master.NodeResult, s config.Settings) ([]byte, error) {
	if text, changed, ok := patchNodeText(it, old, n, s); ok {
		if !changed {
			return nil, nil
		}
		return rl.ItemText(it, text)
	}
	tree, err := it.ParseTree()
	if err != nil || !patchNode(tree, n, s) {
		return nil, err
	}
	return rl.EncodeItem(it, tree)
}

// patchNodeText is patchNode done on the Node item's text, for the common
// case of a Node in kubectl's layout (YAML or JSON) whose labels, annotations, capacity
// or allocatable change (krm.SyncMapText, krm.SyncMapJSON): what nfd-fn does not own keeps
// its bytes, and neither a tree nor its encoding is made. old is the
// Node's state as read. ok is false when the tree must do it: taints
// change, nodeOutput apply or stampVersion is set, a status must be made,
// or a map is not in a layout those edit.
func patchNodeText(it *krm.Item, old *objects.NodeState, n *master.NodeResult, s config.Settings) (text []byte, changed, ok bool) {
	st := &n.State
	if s.NodeOutput == config.NodeOutputApply || s.StampVersion || old == nil || !slices.Equal(old.Taints, st.Taints) {
		return nil, false, false
	}
	text = it.Raw
	edits := []struct {
		parent, key string
		want        map[string]string
	}{
		{"metadata", "labels", st.Labels},
		{"metadata", "annotations", st.Annotations},
		{"status", "capacity", st.Capacity},
		{"status", "allocatable", st.Allocatable},
	}
	sync := func(text []byte, parent, key string, want map[string]string) ([]byte, bool, bool) {
		if it.IsJSON() {
			return krm.SyncMapJSON(text, parent, key, want)
		}
		return krm.SyncMapText(text, it.IsDocument(), parent, key, want)
	}
	for _, e := range edits {
		next, c, ok := sync(text, e.parent, e.key, e.want)
		if !ok {
			return nil, false, false
		}
		text, changed = next, changed || c
	}
	return text, changed, true
}
