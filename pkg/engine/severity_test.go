package engine

import (
	"strings"
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

func TestCompileSeverityReflectsCertainty(t *testing.T) {
	kernel := api.FeatureMatcher{{Feature: "kernel.version"}}
	withExpr := func(me *api.MatchExpression) api.FeatureMatcher {
		return api.FeatureMatcher{{Feature: "kernel.version", MatchExpressions: &api.MatchExpressionSet{"nosuch": me}}}
	}
	tests := []struct {
		name  string
		rule  api.Rule
		field string
		want  Severity
	}{
		{"broken-template-with-matchers-is-error", api.Rule{Name: "r", LabelsTemplate: "{{ if }}", MatchFeatures: kernel},
			"spec.rules[0].labelsTemplate", SeverityError},
		{"broken-template-with-matchany-is-error", api.Rule{Name: "r", VarsTemplate: "{{ if }}", MatchAny: []api.MatchAnyElem{{MatchFeatures: kernel}}},
			"spec.rules[0].varsTemplate", SeverityError},
		{"broken-template-without-matchers-is-error", api.Rule{Name: "r", Labels: map[string]string{"a": "b"}, LabelsTemplate: "{{ if }}"},
			"spec.rules[0].labelsTemplate", SeverityError},
		{"oversized-template-without-matchers-is-error", api.Rule{Name: "r", VarsTemplate: string(make([]byte, MaxTemplateSize+1))},
			"spec.rules[0].varsTemplate", SeverityError},
		{"invalid-op-is-error", api.Rule{Name: "r", MatchFeatures: withExpr(&api.MatchExpression{Op: "Bigger"})},
			"spec.rules[0].matchFeatures[0].matchExpressions.nosuch.op", SeverityError},
		{"exists-with-values-is-error", api.Rule{Name: "r", MatchFeatures: withExpr(&api.MatchExpression{Op: api.MatchExists, Value: []string{"x"}})},
			"spec.rules[0].matchFeatures[0].matchExpressions.nosuch.value", SeverityError},
		{"bad-regexp-on-an-element-that-may-not-exist-is-error", api.Rule{Name: "r", MatchFeatures: withExpr(&api.MatchExpression{Op: api.MatchInRegexp, Value: []string{"["}})},
			"spec.rules[0].matchFeatures[0].matchExpressions.nosuch.value", SeverityError},
		{"bad-type-is-error-at-type", api.Rule{Name: "r", MatchFeatures: withExpr(&api.MatchExpression{Op: api.MatchGt, Value: []string{"1"}, Type: "int"})},
			"spec.rules[0].matchFeatures[0].matchExpressions.nosuch.type", SeverityError},
		{"reversed-integer-range-is-error", api.Rule{Name: "r", MatchFeatures: withExpr(&api.MatchExpression{Op: api.MatchGtLt, Value: []string{"5", "1"}})},
			"spec.rules[0].matchFeatures[0].matchExpressions.nosuch.value", SeverityError},
		{"unconditional-missing-template-ref-is-error", api.Rule{Name: "r", LabelsTemplate: "{{ .cpu.cpuid }}", MatchFeatures: kernel},
			"spec.rules[0].labelsTemplate", SeverityError},
		{"conditional-missing-template-ref-is-warning", api.Rule{Name: "r", LabelsTemplate: "{{ if false }}{{ .cpu.cpuid }}{{ end }}", MatchFeatures: kernel},
			"spec.rules[0].labelsTemplate", SeverityWarning},
		{"nondeterministic-function-is-warning", api.Rule{Name: "r", VarsTemplate: "t={{ now | date \"2006\" }}", MatchFeatures: kernel},
			"spec.rules[0].varsTemplate", SeverityWarning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Compile([]*api.NodeFeatureRule{ruleObject("obj", tt.rule)})
			if len(diags) != 1 || diags[0].Field != tt.field || diags[0].Severity != tt.want {
				t.Fatalf("diagnostics = %v; want one %s at %s", diags, tt.want, tt.field)
			}
		})
	}
}

func TestCompileAcceptsWhatNFDRunsCleanly(t *testing.T) {
	rules := []api.Rule{
		{Name: "version-range-with-equal-bounds", Labels: map[string]string{"k": "v"}, MatchFeatures: api.FeatureMatcher{
			{Feature: "kernel.version", MatchExpressions: &api.MatchExpressionSet{"full": {Op: api.MatchGeLe, Value: []string{"6.8.0", "6.8.0"}, Type: api.ValueTypeVersion}}}}},
		{Name: "random-function-in-a-rule-that-never-runs-templates", Labels: map[string]string{"k": "v"}, LabelsTemplate: "x={{ uuidv4 }}"},
	}
	_, diags := Compile([]*api.NodeFeatureRule{ruleObject("obj", rules...)})
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
}

// TestCertainButPresenceDependentErrorsKeepNFDEvaluation checks that a
// bad regexp, an error for certain, still fails a rule only where its
// element is present, as nfd-master (and nfd-worker's custom source)
// evaluates it: severity changes the verdict, not the rendering.
func TestCertainButPresenceDependentErrorsKeepNFDEvaluation(t *testing.T) {
	r := api.Rule{Name: "r", Labels: map[string]string{"a": "b"}, MatchFeatures: api.FeatureMatcher{{Feature: "kernel.version",
		MatchExpressions: &api.MatchExpressionSet{"nosuch": {Op: api.MatchInRegexp, Value: []string{"(a"}}}}}}
	_, diags := Compile([]*api.NodeFeatureRule{ruleObject("obj", r)})
	if len(diags) != 1 || diags[0].Severity != SeverityError || !strings.Contains(diags[0].Message, "missing closing )") {
		t.Fatalf("diagnostics = %v; want one error with Go's reason", diags)
	}
	if _, matched, err := EvaluateRule(&r, testFeatures()); err != nil || matched {
		t.Fatalf("EvaluateRule = %v, %v; want no match and no error where the element is absent", matched, err)
	}
}

func TestBrokenTemplateWithoutMatchersStillApplies(t *testing.T) {
	rs, _ := Compile([]*api.NodeFeatureRule{ruleObject("obj", api.Rule{Name: "r", Labels: map[string]string{"a": "b"}, LabelsTemplate: "{{ if }}"})})
	results, errs := rs.Execute(testFeatures())
	if len(errs) != 0 || len(results) != 1 || results[0].Labels["a"] != "b" {
		t.Fatalf("results = %v, errs = %v; want the static label", results, errs)
	}
	out, matched, err := EvaluateRule(&api.Rule{Name: "r", Labels: map[string]string{"a": "b"}, LabelsTemplate: "{{ if }}"}, testFeatures())
	if err != nil || !matched || out.Labels["a"] != "b" {
		t.Fatalf("EvaluateRule = %v, %v, %v; want the static label", out, matched, err)
	}
}

func TestVersionRangeWithEqualBoundsMatchesLikeNFD(t *testing.T) {
	f := testFeatures()
	f.Attributes["kernel.version"].Elements["full"] = "6.8.0-45-generic"
	rs, _ := Compile([]*api.NodeFeatureRule{ruleObject("obj", api.Rule{Name: "r", Labels: map[string]string{"k": "v"}, MatchFeatures: api.FeatureMatcher{
		{Feature: "kernel.version", MatchExpressions: &api.MatchExpressionSet{"full": {Op: api.MatchGeLe, Value: []string{"6.8.0", "6.8.0"}, Type: api.ValueTypeVersion}}}}})})
	results, errs := rs.Execute(f)
	if len(errs) != 0 || len(results) != 1 {
		t.Fatalf("results = %v, errs = %v; want a match", results, errs)
	}
}

func TestTemplateParseErrorsKeepNFDOrder(t *testing.T) {
	// nfd-master runs the labels template before it parses the vars
	// template: the labels template's execution error is the one logged.
	rs, _ := Compile([]*api.NodeFeatureRule{ruleObject("obj", api.Rule{Name: "r",
		LabelsTemplate: "{{ .kernel.nothing }}", VarsTemplate: "{{ if }}",
		MatchFeatures: api.FeatureMatcher{{Feature: "kernel.version"}}})})
	_, errs := rs.Execute(testFeatures())
	if len(errs) != 1 || errs[0].Field != "spec.rules[0].labelsTemplate" {
		t.Fatalf("errs = %v; want the labels template's error", errs)
	}
}
