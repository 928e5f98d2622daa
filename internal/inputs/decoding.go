package inputs

import (
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// Decoding is how items are decoded as they are cut.
type Decoding interface {
	// ReadOptions are krm's options to cut and decode items, each left
	// with a Decoded (krm.Item.Decoded); keep says whether an item's tree
	// is held; held (may be nil) are the inputs read, whose Close makes
	// loading a lean NodeFeature an error (objects.Set.Own); release (may
	// be nil) is told of input bytes read.
	ReadOptions(keep func(*krm.Item) bool, held *krm.Inputs, release func([]byte)) krm.ReadOptions
}

// Decoded is what a Decoding leaves on an item: its objects (several for
// a v1 List item) and, while they are held, their trees.
type Decoded interface {
	Objects() []*objects.Decoded
	// Trees are the objects' trees, nil once let go (or never made).
	Trees() []*yaml.Node
	// DropTrees lets the trees go.
	DropTrees()
}

// decoded is the Decoded of an item, if it has one.
func decoded(it *krm.Item) (Decoded, bool) {
	d, ok := it.Decoded.(Decoded)
	return d, ok
}
