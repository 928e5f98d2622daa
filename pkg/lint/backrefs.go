package lint

import (
	"fmt"
	"sort"
	"strings"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

const backrefFeature = api.RuleBackrefDomain + "." + api.RuleBackrefFeature

// producer is the first rule that writes a label or var name.
type producer struct {
	pos  int
	rule ruleAt
}

// backrefs checks that every rule.matched element a rule matches on can be
// produced by a rule nfd-master runs before it. Produced only by a rule it
// runs later is certain never to match (an error); produced by no rule in
// the files may be another object's doing (a warning). NodeFeatureRule outputs
// accumulate over all objects in name order; a group sees all of them plus
// the vars of its own earlier rules. A template can produce any name, so
// names after a rule with a template are not judged.
func (c *checker) backrefs() {
	rules := c.allRules()
	produced := map[string]producer{}
	firstTemplate := -1
	for i, r := range rules {
		if r.ref.Kind != api.KindNodeFeatureRule || r.rejected {
			continue
		}
		if firstTemplate < 0 && (r.rule.LabelsTemplate != "" || r.rule.VarsTemplate != "") {
			firstTemplate = i
		}
		for _, m := range []map[string]string{r.rule.Labels, r.rule.Vars} {
			for k := range m {
				if _, ok := produced[k]; !ok {
					produced[k] = producer{i, r}
				}
			}
		}
	}
	groupVars := map[diag.ObjectRef]map[string]int{}
	for i, r := range rules {
		if r.ref.Kind == api.KindNodeFeatureGroup {
			c.groupBackrefs(r, i, produced, groupVars, firstTemplate)
			continue
		}
		for _, t := range r.terms() {
			for _, name := range backrefNames(t) {
				p, ok := produced[name]
				switch {
				case ok && p.pos < i:
				case firstTemplate >= 0 && firstTemplate < i:
				case ok:
					c.add(r.doc, r.ref, diag.Error, "backref", t.field+".matchExpressions."+name, true,
						fmt.Sprintf("rule.matched %q is produced only by rule %q of %s, which nfd-master runs after this rule (rules run in order, objects in name order): this expression never sees it", name, p.rule.rule.Name, p.rule.ref))
				default:
					c.add(r.doc, r.ref, diag.Warning, "backref", t.field+".matchExpressions."+name, true,
						fmt.Sprintf("no rule produces a label or var %q for rule.matched to match", name))
				}
			}
		}
	}
}

// groupBackrefs checks a NodeFeatureGroup rule's rule.matched terms.
// nfd-master evaluates a group on each node's merged NodeFeatures, where
// rule.matched holds only the vars of the group's own earlier rules:
// NodeFeatureRule outputs are never there, so a name only they produce,
// or nobody does, never matches (an error), unless an earlier group rule
// has a varsTemplate (it may produce any name) or an input NodeFeature
// publishes rule.matched itself.
func (c *checker) groupBackrefs(r ruleAt, i int, produced map[string]producer, groupVars map[diag.ObjectRef]map[string]int, _ int) {
	own := groupVars[r.ref]
	if own == nil {
		own = map[string]int{}
		groupVars[r.ref] = own
	}
	for _, t := range r.terms() {
		for _, name := range backrefNames(t) {
			if _, ok := own[name]; ok || c.inputFeatures()[backrefFeature] {
				continue
			}
			if _, ok := own[templateMark]; ok {
				continue
			}
			msg := fmt.Sprintf("no earlier rule of this group sets a var %q: nfd-master evaluates groups on the nodes' NodeFeatures, where rule.matched holds only the group's own earlier vars, so this expression never matches", name)
			if p, ok := produced[name]; ok {
				msg = fmt.Sprintf("%q is produced by rule %q of %s, but nfd-master evaluates groups on the nodes' NodeFeatures, where rule.matched holds only this group's own earlier vars, never NodeFeatureRule outputs: this expression never matches", name, p.rule.rule.Name, p.rule.ref)
			}
			c.add(r.doc, r.ref, diag.Error, "backref", t.field+".matchExpressions."+name, true, msg)
		}
	}
	for k := range r.rule.Vars {
		own[k] = i
	}
	if r.rule.VarsTemplate != "" {
		own[templateMark] = i
	}
}

// templateMark records, among a group's produced vars, that an earlier
// group rule has a template and may produce any name.
const templateMark = "\x00template"

// backrefNames are the element names a rule.matched term tests for
// presence or value; DoesNotExist tests for absence and is skipped.
func backrefNames(t termAt) []string {
	if strings.ToLower(t.term.Feature) != backrefFeature || t.term.MatchExpressions == nil {
		return nil
	}
	var names []string
	for n, e := range *t.term.MatchExpressions {
		if e != nil && e.Op == api.MatchDoesNotExist {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
