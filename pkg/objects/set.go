package objects

import (
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/yamlstrict"
)

// Origin is where an object came from.
type Origin struct {
	// File is the file path (a file argument, or the kpt path annotation
	// of a ResourceList item); Index the object's index in that file.
	File  string
	Index int
	// Item is the object's position among ResourceList items; -1 when it
	// did not come from a ResourceList.
	Item int
	// Node is the object's YAML, kept to locate fields; nil when it was
	// released to save memory.
	Node *yaml.Node
}

// Where names the place for messages: file:line, the file, or the
// ResourceList item.
func (o Origin) Where() string {
	switch {
	case o.File != "" && o.Node != nil && o.Node.Line > 0:
		return fmt.Sprintf("%s:%d", o.File, o.Node.Line)
	case o.File != "":
		return o.File
	case o.Item >= 0:
		return fmt.Sprintf("items[%d]", o.Item)
	}
	return "the input"
}

// Position is where the field (empty: the object itself) is in the input.
// key selects the key of a mapping entry rather than its value.
func (o Origin) Position(field string, key bool) diag.Position {
	p := diag.Position{File: o.File, Index: o.Index}
	if o.Node == nil {
		return p
	}
	n := o.Node
	if field != "" {
		if f := yamlstrict.Locate(o.Node, field, key); f != nil {
			n = f
		}
	}
	p.Line, p.Column = n.Line, n.Column
	return p
}

// Object is a decoded object with its origin.
type Object[T any] struct {
	Obj    T
	Origin Origin
	// Rejected marks an object that did not decode cleanly: the API
	// server would refuse it, so it is checked but never rendered.
	Rejected bool
	// Undecoded are the field paths of a rejected object whose values did
	// not decode (a number where a string is expected, the field a
	// misspelt key meant): they hold zero values the user never wrote,
	// which checks must not judge.
	Undecoded []string
	// Superseded marks an object a later one of the same kind, namespace
	// and name replaces, as applying the input in order would.
	Superseded bool
	// Lean is set on a NodeFeature read lean: Obj is then Lean.Names, which
	// holds only the names of its features, and its spec is what
	// Lean.Load decodes.
	Lean *LeanNodeFeature
}

// Used reports whether the object takes part in rendering: it decoded
// cleanly and no later object replaces it.
func (o *Object[T]) Used() bool { return !o.Rejected && !o.Superseded }

// Set is every object of one run, in input order per kind.
type Set struct {
	Features []Object[*api.NodeFeature]
	Rules    []Object[*api.NodeFeatureRule]
	Groups   []Object[*api.NodeFeatureGroup]
	Nodes    []Object[*Node]
	// Namespaces are v1 Namespaces, read for their labels.
	Namespaces []Object[*Namespace]

	// OnlyNFDFiles makes ReadFiles skip, silently, the files that do not
	// mention an NFD API group or kind (Helm charts, kustomizations and
	// other manifests of the repository).
	OnlyNFDFiles bool
	// NoOpenShiftAlias refuses NodeFeatureRules in the OpenShift NFD
	// operator's group (nfd.openshift.io/v1alpha1) instead of reading them.
	NoOpenShiftAlias bool
	// StrictFieldValidation refuses an NFD object with an unknown field,
	// as the API server does under fieldValidation Strict (kubectl's
	// default); without it the field is pruned with a warning and the
	// object used, as under Warn (client-go's default, which Helm,
	// operators and GitOps controllers use).
	StrictFieldValidation bool

	// inputs are what the set's lean NodeFeatures are read again from
	// (Own); Close closes them.
	inputs []io.Closer

	// index maps object keys to origins; built on first use.
	index map[diag.ObjectRef]Origin
	// nodeFeature maps a node name to the origin of its first NodeFeature
	// (by the node-name label), where a problem about a Node the input
	// holds no object for is placed; built with index.
	nodeFeature map[string]Origin
	// seen maps object keys to their latest index in their kind's slice.
	seen map[diag.ObjectRef]int
	// refusedFeatures are the feature names of the NodeFeatures the API
	// server refuses (Decoded.RefusedFeatures).
	refusedFeatures map[string]bool
}

// FeatureRef names a NodeFeature for diagnostics. The object refs of
// the package leave APIVersion empty, so that they compare equal to the
// engine's.
func FeatureRef(o *api.NodeFeature) diag.ObjectRef {
	return diag.ObjectRef{Kind: api.KindNodeFeature, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
}

// RuleRef names a NodeFeatureRule for diagnostics.
func RuleRef(o *api.NodeFeatureRule) diag.ObjectRef {
	return diag.ObjectRef{Kind: api.KindNodeFeatureRule, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
}

// GroupRef names a NodeFeatureGroup for diagnostics.
func GroupRef(o *api.NodeFeatureGroup) diag.ObjectRef {
	return diag.ObjectRef{Kind: api.KindNodeFeatureGroup, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
}

// NodeRef names a Node for diagnostics.
func NodeRef(name string) diag.ObjectRef {
	return diag.ObjectRef{Kind: "Node", Name: name}
}

// AcceptedRules are the rules that take part in rendering, in input order.
func (s *Set) AcceptedRules() []*api.NodeFeatureRule {
	out := make([]*api.NodeFeatureRule, 0, len(s.Rules))
	for i := range s.Rules {
		if s.Rules[i].Used() {
			out = append(out, s.Rules[i].Obj)
		}
	}
	return out
}

// Origin finds where the object ref names came from; ok is false when the
// set does not hold it. Of objects defined twice, the last (the one in
// use) wins.
func (s *Set) Origin(ref diag.ObjectRef) (Origin, bool) {
	if s.index == nil {
		s.buildIndex()
	}
	o, ok := s.index[ref.Key()]
	if !ok {
		return Origin{Item: -1}, false
	}
	return o, true
}

func (s *Set) buildIndex() {
	s.index = map[diag.ObjectRef]Origin{}
	add := func(ref diag.ObjectRef, o Origin) {
		s.index[ref.Key()] = o
	}
	for _, o := range s.Rules {
		add(RuleRef(o.Obj), o.Origin)
	}
	for _, o := range s.Groups {
		add(GroupRef(o.Obj), o.Origin)
	}
	for _, o := range s.Features {
		add(FeatureRef(o.Obj), o.Origin)
	}
	for _, o := range s.Nodes {
		add(NodeRef(o.Obj.Name), o.Origin)
	}
	s.nodeFeature = map[string]Origin{}
	for _, o := range s.Features {
		node := o.Obj.Metadata.Labels[api.NodeNameLabel]
		if _, seen := s.nodeFeature[node]; node != "" && !seen {
			s.nodeFeature[node] = o.Origin
		}
	}
}

// Place fills the positions of diagnostics that have none from the
// origins of their objects. A problem about a Node the input holds no
// object for (one nfd-fn writes from NodeFeatures) is placed at the
// start of that node's NodeFeature, the input that names the node.
func (s *Set) Place(l diag.List) {
	for i := range l {
		d := &l[i]
		if d.Pos != (diag.Position{}) {
			continue
		}
		if o, ok := s.Origin(d.Object); ok {
			d.Pos = o.Position(d.Field, false)
		} else if o, ok := s.nodeFeature[d.Object.Name]; ok && d.Object.Kind == "Node" {
			d.Pos = o.Position("", false)
		}
	}
}

// Own hands the set an input its objects are read again from later: the
// mapped files a lean NodeFeature's spec is decoded from each time its
// node is rendered. The set then owns it: Close closes it.
func (s *Set) Own(in io.Closer) { s.inputs = append(s.inputs, in) }

// Close closes the inputs the set owns. The set's objects stay, but
// loading a lean NodeFeature's spec after it is an error (its input
// refuses to be read again), never a fault on unmapped memory.
func (s *Set) Close() error {
	var errs []error
	for _, in := range s.inputs {
		errs = append(errs, in.Close())
	}
	s.inputs = nil
	return errors.Join(errs...)
}
