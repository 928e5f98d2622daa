package objects

import (
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// DecodeFast decodes a NodeFeature straight from its text, without a YAML
// tree, when the text is in the plain block style kubectl and nfd-worker
// write (see block) and decodes cleanly. raw is one document (a mapping
// at column 0) or one block sequence entry ("- apiVersion: ..." at any
// indentation, as a ResourceList item is). ok is false for anything else:
// another kind, input outside the block subset, or anything the strict
// decoder would report. The caller then decodes the parsed tree with
// Decode, which finds the same object or says what is wrong, with field
// paths and positions; DecodeFast never computes either.
func DecodeFast(raw []byte) (d *Decoded, ok bool) {
	return decodeFast(raw, &block{})
}

// decodeFast is DecodeFast with p's settings.
func decodeFast(raw []byte, p *block) (d *Decoded, ok bool) {
	var nf *api.NodeFeature
	ok = p.object(raw, func(ind int) bool {
		nf, ok = p.nodeFeature(ind)
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
	if InvalidName(nf.Kind, nf.Metadata.Name) != "" || (nf.Metadata.Namespace != "" && InvalidNamespace(nf.Metadata.Namespace) != "") {
		return nil, false // the slow path reports the name
	}
	ref := diag.ObjectRef{APIVersion: nf.APIVersion, Kind: nf.Kind, Namespace: nf.Metadata.Namespace, Name: nf.Metadata.Name}
	return &Decoded{Class: NFD, Ref: ref, Obj: nf}, true
}

// object reads raw as one object, a document or the one entry of a block
// sequence, with read given the column of its mapping; it reports whether
// read accepted it and nothing followed.
func (p *block) object(raw []byte, read func(ind int) bool) bool {
	p.start(raw)
	if p.bad || p.ind < 0 {
		return false
	}
	ok := false
	if isDash(p.line()) {
		entries := 0
		ok = p.sequence(p.ind, func(v value) bool {
			entries++
			return entries == 1 && v.kind == vMap && read(v.ind)
		})
	} else if p.ind == 0 {
		ok = read(0)
	}
	return ok && !p.bad && p.ind < 0
}

// nodeFeature reads a NodeFeature mapping at column ind.
func (p *block) nodeFeature(ind int) (*api.NodeFeature, bool) {
	nf := &api.NodeFeature{}
	var seen fieldSet
	ok := p.mapping(ind, func(k []byte, v value) bool {
		switch string(k) {
		case "apiVersion":
			return seen.once(0) && p.str(v, &nf.APIVersion)
		case "kind":
			return seen.once(1) && p.str(v, &nf.Kind)
		case "metadata":
			return seen.once(2) && p.meta(v, &nf.Metadata)
		case "spec":
			return seen.once(3) && p.nodeFeatureSpec(v, &nf.Spec)
		case "status":
			return seen.once(4) && p.skip(v, 1)
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

// isStr reports a value str reads.
func isStr(v value) bool {
	switch v.kind {
	case vNull:
		return true
	case vScalar:
		if v.quoted {
			return true
		}
		null, str := plainTag(v.tok)
		return null || str
	}
	return false
}

// str reads a string field: a quoted scalar, a plain one that YAML reads
// as a string, or null (the empty string).
func (p *block) str(v value, out *string) bool {
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
// an empty object, and anything but a block mapping is left to the strict
// path (false).
func (p *block) fields(v value, field func(k []byte, sub value, seen *fieldSet) bool) bool {
	if isNull(v) || v.kind == vEmptyMap {
		return true
	}
	if v.kind != vMap {
		return false
	}
	var seen fieldSet
	return p.mapping(v.ind, func(k []byte, sub value) bool { return field(k, sub, &seen) })
}

// meta reads object metadata: the fields nfd-fn uses, and every other
// field of Kubernetes metadata accepted unread.
func (p *block) meta(v value, md *api.ObjectMeta) bool {
	var other []string
	ignored := md.IgnoredFields()
	return p.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		switch string(k) {
		case "name":
			return seen.once(0) && p.str(sub, &md.Name)
		case "namespace":
			return seen.once(1) && p.str(sub, &md.Namespace)
		case "labels":
			return seen.once(2) && p.stringMap(sub, &md.Labels)
		case "annotations":
			return seen.once(3) && p.stringMap(sub, &md.Annotations)
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
		return p.skip(sub, 1)
	})
}

// stringMap reads a map of strings (str).
func (p *block) stringMap(v value, out *map[string]string) bool {
	return p.valueMap(v, out, p.str)
}

// valueMap reads null (nil), {} or a block mapping whose keys are
// distinct and whose values read accepts.
func (p *block) valueMap(v value, out *map[string]string, read func(value, *string) bool) bool {
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
	m := make(map[string]string, p.entries(v.ind))
	*out = m
	return p.mapping(v.ind, func(k []byte, sub value) bool {
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

func (p *block) nodeFeatureSpec(v value, spec *api.NodeFeatureSpec) bool {
	return p.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		switch string(k) {
		case "features":
			return seen.once(0) && p.features(sub, &spec.Features)
		case "labels":
			return seen.once(1) && p.stringMap(sub, &spec.Labels)
		}
		return false
	})
}

func (p *block) features(v value, f *api.Features) bool {
	return p.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		switch string(k) {
		case "flags":
			return seen.once(0) && featureMap(p, sub, &f.Flags, (*block).flagSet)
		case "attributes":
			return seen.once(1) && featureMap(p, sub, &f.Attributes, (*block).attributeSet)
		case "instances":
			return seen.once(2) && featureMap(p, sub, &f.Instances, (*block).instanceSet)
		}
		return false
	})
}

// featureMap reads a map of feature sets, each with read.
func featureMap[T any](p *block, v value, out *map[string]T, read func(*block, value, *T) bool) bool {
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
	return p.mapping(v.ind, func(k []byte, sub value) bool {
		if p.only != nil && !wanted(p.only, k) {
			// Checked as it would be read, then left out.
			names := p.namesOnly
			p.namesOnly = true
			var t T
			ok := left.add(k) && read(p, sub, &t)
			p.namesOnly = names
			return ok
		}
		if _, dup := m[string(k)]; dup {
			return false
		}
		var t T
		if !read(p, sub, &t) {
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
func (p *block) elements(v value, read func(value) bool) bool {
	return p.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		return string(k) == "elements" && seen.once(0) && read(sub)
	})
}

func (p *block) flagSet(v value, out *api.FlagFeatureSet) bool {
	if p.namesOnly {
		return p.elements(v, p.checkFlags)
	}
	return p.elements(v, func(v value) bool {
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
		m := make(map[string]api.Nil, p.entries(v.ind))
		out.Elements = m
		return p.mapping(v.ind, func(k []byte, sub value) bool {
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

func (p *block) attributeSet(v value, out *api.AttributeFeatureSet) bool {
	if p.namesOnly {
		return p.elements(v, p.checkStringMap)
	}
	return p.elements(v, func(v value) bool { return p.stringMap(v, &out.Elements) })
}

func (p *block) instanceSet(v value, out *api.InstanceFeatureSet) bool {
	if p.namesOnly {
		return p.elements(v, p.checkInstances)
	}
	return p.elements(v, func(v value) bool {
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
		return p.sequence(v.ind, func(sub value) bool {
			var inst api.InstanceFeature
			if !p.instance(sub, &inst) {
				return false
			}
			out.Elements = append(out.Elements, inst)
			return true
		})
	})
}

func (p *block) instance(v value, inst *api.InstanceFeature) bool {
	return p.fields(v, func(k []byte, sub value, seen *fieldSet) bool {
		return string(k) == "attributes" && seen.once(0) && p.stringMap(sub, &inst.Attributes)
	})
}
