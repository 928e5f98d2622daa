package master

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// NodeState is the part of a Node object that nfd-master manages.
type NodeState = objects.NodeState

// NodeResult is the rendered state of one node.
type NodeResult struct {
	Name string
	// State is the node's managed state after nfd-master's patches.
	State NodeState
	// Problems are what nfd-master drops on this node (labels, taints,
	// annotations and extended resources it refuses).
	Problems diag.List
	// RuleErrors are the rules that failed on this node; GroupErrors the
	// NodeFeatureGroup rules.
	RuleErrors, GroupErrors []*engine.EvalError
	// Features are the node's merged NodeFeatures as nfd-master merges
	// them, without the rules' rule.matched back-references: what
	// NodeFeatureGroup rules see.
	Features *api.Features
	// Rules are the outputs of the rules that matched, in nfd-master's
	// order, before filtering and prefixing.
	Rules []engine.RuleResult
	// GroupRules are the NodeFeatureGroup rules that matched the node
	// (recorded the first time the node is rendered, with its group
	// memberships).
	GroupRules []engine.Source
	// LabelOrigins maps each label nfd-master wants on the node to where it
	// came from; only filled by ExplainNode.
	LabelOrigins map[string]Origin
}

// Origin is the object and field an output came from.
type Origin struct {
	Object engine.ObjectRef
	Field  string
}

// Renderer renders nodes with one configuration and one compiled rule set.
type Renderer struct {
	opts  Options
	rules *engine.RuleSet
	// templated knows which labels the rules' templates write.
	templated templated
}

// NewRenderer returns a Renderer.
func NewRenderer(opts Options, rules *engine.RuleSet) *Renderer {
	return &Renderer{opts: opts, rules: rules}
}

// desired is what nfd-master wants on the node before patching.
type desired struct {
	labels      map[string]string
	annotations map[string]string
	resources   map[string]string
	taints      []api.Taint
}

// RenderNodeReading runs the rules for one node and patches existing (nil
// for a node that is not in the input) the way nfd-master would. With
// only (nil: every feature), it decodes only the features only names
// (FeatureNames: those the rules and groups match on) of NodeFeatures read
// lean; NodeResult.Features then holds only those. A label or extended
// resource whose value names another feature ("@domain.feature.element")
// makes it render the node again with every feature, so the result is
// the same either way.
func (r *Renderer) RenderNodeReading(only map[string]bool, name string, objs []NodeFeatureObject, existing *NodeState) NodeResult {
	return r.renderNode(NodeResult{Name: name}, objs, existing, only)
}

// ExplainNode renders one node like RenderNodeReading with every feature, recording where each label
// came from, and traces every rule on the node's features.
func (r *Renderer) ExplainNode(name string, objs []NodeFeatureObject, existing *NodeState) (NodeResult, []engine.RuleTrace) {
	traces := r.rules.Explain(withOwnBackrefs(mergeNodeFeatures(&r.opts, name, objs, nil).features))
	res := r.renderNode(NodeResult{Name: name, LabelOrigins: map[string]Origin{}}, objs, existing, nil)
	return res, traces
}

func (r *Renderer) renderNode(res NodeResult, objs []NodeFeatureObject, existing *NodeState, only map[string]bool) NodeResult {
	out, unread := r.renderShared(res, objs, existing, only, nil)
	if unread {
		out, _ = r.renderShared(res, objs, existing, nil, nil)
	}
	return out
}

// renderShared renders the node once with the features only names;
// unread reports a label or extended resource naming a feature left
// undecoded (the node must then be rendered with every feature). sh, when
// not nil, is what a paired render shares between its two sides
// (pair.go).
func (r *Renderer) renderShared(res NodeResult, objs []NodeFeatureObject, existing *NodeState, only map[string]bool, sh *sharing) (NodeResult, bool) {
	opts := &r.opts
	if sh != nil && sh.published {
		o := r.opts
		o.WorkerLabels = nil
		opts = &o
	}
	merged := mergeNodeFeatures(opts, res.Name, objs, only)
	res.Problems = append(res.Problems, merged.unread...)
	res.Features = merged.features
	if sh.second() {
		merged.features = sh.features
		res.Rules, res.RuleErrors = sh.rules, sh.ruleErrors
	} else {
		merged.features = withOwnBackrefs(merged.features)
		res.Rules, res.RuleErrors = r.rules.Execute(merged.features)
		sh.keepRules(merged.features, res.Rules, res.RuleErrors)
	}
	d, unread := r.collect(merged, res.Rules, &res, only, sh)
	if unread {
		return res, true
	}
	if existing == nil {
		existing = &NodeState{}
	}
	res.State = r.patch(existing, d, &res)
	return res, false
}

// RuleFailure is the diagnostic for a rule that failed on a node. A
// template runs only once its rule has matched, so a template's failure
// says so: the rule matched the node, then failed there.
func RuleFailure(e *engine.EvalError) diag.Diagnostic {
	msg := fmt.Sprintf("rule %q failed: %v; nfd-master skips the rule on this node", e.RuleName, e.Err)
	if tmpl := e.Field[strings.LastIndex(e.Field, ".")+1:]; strings.HasSuffix(tmpl, "Template") {
		why := strings.TrimPrefix(e.Err.Error(), "the template fails: ")
		msg = fmt.Sprintf("rule %q matched, then its %s failed: %s; nfd-master skips the rule on this node", e.RuleName, tmpl, why)
	}
	return diag.Diagnostic{Severity: diag.Error, Check: "rule-failed", Object: e.Object, Field: e.Field, Message: msg}
}

// GroupFailure is the diagnostic for a group rule that failed on a node.
func GroupFailure(e *engine.EvalError) diag.Diagnostic {
	d := RuleFailure(e)
	d.Check = "group-rule-failed"
	d.Message = fmt.Sprintf("group rule %q failed: %v; the node is not added by this rule", e.RuleName, e.Err)
	return d
}

// withOwnBackrefs returns a shallow copy of f whose rule.matched feature
// the rules can extend without touching f (nor the NodeFeature object f
// may be).
func withOwnBackrefs(f *api.Features) *api.Features {
	attrs := make(map[string]api.AttributeFeatureSet, len(f.Attributes)+1)
	for k, v := range f.Attributes {
		attrs[k] = v
	}
	const backrefs = api.RuleBackrefDomain + "." + api.RuleBackrefFeature
	if br, ok := attrs[backrefs]; ok {
		attrs[backrefs] = api.AttributeFeatureSet{Elements: maps.Clone(br.Elements)}
	}
	return &api.Features{Flags: f.Flags, Attributes: attrs, Instances: f.Instances}
}

// origin records where an output key came from, for problem reports.
type origin struct {
	object engine.ObjectRef
	field  string
}

// collect gathers what the node's objects and rules ask for and filters
// it as nfd-master does. unread reports a label or extended resource whose
// value names a feature only (when not nil) left undecoded: the caller
// then renders the node again with every feature.
func (r *Renderer) collect(merged mergedFeatures, results []engine.RuleResult, res *NodeResult, only map[string]bool, sh *sharing) (d desired, unread bool) {
	o := &r.opts
	labels := make(map[string]string, len(merged.labels))
	labelOrigin := make(map[string]origin, len(merged.labels))
	for k, v := range merged.labels {
		labels[k] = v
		labelOrigin[k] = origin{merged.labelSource[k], "spec.labels"}
	}
	resources, annotations := map[string]string{}, map[string]string{}
	resOrigin, annOrigin := map[string]origin{}, map[string]origin{}
	var taints []api.Taint
	var taintOrigin []origin
	for _, rr := range results {
		src := origin{rr.Source.Object, rr.Source.Field}
		copyWithOrigin(labels, labelOrigin, o.prefix(rr.Labels, api.FeatureLabelNs), src, "labels")
		copyWithOrigin(resources, resOrigin, o.prefix(rr.ExtendedResources, api.FeatureLabelNs), src, "extendedResources")
		copyWithOrigin(annotations, annOrigin, o.prefix(rr.Annotations, api.FeatureAnnotationNs), src, "annotations")
		for i, t := range rr.Taints {
			taints = append(taints, t)
			taintOrigin = append(taintOrigin, origin{src.object, fmt.Sprintf("%s.taints[%d]", src.field, i)})
		}
	}
	if only != nil && (namesUnread(labels, only) || namesUnread(resources, only)) {
		return desired{}, true
	}
	if res.LabelOrigins != nil {
		for k, o := range labelOrigin {
			res.LabelOrigins[k] = Origin{o.object, o.field}
		}
	}
	return desired{
		labels:      r.filterLabels(labels, labelOrigin, merged.features, res, sh),
		resources:   r.filterResources(resources, resOrigin, merged.features, res),
		annotations: r.filterAnnotations(annotations, annOrigin, res),
		taints:      r.filterTaints(taints, taintOrigin, res),
	}, false
}

func copyWithOrigin(dst map[string]string, orig map[string]origin, src map[string]string, from origin, field string) {
	for k, v := range src {
		dst[k] = v
		orig[k] = origin{from.object, from.field + "." + field}
	}
}

func (res *NodeResult) drop(sev diag.Severity, o origin, key, what string, err error) {
	field := o.field
	if !strings.HasSuffix(field, "]") && !strings.HasSuffix(field, "Template") {
		field += "[" + quoteKey(unprefixed(key)) + "]"
	}
	res.Problems = append(res.Problems, diag.Diagnostic{Severity: sev, Check: "output-dropped", Object: o.object, Field: field,
		Message: fmt.Sprintf("%s %q dropped: %v", what, key, err)})
}

func quoteKey(k string) string { return fmt.Sprintf("%q", k) }

func unprefixed(key string) string {
	return strings.TrimPrefix(key, api.FeatureLabelNs+"/")
}

func (r *Renderer) filterLabels(labels map[string]string, orig map[string]origin, f *api.Features, res *NodeResult, sh *sharing) map[string]string {
	o := &r.opts
	out := make(map[string]string, len(labels))
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if sh.reuseLabel(k, labels[k], orig[k], out, res) {
			continue
		}
		v, err := dynamicValue(labels[k], f)
		sev := diag.Error
		if err == nil {
			sev, err = o.labelPolicy(k, v)
		}
		if err != nil {
			res.drop(sev, r.templated.templateOrigin(orig[k], k), k, "label", err)
			sh.keepLabel(k, labels[k], orig[k], "", &res.Problems[len(res.Problems)-1])
			continue
		}
		out[k] = v
		sh.keepLabel(k, labels[k], orig[k], v, nil)
	}
	if o.DisableLabels {
		return map[string]string{}
	}
	return out
}

// labelPolicy applies validation, denyLabelNs/extraLabelNs and the label
// whitelist, in nfd-master's order. Policy drops are warnings (errors
// when the settings were given: PolicySeverity).
func (o *Options) labelPolicy(key, value string) (diag.Severity, error) {
	ns, base := splitNs(key)
	err := o.validateLabel(key, value)
	if errors.Is(err, errNSNotAllowed) || o.isDeniedNs(ns) {
		if !o.isExtraNs(ns) {
			return o.PolicySeverity(), fmt.Errorf("namespace %q is not allowed (see denyLabelNs and extraLabelNs)", ns)
		}
	} else if err != nil {
		return dropSeverity(err), err
	}
	if o.LabelWhiteList != nil && !o.LabelWhiteList.MatchString(base) {
		return o.PolicySeverity(), fmt.Errorf("%s (%s) is not in whitelist: it does not match labelWhiteList %q", base, key, o.LabelWhiteList.String())
	}
	return "", nil
}

// dropSeverity grades an annotation, extended resource or taint nfd-master
// refuses: always an error, since no setting lets a kubernetes.io
// namespace, an unprefixed taint key, or an invalid name or value
// through (labels, whose namespaces extraLabelNs can allow, are graded by
// labelPolicy).
func dropSeverity(error) diag.Severity {
	return diag.Error
}

func (r *Renderer) filterResources(resources map[string]string, orig map[string]origin, f *api.Features, res *NodeResult) map[string]string {
	out := make(map[string]string, len(resources))
	for _, k := range slices.Sorted(maps.Keys(resources)) {
		v, err := dynamicValue(resources[k], f)
		if err == nil {
			err = r.opts.validateExtendedResource(k, v)
		}
		if err != nil {
			res.drop(dropSeverity(err), orig[k], k, "extended resource", err)
			continue
		}
		out[k] = v
	}
	if r.opts.DisableExtendedResources {
		return map[string]string{}
	}
	return out
}

func (r *Renderer) filterAnnotations(annotations map[string]string, orig map[string]origin, res *NodeResult) map[string]string {
	out := make(map[string]string, len(annotations))
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		if err := r.opts.validateAnnotation(k, annotations[k]); err != nil {
			res.drop(dropSeverity(err), orig[k], k, "annotation", err)
			continue
		}
		out[k] = annotations[k]
	}
	if r.opts.DisableAnnotations {
		return map[string]string{}
	}
	return out
}

func (r *Renderer) filterTaints(taints []api.Taint, orig []origin, res *NodeResult) []api.Taint {
	if !r.opts.EnableTaints {
		for i := range taints {
			res.Problems = append(res.Problems, diag.Diagnostic{Severity: r.opts.PolicySeverity(), Check: "taint-disabled", Object: orig[i].object, Field: orig[i].field,
				Message: fmt.Sprintf("taint %s ignored: enableTaints is false", taintString(taints[i]))})
		}
		return nil
	}
	var out []api.Taint
	for i := range taints {
		if err := r.opts.validateTaint(&taints[i]); err != nil {
			res.drop(dropSeverity(err), orig[i], taints[i].Key, "taint", err)
			continue
		}
		out = append(out, taints[i])
	}
	return out
}

// namesUnread reports a value that names a feature ("@domain.feature...")
// only does not hold: the features read do not include it.
func namesUnread(values map[string]string, only map[string]bool) bool {
	for _, v := range values {
		if !strings.HasPrefix(v, "@") {
			continue
		}
		parts := strings.SplitN(v[1:], ".", 3)
		if len(parts) < 2 {
			continue // not a feature reference: dynamicValue reports it
		}
		f := parts[0] + "." + parts[1]
		if !only[f] && !only[strings.ToLower(f)] {
			return true
		}
	}
	return false
}

// dynamicValue resolves "@domain.feature.element" from attribute features.
func dynamicValue(value string, f *api.Features) (string, error) {
	if !strings.HasPrefix(value, "@") {
		return value, nil
	}
	parts := strings.SplitN(value[1:], ".", 3)
	if len(parts) != 3 {
		return "", fmt.Errorf("value %s is not in the form of '@domain.feature.element'", value)
	}
	feature := parts[0] + "." + parts[1]
	fs, ok := f.Attributes[feature]
	if !ok {
		return "", fmt.Errorf("feature %s not found", feature)
	}
	v, ok := fs.Elements[parts[2]]
	if !ok {
		return "", fmt.Errorf("element %s not found on feature %s", parts[2], feature)
	}
	return v, nil
}
