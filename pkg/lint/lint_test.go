package lint

import (
	"strings"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

func rule(name string, labels map[string]string, backref string) api.Rule {
	r := api.Rule{Name: name, Labels: labels}
	if backref != "" {
		set := api.MatchExpressionSet{backref: &api.MatchExpression{Op: api.MatchExists}}
		r.MatchFeatures = api.FeatureMatcher{{Feature: "rule.matched", MatchExpressions: &set}}
	}
	return r
}

func nfr(name string, rules ...api.Rule) objects.Object[*api.NodeFeatureRule] {
	o := &api.NodeFeatureRule{Metadata: api.ObjectMeta{Name: name}, Spec: api.NodeFeatureRuleSpec{Rules: rules}}
	return objects.Object[*api.NodeFeatureRule]{Origin: objects.Origin{File: name + ".yaml"}, Obj: o}
}

func messages(fs diag.List, check string) []string {
	var out []string
	for _, f := range fs {
		if f.Check == check {
			out = append(out, f.Object.Name+" "+f.Field+": "+f.Message)
		}
	}
	return out
}

// TestBackrefsFollowNfdMasterObjectOrder checks that objects run in name
// order, not input order, when judging rule.matched references.
func TestBackrefsFollowNfdMasterObjectOrder(t *testing.T) {
	tests := []struct {
		name  string
		rules []objects.Object[*api.NodeFeatureRule]
		want  string
	}{
		{"earlier-object-by-name-is-fine", []objects.Object[*api.NodeFeatureRule]{
			nfr("b", rule("uses", map[string]string{"y": "1"}, "x")),
			nfr("a", rule("makes", map[string]string{"x": "1"}, "")),
		}, ""},
		{"later-object-by-name-is-reported", []objects.Object[*api.NodeFeatureRule]{
			nfr("a", rule("uses", map[string]string{"y": "1"}, "x")),
			nfr("b", rule("makes", map[string]string{"x": "1"}, "")),
		}, `produced only by rule "makes" of NodeFeatureRule b`},
		{"nobody-produces-it", []objects.Object[*api.NodeFeatureRule]{
			nfr("a", rule("uses", map[string]string{"y": "1"}, "ghost")),
		}, `no rule produces a label or var "ghost"`},
		{"a-template-earlier-may-produce-anything", []objects.Object[*api.NodeFeatureRule]{
			nfr("a", api.Rule{Name: "tmpl", LabelsTemplate: "{{ range .x.y }}{{ end }}"}),
			nfr("b", rule("uses", nil, "ghost")),
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(messages(Static(&objects.Set{Rules: tt.rules}, Options{Master: master.DefaultOptions()}), "backref"), "\n")
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("backref findings = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFleetReportsConflictsOnlyForDifferentValues(t *testing.T) {
	in := &objects.Set{Rules: []objects.Object[*api.NodeFeatureRule]{nfr("a",
		rule("first", map[string]string{"k": "1", "same": "x"}, ""),
		rule("second", map[string]string{"k": "2", "same": "x"}, ""))}}
	src := func(i int, name string) engine.Source {
		return engine.Source{Object: objects.RuleRef(in.Rules[0].Obj), Field: "spec.rules[" + string(rune('0'+i)) + "]", RuleName: name}
	}
	out := func(labels map[string]string) engine.Output { return engine.Output{Labels: labels} }
	nodes := []master.NodeResult{
		{Name: "n1", Rules: []engine.RuleResult{{Source: src(0, "first"), Output: out(map[string]string{"k": "1", "same": "x"})}, {Source: src(1, "second"), Output: out(map[string]string{"k": "2", "same": "x"})}}},
		{Name: "n2", Rules: []engine.RuleResult{{Source: src(0, "first"), Output: out(map[string]string{"k": "1"})}}},
	}
	got := messages(fleetFindings(in, nodes), "label-conflict")
	if len(got) != 1 || !strings.Contains(got[0], `label "k" is also set by rule "first"`) || !strings.Contains(got[0], "node n1") {
		t.Errorf("conflicts = %q", got)
	}
}

// TestTemplateFailedAfterMatchingIsNotMatchingNoNode checks that a rule
// whose template fails on the nodes it matches is not reported as
// matching none: rule-failed says it matched, then its template failed
// (TestTemplateFailureSaysTheRuleMatched in pkg/master).
func TestTemplateFailedAfterMatchingIsNotMatchingNoNode(t *testing.T) {
	in := &objects.Set{Rules: []objects.Object[*api.NodeFeatureRule]{nfr("a", api.Rule{Name: "tmpl", LabelsTemplate: "{{ .x }}",
		MatchFeatures: api.FeatureMatcher{{Feature: "kernel.version"}}})}}
	ref := objects.RuleRef(in.Rules[0].Obj)
	fail := &engine.EvalError{Object: ref, RuleName: "tmpl", RuleField: "spec.rules[0]", Field: "spec.rules[0].labelsTemplate"}
	nodes := []master.NodeResult{{Name: "n1", RuleErrors: []*engine.EvalError{fail}}, {Name: "n2"}}
	if got := messages(fleetFindings(in, nodes), "matches-no-node"); len(got) != 0 {
		t.Errorf("matches-no-node = %q, want none", got)
	}
	if got := messages(fleetFindings(in, []master.NodeResult{{Name: "n1"}, {Name: "n2"}}), "matches-no-node"); len(got) != 1 {
		t.Errorf("a rule that matched nothing: matches-no-node = %q, want one", got)
	}
}

// TestGroupBackrefsSeeOnlyTheGroupsOwnVars checks that a NodeFeatureGroup
// rule on rule.matched is judged as nfd-master evaluates groups: on the
// nodes' NodeFeatures, with only the group's own earlier vars.
func TestGroupBackrefsSeeOnlyTheGroupsOwnVars(t *testing.T) {
	group := func(rules ...api.GroupRule) objects.Object[*api.NodeFeatureGroup] {
		g := &api.NodeFeatureGroup{Metadata: api.ObjectMeta{Name: "g", Namespace: "node-feature-discovery"}, Spec: api.NodeFeatureGroupSpec{Rules: rules}}
		return objects.Object[*api.NodeFeatureGroup]{Origin: objects.Origin{File: "g.yaml"}, Obj: g}
	}
	uses := func(name string) api.GroupRule {
		set := api.MatchExpressionSet{name: &api.MatchExpression{Op: api.MatchIsTrue}}
		return api.GroupRule{Name: "uses", MatchFeatures: api.FeatureMatcher{{Feature: "rule.matched", MatchExpressions: &set}}}
	}
	tests := []struct {
		name string
		set  *objects.Set
		want string
	}{
		{"produced-only-by-a-nodefeaturerule", &objects.Set{Rules: []objects.Object[*api.NodeFeatureRule]{nfr("a", rule("makes", map[string]string{"gpu": "true"}, ""))},
			Groups: []objects.Object[*api.NodeFeatureGroup]{group(uses("gpu"))}}, `error: NodeFeatureGroup/g spec.featureGroupRules[0].matchFeatures[0].matchExpressions.gpu: "gpu" is produced by rule "makes"`},
		{"an-earlier-group-var", &objects.Set{Groups: []objects.Object[*api.NodeFeatureGroup]{group(api.GroupRule{Name: "sets", Vars: map[string]string{"gpu": "true"}}, uses("gpu"))}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Static(tt.set, Options{Master: master.DefaultOptions()}) {
				if d.Check == "backref" {
					got = append(got, d.String())
				}
			}
			if tt.want == "" && len(got) != 0 || tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)) {
				t.Errorf("backref findings = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestOnTheFleetDropsTheSampledGuessWhereNodesAnswer: a template's
// findings on features made from its matcher give way to what the fleet
// shows for the same rule; other rules' stay.
func TestOnTheFleetDropsTheSampledGuessWhereNodesAnswer(t *testing.T) {
	ref := diag.ObjectRef{Kind: api.KindNodeFeatureRule, Name: "r"}
	static := diag.List{
		{Check: "template-labels", Object: ref, Field: "spec.rules[0].labelsTemplate", Message: sampled + " (kernel.version), ..."},
		{Check: "template", Object: ref, Field: "spec.rules[1].labelsTemplate", Message: sampled + " (kernel.version), ..."},
		{Check: "template", Object: ref, Field: "spec.rules[0].labelsTemplate", Message: "template reads index . \"kernel.version\""},
	}
	perNode := diag.List{{Check: "output-dropped", Object: ref, Field: `spec.rules[0].labels["v"]`, Message: "2 nodes (a, b): ..."}}
	got := OnTheFleet(static, perNode)
	if len(got) != 2 || got[0].Field != "spec.rules[1].labelsTemplate" || !strings.HasPrefix(got[1].Message, "template reads") {
		t.Errorf("OnTheFleet = %v", got)
	}
	if got := OnTheFleet(static, nil); len(got) != 3 {
		t.Errorf("without a fleet: %v", got)
	}
}

// fleetFindings are the fleet checks' findings on rendered nodes, fed to
// a FleetCheck a node at a time as a streamed render feeds it.
func fleetFindings(set *objects.Set, nodes []master.NodeResult) diag.List {
	names := make([]string, len(nodes))
	for i := range nodes {
		names[i] = nodes[i].Name
	}
	fc := NewFleetCheck(set, master.DefaultOptions(), names)
	for i := range nodes {
		fc.Add(&nodes[i])
	}
	return fc.Findings()
}
