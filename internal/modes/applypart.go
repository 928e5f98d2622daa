package modes

import (
	"go.yaml.in/yaml/v3"

	"github.com/nfd-fn/nfd-fn/internal/krm"
)

// ApplyPart is the part of the apply-ready Nodes a stream for
// `kubectl apply --server-side` holds. Server-side apply keeps one applied
// set per field manager and subresource, exactly the fields of its last
// apply: the Node's own fields and its status subresource are applied
// apart, each from a stream holding its part alone, so that each apply
// removes what it applied before and no longer holds, and neither owns
// what the other sets.
type ApplyPart int

const (
	// ApplyNone writes no apply-ready stream.
	ApplyNone ApplyPart = iota
	// ApplyObject is the Node's own fields: name, labels, annotations
	// and taints, for `kubectl apply --server-side`.
	ApplyObject
	// ApplyStatus is the status subresource's: name and extended
	// resources (status.capacity, status.allocatable), for `kubectl apply
	// --server-side --subresource=status`.
	ApplyStatus
)

// Shape returns the part p of an apply-ready Node n: a copy holding
// apiVersion, kind, metadata and spec (ApplyObject), or apiVersion, kind,
// metadata.name and status with its capacity and allocatable, empty ones
// included (ApplyStatus, withStatusMaps). n is left as it is.
func (p ApplyPart) Shape(n *yaml.Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode}
	keep := []string{"apiVersion", "kind", "metadata", "spec"}
	if p == ApplyStatus {
		keep = []string{"apiVersion", "kind", "metadata", "status"}
	}
	for _, k := range keep {
		v := krm.ValueAt(n, k)
		if v == nil {
			continue
		}
		if p == ApplyStatus && k == "metadata" {
			md := &yaml.Node{Kind: yaml.MappingNode}
			if name := krm.ValueAt(v, "name"); name != nil {
				krm.SetField(md, "name", name)
			}
			v = md
		}
		krm.SetField(out, k, v)
	}
	if p == ApplyStatus {
		withStatusMaps(out)
	}
	return out
}
