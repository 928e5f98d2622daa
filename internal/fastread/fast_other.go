package fastread

import (
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// DecodeOtherFast recognises, straight from its text, an object nfd-fn
// does not read and passes through (a ConfigMap, a Service...): its
// apiVersion, kind, name and namespace, and its annotations (where kpt
// records its file). The whole text, block YAML or JSON as decodeFast
// reads them, is checked to be in the reader's subset with no key given
// twice, so that it parses as YAML exactly as the general path would
// parse it. It returns Decode's result for such an
// object, and ok=false for kinds nfd-fn reads or expands (NFD's groups,
// the OpenShift alias, v1 Node, Namespace and List) and for anything it
// cannot be sure of. annotations is nil when the object has none.
func DecodeOtherFast(raw []byte) (d *objects.Decoded, annotations map[string]string, ok bool) {
	dec := newDecoder(raw)
	var ref diag.ObjectRef
	ok = dec.object(raw, func(v value) bool {
		var good bool
		ref, annotations, good = dec.otherObject(v)
		return good
	})
	if !ok || ref.APIVersion == "" || ref.Kind == "" || objects.ReadsKind(ref) {
		return nil, nil, false
	}
	return &objects.Decoded{Class: objects.Other, Ref: ref}, annotations, true
}

// otherObject reads an object's identity and annotations from the
// mapping v, skipping the rest.
func (dec *fastDecoder) otherObject(v value) (ref diag.ObjectRef, annotations map[string]string, ok bool) {
	var seen fieldSet
	var other distinctKeys
	ok = dec.mapping(v, func(k []byte, v value) bool {
		switch string(k) {
		case "apiVersion":
			return seen.once(0) && dec.scalar(v, &ref.APIVersion)
		case "kind":
			return seen.once(1) && dec.scalar(v, &ref.Kind)
		case "metadata":
			return seen.once(2) && dec.otherMeta(v, &ref, &annotations)
		}
		return other.add(k) && dec.skip(v, 1)
	})
	return ref, annotations, ok
}

// otherMeta reads name, namespace and annotations of an object's metadata
// (absent or a mapping), skipping the rest.
func (dec *fastDecoder) otherMeta(v value, ref *diag.ObjectRef, annotations *map[string]string) bool {
	return dec.someFields(v, func(k []byte, sub value, seen *fieldSet) (bool, bool) {
		switch string(k) {
		case "name":
			return true, seen.once(0) && dec.scalar(sub, &ref.Name)
		case "namespace":
			return true, seen.once(1) && dec.scalar(sub, &ref.Namespace)
		case "annotations":
			return true, seen.once(2) && dec.valueMap(sub, annotations, dec.scalar) // as Scalar reads each
		}
		return false, false
	})
}
