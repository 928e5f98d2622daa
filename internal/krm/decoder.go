package krm

// Decoder is the one contract between the reader and its caller's typed
// objects: Read and ReadFiles call it, on the worker pool, for every item
// that parsed or was cut. A Decoder must be safe for concurrent use on
// different items. krm knows nothing of what Decoded holds; internal/inputs
// implements Decoder over internal/fastread (DecodeRaw) and pkg/objects
// (Decode), for every mode and both drivers.
type Decoder interface {
	// DecodeRaw decodes an item the splitter cut straight from Raw,
	// without a tree: it sets Decoded and the identity
	// (Item.SetIdentity) and reports whether it did. When it did, the
	// item is neither parsed nor given to Decode; its Node stays nil
	// (Item.Tree parses Raw when asked). It must read only what a tree
	// within Limits.MaxDepth would hold; it is not used below a MaxDepth
	// of 64.
	DecodeRaw(it *Item) bool
	// Decode decodes an item from its parsed tree (Item.Node), setting
	// Decoded.
	Decode(it *Item)
	// Keep reports whether the item keeps its tree once decoded; the
	// others drop it to hold memory flat (Item.Tree parses it again).
	Keep(it *Item) bool
}

// DropTrees is the Decoder of a reading that decodes nothing and keeps
// no tree: what the reader alone costs (krmbench, BenchmarkRead).
type DropTrees struct{}

// DecodeRaw decodes nothing.
func (DropTrees) DecodeRaw(*Item) bool { return false }

// Decode decodes nothing.
func (DropTrees) Decode(*Item) {}

// Keep keeps no tree.
func (DropTrees) Keep(*Item) bool { return false }
