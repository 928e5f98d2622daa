package fastread

import (
	"bytes"

	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// The fast reading of a Node's metadata.managedFields: of each entry only
// the manager, the operation and, in fieldsV1, the keys under the parts
// nfd-master writes (f:metadata's f:labels and f:annotations, f:spec's
// f:taints, f:status's f:capacity and f:allocatable) are looked at; the
// rest is skipped as any unread field is. Since kubectl prints fieldsV1
// before manager, the keys of every entry are gathered (as slices of the
// text, no copies) and kept only for nfd-master's entries
// (objects.IsManaged), as objects.ReadNode keeps them.

// managedEntry is what one managedFields entry holds for nfd-fn.
type managedEntry struct {
	manager, operation                     []byte
	labels, annotations, capacity, allocat [][]byte
	taints                                 bool
}

// managedFields reads metadata.managedFields (v, at depth 2) into
// node.MasterFields.
func (dec *fastDecoder) managedFields(v value, node *objects.Node) bool {
	var e managedEntry
	return dec.optionalSequence(v, func(sub value) bool {
		e = managedEntry{labels: e.labels[:0], annotations: e.annotations[:0], capacity: e.capacity[:0], allocat: e.allocat[:0]}
		if sub.kind != vMap || !dec.managedEntry(sub, &e) {
			return false
		}
		if objects.IsManaged(string(e.manager), string(e.operation)) {
			keep(&node.MasterFields, &e)
		}
		return true
	})
}

// managedEntry reads one entry (a mapping at depth 3).
func (dec *fastDecoder) managedEntry(v value, e *managedEntry) bool {
	var seen fieldSet
	return dec.fieldsAt(v, 3, func(k []byte, sub value) (bool, bool) {
		switch string(k) {
		case "manager":
			return true, seen.once(0) && scalarBytes(sub, &e.manager)
		case "operation":
			return true, seen.once(1) && scalarBytes(sub, &e.operation)
		case "fieldsV1":
			return true, seen.once(2) && dec.fieldsV1(sub, e)
		}
		return false, false
	})
}

// fieldsV1 reads the parts of a fieldsV1 map (at depth 4) nfd-master
// writes.
func (dec *fastDecoder) fieldsV1(v value, e *managedEntry) bool {
	var seen fieldSet
	return dec.fieldsAt(v, 4, func(k []byte, sub value) (bool, bool) {
		switch string(k) {
		case "f:metadata":
			return true, seen.once(0) && dec.fieldMaps(sub, "f:labels", &e.labels, "f:annotations", &e.annotations)
		case "f:spec":
			return true, seen.once(1) && dec.fieldsAt(sub, 5, func(k []byte, t value) (bool, bool) {
				if string(k) != "f:taints" {
					return false, false
				}
				e.taints = true
				return true, dec.skip(t, 6)
			})
		case "f:status":
			return true, seen.once(2) && dec.fieldMaps(sub, "f:capacity", &e.capacity, "f:allocatable", &e.allocat)
		}
		return false, false
	})
}

// fieldMaps reads a part of fieldsV1 (at depth 5) for the names its maps
// a and b list.
func (dec *fastDecoder) fieldMaps(v value, a string, aNames *[][]byte, b string, bNames *[][]byte) bool {
	return dec.fieldsAt(v, 5, func(k []byte, m value) (bool, bool) {
		switch string(k) {
		case a:
			return true, dec.fieldKeys(m, 6, aNames)
		case b:
			return true, dec.fieldKeys(m, 6, bNames)
		}
		return false, false
	})
}

// fieldsAt reads the mapping v at depth (null and {} are empty): field
// reads the keys it knows (known=true), the others are skipped; no key
// may come twice (a known key given twice repeats in distinctKeys too).
func (dec *fastDecoder) fieldsAt(v value, depth int, field func(k []byte, sub value) (known, ok bool)) bool {
	if isNull(v) || v.kind == vEmptyMap {
		return true
	}
	if v.kind != vMap {
		return false
	}
	var keys distinctKeys
	return dec.mapping(v, func(k []byte, sub value) bool {
		if !keys.add(k) {
			return false
		}
		if known, ok := field(k, sub); known {
			return ok
		}
		return dec.skip(sub, depth+1)
	})
}

// fieldKeys gathers the names of the fields the fieldsV1 map v (at depth)
// lists, skipping what each holds.
func (dec *fastDecoder) fieldKeys(v value, depth int, out *[][]byte) bool {
	return dec.fieldsAt(v, depth, func(k []byte, sub value) (bool, bool) {
		if name, ok := bytes.CutPrefix(k, []byte("f:")); ok {
			*out = append(*out, name)
		}
		return false, false
	})
}

// scalarBytes reads a scalar's text as ys.Scalar does: "" for null; a
// value that is not a scalar is left to the general path.
func scalarBytes(v value, out *[]byte) bool {
	switch {
	case isNull(v):
		*out = nil
	case v.kind == vScalar:
		*out = v.tok
	default:
		return false
	}
	return true
}

// keep adds an nfd-master entry's fields to *mf, copying the keys out of
// the text.
func keep(mf **objects.ManagedFields, e *managedEntry) {
	if *mf == nil {
		*mf = &objects.ManagedFields{}
	}
	m := *mf
	m.Labels = appendStrings(m.Labels, e.labels)
	m.Annotations = appendStrings(m.Annotations, e.annotations)
	m.Capacity = appendStrings(m.Capacity, e.capacity)
	m.Allocatable = appendStrings(m.Allocatable, e.allocat)
	m.Taints = m.Taints || e.taints
}

func appendStrings(out []string, keys [][]byte) []string {
	for _, k := range keys {
		out = append(out, string(k))
	}
	return out
}
