package krm

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"

	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Item is one entry of ResourceList.items.
type Item struct {
	// Raw is the item's original text, sequence dash and indentation
	// included, when the list was read by the fast splitter; nil for new
	// items and for lists that were parsed whole. Unchanged items with Raw
	// are written back byte for byte.
	Raw []byte
	// Node is the parsed item. Read drops it after decoding unless
	// its Decoder keeps it; Tree parses Raw again.
	Node *yaml.Node
	// Changed marks an item whose Node must be encoded on output instead
	// of writing Raw.
	Changed bool
	// ParseErr is set when the item is not valid YAML or exceeds a limit.
	// Such an item has no Node, is not decoded and is left out of the
	// output; the caller reports it (Pos and Line say where it is).
	ParseErr error
	// Omitted leaves a good item out of the output on purpose (a Node
	// another shard writes); the caller reports it.
	Omitted bool

	// APIVersion, Kind, Name and Namespace identify the object.
	APIVersion, Kind, Name, Namespace string
	// File and Index are the item's internal.config.kubernetes.io/path
	// and index annotations (or the legacy config.kubernetes.io ones).
	File  string
	Index int
	// Pos is the item's position in the input's items, from 0; Line is
	// the 1-based input line it starts on (0 for new items).
	Pos, Line int
	// Decoded is the caller's typed object, set by the Decoder (ReadOptions.Decoder).
	Decoded any
	// FromKpt reports annotations that only kpt's package reader writes
	// (internal.config.kubernetes.io/package-path from kpt fn render,
	// internal.config.kubernetes.io/seqindent from render and eval);
	// kustomize and hand-written lists carry neither.
	FromKpt bool

	// fromFile marks an item ReadFiles read from a file: File and Index
	// say where, whatever the object's own annotations say, the output
	// gets the path and index annotations, and the lines of its trees
	// count from the start of the file (Raw starts on line Line).
	fromFile bool
	// doc marks a Raw that is a whole document (a mapping at column 0)
	// rather than a "- " entry of a sequence.
	doc bool
	// unparsed marks an item whose text does not parse on its own.
	unparsed bool
	// json marks a Raw that is an element of a JSON array (splitJSON).
	json bool
	// named marks an item of a list read from a file (ReadOptions.Name):
	// File is the file, Index the item's place in the list, whatever the
	// object's annotations say, and the lines of its trees count from the
	// start of the file.
	named bool
	// made marks an item the list's ItemMaker makes (SetMaker).
	made bool
}

// State is what an item's output is made from; the list chooses how to
// write each state in one place (ResourceList.output).
type State uint8

// The states of an item.
const (
	// StateRaw is an unchanged item with its text (Raw): written as that
	// text, placed with its path and index annotations when it is an
	// object read from a file, re-indented in a JSON list.
	StateRaw State = iota
	// StateTree is a changed item (Changed), a new one (NewItem, Append)
	// or one of a list parsed whole: its tree (Node) is encoded.
	StateTree
	// StateMade is an item the list's ItemMaker makes as the list is
	// written (SetMaker): an exported Node rendered and patched in its
	// text, a few at a time. A maker that leaves it as it was (nil text)
	// returns it to its state without the maker.
	StateMade
)

// State is the item's state.
func (it *Item) State() State {
	if it.made {
		return StateMade
	}
	return it.unmade()
}

// unmade is the item's state without its maker: how it is written when
// the maker leaves it as it was.
func (it *Item) unmade() State {
	if it.Raw != nil && !it.Changed {
		return StateRaw
	}
	return StateTree
}

// String names the state.
func (s State) String() string {
	switch s {
	case StateRaw:
		return "raw"
	case StateMade:
		return "made"
	}
	return "tree"
}

// kpt's own annotations, see Item.FromKpt.
const (
	kptPackagePathAnnotation = "internal.config.kubernetes.io/package-path" // kioutil has no name for it
	kptSeqIndentAnnotation   = kioutil.SeqIndentAnnotation
)

// NewItem returns a changed item holding n, its identity read from n.
func NewItem(n *yaml.Node) *Item {
	it := &Item{Changed: true}
	it.SetNode(n)
	return it
}

// SetNode records n as the item's tree and reads its identity: apiVersion,
// kind, name, namespace and the path and index annotations.
func (it *Item) SetNode(n *yaml.Node) {
	it.Node = n
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	it.APIVersion = ScalarAt(n, "apiVersion")
	it.Kind = ScalarAt(n, "kind")
	md := MapAt(n, "metadata")
	it.Name = ScalarAt(md, "name")
	it.Namespace = ScalarAt(md, "namespace")
	ann := MapAt(md, "annotations")
	it.setPlace(func(k string) string { return ScalarAt(ann, k) })
	it.FromKpt = ScalarAt(ann, kptPackagePathAnnotation) != "" || ScalarAt(ann, kptSeqIndentAnnotation) != ""
}

// SetIdentity records the identity of an item decoded without a tree (see
// Decoder.DecodeRaw), as SetNode reads it from a tree: annotations
// are the object's metadata.annotations.
func (it *Item) SetIdentity(apiVersion, kind, name, namespace string, annotations map[string]string) {
	it.APIVersion, it.Kind, it.Name, it.Namespace = apiVersion, kind, name, namespace
	it.setPlace(func(k string) string { return annotations[k] })
	it.FromKpt = annotations[kptPackagePathAnnotation] != "" || annotations[kptSeqIndentAnnotation] != ""
}

// setPlace records the path and index annotations get reads (ReadPlace).
func (it *Item) setPlace(get func(key string) string) {
	if it.fromFile || it.named {
		return
	}
	it.File, it.Index = ReadPlace(get)
}

// Tree returns the item's parsed tree, parsing Raw again (and keeping the
// result) when the tree was dropped after decoding. It returns nil for an
// item that does not parse. It is not safe for concurrent use on one item.
func (it *Item) Tree() *yaml.Node {
	if it.Node == nil && it.Raw != nil && it.ParseErr == nil {
		if n, err := it.ParseTree(); err == nil {
			it.Node = n
		}
	}
	return it.Node
}

// written reports whether the item is written to the output: it parsed
// and is not omitted.
func (it *Item) written() bool { return it.ParseErr == nil && !it.Omitted }

// ParseTree parses the item's Raw text into a fresh tree, which the item
// does not keep (Tree keeps it).
func (it *Item) ParseTree() (*yaml.Node, error) {
	if it.json {
		return it.parseJSON()
	}
	if !it.doc {
		n, err := parseChunk(it.Raw)
		if err == nil && (it.fromFile || it.named) {
			shiftLines(n, it.Line-1)
		}
		return n, err
	}
	var d yaml.Node
	if err := yaml.Unmarshal(it.Raw, &d); err != nil {
		return nil, err
	}
	n := DocContent(&d)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, errors.New("not a mapping")
	}
	shiftLines(n, it.Line-1)
	return n, nil
}

// parseJSON parses an element of a JSON array: any JSON value is one
// YAML document. Its lines count from the element's first line, as a
// "- " entry's do, unless it was read from a file.
func (it *Item) parseJSON() (*yaml.Node, error) {
	var d yaml.Node
	if err := yaml.Unmarshal(yamlstrict.JSONForYAML(it.Raw), &d); err != nil {
		return nil, err
	}
	n := DocContent(&d)
	if n == nil {
		return nil, errors.New("empty")
	}
	if it.fromFile || it.named {
		shiftLines(n, it.Line-1)
	}
	return n, nil
}

// IsJSON reports whether Raw is JSON text, an element of a JSON list,
// rather than YAML.
func (it *Item) IsJSON() bool { return it.json }

// shiftLines adds by to the line of every node under n.
func shiftLines(n *yaml.Node, by int) {
	if n == nil || by == 0 || n.Line <= 0 {
		return
	}
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}

// IsDocument reports whether Raw is a whole document (an object read from
// a file) rather than a "- " sequence entry.
func (it *Item) IsDocument() bool { return it.doc }

// fromFileParse parses an object cut from a file: a List item must open a
// block mapping (entryOpensMapping) before it is parsed as Read parses an
// item. It reports whether the object parsed.
func (it *Item) fromFileParse(opts ReadOptions) bool {
	if it.json {
		if !looksLikeJSON(it.Raw) {
			return false // not an object: the file is parsed whole
		}
	} else if !it.doc && !entryOpensMapping(it.Raw) {
		return false // a scalar, flow style or a tag: the file is parsed whole
	}
	return it.parse(opts)
}

// ReadFromFile reports whether the item is an object ReadFiles read from a
// file, or an item of a list read from a file (ReadOptions.Name): File
// and Line then say where it starts.
func (it *Item) ReadFromFile() bool { return it.fromFile || it.named }

// describe names the item in an error: its kind and name, else where it
// was read from (an object without either still has a place).
func (it *Item) describe() string {
	id := strings.TrimSpace(it.Kind + " " + it.Name)
	switch {
	case id != "" && it.File != "":
		return fmt.Sprintf("%s (%s)", id, it.File)
	case id != "":
		return id
	case it.File != "":
		return fmt.Sprintf("the document at index %d of %s", it.Index, it.File)
	}
	return fmt.Sprintf("item %d", it.Pos)
}
