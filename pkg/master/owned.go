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
