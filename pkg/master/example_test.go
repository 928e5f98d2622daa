package master_test

import (
	"fmt"
	"sort"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/engine"
	"github.com/nfd-fn/nfd-fn/pkg/master"
)

// A Renderer does for one node what nfd-master does: merge its
// NodeFeatures, run the rules, prefix and filter the outputs, and patch
// the Node, keeping what it owns in the nfd.node.kubernetes.io tracking
// annotations. Here an existing node keeps its own label, gains the
// rule's label, and loses a label an earlier run set that no rule
// produces any more.
func ExampleRenderer() {
	rules, _ := engine.Compile([]*api.NodeFeatureRule{{
		Metadata: api.ObjectMeta{Name: "nic"},
		Spec: api.NodeFeatureRuleSpec{Rules: []api.Rule{{
			Name:   "intel nic",
			Labels: map[string]string{"intel-nic": "true"},
			MatchFeatures: api.FeatureMatcher{{
				Feature:          "pci.device",
				MatchExpressions: &api.MatchExpressionSet{"vendor": {Op: api.MatchIn, Value: api.MatchValue{"8086"}}},
			}},
		}}},
	}})
	features := &api.NodeFeatureSpec{Features: api.Features{Instances: map[string]api.InstanceFeatureSet{
		"pci.device": {Elements: []api.InstanceFeature{{Attributes: map[string]string{"vendor": "8086", "class": "0200"}}}},
	}}}
	existing := &master.NodeState{
		Labels: map[string]string{
			"team":                               "storage",
			"feature.node.kubernetes.io/old-gpu": "true",
		},
		Annotations: map[string]string{"nfd.node.kubernetes.io/feature-labels": "old-gpu"},
	}

	r := master.NewRenderer(master.DefaultOptions(), rules)
	res := r.RenderNodeReading(nil, "worker-1", []master.NodeFeatureObject{{
		Ref:  diag.ObjectRef{Kind: "NodeFeature", Namespace: master.DefaultNamespace, Name: "worker-1"},
		Spec: features,
	}}, existing)

	for _, k := range sortedKeys(res.State.Labels) {
		fmt.Printf("label %s=%s\n", k, res.State.Labels[k])
	}
	for _, k := range sortedKeys(res.State.Annotations) {
		fmt.Printf("annotation %s=%s\n", k, res.State.Annotations[k])
	}
	// Output:
	// label feature.node.kubernetes.io/intel-nic=true
	// label team=storage
	// annotation nfd.node.kubernetes.io/feature-labels=intel-nic
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
