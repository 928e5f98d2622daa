package fastread

import (
	"errors"
	"hash/maphash"
	"sync"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// DecodeLean is decodeFast for a fleet: it reads the same text, accepts
// exactly what decodeFast accepts, and returns the NodeFeature as an
// objects.LeanNodeFeature: its metadata and spec.labels but only the names
// of its features (their elements are checked, not kept, so reading
// thousands of NodeFeatures allocates little). Its Load decodes the whole
// spec again from raw, which must not change, whenever the node is
// rendered: a fleet holds one node's features at a time rather than every
// node's. With shared, the names are shared with the input's other
// NodeFeatures that have the same names (they must only be read). in,
// when not nil, is the input raw lies in: Load holds it while it reads
// raw, fails once it is closed, and then releases raw (its memory pages
// may be given back until the next read).
func DecodeLean(raw []byte, shared *FeatureNames, in Input) (*objects.Decoded, bool) {
	keys := keyPool.Get().(*keyHashes)
	dec := newDecoder(raw)
	dec.namesOnly, dec.keys = true, keys
	d, ok := decodeFast(raw, dec)
	keyPool.Put(keys)
	if !ok {
		return nil, false
	}
	nf := d.Obj.(*api.NodeFeature)
	if shared != nil {
		nf.Spec.Features = shared.share(&nf.Spec.Features)
	}
	l := &leanFeature{text: leanText{raw: raw, in: in}}
	l.LeanNodeFeature = objects.LeanNodeFeature{Names: nf, Text: &l.text}
	d.Obj = &l.LeanNodeFeature
	return d, true
}

// leanFeature is a lean NodeFeature and its text, allocated together: a
// fleet reads thousands.
type leanFeature struct {
	objects.LeanNodeFeature
	text leanText
}

// Input is the input a lean NodeFeature's text lies in (krm.Input and
// krm.Inputs are): Hold keeps it readable until Unhold, or fails once it
// is closed; Release gives back the memory pages of text read.
type Input interface {
	Hold() error
	Unhold()
	Release(b []byte)
}

// leanText is a lean NodeFeature's text, in its input.
type leanText struct {
	raw []byte
	in  Input
}

// errTextChanged is a lean NodeFeature's text no longer read as it was:
// its input was written to while it was held.
var errTextChanged = errors.New("its text changed since it was first read")

// LoadSpec decodes the whole spec from the text again, keeping only the
// features only names (objects.SpecText).
func (t *leanText) LoadSpec(only map[string]bool) (*api.NodeFeatureSpec, error) {
	if t.in != nil {
		if err := t.in.Hold(); err != nil {
			return nil, err
		}
		defer t.in.Unhold()
	}
	keys := keyPool.Get().(*keyHashes)
	dec := newDecoder(t.raw)
	dec.only, dec.keys = only, keys
	full, ok := decodeFast(t.raw, dec)
	keyPool.Put(keys)
	if t.in != nil {
		t.in.Release(t.raw)
	}
	if !ok {
		return nil, errTextChanged
	}
	return &full.Obj.(*api.NodeFeature).Spec, nil
}

// keyPool holds keyHashes for reuse: one grown to a fleet's largest
// mapping serves every NodeFeature read after it.
var keyPool = sync.Pool{New: func() any { return &keyHashes{} }}

// keyHashes finds a key given twice in one mapping without making a
// string of every key: it keeps their hashes. Two different keys with one
// hash count as a repeat too; the caller then falls back to the full
// decoder, which tells them apart (it never happens in practice).
type keyHashes struct {
	seed maphash.Seed
	seen map[uint64]struct{}
}

// reset starts a new mapping.
func (h *keyHashes) reset() {
	if h.seen == nil {
		h.seed = maphash.MakeSeed()
		h.seen = map[uint64]struct{}{}
	}
	clear(h.seen)
}

// add records k and reports whether it is new.
func (h *keyHashes) add(k []byte) bool {
	sum := maphash.Bytes(h.seed, k)
	if _, dup := h.seen[sum]; dup {
		return false
	}
	h.seen[sum] = struct{}{}
	return true
}

// checkStringMap accepts what stringMap reads, keeping nothing.
func (dec *fastDecoder) checkStringMap(v value) bool { return dec.checkMap(v, isStr) }

// checkFlags accepts what flagSet reads as elements, keeping nothing.
func (dec *fastDecoder) checkFlags(v value) bool {
	return dec.checkMap(v, func(sub value) bool { return sub.kind == vEmptyMap || isNull(sub) })
}

// checkMap accepts null, {} or a mapping whose keys are distinct
// and whose values valueOK accepts, keeping nothing.
func (dec *fastDecoder) checkMap(v value, valueOK func(value) bool) bool {
	switch {
	case isNull(v) || v.kind == vEmptyMap:
		return true
	case v.kind != vMap:
		return false
	}
	dec.keys.reset()
	return dec.mapping(v, func(k []byte, sub value) bool {
		return dec.keys.add(k) && valueOK(sub)
	})
}

// checkInstances accepts what instanceSet reads as elements, keeping
// nothing.
func (dec *fastDecoder) checkInstances(v value) bool {
	return dec.optionalSequence(v, func(sub value) bool {
		found := false
		return dec.fields(sub, func(k []byte, attrs value, seen *fieldSet) bool {
			found = true
			return string(k) == "attributes" && !isNull(attrs) && seen.once(0) && dec.checkStringMap(attrs)
		}) && found
	})
}
