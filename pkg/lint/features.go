package lint

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/release"
	"github.com/nfd-fn/nfd-fn/pkg/suggest"
)

// ruleAt is a rule (or the matching part of a group rule) with where it is.
type ruleAt struct {
	doc   objects.Origin
	ref   diag.ObjectRef
	field string
	rule  *api.Rule
	// rejected marks rules of an object that takes no part in rendering
	// (the API server would refuse it, or a later object replaces it).
	rejected bool
}

// allRules lists NodeFeatureRule rules in nfd-master's order (objects by
// name, rules in order), then the NodeFeatureGroup rules.
func (c *checker) allRules() []ruleAt {
	objs := append([]objects.Object[*api.NodeFeatureRule](nil), c.set.Rules...)
	sort.SliceStable(objs, func(i, j int) bool { return objs[i].Obj.Metadata.Name < objs[j].Obj.Metadata.Name })
	var out []ruleAt
	for _, o := range objs {
		for i := range o.Obj.Spec.Rules {
			out = append(out, ruleAt{o.Origin, objects.RuleRef(o.Obj), fmt.Sprintf("spec.rules[%d]", i), &o.Obj.Spec.Rules[i], !o.Used()})
		}
	}
	for _, g := range c.set.Groups {
		for i, gr := range g.Obj.Spec.Rules {
			r := &api.Rule{Name: gr.Name, Vars: gr.Vars, VarsTemplate: gr.VarsTemplate, MatchFeatures: gr.MatchFeatures, MatchAny: gr.MatchAny}
			out = append(out, ruleAt{g.Origin, objects.GroupRef(g.Obj), fmt.Sprintf("spec.featureGroupRules[%d]", i), r, !g.Used()})
		}
	}
	return out
}

// termAt is a matcher term with its field path.
type termAt struct {
	field string
	term  *api.FeatureMatcherTerm
}

func (r ruleAt) terms() []termAt {
	var out []termAt
	add := func(m api.FeatureMatcher, field string) {
		for i := range m {
			out = append(out, termAt{fmt.Sprintf("%s[%d]", field, i), &m[i]})
		}
	}
	add(r.rule.MatchFeatures, r.field+".matchFeatures")
	for i := range r.rule.MatchAny {
		add(r.rule.MatchAny[i].MatchFeatures, fmt.Sprintf("%s.matchAny[%d].matchFeatures", r.field, i))
	}
	return out
}

// inputFeatures are the feature names the input's NodeFeatures carry, so
// that third-party features are not reported as unknown.
func (c *checker) inputFeatures() map[string]bool {
	if c.known != nil {
		return c.known
	}
	names := map[string]bool{}
	c.known = names
	for _, nf := range c.set.Features {
		f := &nf.Obj.Spec.Features
		for n := range f.Flags {
			names[strings.ToLower(n)] = true
		}
		for n := range f.Attributes {
			names[strings.ToLower(n)] = true
		}
		for n := range f.Instances {
			names[strings.ToLower(n)] = true
		}
	}
	for _, n := range c.set.RefusedFeatureNames() {
		names[strings.ToLower(n)] = true
	}
	return names
}

// catalogue checks feature and element names against what nfd-worker
// produces.
func (c *checker) catalogue() {
	known := c.inputFeatures()
	for _, r := range c.allRules() {
		for _, t := range r.terms() {
			name := strings.ToLower(t.term.Feature)
			if entry, ok := catalogue[name]; ok {
				c.elements(r, t, entry, diag.Warning)
				continue
			}
			entry, declared, declaredDomain := c.catalog.lookup(name)
			switch {
			case declared:
				c.elements(r, t, entry, diag.Error)
			case declaredDomain:
				best := suggest.Closest(name, c.catalog.names())
				msg := fmt.Sprintf("feature %q is not in the feature catalogue, which declares domain %q's features: %s", t.term.Feature, strings.Split(name, ".")[0], strings.Join(c.catalog.names(), ", "))
				if best != "" {
					msg = fmt.Sprintf("feature %q is not in the feature catalogue: did you mean %q?", t.term.Feature, best)
				}
				c.add(r.doc, r.ref, diag.Error, "unknown-feature", t.field+".feature", false, msg).Suggestion = best
			default:
				if msg := unknownFeature(t.term.Feature, known); msg != "" {
					f := c.add(r.doc, r.ref, diag.Warning, "unknown-feature", t.field+".feature", false, msg)
					f.Suggestion = suggest.Closest(name, catalogueNames())
				}
			}
		}
	}
}

// unknownFeature explains a feature name outside the catalogue, or returns
// "" when it may well be a third-party feature.
func unknownFeature(feature string, known map[string]bool) string {
	name := strings.ToLower(feature)
	if known[name] {
		return ""
	}
	if to, ok := renamedFeatures[name]; ok {
		return fmt.Sprintf("feature %q is not produced by nfd-worker %s: it is now %s", feature, release.LatestWorker, to)
	}
	domain, _, _ := strings.Cut(name, ".")
	best := suggest.Closest(name, catalogueNames())
	switch {
	case best != "":
		return fmt.Sprintf("nfd-worker never produces feature %q: did you mean %q?", feature, best)
	case builtinDomains[domain]:
		return fmt.Sprintf("nfd-worker never produces feature %q; its %s features are %s", feature, domain, strings.Join(domainFeatures(domain), ", "))
	}
	msg := fmt.Sprintf("no NFD source publishes features in domain %q (nfd-worker's domains are %s), so only a third-party NodeFeature could provide %q, and none in the input does", domain, strings.Join(slices.Sorted(maps.Keys(builtinDomains)), ", "), feature)
	if near := nearestByName(name); near != "" {
		msg += fmt.Sprintf("; the closest feature is %s", near)
	}
	return msg
}

// nearestByName is the catalogue feature whose own name (after the
// domain) is closest to feature's: kubernetes.label gives local.label.
func nearestByName(feature string) string {
	_, part, ok := strings.Cut(feature, ".")
	if !ok || part == "" {
		return ""
	}
	for _, n := range catalogueNames() {
		if _, p, _ := strings.Cut(n, "."); p == part {
			return n
		}
	}
	parts := map[string]string{}
	var names []string
	for _, n := range catalogueNames() {
		_, p, _ := strings.Cut(n, ".")
		if _, dup := parts[p]; !dup {
			parts[p] = n
			names = append(names, p)
		}
	}
	if best := suggest.Closest(part, names); best != "" {
		return parts[best]
	}
	return ""
}

func domainFeatures(domain string) []string {
	var out []string
	for _, n := range catalogueNames() {
		if strings.HasPrefix(n, domain+".") {
			out = append(out, n)
		}
	}
	return out
}

// elements checks matchExpressions keys of features with fixed elements,
// reporting an unknown one at sev (an error for a feature the catalogue
// declares: its producer's elements are known).
func (c *checker) elements(r ruleAt, t termAt, entry catalogueEntry, sev diag.Severity) {
	if entry.elements == nil || t.term.MatchExpressions == nil {
		return
	}
	names := make([]string, 0, len(*t.term.MatchExpressions))
	for n := range *t.term.MatchExpressions {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if entry.hasElement(n) {
			continue
		}
		msg := fmt.Sprintf("feature %s has no element %q: its elements are %s", t.term.Feature, n, strings.Join(entry.elements, ", "))
		best := suggest.Closest(n, entry.elements)
		if alias, ok := elementAliases[n]; ok && entry.hasElement(alias) {
			best = alias
		}
		if _, rest, ok := strings.Cut(n, "-"); ok && best == "" && entry.hasElement(rest) {
			best = rest // network-sriov_numvfs: a label's name, not the element's
		}
		if best != "" {
			msg = fmt.Sprintf("feature %s has no element %q: did you mean %q?", t.term.Feature, n, best)
		}
		c.add(r.doc, r.ref, sev, "unknown-element", t.field+".matchExpressions."+n, true, msg).Suggestion = best
	}
}
