package engine_test

import (
	"fmt"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
)

// A rule is compiled once and run against each node's features. Here one
// NodeFeatureRule labels nodes whose kernel is 6.8 or later.
func ExampleCompile() {
	rule := &api.NodeFeatureRule{
		Metadata: api.ObjectMeta{Name: "kernel"},
		Spec: api.NodeFeatureRuleSpec{Rules: []api.Rule{{
			Name:   "new kernel",
			Labels: map[string]string{"kernel-6.8-plus": "true"},
			MatchFeatures: api.FeatureMatcher{{
				Feature: "kernel.version",
				MatchExpressions: &api.MatchExpressionSet{
					"full": {Op: api.MatchGe, Value: api.MatchValue{"6.8.0"}, Type: api.ValueTypeVersion},
				},
			}},
		}}},
	}
	rules, diags := engine.Compile([]*api.NodeFeatureRule{rule})
	fmt.Println("diagnostics:", len(diags))

	for _, full := range []string{"6.8.0-45-generic", "5.15.0-91-generic"} {
		node := &api.Features{Attributes: map[string]api.AttributeFeatureSet{
			"kernel.version": {Elements: map[string]string{"full": full}},
		}}
		results, errs := rules.Execute(node)
		fmt.Printf("%s: %d rule(s) matched, %d error(s)", full, len(results), len(errs))
		for _, r := range results {
			fmt.Printf(", labels %v", r.Labels)
		}
		fmt.Println()
	}
	// Output:
	// diagnostics: 0
	// 6.8.0-45-generic: 1 rule(s) matched, 0 error(s), labels map[kernel-6.8-plus:true]
	// 5.15.0-91-generic: 0 rule(s) matched, 0 error(s)
}

// Problems that do not depend on the node are found when the rules are
// compiled, at the field that holds them.
func ExampleCompile_diagnostics() {
	rule := &api.NodeFeatureRule{
		Metadata: api.ObjectMeta{Name: "broken"},
		Spec: api.NodeFeatureRuleSpec{Rules: []api.Rule{{
			Name:   "nic",
			Labels: map[string]string{"nic": "true"},
			MatchFeatures: api.FeatureMatcher{{
				Feature: "pci.device",
				MatchExpressions: &api.MatchExpressionSet{
					"vendor": {Op: "in", Value: api.MatchValue{"8086"}},
				},
			}},
		}}},
	}
	_, diags := engine.Compile([]*api.NodeFeatureRule{rule})
	for _, d := range diags {
		fmt.Println(d.Severity, d.Field)
	}
	// Output:
	// error spec.rules[0].matchFeatures[0].matchExpressions.vendor.op
}
