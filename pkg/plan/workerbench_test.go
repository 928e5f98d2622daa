package plan

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/discover"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// gpuFleetNodes is the size of the fleet of issue 37's benchmark.
const gpuFleetNodes = 1000

// gpuWorkerConfig is gpu-operator's nfd-worker configuration with the
// PCI label fields given.
func gpuWorkerConfig(fields string) []byte {
	return []byte(`sources: {pci: {deviceClassWhitelist: ["02", "0200", "0207", "0300", "0302"], deviceLabelFields: ` + fields + `}}`)
}

// gpuFleet is n NodeFeatures as nfd-worker publishes them with
// deviceLabelFields [vendor]: every node with a NIC, CPU flags and a
// kernel, one in two with a GPU, with the built-in labels of those.
func gpuFleet(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		name := fmt.Sprintf("node-%04d", i)
		devs := `{attributes: {class: "0200", vendor: "8086", device: "1592"}}`
		labels := `feature.node.kubernetes.io/pci-8086.present: "true"`
		if i%2 == 0 {
			devs += `, {attributes: {class: "0302", vendor: "10de", device: "2330"}}`
			labels += `, feature.node.kubernetes.io/pci-10de.present: "true"`
		}
		fmt.Fprintf(&b, "---\napiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: %s, namespace: node-feature-discovery, labels: {nfd.node.kubernetes.io/node-name: %s}}\n", name, name)
		fmt.Fprintf(&b, "spec:\n  features:\n    flags: {cpu.cpuid: {elements: {AVX2: {}, AVX512F: {}, SSE4: {}}}}\n")
		fmt.Fprintf(&b, "    attributes: {kernel.version: {elements: {full: 6.8.0-%d-generic, major: \"6\", minor: \"8\", revision: \"0\"}}}\n", i%40)
		fmt.Fprintf(&b, "    instances: {pci.device: {elements: [%s]}}\n", devs)
		fmt.Fprintf(&b, "  labels: {%s, feature.node.kubernetes.io/cpu-cpuid.AVX2: \"true\", feature.node.kubernetes.io/cpu-cpuid.AVX512F: \"true\", feature.node.kubernetes.io/kernel-version.full: 6.8.0-%d-generic, feature.node.kubernetes.io/kernel-version.major: \"6\", feature.node.kubernetes.io/kernel-version.minor: \"8\", feature.node.kubernetes.io/kernel-version.revision: \"0\"}\n", labels, i%40)
	}
	return b.Bytes()
}

var gpuOnce sync.Once
var gpuHead *objects.Set

// gpuPlanInput is the 1,000-node fleet planned with both worker
// configurations (deviceLabelFields [vendor] → [vendor device]).
func gpuPlanInput(t testing.TB) Input {
	t.Helper()
	gpuOnce.Do(func() {
		gpuHead = &objects.Set{}
		testkit.ReadText(gpuHead, gpuFleet(gpuFleetNodes), "snapshot.yaml", false)
		testkit.ReadText(gpuHead, []byte(fleetHeadRules), "rules/fleet.yaml", false)
	})
	before, _, err := discover.NewLabeler(gpuWorkerConfig("[vendor]"), "")
	if err != nil {
		t.Fatal(err)
	}
	after, _, err := discover.NewLabeler(gpuWorkerConfig("[vendor, device]"), "")
	if err != nil {
		t.Fatal(err)
	}
	opts := master.DefaultOptions()
	opts.EnableTaints = true
	base := opts
	opts.WorkerLabels, base.WorkerLabels = after, before
	return Input{Head: gpuHead, Options: opts, BaseOptions: &base}
}

func TestAWorkerConfigPlanOf1000NodesRenamesEveryPCILabel(t *testing.T) {
	p := Make(gpuPlanInput(t))
	if p.Summary.NodesChanged != gpuFleetNodes {
		t.Errorf("%d of %d nodes change", p.Summary.NodesChanged, gpuFleetNodes)
	}
	var renamed int
	for _, c := range p.Changes() {
		if c.Field == Labels && (c.Key == "feature.node.kubernetes.io/pci-10de_2330.present" || c.Key == "feature.node.kubernetes.io/pci-10de.present") {
			renamed += len(c.Nodes)
		}
	}
	if renamed != gpuFleetNodes {
		t.Errorf("the GPU label is renamed on %d node sides, want %d (500 removed, 500 added)", renamed, gpuFleetNodes)
	}
}

// BenchmarkPlanWorkerConfigs1000 plans the worker configuration change of
// gpu-operator#1469 on 1,000 nodes: both sides recompute every node's
// labels and render. Compare it with BenchmarkRenderGPUFleet1000 (one
// render of the published labels) and
// BenchmarkRenderGPUFleetWithWorkerConfig1000 (one with the recompute):
// issue 37 asks for at most twice render's time (docs/plan.md, Speed).
func BenchmarkPlanWorkerConfigs1000(b *testing.B) { benchPlan(b, gpuPlanInput(b)) }

// BenchmarkRenderGPUFleet1000 renders the same 1,000 nodes once.
func BenchmarkRenderGPUFleet1000(b *testing.B) {
	in := gpuPlanInput(b)
	in.Options.WorkerLabels = nil
	for b.Loop() {
		renderOnce(in.Head, in.Options)
	}
}

// BenchmarkRenderGPUFleetWithWorkerConfig1000 renders the 1,000 nodes
// once with the new worker configuration (render --worker-config).
func BenchmarkRenderGPUFleetWithWorkerConfig1000(b *testing.B) {
	in := gpuPlanInput(b)
	for b.Loop() {
		renderOnce(in.Head, in.Options)
	}
}
