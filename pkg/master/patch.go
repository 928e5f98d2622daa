package master

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// patch applies the desired state to a node the way nfd-master patches it:
// labels and annotations it owned before (per the tracking annotations) and
// no longer wants are removed, new ones added, owned ones overwritten only
// when AllowOverwrite is set; extended resources and taints likewise.
func (r *Renderer) patch(old *NodeState, d desired, res *NodeResult) NodeState {
	o := &r.opts
	annotations := o.trackingAnnotations(d)
	ownedLabels := nsNames(old.Annotations[o.annotationName(api.FeatureLabelsAnnotation)], api.FeatureLabelNs)
	ownedAnnotations := nsNames(old.Annotations[o.annotationName(api.FeatureAnnotationsTrackingAnnotation)], api.FeatureAnnotationNs)
	ownedAnnotations = append(ownedAnnotations,
		o.annotationName(api.FeatureLabelsAnnotation),
		o.annotationName(api.ExtendedResourceAnnotation),
		o.annotationName(api.FeatureAnnotationsTrackingAnnotation),
		o.annotationName("master.version"),
		o.annotationName("worker.version"))
	out := NodeState{
		Labels:      applyPatch(old.Labels, d.labels, ownedLabels, o.AllowOverwrite),
		Annotations: applyPatch(old.Annotations, annotations, ownedAnnotations, o.AllowOverwrite),
	}
	out.Capacity, out.Allocatable = o.patchResources(old, d.resources)
	out.Taints = o.patchTaints(old, d.taints, &out, res)
	return out
}

// trackingAnnotations builds the annotations nfd-master writes: the sorted
// names of the labels, extended resources and annotations it set (feature
// namespace dropped), plus the feature annotations themselves.
func (o *Options) trackingAnnotations(d desired) map[string]string {
	out := map[string]string{}
	add := func(name string, m map[string]string) {
		if len(m) == 0 {
			return
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, strings.TrimPrefix(k, api.FeatureLabelNs+"/"))
		}
		sort.Strings(keys)
		out[o.annotationName(name)] = strings.Join(keys, ",")
	}
	add(api.FeatureLabelsAnnotation, d.labels)
	add(api.ExtendedResourceAnnotation, d.resources)
	add(api.FeatureAnnotationsTrackingAnnotation, d.annotations)
	maps.Copy(out, d.annotations)
	return out
}

// nsNames splits a tracking annotation value into fully prefixed names.
func nsNames(list, ns string) []string {
	if list == "" {
		return nil
	}
	names := strings.Split(list, ",")
	for i, n := range names {
		if !strings.Contains(n, "/") {
			names[i] = ns + "/" + n
		}
	}
	return names
}

// applyPatch mirrors nfd-master's createPatches: owned keys that are no
// longer wanted are removed; wanted keys are added, and replaced when they
// differ unless they were owned and overwrite is off.
func applyPatch(old, want map[string]string, owned []string, overwrite bool) map[string]string {
	out := maps.Clone(old)
	if out == nil {
		out = map[string]string{}
	}
	ownedSet := make(map[string]bool, len(owned))
	for _, k := range owned {
		ownedSet[k] = true
		if _, wanted := want[k]; !wanted {
			delete(out, k)
		}
	}
	for k, v := range want {
		if oldV, ok := old[k]; ok {
			if oldV != v && (!ownedSet[k] || overwrite) {
				out[k] = v
			}
		} else {
			out[k] = v
		}
	}
	return out
}

// patchResources mirrors nfd-master's extended resource patches on
// status.capacity and status.allocatable.
func (o *Options) patchResources(old *NodeState, want map[string]string) (capacity, allocatable map[string]string) {
	capacity, allocatable = maps.Clone(old.Capacity), maps.Clone(old.Allocatable)
	if capacity == nil {
		capacity = map[string]string{}
	}
	if allocatable == nil {
		allocatable = map[string]string{}
	}
	for _, name := range nsNames(old.Annotations[o.annotationName(api.ExtendedResourceAnnotation)], api.FeatureLabelNs) {
		if _, ok := old.Capacity[name]; !ok {
			continue
		}
		if _, needed := want[name]; !needed {
			delete(capacity, name)
			delete(allocatable, name)
		}
	}
	for name, value := range want {
		if cur, ok := old.Capacity[name]; ok && sameQuantity(cur, value) {
			continue
		}
		capacity[name] = value
		allocatable[name] = value
	}
	return capacity, allocatable
}

// sameQuantity compares like nfd-master: the current quantity as an
// integer, formatted, against the wanted string.
func sameQuantity(cur, want string) bool {
	q, err := resource.ParseQuantity(cur)
	if err != nil {
		return false
	}
	n, _ := q.AsInt64()
	return strconv.FormatInt(n, 10) == want
}

// patchTaints mirrors nfd-master's setTaints: taints it set before (per the
// taints annotation) and no longer wants are removed, wanted ones added or
// updated by key and effect, and the annotation rewritten.
func (o *Options) patchTaints(old *NodeState, want []api.Taint, out *NodeState, res *NodeResult) []api.Taint {
	// nfd-master does not prefix the taints annotation with the instance.
	annName := api.AnnotationNs + "/" + api.NodeTaintsAnnotation
	taints := append([]api.Taint(nil), old.Taints...)
	oldOwned, err := parseTaints(old.Annotations[annName])
	if err != nil {
		res.Problems = append(res.Problems, diag.Diagnostic{Severity: diag.Error,
			Object: diag.ObjectRef{Kind: "Node", Name: res.Name}, Field: "metadata.annotations[" + quoteKey(annName) + "]",
			Message: fmt.Sprintf("cannot parse the taints annotation, so nfd-master would leave taints untouched: %v", err)})
		return taints
	}
	for _, t := range oldOwned {
		if !hasTaint(want, t) {
			taints = deleteTaint(taints, t)
		}
	}
	for _, t := range want {
		taints = addOrUpdateTaint(taints, t)
	}
	wantAnn := map[string]string{}
	if len(want) > 0 {
		strs := make([]string, len(want))
		for i, t := range want {
			strs[i] = taintString(t)
		}
		wantAnn[annName] = strings.Join(strs, ",")
	}
	patched := applyPatch(old.Annotations, wantAnn, []string{annName}, o.AllowOverwrite)
	if v, ok := patched[annName]; ok {
		out.Annotations[annName] = v
	} else {
		delete(out.Annotations, annName)
	}
	return taints
}

func sameTaint(a, b api.Taint) bool { return a.Key == b.Key && a.Effect == b.Effect }

func hasTaint(list []api.Taint, t api.Taint) bool {
	for _, x := range list {
		if sameTaint(x, t) {
			return true
		}
	}
	return false
}

func deleteTaint(list []api.Taint, t api.Taint) []api.Taint {
	out := list[:0:0]
	for _, x := range list {
		if !sameTaint(x, t) {
			out = append(out, x)
		}
	}
	return out
}

func addOrUpdateTaint(list []api.Taint, t api.Taint) []api.Taint {
	for i, x := range list {
		if sameTaint(x, t) {
			if x.Value != t.Value {
				list[i] = t
			}
			return list
		}
	}
	return append(list, t)
}

// taintString formats a taint as key[=value]:effect.
func taintString(t api.Taint) string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	if t.Effect != "" || t.Value != "" {
		s += ":" + t.Effect
	}
	return s
}

// parseTaints reads key[=value]:effect entries, comma separated.
func parseTaints(s string) ([]api.Taint, error) {
	if s == "" {
		return nil, nil
	}
	var out []api.Taint
	for _, spec := range strings.Split(s, ",") {
		kv, effect, ok := strings.Cut(spec, ":")
		if !ok {
			return nil, fmt.Errorf("invalid taint spec %q", spec)
		}
		switch effect {
		case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		default:
			return nil, fmt.Errorf("invalid taint effect %q in %q", effect, spec)
		}
		key, value, _ := strings.Cut(kv, "=")
		out = append(out, api.Taint{Key: key, Value: value, Effect: effect})
	}
	return out, nil
}
