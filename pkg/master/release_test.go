package master

import (
	"testing"

	"github.com/nfd-fn/nfd-fn/pkg/release"
)

// optionsAs are the default options rendering as release name, with
// auto-prefixing off (the DisableAutoPrefix gate) when noPrefix.
func optionsAs(t *testing.T, name string, noPrefix bool) Options {
	t.Helper()
	rel, err := release.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.Release, o.AutoPrefix = rel, !noPrefix
	return o
}

// unprefixedFleet is one node and a rule writing an unprefixed label,
// annotation and extended resource.
func unprefixedFleet(t *testing.T, opts Options) *NodeResult {
	t.Helper()
	set := readSet(t, workerFeature("a", hostFeatures("a")),
		ruleObject("r", "  - {name: r, labels: {plain: \"true\"}, annotations: {note: hi}, extendedResources: {widgets: \"2\"}}\n"))
	return nodeResult(t, renderSet(set, opts), "a")
}

func TestUnprefixedNamesRejectedBeforeV018WithDisableAutoPrefix(t *testing.T) {
	n := unprefixedFleet(t, optionsAs(t, "v0.17.1", true))
	if _, ok := n.State.Labels["plain"]; ok {
		t.Errorf("v0.17.1 kept the unprefixed label: %v", n.State.Labels)
	}
	if _, ok := n.State.Annotations["note"]; ok {
		t.Errorf("v0.17.1 kept the unprefixed annotation: %v", n.State.Annotations)
	}
	if _, ok := n.State.Capacity["widgets"]; ok {
		t.Errorf("v0.17.1 kept the unprefixed extended resource: %v", n.State.Capacity)
	}
}

func TestUnprefixedNamesKeptFromV018WithDisableAutoPrefix(t *testing.T) {
	n := unprefixedFleet(t, optionsAs(t, "v0.18.3", true))
	if n.State.Labels["plain"] != "true" || n.State.Annotations["note"] != "hi" || n.State.Capacity["widgets"] != "2" {
		t.Errorf("v0.18.3: labels %v, annotations %v, capacity %v", n.State.Labels, n.State.Annotations, n.State.Capacity)
	}
}

func TestUnprefixedAnnotationsRejectedOnOpenShift(t *testing.T) {
	n := unprefixedFleet(t, optionsAs(t, "openshift-5.0", true))
	if _, ok := n.State.Annotations["note"]; ok || n.State.Labels["plain"] != "true" {
		t.Errorf("openshift-5.0: labels %v, annotations %v", n.State.Labels, n.State.Annotations)
	}
}

func TestGroupGateIgnoredBeforeV0173(t *testing.T) {
	group := groupObject("amd", "  - name: g\n    matchFeatures: [{feature: cpu.model, matchExpressions: {vendor_id: {op: In, value: [AMD]}}}]\n")
	docs := []string{workerFeature("a", hostFeatures("a", "cpu.model: {elements: {vendor_id: AMD}}")), group}
	for _, tt := range []struct {
		release string
		groups  int
	}{{"v0.16.7", 1}, {"v0.16.9", 0}, {"v0.17.1", 1}, {"v0.17.3", 0}, {"v0.19.0", 0}} {
		opts := optionsAs(t, tt.release, false)
		opts.NodeFeatureGroups = false
		if f := renderSet(readSet(t, docs...), opts); len(f.Groups) != tt.groups {
			t.Errorf("%s with the NodeFeatureGroupAPI gate off: %d groups evaluated, want %d", tt.release, len(f.Groups), tt.groups)
		}
	}
}

func TestZeroReleaseIsTheDefault(t *testing.T) {
	var o Options
	if o.NFDRelease().Name != release.Default().Name {
		t.Errorf("zero Options render as %s", o.NFDRelease())
	}
}
