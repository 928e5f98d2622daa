package engine

import (
	"reflect"
	"strings"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

func testFeatures() *api.Features {
	return &api.Features{
		Flags: map[string]api.FlagFeatureSet{
			"cpu.cpuid": {Elements: map[string]api.Nil{"AVX": {}, "AVX2": {}, "SSE4": {}}},
		},
		Attributes: map[string]api.AttributeFeatureSet{
			"kernel.version": {Elements: map[string]string{"major": "6", "minor": "8"}},
		},
		Instances: map[string]api.InstanceFeatureSet{
			"pci.device": {Elements: []api.InstanceFeature{
				{Attributes: map[string]string{"class": "0200", "vendor": "8086"}},
				{Attributes: map[string]string{"class": "0300", "vendor": "10de"}},
			}},
		},
	}
}

func mexpr(op api.MatchOp, values ...string) *api.MatchExpression {
	return &api.MatchExpression{Op: op, Value: values}
}

func ruleObject(name string, rules ...api.Rule) *api.NodeFeatureRule {
	return &api.NodeFeatureRule{Metadata: api.ObjectMeta{Name: name}, Spec: api.NodeFeatureRuleSpec{Rules: rules}}
}

func TestExecuteRuleOutputs(t *testing.T) {
	tests := []struct {
		name       string
		rule       api.Rule
		wantLabels map[string]string
		wantErr    string
	}{
		{
			name: "matchfeatures-and-of-terms",
			rule: api.Rule{Name: "r", Labels: map[string]string{"x": "1"}, MatchFeatures: api.FeatureMatcher{
				{Feature: "cpu.cpuid", MatchExpressions: &api.MatchExpressionSet{"AVX": mexpr(api.MatchExists)}},
				{Feature: "kernel.version", MatchExpressions: &api.MatchExpressionSet{"major": mexpr(api.MatchGe, "6")}},
			}},
			wantLabels: map[string]string{"x": "1"},
		},
		{
			name: "absent-feature-fails-even-doesnotexist",
			rule: api.Rule{Name: "r", Labels: map[string]string{"x": "1"}, MatchFeatures: api.FeatureMatcher{
				{Feature: "no.such", MatchExpressions: &api.MatchExpressionSet{"a": mexpr(api.MatchDoesNotExist)}},
			}},
		},
		{
			name: "instances-template-lists-matching-instances",
			rule: api.Rule{Name: "r", LabelsTemplate: "{{ range .pci.device }}nic-{{ .vendor }}=true\n{{ end }}", MatchFeatures: api.FeatureMatcher{
				{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{"class": mexpr(api.MatchIn, "0200")}},
			}},
			wantLabels: map[string]string{"nic-8086": "true"},
		},
		{
			name: "matchname-lists-flag-names",
			rule: api.Rule{Name: "r", LabelsTemplate: "{{ range .cpu.cpuid }}{{ .Name }}=y\n{{ end }}", MatchFeatures: api.FeatureMatcher{
				{Feature: "cpu.cpuid", MatchName: mexpr(api.MatchInRegexp, "^AVX")},
			}},
			wantLabels: map[string]string{"AVX": "y", "AVX2": "y"},
		},
		{
			name: "matchany-templates-union-per-matching-element",
			rule: api.Rule{Name: "r", LabelsTemplate: "{{ range .pci.device }}c-{{ .class }}=true\n{{ end }}", MatchAny: []api.MatchAnyElem{
				{MatchFeatures: api.FeatureMatcher{{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{"class": mexpr(api.MatchIn, "0200")}}}},
				{MatchFeatures: api.FeatureMatcher{{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{"class": mexpr(api.MatchIn, "0300")}}}},
			}},
			wantLabels: map[string]string{"c-0200": "true", "c-0300": "true"},
		},
		{
			name: "static-labels-win-over-template",
			rule: api.Rule{Name: "r", Labels: map[string]string{"k": "static"}, LabelsTemplate: "k=templated", MatchFeatures: api.FeatureMatcher{
				{Feature: "kernel.version"},
			}},
			wantLabels: map[string]string{"k": "static"},
		},
		{
			name: "template-missing-key-fails-the-rule",
			rule: api.Rule{Name: "r", Labels: map[string]string{"x": "1"}, LabelsTemplate: "{{ .cpu.nothing }}", MatchFeatures: api.FeatureMatcher{
				{Feature: "cpu.cpuid", MatchExpressions: &api.MatchExpressionSet{"AVX": mexpr(api.MatchExists)}},
			}},
			wantErr: `map has no entry for key "nothing"`,
		},
		{
			name:    "template-line-without-equals-fails-the-rule",
			rule:    api.Rule{Name: "r", LabelsTemplate: "just-a-key", MatchFeatures: api.FeatureMatcher{{Feature: "kernel.version"}}},
			wantErr: "which is not a key=value line",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, _ := Compile([]*api.NodeFeatureRule{ruleObject("obj", tt.rule)})
			results, errs := rs.Execute(testFeatures())
			if tt.wantErr != "" {
				if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.wantErr) {
					t.Fatalf("errors = %v, want one containing %q", errs, tt.wantErr)
				}
				if len(results) != 0 {
					t.Errorf("a failed rule produced output: %v", results)
				}
				return
			}
			if len(errs) != 0 {
				t.Fatalf("unexpected errors: %v", errs)
			}
			var got map[string]string
			if len(results) == 1 {
				got = results[0].Labels
			}
			if !(len(got) == 0 && len(tt.wantLabels) == 0) && !reflect.DeepEqual(got, tt.wantLabels) {
				t.Errorf("labels = %v, want %v", got, tt.wantLabels)
			}
		})
	}
}

func TestBackrefsFeedLaterRulesAcrossObjectsInNameOrder(t *testing.T) {
	first := ruleObject("a-first", api.Rule{Name: "sets", Vars: map[string]string{"v": "true"}})
	second := ruleObject("b-second", api.Rule{Name: "uses", Labels: map[string]string{"high": "true"},
		MatchFeatures: api.FeatureMatcher{{Feature: "rule.matched", MatchExpressions: &api.MatchExpressionSet{"v": mexpr(api.MatchIsTrue)}}}})
	rs, _ := Compile([]*api.NodeFeatureRule{second, first})
	results, errs := rs.Execute(testFeatures())
	if len(errs) != 0 || len(results) != 2 || results[1].Labels["high"] != "true" {
		t.Fatalf("results = %+v, errs = %v; want the second object to see the first's var", results, errs)
	}
}

func TestCompileReportsStaticProblemsAtTheirField(t *testing.T) {
	obj := ruleObject("broken", api.Rule{Name: "r", MatchFeatures: api.FeatureMatcher{
		{Feature: "pci.device", MatchExpressions: &api.MatchExpressionSet{"vendor": mexpr(api.MatchInRegexp, "[")}},
	}, LabelsTemplate: "{{ if }}"})
	_, diags := Compile([]*api.NodeFeatureRule{obj})
	fields := map[string]bool{}
	for _, d := range diags {
		fields[d.Field] = true
	}
	for _, want := range []string{"spec.rules[0].matchFeatures[0].matchExpressions.vendor.value", "spec.rules[0].labelsTemplate"} {
		if !fields[want] {
			t.Errorf("no diagnostic at %s; got %v", want, diags)
		}
	}
}

func TestGroupMembershipAndVarsFeedback(t *testing.T) {
	g := &api.NodeFeatureGroup{Metadata: api.ObjectMeta{Name: "g", Namespace: "default"}, Spec: api.NodeFeatureGroupSpec{Rules: []api.GroupRule{
		{Name: "sets", Vars: map[string]string{"gv": "true"}, MatchFeatures: api.FeatureMatcher{{Feature: "no.such"}}},
		{Name: "sets-anyway", Vars: map[string]string{"gv2": "true"}},
		{Name: "uses", MatchFeatures: api.FeatureMatcher{{Feature: "rule.matched", MatchExpressions: &api.MatchExpressionSet{"gv2": mexpr(api.MatchIsTrue)}}}},
	}}}
	cg, diags := CompileGroup(g)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	f := testFeatures()
	ok, errs := cg.Matches(f)
	if !ok || len(errs) != 0 {
		t.Fatalf("Matches = %v, %v; want true", ok, errs)
	}
	if _, leaked := f.Attributes["rule.matched"]; leaked {
		t.Error("group vars leaked into the node's features")
	}
}
