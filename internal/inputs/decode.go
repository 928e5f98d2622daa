package inputs

import (
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/fastread"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// itemDecoder is the krm.Decoder of nfd-fn's reads: an item straight from
// its text where internal/fastread reads it (decodeItemRaw), else from
// its tree with objects.Decode (decodeItem); keep says which trees stay
// (keepForRender and keepFileForRender for a render, keepForChecks for
// validate, explain and plan, keepTrees for workloads). The
// NodeFeatures of one read share their feature names (names) and read
// their text again from in.
type itemDecoder struct {
	names fastread.FeatureNames
	in    leanInput
	keep  func(*krm.Item) bool
}

// newItemDecoder returns the decoder of one read: held (may be nil) are
// the inputs read, whose Close makes a lean NodeFeature's Load an error
// (the caller closes stdin only once the run is over); release (may be
// nil) is told when a lean NodeFeature's text has been read again.
func newItemDecoder(keep func(*krm.Item) bool, held *krm.Inputs, release func([]byte)) *itemDecoder {
	return &itemDecoder{in: leanInput{held: held, release: release}, keep: keep}
}

// leanInput is the fastread.Input of the lean NodeFeatures of one read.
type leanInput struct {
	held    *krm.Inputs
	release func([]byte)
}

// readOptions are krm's options to cut and decode items with the decoder
// of one read (newItemDecoder): lean where they can be, their feature
// names shared, else from a tree that keep says whether to hold on to.
func readOptions(keep func(*krm.Item) bool, held *krm.Inputs, release func([]byte)) krm.ReadOptions {
	return krm.ReadOptions{Decoder: newItemDecoder(keep, held, release), Release: release}
}

// Hold is krm.Inputs.Hold; without inputs held there is nothing to close.
func (in *leanInput) Hold() error {
	if in.held == nil {
		return nil
	}
	return in.held.Hold()
}

// Unhold ends a Hold.
func (in *leanInput) Unhold() {
	if in.held != nil {
		in.held.Unhold()
	}
}

// Release passes b to release, when there is one.
func (in *leanInput) Release(b []byte) {
	if in.release != nil {
		in.release(b)
	}
}

// DecodeRaw is decodeItemRaw.
func (d *itemDecoder) DecodeRaw(it *krm.Item) bool { return decodeItemRaw(it, &d.names, &d.in) }

// Decode is decodeItem.
func (d *itemDecoder) Decode(it *krm.Item) { decodeItem(it) }

// Keep is the read's keep.
func (d *itemDecoder) Keep(it *krm.Item) bool { return d.keep(it) }

// decodedItem is what the decoder leaves on an item (krm.Item.Decoded):
// the item's objects, several when the item is a v1 List (as kpt or
// kustomize hand over a file that holds one), and, while they are held,
// their trees (nodes, nil once let go or never made).
type decodedItem struct {
	objects []*objects.Decoded
	nodes   []*yaml.Node
}

// decoded is the decodedItem of an item, if it has one.
func decoded(it *krm.Item) (*decodedItem, bool) {
	d, ok := it.Decoded.(*decodedItem)
	return d, ok
}

// decodeItem reads an item as the objects nfd-fn knows (objects.Decode).
// It runs in parallel over items.
func decodeItem(it *krm.Item) {
	if it.Node == nil {
		return
	}
	d := &decodedItem{nodes: objects.Documents(it.Node)}
	for _, n := range d.nodes {
		d.objects = append(d.objects, decodeObject(n))
	}
	it.Decoded = d
}

// decodeObject is objects.Decode, but a mapping under a tag of its own
// (!custom) is not an object either: written back, it would make the
// output a list that kpt, kustomize and YAML readers without the tag
// refuse.
func decodeObject(n *yaml.Node) *objects.Decoded {
	if n.Kind == yaml.MappingNode && n.ShortTag() != "!!map" {
		return &objects.Decoded{Class: objects.NotObject}
	}
	return objects.Decode(n)
}

// decodeItemRaw decodes a NodeFeature or Node item straight from its text
// when it is in the plain block layout kubectl and nfd-worker write
// (fastread.DecodeLean, fastread.DecodeNodeFast); anything else is left to
// decodeItem. A NodeFeature's feature names are shared through names;
// in is the input its text lies in, read again to render it. Neither
// keeps a tree: a Node item is parsed again from its text when it is
// written (fn's makeNodesAsWritten).
func decodeItemRaw(it *krm.Item, names *fastread.FeatureNames, in fastread.Input) bool {
	if d, ok := fastread.DecodeLean(it.Raw, names, in); ok {
		md := &d.Obj.(*objects.LeanNodeFeature).Names.Metadata
		it.SetIdentity(d.Ref.APIVersion, d.Ref.Kind, md.Name, md.Namespace, md.Annotations)
		it.Decoded = &decodedItem{objects: []*objects.Decoded{d}}
		return true
	}
	if d, ok := fastread.DecodeNodeFast(it.Raw); ok {
		it.SetIdentity(d.Ref.APIVersion, d.Ref.Kind, d.Ref.Name, d.Ref.Namespace, d.Obj.(*objects.Node).State.Annotations)
		it.Decoded = &decodedItem{objects: []*objects.Decoded{d}}
		return true
	}
	// An object passed through; workloads are parsed, for mode plan.
	if d, ann, ok := fastread.DecodeOtherFast(it.Raw); ok && !workload.IsWorkloadKind(d.Ref.APIVersion, d.Ref.Kind) {
		it.SetIdentity(d.Ref.APIVersion, d.Ref.Kind, d.Ref.Name, d.Ref.Namespace, ann)
		it.Decoded = &decodedItem{objects: []*objects.Decoded{d}}
		return true
	}
	return false
}

// keepForRender keeps the trees of the items nfd-fn may rewrite in place:
// those holding NodeFeatureGroups, and Nodes with no text to parse again
// (lists parsed whole) or inside a List item. The trees of the others are
// let go, the decoded item's references included, to hold memory flat on
// large fleets: a Node item cut from a block list is parsed again from
// its text when it is written (fn's makeNodesAsWritten).
func keepForRender(it *krm.Item) bool {
	d, ok := decoded(it)
	if !ok {
		return false
	}
	for _, o := range d.objects {
		if _, group := o.Obj.(*api.NodeFeatureGroup); group {
			return true
		}
		if _, rule := o.Obj.(*api.NodeFeatureRule); rule {
			return true // admission reads its fields (admitAsRelease); rules are few and small
		}
		if o.Class == objects.KubeNode && (it.Raw == nil || it.Kind != "Node") {
			return true
		}
	}
	d.nodes = nil
	return false
}

// keepFileForRender keeps the trees of objects read from files, for the
// positions of what is reported about them, except those a fleet holds
// thousands of: NodeFeatures, and Nodes that keepForRender lets go.
func keepFileForRender(it *krm.Item) bool {
	if it.Kind != "NodeFeature" && it.Kind != "Node" {
		return true
	}
	return keepForRender(it)
}
