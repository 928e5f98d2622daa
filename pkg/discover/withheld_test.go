package discover

import (
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
)

// TestAFeatureSourceLeftOutPublishesNeitherFeaturesNorLabels follows
// nfd-worker: a source core.featureSources leaves out is never run, so
// its features are not in the NodeFeature and its label source, reading
// no features, labels nothing (its published labels are dropped, not kept
// as unexplained); the custom rules do not see its features either.
// noPublishFeatures withholds a feature after the labels are made.
// Withholds names the cause of each.
func TestAFeatureSourceLeftOutPublishesNeitherFeaturesNorLabels(t *testing.T) {
	spec := &v1alpha1.NodeFeatureSpec{
		Features: v1alpha1.Features{
			Instances:  map[string]v1alpha1.InstanceFeatureSet{"pci.device": {Elements: []v1alpha1.InstanceFeature{{Attributes: map[string]string{"class": "0300", "vendor": "10de"}}}}},
			Attributes: map[string]v1alpha1.AttributeFeatureSet{"kernel.version": {Elements: map[string]string{"major": "6", "full": "6.8.0"}}},
		},
		Labels: map[string]string{"feature.node.kubernetes.io/pci-10de.present": "true", "feature.node.kubernetes.io/kernel-version.major": "6"},
	}
	l, _, err := NewLabeler([]byte(`core: {featureSources: [all, -pci], noPublishFeatures: [kernel.version]}
sources: {custom: [{name: gpu, labels: {gpu: "true"}, matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: ["10de"]}}}]}]}`), "v0.19.0")
	if err != nil {
		t.Fatal(err)
	}
	out, notes := l.Publish(spec)
	if _, ok := out.Features.Instances["pci.device"]; ok {
		t.Error("pci.device published with pci left out of featureSources")
	}
	if _, ok := out.Features.Attributes["kernel.version"]; ok {
		t.Error("kernel.version published despite noPublishFeatures")
	}
	want := map[string]string{"feature.node.kubernetes.io/kernel-version.major": "6", "feature.node.kubernetes.io/kernel-version.full": "6.8.0"}
	if len(out.Labels) != len(want) || out.Labels["feature.node.kubernetes.io/kernel-version.major"] != "6" || out.Labels["feature.node.kubernetes.io/kernel-version.full"] != "6.8.0" {
		t.Errorf("labels = %v, want %v (notes %v)", out.Labels, want, notes)
	}
	if _, ok := spec.Features.Instances["pci.device"]; !ok {
		t.Error("Publish modified the spec given")
	}
	for _, tc := range []struct{ feature, why string }{
		{"pci.device", "core.featureSources [all -pci] leaves source pci out"},
		{"kernel.version", `core.noPublishFeatures "kernel.version" names it`},
		{"cpu.cpuid", ""},
	} {
		if why, _ := l.Withholds(tc.feature); why != tc.why {
			t.Errorf("Withholds(%s) = %q, want %q", tc.feature, why, tc.why)
		}
	}
}
