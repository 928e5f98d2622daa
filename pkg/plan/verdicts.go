package plan

import (
	"sort"
	"strings"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// RuleVerdict is a rule (or group rule) whose verdict differs between the
// sides: admitted on one and refused or pruned on the other, a template
// that fails on one side only, a rule failing on some nodes on one side
// only. Before and After are the problems found on that side alone, in
// the words of its release ("the API server of NFD v0.17.1 refuses ...");
// empty: none on that side.
type RuleVerdict struct {
	Kind      string   `json:"kind"`
	Namespace string   `json:"namespace,omitempty"`
	Name      string   `json:"name"`
	Field     string   `json:"field,omitempty"`
	Before    []string `json:"before,omitempty"`
	After     []string `json:"after,omitempty"`
}

// String names the rule: "NodeFeatureRule gpu spec.rules[0]".
func (v *RuleVerdict) String() string {
	return strings.TrimSuffix(objectName(v.Kind, v.Namespace, v.Name)+" "+v.Field, " ")
}

// verdicts pairs the problems of rules and groups found on one side only
// (baseOnly, headOnly) by rule (master.RulePath: spec.rules[i], a
// group's spec.featureGroupRules[i], or the field of a problem about the
// object whole).
func verdicts(baseOnly, headOnly diag.List) []RuleVerdict {
	byRule := map[string]*RuleVerdict{}
	add := func(d *diag.Diagnostic, before bool) {
		if d.Severity == diag.Info || (d.Object.Kind != "NodeFeatureRule" && d.Object.Kind != "NodeFeatureGroup") {
			return
		}
		field := master.RulePath(d.Field)
		key := d.Object.Key().String() + "\x00" + field
		v := byRule[key]
		if v == nil {
			v = &RuleVerdict{Kind: d.Object.Kind, Namespace: d.Object.Namespace, Name: d.Object.Name, Field: field}
			byRule[key] = v
		}
		if before {
			v.Before = append(v.Before, d.Message)
		} else {
			v.After = append(v.After, d.Message)
		}
	}
	for i := range baseOnly {
		add(&baseOnly[i], true)
	}
	for i := range headOnly {
		add(&headOnly[i], false)
	}
	out := make([]RuleVerdict, 0, len(byRule))
	for _, v := range byRule {
		out = append(out, *v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
