package fn

import (
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/inputs"
	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Decoding is fn's decoders (objects.go) as internal/inputs reads with
// them, for every mode and both drivers: the command line's file reading
// goes through the same decoders as a ResourceList's.
var Decoding inputs.Decoding = decoding{}

// decoding builds the krm read options of fn's decoders.
type decoding struct{}

// ReadOptions decode each item as it is cut: lean where it can be
// (decodeItemRaw, its feature names shared), else from a tree (decodeItem)
// that keep says whether to hold on to.
func (decoding) ReadOptions(keep func(*krm.Item) bool, held *krm.Inputs, release func([]byte)) krm.ReadOptions {
	return krm.ReadOptions{Decoder: newItemDecoder(keep, held, release), Release: release}
}

// Objects are the item's objects (inputs.Decoded).
func (d *decodedItem) Objects() []*objects.Decoded { return d.objects }

// Trees are the objects' trees, nil once let go.
func (d *decodedItem) Trees() []*yaml.Node { return d.nodes }

// DropTrees lets the trees go.
func (d *decodedItem) DropTrees() { d.nodes = nil }
