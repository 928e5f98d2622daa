package master

import (
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// Owned returns what NFD owns on a rendered node: the labels and extended
// resources listed in the node's tracking annotations (named for
// o.Instance), with their values on the node. Nova's provider config is
// built from exactly these.
func (o *Options) Owned(st *NodeState) (labels, resources map[string]string) {
	return owned(st.Annotations[o.annotationName(api.FeatureLabelsAnnotation)], st.Labels),
		owned(st.Annotations[o.annotationName(api.ExtendedResourceAnnotation)], st.Capacity)
}

// owned picks from values the names in a tracking annotation, which lists
// them comma-separated without the feature.node.kubernetes.io/ prefix. A
// name is looked up with that prefix first, then as written (a name with
// another prefix, or an unprefixed one when auto-prefixing is off).
func owned(list string, values map[string]string) map[string]string {
	out := map[string]string{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		for _, k := range []string{api.FeatureLabelNs + "/" + name, name} {
			if v, ok := values[k]; ok {
				out[k] = v
				break
			}
		}
	}
	return out
}

// OwnedState is the part of a rendered node NFD owns, as its tracking
// annotations say: the labels, feature annotations, extended resources and
// taints it set, and the tracking annotations themselves. Applied with
// server-side apply under one field manager, it gives a node what
// nfd-master's patches give it, and removes what that manager applied
// before and no longer wants.
func (o *Options) OwnedState(st *NodeState) NodeState {
	labels, resources := o.Owned(st)
	out := NodeState{Labels: labels, Annotations: owned(st.Annotations[o.annotationName(api.FeatureAnnotationsTrackingAnnotation)], st.Annotations)}
	for _, name := range []string{api.FeatureLabelsAnnotation, api.ExtendedResourceAnnotation, api.FeatureAnnotationsTrackingAnnotation} {
		if v, ok := st.Annotations[o.annotationName(name)]; ok {
			out.Annotations[o.annotationName(name)] = v
		}
	}
	if v, ok := st.Annotations[TaintsAnnotation]; ok {
		out.Annotations[TaintsAnnotation] = v
		if ts, err := parseTaints(v); err == nil {
			for _, t := range ts {
				for _, cur := range st.Taints {
					if sameTaint(cur, t) {
						out.Taints = append(out.Taints, cur)
					}
				}
			}
		}
	}
	if len(resources) > 0 {
		out.Capacity, out.Allocatable = resources, map[string]string{}
		for k := range resources {
			if v, ok := st.Allocatable[k]; ok {
				out.Allocatable[k] = v
			}
		}
	}
	return out
}

// IsTracking reports whether key is one of the annotations nfd-master
// keeps its bookkeeping in (named for o.Instance): the feature-labels,
// extended-resources, feature-annotations and taints lists, rather than a
// feature annotation a rule set.
func (o *Options) IsTracking(key string) bool {
	if key == TaintsAnnotation {
		return true
	}
	for _, name := range []string{api.FeatureLabelsAnnotation, api.ExtendedResourceAnnotation, api.FeatureAnnotationsTrackingAnnotation} {
		if key == o.annotationName(name) {
			return true
		}
	}
	return false
}
