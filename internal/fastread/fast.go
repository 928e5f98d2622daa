package fastread

import (
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// decodeFast decodes a NodeFeature straight from its text, without a YAML
// tree, when the text is in the plain block style kubectl and nfd-worker
// write (see block) or is JSON as kubectl -o json writes it (see
// jsonReader), and decodes cleanly. raw is one YAML document (a mapping
// at column 0), one block sequence entry ("- apiVersion: ..." at any
// indentation, as a ResourceList item is), or one JSON object (its first
// byte after spaces and line breaks is '{', as an element cut out of a
// JSON list's items is). ok is false for anything else: another kind,
// input outside the readers' subsets, or anything the strict decoder
// would report. The caller then decodes the parsed tree with Decode,
// which finds the same object or says what is wrong, with field paths
// and positions; decodeFast never computes either. dec is the reader of
// raw (newDecoder) with its settings.
func decodeFast(raw []byte, dec *fastDecoder) (d *objects.Decoded, ok bool) {
	var nf *api.NodeFeature
	ok = dec.object(raw, func(v value) bool {
		nf, ok = dec.nodeFeature(v)
		return ok
	})
	if !ok || nf == nil {
		return nil, false
	}
	if nf.APIVersion != api.APIVersion || nf.Kind != api.KindNodeFeature {
		return nil, false
	}
	// The constants rather than copies of them: a fleet holds thousands.
	nf.APIVersion, nf.Kind = api.APIVersion, api.KindNodeFeature
	if objects.InvalidName(nf.Kind, nf.Metadata.Name) != "" || (nf.Metadata.Namespace != "" && objects.InvalidNamespace(nf.Metadata.Namespace) != "") {
		return nil, false // the slow path reports the name
	}
	ref := diag.ObjectRef{APIVersion: nf.APIVersion, Kind: nf.Kind, Namespace: nf.Metadata.Namespace, Name: nf.Metadata.Name}
	return &objects.Decoded{Class: objects.NFD, Ref: ref, Obj: nf}, true
}

// nodeFeature reads a NodeFeature from the mapping v.
func (dec *fastDecoder) nodeFeature(v value) (*api.NodeFeature, bool) {
	nf := &api.NodeFeature{}
	var seen fieldSet
	ok := dec.mapping(v, func(k []byte, v value) bool {
		switch string(k) {
		case "apiVersion":
			return seen.once(0) && dec.str(v, &nf.APIVersion)
		case "kind":
			return seen.once(1) && dec.str(v, &nf.Kind)
		case "metadata":
			return seen.once(2) && dec.meta(v, &nf.Metadata)
		case "spec":
			return seen.once(3) && dec.nodeFeatureSpec(v, &nf.Spec)
		case "status":
			return seen.once(4) && dec.skip(v, 1)
		}
		return false
	})
	return nf, ok
}

// fieldSet records the fields of a struct already read: the strict
// decoder refuses a field given twice.
type fieldSet uint32

func (s *fieldSet) once(i uint) bool {
	if *s&(1<<i) != 0 {
		return false
	}
	*s |= 1 << i
	return true
}

// isStr reports a value str reads: not a plain YAML 1.1 boolean (yes,
// on, ...), which the strict decoder refuses as kubectl sends a boolean.
func isStr(v value) bool {
	switch v.kind {
	case vNull:
		return true
	case vScalar:
		if v.quoted {
			return true
		}
		null, str := plainTag(v.tok)
		return null || (str && !yamlstrict.IsYAML11Bool(string(v.tok)))
	}
	return false
}

// str reads a string field: a quoted scalar, a plain one that YAML reads
// as a string, or null (the empty string).
func (dec *fastDecoder) str(v value, out *string) bool {
	if !isStr(v) {
		return false
	}
	*out = ""
	if v.kind == vScalar && (v.quoted || !isNull(v)) {
		*out = string(v.tok)
	}
	return true
}

// isNull reports a null value: empty, or a plain null scalar.
func isNull(v value) bool {
	if v.kind == vNull {
		return true
	}
	if v.kind != vScalar || v.quoted {
		return false
	}
	null, _ := plainTag(v.tok)
	return null
}

// fields reads v as an object of known fields, calling field for each
// key with the set of fields seen so far (for seen.once): null and {} are
// an empty object, and anything but a mapping is left to the strict path
// (false).
func (dec *fastDecoder) fields(v value, field func(k []byte, sub value, seen *fieldSet) bool) bool {
	if isNull(v) || v.kind == vEmptyMap {
		return true
	}
	if v.kind != vMap {
		return false
	}
	var seen fieldSet
	return dec.mapping(v, func(k []byte, sub value) bool { return field(k, sub, &seen) })
}

// meta reads object metadata: the fields nfd-fn uses, and every other
// field of Kubernetes metadata accepted unread.
func (dec *fastDecoder) meta(v value, md *api.ObjectMeta) bool {
	var other []string
	ignored := md.IgnoredFields()
	return dec.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		switch string(k) {
		case "name":
			return seen.once(0) && dec.str(sub, &md.Name)
		case "namespace":
			return seen.once(1) && dec.str(sub, &md.Namespace)
		case "labels":
			return seen.once(2) && dec.stringMap(sub, &md.Labels)
		case "annotations":
			return seen.once(3) && dec.stringMap(sub, &md.Annotations)
		}
		if !ignored[string(k)] {
			return false
		}
		for _, o := range other {
			if o == string(k) {
				return false
			}
		}
		other = append(other, string(k))
		return dec.skip(sub, 1)
	})
}

// stringMap reads a map of strings (str).
func (dec *fastDecoder) stringMap(v value, out *map[string]string) bool {
	return dec.valueMap(v, out, dec.str)
}

// valueMap reads null (nil), {} or a mapping whose keys are distinct and
// whose values read accepts.
func (dec *fastDecoder) valueMap(v value, out *map[string]string, read func(value, *string) bool) bool {
	switch {
	case isNull(v):
		*out = nil
		return true
	case v.kind == vEmptyMap:
		*out = map[string]string{}
		return true
	case v.kind != vMap:
		return false
	}
	m := make(map[string]string, dec.entries(v))
	*out = m
	return dec.mapping(v, func(k []byte, sub value) bool {
		if _, dup := m[string(k)]; dup {
			return false
		}
		var s string
		if !read(sub, &s) {
			return false
		}
		m[string(k)] = s
		return true
	})
}

func (dec *fastDecoder) nodeFeatureSpec(v value, spec *api.NodeFeatureSpec) bool {
	return dec.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		switch string(k) {
		case "features":
			return seen.once(0) && dec.features(sub, &spec.Features)
		case "labels":
			return seen.once(1) && dec.stringMap(sub, &spec.Labels)
		}
		return false
	})
}

func (dec *fastDecoder) features(v value, f *api.Features) bool {
	return dec.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		switch string(k) {
		case "flags":
			return seen.once(0) && featureMap(dec, sub, &f.Flags, (*fastDecoder).flagSet)
		case "attributes":
			return seen.once(1) && featureMap(dec, sub, &f.Attributes, (*fastDecoder).attributeSet)
		case "instances":
			return seen.once(2) && featureMap(dec, sub, &f.Instances, (*fastDecoder).instanceSet)
		}
		return false
	})
}

// featureMap reads a map of feature sets, each with read.
func featureMap[T any](dec *fastDecoder, v value, out *map[string]T, read func(*fastDecoder, value, *T) bool) bool {
	switch {
	case isNull(v):
		*out = nil
		return true
	case v.kind == vEmptyMap:
		*out = map[string]T{}
		return true
	case v.kind != vMap:
		return false
	}
	m := map[string]T{}
	*out = m
	var left distinctKeys
	return dec.mapping(v, func(k []byte, sub value) bool {
		if dec.only != nil && !wanted(dec.only, k) {
			// Checked as it would be read, then left out.
			names := dec.namesOnly
			dec.namesOnly = true
			var t T
			ok := left.add(k) && read(dec, sub, &t)
			dec.namesOnly = names
			return ok
		}
		if _, dup := m[string(k)]; dup {
			return false
		}
		var t T
		if !read(dec, sub, &t) {
			return false
		}
		m[string(k)] = t
		return true
	})
}

// wanted reports whether only names the feature k, as written or
// lower-cased (terms look features up lower-cased).
func wanted(only map[string]bool, k []byte) bool {
	if only[string(k)] {
		return true
	}
	for _, c := range k {
		if 'A' <= c && c <= 'Z' {
			return only[strings.ToLower(string(k))]
		}
	}
	return false
}

// elements reads the one field of a feature set, "elements", with read.
// The field is required and not nullable (the CRD): a set without it, or
// with it null, is left to the strict decoder, which reports it.
func (dec *fastDecoder) elements(v value, read func(value) bool) bool {
	found := false
	return dec.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		found = true
		return string(k) == "elements" && !isNull(sub) && seen.once(0) && read(sub)
	}) && found
}

func (dec *fastDecoder) flagSet(v value, out *api.FlagFeatureSet) bool {
	if dec.namesOnly {
		return dec.elements(v, dec.checkFlags)
	}
	return dec.elements(v, func(v value) bool {
		switch {
		case isNull(v):
			out.Elements = nil
			return true
		case v.kind == vEmptyMap:
			out.Elements = map[string]api.Nil{}
			return true
		case v.kind != vMap:
			return false
		}
		m := make(map[string]api.Nil, dec.entries(v))
		out.Elements = m
		return dec.mapping(v, func(k []byte, sub value) bool {
			if _, dup := m[string(k)]; dup {
				return false
			}
			// A flag's value is an empty struct: {} or null.
			if sub.kind != vEmptyMap && !isNull(sub) {
				return false
			}
			m[string(k)] = api.Nil{}
			return true
		})
	})
}

func (dec *fastDecoder) attributeSet(v value, out *api.AttributeFeatureSet) bool {
	if dec.namesOnly {
		return dec.elements(v, dec.checkStringMap)
	}
	return dec.elements(v, func(v value) bool { return dec.stringMap(v, &out.Elements) })
}

func (dec *fastDecoder) instanceSet(v value, out *api.InstanceFeatureSet) bool {
	if dec.namesOnly {
		return dec.elements(v, dec.checkInstances)
	}
	return dec.elements(v, func(v value) bool {
		switch {
		case isNull(v):
			out.Elements = nil
			return true
		case v.kind == vEmptySeq:
			out.Elements = []api.InstanceFeature{}
			return true
		case v.kind != vSeq:
			return false
		}
		out.Elements = []api.InstanceFeature{}
		return dec.sequence(v, func(sub value) bool {
			var inst api.InstanceFeature
			if !dec.instance(sub, &inst) {
				return false
			}
			out.Elements = append(out.Elements, inst)
			return true
		})
	})
}

func (dec *fastDecoder) instance(v value, inst *api.InstanceFeature) bool {
	found := false
	return dec.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		found = true
		return string(k) == "attributes" && !isNull(sub) && seen.once(0) && dec.stringMap(sub, &inst.Attributes)
	}) && found
}
