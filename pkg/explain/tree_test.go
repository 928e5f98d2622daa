package explain

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// TestRuleIsATreeWithNearMisses checks the explain tree: rule, matcher,
// term, expression, drawn with branches, and the closest element names
// when a matchName matched nothing.
func TestRuleIsATreeWithNearMisses(t *testing.T) {
	tr := engine.RuleTrace{
		Source: engine.Source{Object: engine.ObjectRef{Kind: "NodeFeatureRule", Name: "gpu"}, Field: "spec.rules[0]", RuleName: "nvidia"},
		Matchers: []engine.MatcherTrace{{Field: "spec.rules[0].matchFeatures", Terms: []engine.TermTrace{
			{Feature: "kernel.loadedmodule", Present: true, Exprs: []engine.ExprTrace{
				{Op: "In", Values: []string{"nvidia"}, Near: []string{"nvidiafb"}},
			}},
			{Feature: "pci.device", Present: true, Matched: true, Exprs: []engine.ExprTrace{
				{Element: "vendor", Op: "In", Values: []string{"10de"}, Seen: []string{`"10de"`}, Matched: true},
			}},
		}}},
	}
	want := `NodeFeatureRule gpu spec.rules[0] "nvidia": not matched
└─ matchFeatures: not matched
   ├─ kernel.loadedmodule: not matched
   │  └─ matchName In [nvidia]: false (names matched nothing; closest: nvidiafb)
   └─ pci.device: matched
      └─ vendor In [10de]: true (saw "10de")
`
	if got := Rule(&tr); got != want {
		t.Errorf("Rule() =\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(want, "  ") && !strings.Contains(Rule(&tr), "└─") {
		t.Error("no tree branches")
	}
}
