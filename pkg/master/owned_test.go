package master

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOwnedReadsTheInstancesTrackingAnnotations(t *testing.T) {
	st := &NodeState{
		Annotations: map[string]string{
			"lab.nfd.node.kubernetes.io/feature-labels":     "cpu-cpuid.AVX512F, vendor.io/nic,plain,,gone",
			"lab.nfd.node.kubernetes.io/extended-resources": "vendor.io/gpu",
			"nfd.node.kubernetes.io/feature-labels":         "other",
			"nfd.node.kubernetes.io/extended-resources":     "vendor.io/fpga",
		},
		Labels: map[string]string{
			"feature.node.kubernetes.io/cpu-cpuid.AVX512F": "true",
			"vendor.io/nic":                    "fast",
			"plain":                            "1",
			"kubernetes.io/hostname":           "n1",
			"feature.node.kubernetes.io/other": "true",
		},
		Capacity: map[string]string{"vendor.io/gpu": "2", "vendor.io/fpga": "1", "cpu": "8"},
	}
	o := &Options{Instance: "lab"}
	labels, resources := o.Owned(st)
	wantLabels := map[string]string{
		"feature.node.kubernetes.io/cpu-cpuid.AVX512F": "true",
		"vendor.io/nic": "fast",
		"plain":         "1",
	}
	if diff := cmp.Diff(wantLabels, labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"vendor.io/gpu": "2"}, resources); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}
