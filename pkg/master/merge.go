package master

import (
	"fmt"
	"sort"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// NodeFeatureObject is one NodeFeature attached to a node.
type NodeFeatureObject struct {
	Ref  diag.ObjectRef
	Spec *api.NodeFeatureSpec
	// Lean, when set, is the NodeFeature read lean: its spec is decoded
	// anew each time the node is rendered (Spec is then not read), so
	// that the features of every node are not alive at once.
	Lean *objects.LeanNodeFeature
}

// spec is the object's spec, decoded anew when it is lean, keeping only
// the features only names (all of them when only is nil).
func (o *NodeFeatureObject) spec(only map[string]bool) (*api.NodeFeatureSpec, error) {
	if o.Lean != nil {
		return o.Lean.Load(only)
	}
	return o.Spec, nil
}

// mergedFeatures is the result of merging a node's NodeFeature objects.
type mergedFeatures struct {
	features *api.Features
	labels   map[string]string
	// labelSource tells which object each label came from.
	labelSource map[string]diag.ObjectRef
	// unread are the objects whose spec could not be read again (a lean
	// NodeFeature whose input was closed): merged as if empty; and the
	// notes of Options.WorkerLabels.
	unread diag.List
}

// mergeNodeFeatures merges the objects in nfd-master's order: objects in
// NFD's namespace first, then by name, then by namespace; later objects win
// per attribute element and per label, flags are unioned and instances
// appended. A single object is used as is, without copying.
func mergeNodeFeatures(o *Options, node string, objs []NodeFeatureObject, only map[string]bool) mergedFeatures {
	sorted := append([]NodeFeatureObject(nil), objs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Ref, sorted[j].Ref
		if (a.Namespace == o.Namespace) != (b.Namespace == o.Namespace) {
			return a.Namespace == o.Namespace
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Namespace < b.Namespace
	})
	m := mergedFeatures{labels: map[string]string{}, labelSource: map[string]diag.ObjectRef{}}
	for i, obj := range sorted {
		spec, err := obj.spec(only)
		if err != nil {
			m.unread = append(m.unread, diag.Diagnostic{Severity: diag.Error, Check: "yaml", Object: obj.Ref,
				Message: fmt.Sprintf("the NodeFeature cannot be read to render node %s, which is rendered without its features: %v", node, err)})
			spec = &api.NodeFeatureSpec{}
		}
		if o.WorkerLabels != nil && obj.Ref.Name == node {
			var notes diag.List
			spec, notes = o.WorkerLabels.Publish(spec)
			m.unread = append(m.unread, notes...)
		}
		obj.Spec = spec
		if i == 0 {
			if len(sorted) == 1 {
				m.features = &obj.Spec.Features
			} else {
				m.features = &api.Features{}
				mergeFeaturesInto(m.features, &obj.Spec.Features)
			}
		} else {
			mergeFeaturesInto(m.features, &obj.Spec.Features)
		}
		if o.DenyNodeFeatureLabels && (obj.Ref.Namespace != o.Namespace || obj.Ref.Name != node) {
			continue
		}
		for k, v := range o.prefixLabels(obj.Spec.Labels) {
			m.labels[k] = v
			m.labelSource[k] = obj.Ref
		}
	}
	if m.features == nil {
		m.features = &api.Features{}
	}
	return m
}

func mergeFeaturesInto(out, in *api.Features) {
	if in.Flags != nil && out.Flags == nil {
		out.Flags = make(map[string]api.FlagFeatureSet, len(in.Flags))
	}
	for k, v := range in.Flags {
		o := out.Flags[k]
		if v.Elements != nil && o.Elements == nil {
			o.Elements = make(map[string]api.Nil, len(v.Elements))
		}
		for e := range v.Elements {
			o.Elements[e] = api.Nil{}
		}
		out.Flags[k] = o
	}
	if in.Attributes != nil && out.Attributes == nil {
		out.Attributes = make(map[string]api.AttributeFeatureSet, len(in.Attributes))
	}
	for k, v := range in.Attributes {
		o := out.Attributes[k]
		if v.Elements != nil && o.Elements == nil {
			o.Elements = make(map[string]string, len(v.Elements))
		}
		for e, val := range v.Elements {
			o.Elements[e] = val
		}
		out.Attributes[k] = o
	}
	if in.Instances != nil && out.Instances == nil {
		out.Instances = make(map[string]api.InstanceFeatureSet, len(in.Instances))
	}
	for k, v := range in.Instances {
		o := out.Instances[k]
		if v.Elements != nil && o.Elements == nil {
			o.Elements = make([]api.InstanceFeature, 0, len(v.Elements))
		}
		o.Elements = append(o.Elements, v.Elements...)
		out.Instances[k] = o
	}
}
