package lint

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// templateLabels runs each labelsTemplate on features made from its own
// matcher (each matchAny element alone, then matchFeatures): the elements
// the expressions name, with values that satisfy them, and the other
// elements of fixed features with sample values. What the template writes
// there must be labels nfd-master keeps; a line that is not key=value or
// a label nfd-master refuses is a warning (the sample may differ from a
// node's values; with a fleet, render reports each node). The templates
// in failed (reads that fail on every node: templateShapes) are not run.
func (c *checker) templateLabels(failed map[templateAt]bool) {
	for _, r := range c.allRules() {
		if r.ref.Kind != api.KindNodeFeatureRule || r.rule.LabelsTemplate == "" || failed[templateAt{r.ref.Key(), r.field + ".labelsTemplate"}] {
			continue
		}
		for _, m := range matcherVariants(r.rule) {
			f, ok := synthesize(m)
			if !ok {
				continue
			}
			rule := &api.Rule{Name: r.rule.Name, LabelsTemplate: r.rule.LabelsTemplate, MatchFeatures: m}
			out, matched, err := engine.EvaluateRule(rule, f)
			field := r.field + ".labelsTemplate"
			if err != nil {
				msg := err.Error()
				switch {
				case strings.Contains(msg, "key=value"):
					c.add(r.doc, r.ref, diag.Warning, "template-labels", field, false,
						fmt.Sprintf(sampled+" (%s), %v: nfd-master fails the rule where it matches such a node", describeFeatures(f), err))
				case runtimeFailure(msg) && len(dottedIndexKeys(r.rule.LabelsTemplate)) == 0:
					c.add(r.doc, r.ref, diag.Warning, "template", field, false,
						fmt.Sprintf(sampled+" (%s), %v: nfd-master fails the rule where it matches such a node", describeFeatures(f), err))
				}
				break
			}
			if !matched {
				continue
			}
			if c.badTemplateLabel(r, field, f, out.Labels) {
				break
			}
		}
	}
}

// sampled opens the findings of a template run on features made from
// its matcher (OnTheFleet drops them where the fleet has the answer).
const sampled = "on features made from its matcher"

// runtimeFailure reports a template that failed while running, for a
// reason other than an element the made-up features lack (a real node
// may have it): a field of the wrong type, a function's error.
func runtimeFailure(msg string) bool {
	return strings.Contains(msg, "executing") && !strings.Contains(msg, "has no entry for key") && !strings.Contains(msg, "<no value>")
}

// badTemplateLabel reports the first label of out nfd-master refuses.
func (c *checker) badTemplateLabel(r ruleAt, field string, f *api.Features, labels map[string]string) bool {
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		v := labels[k]
		if strings.Contains(k+v, "<no value>") {
			continue // an element the sample does not have
		}
		if verdict := c.opts.CheckLabel(k, v); verdict != nil && verdict.Severity == diag.Error {
			c.add(r.doc, r.ref, diag.Warning, "template-labels", field, false,
				fmt.Sprintf(sampled+" (%s), the template writes label %q=%q: %v; nfd-master drops it", describeFeatures(f), k, v, verdict.Err))
			return true
		}
	}
	return false
}

// matcherVariants are the matchers a template can run under: each
// matchAny element with matchFeatures, or matchFeatures alone.
func matcherVariants(r *api.Rule) []api.FeatureMatcher {
	if len(r.MatchAny) == 0 {
		if len(r.MatchFeatures) == 0 {
			return nil
		}
		return []api.FeatureMatcher{r.MatchFeatures}
	}
	var out []api.FeatureMatcher
	for _, a := range r.MatchAny {
		out = append(out, append(append(api.FeatureMatcher(nil), a.MatchFeatures...), r.MatchFeatures...))
	}
	return out
}

// synthesize makes features on which every term of m matches, or false
// when an expression has no value to make (a regexp, a version range).
func synthesize(m api.FeatureMatcher) (*api.Features, bool) {
	f := &api.Features{Flags: map[string]api.FlagFeatureSet{}, Attributes: map[string]api.AttributeFeatureSet{}, Instances: map[string]api.InstanceFeatureSet{}}
	for _, t := range m {
		elems := map[string]string{}
		name := strings.ToLower(t.Feature)
		entry, known := catalogue[name]
		for _, e := range entry.elements {
			elems[e] = "1"
		}
		if t.MatchExpressions != nil {
			for n, e := range *t.MatchExpressions {
				v, present, ok := sampleValue(e)
				if !ok {
					return nil, false
				}
				if present {
					elems[n] = v
				} else {
					delete(elems, n)
				}
			}
		}
		if t.MatchName != nil {
			if t.MatchName.Op != api.MatchIn || len(t.MatchName.Value) == 0 {
				return nil, false
			}
			elems[t.MatchName.Value[0]] = "true"
		}
		switch {
		case known && entry.has(instanceFeature):
			f.Instances[name] = api.InstanceFeatureSet{Elements: []api.InstanceFeature{{Attributes: elems}}}
		case known && entry.has(flagFeature) && !entry.has(attributeFeature):
			flags := map[string]api.Nil{}
			for k := range elems {
				flags[k] = api.Nil{}
			}
			f.Flags[name] = api.FlagFeatureSet{Elements: flags}
		default:
			f.Attributes[name] = api.AttributeFeatureSet{Elements: elems}
		}
	}
	return f, true
}

// sampleValue is a value on which e matches: present says whether the
// element exists at all; ok is false when no value is made.
func sampleValue(e *api.MatchExpression) (v string, present, ok bool) {
	if e == nil {
		return "true", true, true
	}
	n := func(i int) (int, bool) {
		if i >= len(e.Value) || e.Type != "" {
			return 0, false
		}
		x, err := strconv.Atoi(e.Value[i])
		return x, err == nil
	}
	switch e.Op {
	case api.MatchIn:
		if len(e.Value) > 0 {
			return e.Value[0], true, true
		}
	case api.MatchNotIn:
		return "sample", true, true
	case api.MatchExists, api.MatchIsTrue:
		return "true", true, true
	case api.MatchIsFalse:
		return "false", true, true
	case api.MatchDoesNotExist:
		return "", false, true
	case api.MatchGt, api.MatchGe, api.MatchLt, api.MatchLe:
		if x, good := n(0); good {
			delta := map[api.MatchOp]int{api.MatchGt: 1, api.MatchLt: -1}[e.Op]
			return strconv.Itoa(x + delta), true, true
		}
	case api.MatchGtLt, api.MatchGeLe:
		if lo, good := n(0); good {
			if hi, good := n(1); good && lo+1 < hi {
				return strconv.Itoa(lo + 1), true, true
			}
		}
	}
	return "", false, false
}

// describeFeatures names the synthesised features briefly.
func describeFeatures(f *api.Features) string {
	var names []string
	for n := range f.Attributes {
		names = append(names, n)
	}
	for n := range f.Flags {
		names = append(names, n)
	}
	for n := range f.Instances {
		names = append(names, n)
	}
	return strings.Join(slices.Compact(slices.Sorted(slices.Values(names))), ", ")
}
