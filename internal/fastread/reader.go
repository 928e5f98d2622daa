package fastread

import (
	"bytes"
)

// The fast decoders (decodeFast, DecodeLean, DecodeNodeFast,
// DecodeOtherFast) are one decoding logic, fastDecoder, over two text
// readers: block for the block-style YAML kubectl -o yaml, kpt and
// nfd-worker write, jsonReader for the JSON kubectl -o json writes. The
// reader turns text into values (scalars as YAML reads them, empty
// collections, and collections the decoding opens); the decoding knows
// the objects and their fields. A reader reads a subset of its format in
// which it finds exactly what yaml.v3 finds, and says no to anything
// else; the decoding says no to anything the strict decoder would
// report. Either no sends the object to the general path (a yaml.v3 tree
// and Decode), which reads it or says what is wrong with it.

// reader is a text reader the fast decoders read one object with. Its
// protocol: a value of kind vMap or vSeq stands for a collection the
// reader is positioned on, and whoever receives it must consume it with
// mapping, sequence or skip before the reader moves on (a collection left
// unread makes the enclosing mapping or sequence fail, never read
// something else). Each method returns false, and leaves the reader
// failed, on text outside the reader's subset or when a callback returns
// false.
type reader interface {
	// object reads raw as one object: read is given its top mapping (a
	// vMap) and must consume it; object reports whether read accepted
	// it and nothing but white space followed.
	object(raw []byte, read func(v value) bool) bool
	// mapping reads the vMap v, calling each for every entry in order
	// with the key's text (unquoted and unescaped, as YAML reads it).
	mapping(v value, each func(k []byte, v value) bool) bool
	// sequence reads the vSeq v, calling each for every entry.
	sequence(v value, each func(v value) bool) bool
	// skip consumes v unread, checking that it is in the subset, nested
	// at most maxBlockDepth deep (depth is v's depth) and that no mapping
	// in it gives a key twice: the general path refuses such an item, so
	// the fast one must not read it.
	skip(v value, depth int) bool
	// entries is about the number of entries of the vMap v, read ahead as
	// a hint for sizing the map it is read into.
	entries(v value) int
}

var (
	_ reader = (*block)(nil)
	_ reader = (*jsonReader)(nil)
)

// maxBlockDepth bounds the nesting the fast readers follow; deeper input
// goes to the full parser, which applies the configured limits.
const maxBlockDepth = 32

// maxKeyLen is below yaml.v3's limit of 1024 characters from the start
// of an implicit key to its colon.
const maxKeyLen = 1000

// vkind is the shape of a value a reader found.
type vkind uint8

const (
	// vNull is an empty value (block: the key ends its line and no deeper
	// block follows; JSON has none, its null is a plain scalar).
	vNull vkind = iota
	// vScalar is a scalar; tok is its text, quoted says whether it was
	// quoted (YAML reads a quoted scalar as a string, a plain one by its
	// text: see plainTag).
	vScalar
	// vEmptyMap and vEmptySeq are {} and [].
	vEmptyMap
	vEmptySeq
	// vMap and vSeq are collections with at least one entry, which the
	// receiver consumes (see reader); ind says where they are.
	vMap
	vSeq
)

// value is one value a reader found.
type value struct {
	kind   vkind
	quoted bool
	// tok is a scalar's text: a slice of the input, or for a JSON string
	// with escapes, its decoded copy.
	tok []byte
	// ind is where a vMap or vSeq is: block's column, jsonReader's offset
	// of its opening bracket.
	ind int
}

// fastDecoder is the format-independent part of the fast decoders: it
// reads NodeFeatures, Nodes and the identity of other objects from the
// values r finds, with the settings of DecodeLean and of a lean
// NodeFeature's Load.
type fastDecoder struct {
	// r is &blk or &js (one allocation for the decoder and its reader).
	r   reader
	blk block
	js  jsonReader
	// namesOnly checks the elements of features without keeping them
	// (DecodeLean); keys holds the hashes of one mapping's keys then.
	namesOnly bool
	keys      *keyHashes
	// only, when set, keeps just the features it names
	// (leanText.LoadSpec); the others are checked, namesOnly, and left
	// out.
	only map[string]bool
}

// newDecoder returns a decoder with the reader for raw: jsonReader when
// raw's first byte other than a space or a line break is '{', block
// otherwise.
func newDecoder(raw []byte) *fastDecoder {
	dec := &fastDecoder{}
	dec.r = &dec.blk
	for _, c := range raw {
		if c == ' ' || c == '\n' {
			continue
		}
		if c == '{' {
			dec.r = &dec.js
		}
		break
	}
	return dec
}

// The methods below hand the reader's methods on with the reader's
// concrete type known: called through the interface, every callback the
// decoding passes (and the variables it captures) would escape to the
// heap, an allocation per mapping read.

// object reads raw as one object with read (see reader).
func (dec *fastDecoder) object(raw []byte, read func(v value) bool) bool {
	switch r := dec.r.(type) {
	case *block:
		return r.object(raw, read)
	case *jsonReader:
		return r.object(raw, read)
	}
	panic("objects: unknown reader")
}

// mapping reads the vMap v, each entry with each (see reader).
func (dec *fastDecoder) mapping(v value, each func(k []byte, v value) bool) bool {
	switch r := dec.r.(type) {
	case *block:
		return r.mapping(v, each)
	case *jsonReader:
		return r.mapping(v, each)
	}
	panic("objects: unknown reader")
}

// sequence reads the vSeq v, each entry with each (see reader).
func (dec *fastDecoder) sequence(v value, each func(v value) bool) bool {
	switch r := dec.r.(type) {
	case *block:
		return r.sequence(v, each)
	case *jsonReader:
		return r.sequence(v, each)
	}
	panic("objects: unknown reader")
}

// skip consumes v unread (see reader).
func (dec *fastDecoder) skip(v value, depth int) bool {
	switch r := dec.r.(type) {
	case *block:
		return r.skip(v, depth)
	case *jsonReader:
		return r.skip(v, depth)
	}
	panic("objects: unknown reader")
}

// entries is the size hint of the vMap v (see reader).
func (dec *fastDecoder) entries(v value) int {
	switch r := dec.r.(type) {
	case *block:
		return r.entries(v)
	case *jsonReader:
		return r.entries(v)
	}
	panic("objects: unknown reader")
}

// optionalSequence reads v as a sequence, each entry with each; a null or
// an empty sequence ([]) has no entries. Anything else is not one.
func (dec *fastDecoder) optionalSequence(v value, each func(v value) bool) bool {
	switch {
	case isNull(v) || v.kind == vEmptySeq:
		return true
	case v.kind != vSeq:
		return false
	}
	return dec.sequence(v, each)
}

// distinctKeys finds a key given twice in one mapping: by comparing keys
// while there are few, then by a set. Keys are compared as the reader
// gives them (block: the text inside quotes), which may see a repeat
// where YAML does not (1 and "1"), never the other way round; a repeat
// sends the item to the general path, which tells.
type distinctKeys struct {
	few  [][]byte
	many map[string]struct{}
}

// add records k and reports whether it is new.
func (d *distinctKeys) add(k []byte) bool {
	if d.many == nil {
		for _, prev := range d.few {
			if bytes.Equal(prev, k) {
				return false
			}
		}
		if len(d.few) < 16 {
			d.few = append(d.few, k)
			return true
		}
		d.many = make(map[string]struct{}, 32)
		for _, prev := range d.few {
			d.many[string(prev)] = struct{}{}
		}
	}
	if _, dup := d.many[string(k)]; dup {
		return false
	}
	d.many[string(k)] = struct{}{}
	return true
}
