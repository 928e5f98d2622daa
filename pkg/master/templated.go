package master

import (
	"fmt"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// templated maps each rule with a labelsTemplate (its object and the
// field of its labels, as collect names them) to its literal labels'
// keys, prefixed as nfd-master prefixes them: a label the rule writes that
// is not among them came from its template. Problems with such labels are
// reported at the template (templateOrigin), one site per rule whatever
// keys the nodes' features make.
type templated map[origin]map[string]bool

// templatedRules indexes the rules with a labelsTemplate.
func templatedRules(rules []*api.NodeFeatureRule, o *Options) templated {
	t := templated{}
	for _, obj := range rules {
		ref := objects.RuleRef(obj)
		for i := range obj.Spec.Rules {
			r := &obj.Spec.Rules[i]
			if r.LabelsTemplate == "" {
				continue
			}
			lits := map[string]bool{}
			for k := range o.prefixLabels(r.Labels) {
				lits[k] = true
			}
			t[origin{ref, ruleField(i) + ".labels"}] = lits
		}
	}
	return t
}

// templateOrigin is where a problem with a label the rule at from writes
// is reported: its labelsTemplate when the template wrote it, else from
// itself (explain still names the rule's labels as the origin).
func (t templated) templateOrigin(from origin, key string) origin {
	lits, ok := t[from]
	if !ok || lits[key] {
		return from
	}
	return origin{from.object, from.field[:len(from.field)-len(".labels")] + ".labelsTemplate"}
}

// ruleField is the path of the i-th rule of a NodeFeatureRule.
func ruleField(i int) string { return fmt.Sprintf("spec.rules[%d]", i) }
