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
