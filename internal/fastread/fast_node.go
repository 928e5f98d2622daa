package fastread

import (
	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// DecodeNodeFast decodes a v1 Node straight from its text, as decodeFast
// does a NodeFeature: the name and the state nfd-master manages (labels,
// annotations, taints, capacity, allocatable) and nfd-master's entries
// of managedFields (fast_managed.go), everything else (status conditions,
// images, other managers' fields) checked to be in the readers' subset
// and skipped. Like decodeFast, it reads block YAML or JSON. It reads what Decode reads from the parsed tree, and ok is
// false for anything it cannot be sure of (a name Decode would report, a
// value of an unexpected shape, a key given twice, text outside the
// subset); the caller then parses the item.
func DecodeNodeFast(raw []byte) (*objects.Decoded, bool) {
	dec := newDecoder(raw)
	var node *objects.Node
	var ns string
	ok := dec.object(raw, func(v value) bool {
		var good bool
		node, ns, good = dec.kubeNode(v)
		return good
	})
	if !ok || node == nil || objects.InvalidName("Node", node.Name) != "" || (ns != "" && objects.InvalidNamespace(ns) != "") {
		return nil, false
	}
	ref := diag.ObjectRef{APIVersion: "v1", Kind: "Node", Namespace: ns, Name: node.Name}
	return &objects.Decoded{Class: objects.KubeNode, Ref: ref, Obj: node}, true
}

// kubeNode reads a v1 Node from the mapping v; other kinds are refused.
func (dec *fastDecoder) kubeNode(v value) (node *objects.Node, namespace string, ok bool) {
	node = &objects.Node{}
	var apiVersion, kind string
	var seen fieldSet
	var other distinctKeys
	ok = dec.mapping(v, func(k []byte, v value) bool {
		switch string(k) {
		case "apiVersion":
			return seen.once(0) && dec.str(v, &apiVersion)
		case "kind":
			return seen.once(1) && dec.str(v, &kind)
		case "metadata":
			return seen.once(2) && dec.nodeMeta(v, node, &namespace)
		case "spec":
			return seen.once(3) && dec.nodeSpec(v, &node.State)
		case "status":
			return seen.once(4) && dec.nodeStatus(v, &node.State)
		}
		return other.add(k) && dec.skip(v, 1)
	})
	return node, namespace, ok && apiVersion == "v1" && kind == "Node"
}

// nodeMeta reads a Node's name, namespace, labels, annotations and
// nfd-master's managedFields, skipping the rest of its metadata. (Null or {} metadata reads as empty:
// with no name, DecodeNodeFast leaves the Node to Decode, which reports
// it.)
func (dec *fastDecoder) nodeMeta(v value, node *objects.Node, namespace *string) bool {
	return dec.someFields(v, func(k []byte, sub value, seen *fieldSet) (bool, bool) {
		switch string(k) {
		case "name":
			return true, seen.once(0) && dec.str(sub, &node.Name)
		case "namespace":
			return true, seen.once(1) && dec.str(sub, namespace)
		case "labels":
			return true, seen.once(2) && dec.scalarMap(sub, &node.State.Labels)
		case "annotations":
			return true, seen.once(3) && dec.scalarMap(sub, &node.State.Annotations)
		case "managedFields":
			return true, seen.once(4) && dec.managedFields(sub, node)
		}
		return false, false
	})
}

// nodeSpec reads a Node's taints, skipping the rest of its spec.
func (dec *fastDecoder) nodeSpec(v value, st *objects.NodeState) bool {
	return dec.someFields(v, func(k []byte, sub value, seen *fieldSet) (bool, bool) {
		if string(k) != "taints" {
			return false, false
		}
		return true, seen.once(0) && dec.taints(sub, &st.Taints)
	})
}

// nodeStatus reads a Node's capacity and allocatable, skipping the rest
// of its status.
func (dec *fastDecoder) nodeStatus(v value, st *objects.NodeState) bool {
	return dec.someFields(v, func(k []byte, sub value, seen *fieldSet) (bool, bool) {
		switch string(k) {
		case "capacity":
			return true, seen.once(0) && dec.scalarMap(sub, &st.Capacity)
		case "allocatable":
			return true, seen.once(1) && dec.scalarMap(sub, &st.Allocatable)
		}
		return false, false
	})
}

// someFields reads v as a mapping (null and {} are empty) in which field
// reads the keys it knows (known=true) and the others are skipped, each
// key once.
func (dec *fastDecoder) someFields(v value, field func(k []byte, sub value, seen *fieldSet) (known, ok bool)) bool {
	if isNull(v) || v.kind == vEmptyMap {
		return true
	}
	if v.kind != vMap {
		return false
	}
	var seen fieldSet
	var other distinctKeys
	return dec.mapping(v, func(k []byte, sub value) bool {
		if known, ok := field(k, sub, &seen); known {
			return ok
		}
		return other.add(k) && dec.skip(sub, 2)
	})
}

// scalarMap reads a mapping of scalars as the general path's StringMap
// does: each value as written (a plain 110 is "110", a plain null is
// "null"), an empty value as "". A value that is not a scalar, which
// StringMap would leave out, is refused instead.
func (dec *fastDecoder) scalarMap(v value, out *map[string]string) bool {
	return dec.valueMap(v, out, func(sub value, s *string) bool {
		switch sub.kind {
		case vNull:
			*s = ""
		case vScalar:
			*s = string(sub.tok)
		default:
			return false
		}
		return true
	})
}

// taints reads a Node's spec.taints: a sequence of mappings whose
// key, value, effect and timeAdded are scalars (a null one is "").
func (dec *fastDecoder) taints(v value, out *[]api.Taint) bool {
	return dec.optionalSequence(v, func(sub value) bool {
		var t api.Taint
		ok := dec.someFields(sub, func(k []byte, f value, seen *fieldSet) (bool, bool) {
			switch string(k) {
			case "key":
				return true, seen.once(0) && dec.scalar(f, &t.Key)
			case "value":
				return true, seen.once(1) && dec.scalar(f, &t.Value)
			case "effect":
				return true, seen.once(2) && dec.scalar(f, &t.Effect)
			case "timeAdded":
				return true, seen.once(3) && dec.scalar(f, &t.TimeAdded)
			}
			return false, false
		})
		*out = append(*out, t)
		return ok && sub.kind == vMap
	})
}

// scalar reads a scalar as the general path's Scalar does: its text, or
// "" for null (empty, null or ~).
func (dec *fastDecoder) scalar(v value, out *string) bool {
	if isNull(v) {
		*out = ""
		return true
	}
	if v.kind != vScalar {
		return false
	}
	*out = string(v.tok)
	return true
}
