package plan

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// The Labeler publishes both sides of a pair at once.
var _ master.PairedLabeler = (*discover.Labeler)(nil)

// pairRules label from features, name a feature in a value, drop a
// label in a denied namespace, taint and give a resource: every part of
// a node's render the two sides of a pair share.
const pairRules = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: pair}
spec:
  rules:
    - name: gpu
      labels: {"pci-10de.present": "ruled", kernel-full: "@kernel.version.full", "kubernetes.io/denied": "x"}
      matchFeatures: [{feature: pci.device, matchExpressions: {vendor: {op: In, value: ["10de"]}}}]
    - name: avx512
      labels: {cpu-avx512: "true"}
      extendedResources: {example.com/wide: "2"}
      taints: [{key: example.com/wide, value: "true", effect: NoSchedule}]
      matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX512F: {op: Exists}}}]
`

// pairNodes are Node objects for one node in three, carrying labels
// nfd-master owned before (the patch the two sides make differs).
func pairNodes(n int) []byte {
	var b []byte
	for i := 0; i < n; i += 3 {
		b = fmt.Appendf(b, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-%04d\n  labels: {feature.node.kubernetes.io/pci-10de.present: \"true\", feature.node.kubernetes.io/old: \"true\"}\n  annotations: {nfd.node.kubernetes.io/feature-labels: \"old,pci-10de.present\"}\n", i)
	}
	return b
}

// TestAPairedRenderGivesTheFleetsOfTwoRenders holds master.RenderPair,
// which renders both sides of a worker configuration change in one pass
// sharing each node's decode, rules and label checks, to two separate
// renders: the same nodes, states, problems and diagnostics on each side,
// for configurations it pairs and for ones it must not (another
// core.noPublishFeatures, other nfd-master settings).
func TestAPairedRenderGivesTheFleetsOfTwoRenders(t *testing.T) {
	set := &objects.Set{}
	testkit.ReadText(set, gpuFleet(60), "snapshot.yaml", false)
	testkit.ReadText(set, pairNodes(60), "nodes.yaml", false)
	testkit.ReadText(set, []byte(pairRules), "rules.yaml", false)
	labeler := func(conf string) *discover.Labeler {
		l, _, err := discover.NewLabeler([]byte(conf), "")
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	before := labeler(string(gpuWorkerConfig("[vendor]")))
	after := labeler(string(gpuWorkerConfig("[vendor, device]")) + "\ncore: {labelWhiteList: '^(pci|cpu|kernel)'}\n")
	fields := labeler(string(gpuWorkerConfig("[vendor, device]")))
	noPublish := labeler(string(gpuWorkerConfig("[vendor]")) + "\ncore: {noPublishFeatures: [cpu.cpuid]}\n")
	for _, tc := range []struct {
		name         string
		head, base   master.WorkerLabeler
		otherOptions bool
	}{
		{name: "worker-configs-differ", head: after, base: before},
		{name: "only-pci-label-fields-differ", head: fields, base: before},
		{name: "head-as-published", head: nil, base: before},
		{name: "same-worker-config", head: before, base: before},
		{name: "no-publish-features-differ", head: after, base: noPublish},
		{name: "master-settings-differ", head: after, base: before, otherOptions: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := master.DefaultOptions()
			opts.WorkerLabels = tc.head
			base := opts
			base.WorkerLabels = tc.base
			base.EnableTaints = tc.otherOptions
			baseSet := BaseSet(set, set)
			h, b := master.RenderPair(master.Prepare(set, opts), master.Prepare(baseSet, base))
			sameFleet(t, "head", h, renderStates(set, opts))
			sameFleet(t, "base", b, renderStates(baseSet, base))
		})
	}
}

// sameFleet compares what a plan reads of a fleet.
func sameFleet(t *testing.T, side string, got, want *master.Fleet) {
	t.Helper()
	if len(got.Nodes) != len(want.Nodes) {
		t.Fatalf("%s: %d nodes, want %d", side, len(got.Nodes), len(want.Nodes))
	}
	for i := range got.Nodes {
		g, w := got.Nodes[i], want.Nodes[i]
		if g.Name != w.Name || !reflect.DeepEqual(g.State, w.State) || !reflect.DeepEqual(g.Problems, w.Problems) || !reflect.DeepEqual(g.Rules, w.Rules) {
			t.Errorf("%s: node %s differs:\n got %+v\nwant %+v", side, w.Name, g, w)
		}
	}
	if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || !reflect.DeepEqual(got.NodeDiagnostics, want.NodeDiagnostics) {
		t.Errorf("%s: diagnostics differ:\n got %v\nwant %v", side, append(got.Diagnostics, got.NodeDiagnostics...), append(want.Diagnostics, want.NodeDiagnostics...))
	}
}
