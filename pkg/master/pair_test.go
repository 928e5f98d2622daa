package master

import (
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
)

// dropping is a worker labeler that publishes the spec as it is but for
// the features it names as dropped.
type dropping []string

func (d dropping) Publish(spec *api.NodeFeatureSpec) (*api.NodeFeatureSpec, diag.List) {
	return spec, nil
}
func (d dropping) FeatureNames(map[string]bool) bool { return false }
func (d dropping) DroppedFeatures() []string         { return d }

// asIs is a worker labeler that does not say which features it drops.
type asIs struct{}

func (asIs) Publish(spec *api.NodeFeatureSpec) (*api.NodeFeatureSpec, diag.List) { return spec, nil }
func (asIs) FeatureNames(map[string]bool) bool                                   { return false }

// TestPairingNeedsTheSameObjectsAndSettingsButTheWorkerConfig checks when
// RenderPair renders both sides at once: the very same objects, and
// settings that differ only in worker configurations that publish the
// same features.
func TestPairingNeedsTheSameObjectsAndSettingsButTheWorkerConfig(t *testing.T) {
	set := readSet(t, workerFeature("n1", "{flags: {cpu.cpuid: {elements: {AVX2: {}}}}}"), ruleObject("r", "  - {name: r, labels: {a: \"1\"}, matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX2: {op: Exists}}}]}\n"))
	other := readSet(t, workerFeature("n1", "{flags: {cpu.cpuid: {elements: {AVX2: {}}}}}"), ruleObject("r", "  - {name: r, labels: {a: \"1\"}, matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX2: {op: Exists}}}]}\n"))
	with := func(w WorkerLabeler, taints bool) Options {
		o := DefaultOptions()
		o.WorkerLabels, o.EnableTaints = w, taints
		return o
	}
	for _, tc := range []struct {
		name    string
		base    *Options
		baseSet bool
		want    bool
	}{
		{name: "other-worker-config-same-features", base: ptr(with(dropping{"a.b", "c.d"}, false)), want: true},
		{name: "snapshot-labels-on-one-side", base: ptr(with(nil, false)), want: true},
		{name: "other-dropped-features", base: ptr(with(dropping{"a.b"}, false)), want: false},
		{name: "labeler-that-does-not-say", base: ptr(with(asIs{}, false)), want: false},
		{name: "other-master-settings", base: ptr(with(dropping{"c.d", "a.b"}, true)), want: false},
		{name: "other-objects", base: ptr(with(dropping{"c.d", "a.b"}, false)), baseSet: true, want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bs := set
			if tc.baseSet {
				bs = other
			}
			head := Prepare(set, with(dropping{"c.d", "a.b"}, false))
			if tc.name == "snapshot-labels-on-one-side" {
				head = Prepare(set, with(nil, false))
			}
			if got := pairable(head, Prepare(bs, *tc.base)); got != tc.want {
				t.Errorf("pairable = %v, want %v", got, tc.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
