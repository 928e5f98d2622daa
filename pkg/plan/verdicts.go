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
// only, a NodeFeatureGroup whose members differ. Before and After are the
// problems found on that side alone, in the words of its release ("the
// API server of NFD v0.17.1 refuses ..."), empty for none; for a group
// (Field status.nodes), its members on each side.
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
func verdicts(baseOnly, headOnly diag.List, baseGroups, headGroups []master.GroupResult) []RuleVerdict {
	byRule := map[string]*RuleVerdict{}
	for _, v := range groupVerdicts(baseGroups, headGroups) {
		byRule[v.String()] = &v
	}
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

// groupVerdicts are the NodeFeatureGroups whose members differ between
// the sides (a group rule that matches on one release only, say).
func groupVerdicts(base, head []master.GroupResult) []RuleVerdict {
	type members struct{ before, after *[]string }
	byGroup := map[diag.ObjectRef]*members{}
	at := func(g master.GroupResult) *members {
		k := diag.ObjectRef{Kind: "NodeFeatureGroup", Namespace: g.Group.Obj.Metadata.Namespace, Name: g.Group.Obj.Metadata.Name}
		if byGroup[k] == nil {
			byGroup[k] = &members{}
		}
		return byGroup[k]
	}
	for i := range base {
		at(base[i]).before = &base[i].Members
	}
	for i := range head {
		at(head[i]).after = &head[i].Members
	}
	var out []RuleVerdict
	for k, m := range byGroup {
		before, after := memberText(m.before), memberText(m.after)
		if before != after {
			out = append(out, RuleVerdict{Kind: k.Kind, Namespace: k.Namespace, Name: k.Name, Field: "status.nodes",
				Before: []string{before}, After: []string{after}})
		}
	}
	return out
}

// memberText is a group's members in words: "members: 2 nodes (a, b)".
func memberText(m *[]string) string {
	switch {
	case m == nil:
		return "not evaluated"
	case len(*m) == 0:
		return "no members"
	}
	names := make([]string, len(*m))
	for i, n := range *m {
		if names[i] = n; n == "" {
			names[i] = `""` // a node without system.name's nodename (NFD033)
		}
	}
	return "members: " + diag.DescribeNodes(names)
}
