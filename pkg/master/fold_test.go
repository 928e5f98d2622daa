package master

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

func TestTemplateFailureSaysTheRuleMatched(t *testing.T) {
	rule := diag.ObjectRef{Kind: "NodeFeatureRule", Name: "r"}
	tmpl := RuleFailure(&engine.EvalError{Object: rule, RuleName: "t", Field: "spec.rules[0].labelsTemplate", Err: errors.New("the template fails: index out of range: 5")})
	other := RuleFailure(&engine.EvalError{Object: rule, RuleName: "t", Field: "spec.rules[0].matchFeatures[0]", Err: errors.New("boom")})
	if want := `rule "t" matched, then its labelsTemplate failed: index out of range: 5; nfd-master skips the rule on this node`; tmpl.Message != want {
		t.Errorf("template failure: %q, want %q", tmpl.Message, want)
	}
	if want := `rule "t" failed: boom; nfd-master skips the rule on this node`; other.Message != want {
		t.Errorf("matcher failure: %q, want %q", other.Message, want)
	}
}

func TestPerNodeVariantsOfOneProblemAreOneFinding(t *testing.T) {
	rule := diag.ObjectRef{Kind: "NodeFeatureRule", Name: "r"}
	nf := diag.ObjectRef{Kind: "NodeFeature", Name: "nf"}
	f := &Fleet{Nodes: []NodeResult{
		{Name: "b", Problems: diag.List{{Severity: diag.Error, Check: "output-dropped", Object: rule, Field: `spec.rules[0].labels["v"]`, Message: `invalid value "HPE Co"`}}},
		{Name: "a", Problems: diag.List{{Severity: diag.Error, Check: "output-dropped", Object: rule, Field: `spec.rules[0].labels["v"]`, Message: `invalid value "Dell Inc."`},
			{Severity: diag.Error, Check: "output-dropped", Object: nf, Field: "spec.labels", Message: "one"},
			{Severity: diag.Error, Check: "output-dropped", Object: nf, Field: "spec.labels", Message: "two"}}},
		{Name: "c", Problems: diag.List{{Severity: diag.Error, Check: "output-dropped", Object: rule, Field: `spec.rules[0].labels["v"]`, Message: `invalid value "HPE Co"`}}},
	}}
	f.fold()
	want := []string{
		`error spec.labels: node a: one`,
		`error spec.labels: node a: two`,
		`error spec.rules[0].labels["v"]: 3 nodes (a, b, c): on node a, invalid value "Dell Inc." (the other nodes differ in detail)`,
	}
	var got []string
	for _, d := range f.NodeDiagnostics {
		got = append(got, fmt.Sprintf("%s %s: %s", d.Severity, d.Field, d.Message))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NodeDiagnostics =\n%q\nwant\n%q", got, want)
	}
}

// TestTemplateLabelsAreJudgedOncePerRule renders two nodes whose vendors
// make different invalid label keys through a template: one finding at
// the template naming both nodes; a literal label of the same rule that
// nfd-master drops stays at its own field.
func TestTemplateLabelsAreJudgedOncePerRule(t *testing.T) {
	vendor := func(v string) string { return `system.dmiid: {elements: {board_vendor: "` + v + `"}}` }
	set := readSet(t,
		workerFeature("a", hostFeatures("a", vendor("Dell Inc."))),
		workerFeature("b", hostFeatures("b", vendor("HPE Co"))),
		ruleObject("r", "  - name: vendor\n    labels: {\"bad key\": \"1\"}\n    labelsTemplate: '{{ range .system.dmiid }}{{ .Value }}=true{{ end }}'\n    matchFeatures:\n    - feature: system.dmiid\n      matchExpressions: {board_vendor: {op: Exists}}\n"))
	f := renderAll(Prepare(set, DefaultOptions()))
	var got []string
	for _, d := range f.NodeDiagnostics {
		got = append(got, fmt.Sprintf("%s %v", d.Field, d.Nodes))
	}
	want := []string{`spec.rules[0].labelsTemplate [a b]`, `spec.rules[0].labels["bad key"] [a b]`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NodeDiagnostics at %q, want %q:\n%s", got, want, lines(f.NodeDiagnostics))
	}
}
