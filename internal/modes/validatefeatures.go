package modes

import (
	"fmt"
	"slices"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// checkFeatureGone is the check of a rule or group reading a feature the
// worker configuration given no longer publishes.
const checkFeatureGone = "worker-feature-gone"

// withheldFeatures records, of one node's published features, those l no
// longer publishes (Labeler.Withholds), with the nodes that lose each.
func withheldFeatures(f *api.Features, l *discover.Labeler, node string, into map[string][]string) {
	add := func(name string) {
		if _, ok := l.Withholds(name); ok {
			into[name] = append(into[name], node)
		}
	}
	for k := range f.Flags {
		add(k)
	}
	for k := range f.Attributes {
		add(k)
	}
	for k := range f.Instances {
		add(k)
	}
}

// readingGone warns (NFD313) about each NodeFeatureRule and
// NodeFeatureGroup term that reads a feature in gone (the snapshot
// publishes it, the worker configuration config no longer would): the
// term then never matches on those nodes, as nfd-master matches rules on
// the NodeFeatures' features. It names the rule, the feature, why the
// configuration withholds it, and the nodes that lose it. Rules never
// read the worker's labels (nfd-master feeds rule.matched only the
// rules' own outputs), so a feature is all a worker configuration can
// take from a rule.
func readingGone(set *objects.Set, l *discover.Labeler, gone map[string][]string, config string) diag.List {
	if len(gone) == 0 {
		return nil
	}
	var out diag.List
	warn := func(ref diag.ObjectRef, origin objects.Origin, kind, rule, field string, terms api.FeatureMatcher) {
		for j, t := range terms {
			name := strings.ToLower(t.Feature)
			nodes, ok := gone[name]
			if !ok {
				continue
			}
			why, _ := l.Withholds(name)
			nodes = slices.Compact(slices.Sorted(slices.Values(nodes)))
			at := fmt.Sprintf("%s[%d].feature", field, j)
			out = append(out, diag.Diagnostic{Severity: diag.Warning, Check: checkFeatureGone, Object: ref, Field: at, Pos: origin.Position(at, false), Nodes: nodes,
				Message: fmt.Sprintf("%s %q reads feature %s, which nfd-worker no longer publishes with the worker configuration %s (%s; gone from %s): the term no longer matches there",
					kind, rule, t.Feature, config, why, diag.DescribeNodes(nodes))})
		}
	}
	for _, o := range termsOfRules(set) {
		for r, rule := range o.rules {
			base := fmt.Sprintf("%s[%d]", o.field, r)
			warn(o.ref, o.origin, o.kind, rule.name, base+".matchFeatures", rule.match)
			for a, any := range rule.any {
				warn(o.ref, o.origin, o.kind, rule.name, fmt.Sprintf("%s.matchAny[%d].matchFeatures", base, a), any.MatchFeatures)
			}
		}
	}
	return out
}

// termsObject is a NodeFeatureRule or NodeFeatureGroup as readingGone
// walks it: where its rules are (field), and each rule's terms.
type termsObject struct {
	ref    diag.ObjectRef
	origin objects.Origin
	kind   string
	field  string
	rules  []ruleTerms
}

// ruleTerms are one rule's name and matchFeatures and matchAny terms.
type ruleTerms struct {
	name  string
	match api.FeatureMatcher
	any   []api.MatchAnyElem
}

// termsOfRules are the set's NodeFeatureRules and NodeFeatureGroups in
// use, in input order.
func termsOfRules(set *objects.Set) []termsObject {
	out := termsOf(set.Rules, func(o *api.NodeFeatureRule) termsObject {
		t := termsObject{ref: objects.RuleRef(o), kind: "rule", field: "spec.rules"}
		for _, r := range o.Spec.Rules {
			t.rules = append(t.rules, ruleTerms{r.Name, r.MatchFeatures, r.MatchAny})
		}
		return t
	})
	return append(out, termsOf(set.Groups, func(o *api.NodeFeatureGroup) termsObject {
		t := termsObject{ref: objects.GroupRef(o), kind: "group rule", field: "spec.featureGroupRules"}
		for _, r := range o.Spec.Rules {
			t.rules = append(t.rules, ruleTerms{r.Name, r.MatchFeatures, r.MatchAny})
		}
		return t
	})...)
}

// termsOf describes the objects in use with describe.
func termsOf[T any](objs []objects.Object[T], describe func(T) termsObject) []termsObject {
	var out []termsObject
	for i := range objs {
		if o := &objs[i]; o.Used() {
			t := describe(o.Obj)
			t.origin = o.Origin
			out = append(out, t)
		}
	}
	return out
}
