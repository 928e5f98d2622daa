package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/growth"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// brokenRuleFile is n NodeFeatureRules with a broken rule each (an unknown
// operator, a bad regexp, a template that does not parse, a misspelt
// feature, a back-reference to nothing, a label nfd-master refuses): about
// 400 bytes a rule, so 40,000 are the 9 MB (more broken) of issue 17.
func brokenRuleFile(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `---
apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: rules-%[1]d}
spec:
  rules:
  - name: rule-%[1]d
    labels: {"bad key %[1]d": "true"}
    labelsTemplate: "{{ .x"
    matchFeatures:
    - feature: kernel.loadedmodules
      matchExpressions: {major: {op: inn, value: ["6"]}, minor: {op: InRegexp, value: ["("]}}
    - feature: rule.matched
      matchExpressions: {nothing-%[1]d: {op: IsTrue}}
`, i)
	}
	return []byte(b.String())
}

// TestChecksAreLinearInBrokenRules runs every check (the pipeline, the
// static and fleet checks, placing and sorting the findings) over 1,000
// and 4,000 broken rules and compares the work done (internal/growth:
// bytes and objects allocated).
func TestChecksAreLinearInBrokenRules(t *testing.T) {
	if testing.Short() {
		t.Skip("growth test")
	}
	check := func(n int) func() {
		set := &objects.Set{}
		if ds := testkit.ReadText(set, brokenRuleFile(n), "rules.yaml", false); ds.HasErrors() {
			t.Fatal(ds.Error())
		}
		return func() {
			ds := Run(set, Options{Master: master.DefaultOptions(), Outputs: true})
			if len(ds) < 5*n {
				t.Fatalf("%d rules gave %d findings, want at least %d", n, len(ds), 5*n)
			}
		}
	}
	growth.Check(t, "checking broken rules", 1_000, check)
}
