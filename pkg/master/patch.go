package master

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// TaintsAnnotation is where nfd-master lists the taints it set; unlike
// the other tracking annotations it is never prefixed with the instance.
const TaintsAnnotation = api.AnnotationNs + "/" + api.NodeTaintsAnnotation

// patch applies the desired state to a node the way nfd-master patches it:
// labels and annotations it owned before (per the tracking annotations) and
// no longer wants are removed, new ones added, owned ones overwritten only
// when AllowOverwrite is set; extended resources and taints likewise.
func (r *Renderer) patch(old *NodeState, d desired, res *NodeResult) NodeState {
	o := &r.opts
	// 1. The extended-resource status patch.
	capacity, allocatable, err := o.patchResources(old, d.resources)
	if err == nil && o.ValidateNodes {
		err = checkResources(capacity, d.resources)
	}
	if err != nil {
		res.updateFailed("status.capacity", fmt.Sprintf("nfd-master's extended resource patch fails (%v), so it leaves the node as it was", err))
		return cloneState(old)
	}
	out := cloneState(old)
	out.Capacity, out.Allocatable = capacity, allocatable
	// 2. The labels and annotations patch.
	labels, annotations := o.patchMetadata(old, d)
	if o.ValidateNodes {
		if err := checkMetadata(labels, annotations); err != nil {
			res.updateFailed("metadata", fmt.Sprintf("the API server refuses nfd-master's labels and annotations patch (%v): the extended resources are updated, labels, annotations and taints stay as they were", err))
			return out
		}
	}
	out.Labels, out.Annotations = labels, annotations
	// 3. The taints patch and the taints annotation.
	taints := o.patchTaints(old, d.taints, &out, res)
	if o.ValidateNodes {
		if err := checkTaints(taints); err != nil {
			res.updateFailed("spec.taints", fmt.Sprintf("the API server refuses nfd-master's taints patch (%v): taints and their annotation stay as they were", err))
			restoreTaints(&out, old)
			return out
		}
	}
	out.Taints = taints
	return out
}

// patchMetadata is the labels and annotations patch: labels and
// annotations NFD owned (per the tracking annotations) and no longer wants
// are removed, new ones added, owned ones overwritten only when
// AllowOverwrite is set.
func (o *Options) patchMetadata(old *NodeState, d desired) (labels, annotations map[string]string) {
	ownedLabels := nsNames(old.Annotations[o.annotationName(api.FeatureLabelsAnnotation)], api.FeatureLabelNs)
	ownedAnnotations := nsNames(old.Annotations[o.annotationName(api.FeatureAnnotationsTrackingAnnotation)], api.FeatureAnnotationNs)
	ownedAnnotations = append(ownedAnnotations,
		o.annotationName(api.FeatureLabelsAnnotation),
		o.annotationName(api.ExtendedResourceAnnotation),
		o.annotationName(api.FeatureAnnotationsTrackingAnnotation),
		o.annotationName("master.version"),
		o.annotationName("worker.version"))
	return applyPatch(old.Labels, d.labels, ownedLabels, o.AllowOverwrite),
		applyPatch(old.Annotations, o.trackingAnnotations(d), ownedAnnotations, o.AllowOverwrite)
}

// updateFailed records that nfd-master's update of the node fails.
func (res *NodeResult) updateFailed(field, msg string) {
	res.Problems = append(res.Problems, diag.Diagnostic{Severity: diag.Error, Check: "node-update-failed",
		Object: diag.ObjectRef{Kind: "Node", Name: res.Name}, Field: field, Message: msg})
}

// restoreTaints puts back the taints and the taints annotation of old.
func restoreTaints(s, old *NodeState) {
	s.Taints = append([]api.Taint(nil), old.Taints...)
	ann := TaintsAnnotation
	if v, ok := old.Annotations[ann]; ok {
		s.Annotations[ann] = v
	} else {
		delete(s.Annotations, ann)
	}
}

// cloneState copies a node state, maps included.
func cloneState(s *NodeState) NodeState {
	return NodeState{Labels: maps.Clone(s.Labels), Annotations: maps.Clone(s.Annotations),
		Taints: append([]api.Taint(nil), s.Taints...), Capacity: maps.Clone(s.Capacity), Allocatable: maps.Clone(s.Allocatable)}
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
// status.capacity and status.allocatable. Like the JSON patch nfd-master
// sends, it fails when it would remove or replace an allocatable entry
// that is not there, or write a value that is not a quantity.
func (o *Options) patchResources(old *NodeState, want map[string]string) (capacity, allocatable map[string]string, err error) {
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
			if _, ok := old.Allocatable[name]; !ok {
				return nil, nil, fmt.Errorf("removing %s from status.allocatable, which does not have it", name)
			}
			delete(capacity, name)
			delete(allocatable, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		value := want[name]
		cur, ok := old.Capacity[name]
		if ok && sameQuantity(cur, value) {
			continue
		}
		if _, err := resource.ParseQuantity(value); err != nil {
			return nil, nil, fmt.Errorf("%s: %q is not a quantity", name, value)
		}
		if _, inAlloc := old.Allocatable[name]; ok && !inAlloc {
			return nil, nil, fmt.Errorf("replacing %s in status.allocatable, which does not have it", name)
		}
		capacity[name] = value
		allocatable[name] = value
	}
	return capacity, allocatable, nil
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
	annName := TaintsAnnotation
	taints := append([]api.Taint(nil), old.Taints...)
	var oldOwned []api.Taint
	var err error
	if v, ok := old.Annotations[annName]; ok {
		oldOwned, err = parseTaints(v)
	}
	if err != nil {
		res.Problems = append(res.Problems, diag.Diagnostic{Severity: diag.Error, Check: "taints-annotation",
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

// parseTaints reads the taints annotation the way nfd-master does (with
// Kubernetes' taint parser): comma-separated key[=value]:effect entries,
// each with a qualified key, a label-value value and a known effect, no two
// with the same key and effect. Entries ending in "-" are removals and
// are skipped. An annotation that is present but empty fails, as it does
// in nfd-master.
func parseTaints(s string) ([]api.Taint, error) {
	var out []api.Taint
	seen := map[[2]string]bool{}
	for _, spec := range strings.Split(s, ",") {
		if strings.HasSuffix(spec, "-") {
			if _, err := parseTaint(strings.TrimSuffix(spec, "-")); err != nil {
				return nil, err
			}
			continue
		}
		t, err := parseTaint(spec)
		if err != nil {
			return nil, err
		}
		if t.Effect == "" {
			return nil, fmt.Errorf("unknown taint spec %q: no effect", spec)
		}
		if seen[[2]string{t.Key, t.Effect}] {
			return nil, fmt.Errorf("duplicated taints with the same key and effect: %s", taintString(t))
		}
		seen[[2]string{t.Key, t.Effect}] = true
		out = append(out, t)
	}
	return out, nil
}

// parseTaint reads one key[=value][:effect] entry.
func parseTaint(spec string) (api.Taint, error) {
	var t api.Taint
	parts := strings.Split(spec, ":")
	switch len(parts) {
	case 1:
		t.Key = parts[0]
	case 2:
		t.Effect = parts[1]
		switch t.Effect {
		case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		default:
			return t, fmt.Errorf("invalid taint effect %q in %q", t.Effect, spec)
		}
		kv := strings.Split(parts[0], "=")
		if len(kv) > 2 {
			return t, fmt.Errorf("invalid taint spec %q", spec)
		}
		t.Key = kv[0]
		if len(kv) == 2 {
			t.Value = kv[1]
			if errs := k8svalidation.IsValidLabelValue(t.Value); len(errs) > 0 {
				return t, fmt.Errorf("invalid taint spec %q: %s", spec, strings.Join(errs, "; "))
			}
		}
	default:
		return t, fmt.Errorf("invalid taint spec %q", spec)
	}
	if errs := k8svalidation.IsQualifiedName(t.Key); len(errs) > 0 {
		return t, fmt.Errorf("invalid taint spec %q: %s", spec, strings.Join(errs, "; "))
	}
	return t, nil
}
