package fn

import (
	"fmt"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// decodeItem reads an item as an object nfd-fn knows (objects.Decode). It
// runs in parallel over items.
func decodeItem(it *krm.Item) {
	if it.Node != nil {
		it.Decoded = objects.Decode(it.Node)
	}
}

// keepItemNode keeps the trees of the items nfd-fn may rewrite: Nodes and
// NodeFeatureGroups.
func keepItemNode(it *krm.Item) bool {
	d, ok := it.Decoded.(*objects.Decoded)
	if !ok {
		return false
	}
	_, group := d.Obj.(*api.NodeFeatureGroup)
	return d.Class == objects.KubeNode || group
}

// readSet builds the object set of a ResourceList and reports the items
// that cannot be read: those that do not parse, and NFD objects that do
// not decode cleanly.
func readSet(rl *krm.ResourceList, s Settings, r *report) *objects.Set {
	set := s.NewSet()
	for _, it := range rl.Items {
		if it.ParseErr != nil {
			r.add(diag.Error, it, "", fmt.Sprintf("items[%d] (line %d) cannot be read and is left out of the output: %v", it.Pos, it.Line, it.ParseErr))
			continue
		}
		d, ok := it.Decoded.(*objects.Decoded)
		if !ok {
			continue
		}
		r.extend(set.Add(d, originOf(it)))
	}
	return set
}

// originOf is where an item's object came from.
func originOf(it *krm.Item) objects.Origin {
	return objects.Origin{File: it.File, Index: it.Index, Item: it.Pos, Node: it.Node}
}
