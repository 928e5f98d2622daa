package plan

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
	"github.com/nfd-fn/nfd-fn/pkg/master"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
	"github.com/nfd-fn/nfd-fn/pkg/workload"
)

// fleetNodes is the size of the large fleet: GitHub's comment limit must
// hold there.
const fleetNodes = 5000

// fleetHeadRules label AVX2 and AVX-512 nodes, label each node's kernel
// (a value per node: one folded change), and taint AMX nodes and give
// them an extended resource.
const fleetHeadRules = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: fleet}
spec:
  rules:
    - name: avx2
      labels: {cpu-avx2: "true"}
      matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX2: {op: Exists}}}]
    - name: avx512
      labels: {cpu-avx512: "true"}
      matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX512F: {op: Exists}}}]
    - name: kernel
      labels: {kernel-full: "@kernel.version.full"}
      matchFeatures: [{feature: kernel.version, matchExpressions: {full: {op: Exists}}}]
    - name: amx
      labels: {accel: "amx"}
      extendedResources: {example.com/amx: "1"}
      taints: [{key: example.com/amx, value: "true", effect: NoSchedule}]
      matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AMXTILE: {op: Exists}}}]
`

// fleetBaseRules are the rules before the change: AVX2 and the old label.
const fleetBaseRules = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata: {name: fleet}
spec:
  rules:
    - name: avx2
      labels: {cpu-avx2: "true"}
      matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX2: {op: Exists}}}]
    - name: old
      labels: {old: "true"}
      matchFeatures: [{feature: cpu.cpuid, matchExpressions: {AVX2: {op: Exists}}}]
`

// fleetSnapshot is n NodeFeatures and, for three nodes in four, a Node
// object carrying the stale NFD label "old".
func fleetSnapshot(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		name := fmt.Sprintf("node-%04d", i)
		flags := []string{"SSE4"}
		if i%2 == 0 {
			flags = append(flags, "AVX2")
		}
		if i%3 == 0 {
			flags = append(flags, "AVX512F")
		}
		if i%50 == 0 {
			flags = append(flags, "AMXTILE")
		}
		fmt.Fprintf(&b, "---\napiVersion: nfd.k8s-sigs.io/v1alpha1\nkind: NodeFeature\nmetadata: {name: %s, namespace: node-feature-discovery, labels: {nfd.node.kubernetes.io/node-name: %s}}\n", name, name)
		fmt.Fprintf(&b, "spec: {features: {flags: {cpu.cpuid: {elements: {%s: {}}}}, attributes: {kernel.version: {elements: {full: 6.8.0-%d-generic}}}}}\n", strings.Join(flags, ": {}, "), i%40)
		if i%4 != 0 {
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {kubernetes.io/hostname: %s, feature.node.kubernetes.io/old: \"true\"}, annotations: {nfd.node.kubernetes.io/feature-labels: old}}\nstatus: {capacity: {cpu: \"32\"}}\n", name, name)
		}
	}
	return b.Bytes()
}

// fleetWorkloads are n Deployments selecting on the fleet's labels, some
// tolerating the AMX taint and requesting the AMX resource.
func fleetWorkloads(n int) []byte {
	selectors := []string{"feature.node.kubernetes.io/cpu-avx2", "feature.node.kubernetes.io/cpu-avx512", "feature.node.kubernetes.io/old", "feature.node.kubernetes.io/accel"}
	var b bytes.Buffer
	for i := range n {
		key := selectors[i%len(selectors)]
		value := "true"
		extra := ""
		if strings.HasSuffix(key, "accel") {
			value = "amx"
			extra = ", tolerations: [{key: example.com/amx, operator: Exists}]"
		}
		fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app-%03d, namespace: team-%d}\nspec: {template: {spec: {nodeSelector: {%s: %q}%s, containers: [{name: c}]}}}\n", i, i%7, key, value, extra)
	}
	return b.Bytes()
}

var fleetOnce sync.Once
var fleetHead, fleetBase *objects.Set
var fleetWork []*workload.Workload

// largeFleet is the 5,000-node input, read once per test binary.
func largeFleet(t testing.TB) Input {
	t.Helper()
	fleetOnce.Do(func() {
		fleetHead, fleetBase = &objects.Set{}, &objects.Set{}
		testkit.ReadText(fleetHead, fleetSnapshot(fleetNodes), "snapshot.yaml", false)
		testkit.ReadText(fleetHead, []byte(fleetHeadRules), "rules/fleet.yaml", false)
		testkit.ReadText(fleetBase, []byte(fleetBaseRules), "base/fleet.yaml", false)
		fleetWork, _ = workloadsIn(fleetWorkloads(200), "workloads.yaml")
	})
	opts := master.DefaultOptions()
	opts.EnableTaints = true
	return Input{Head: fleetHead, Base: fleetBase, Workloads: fleetWork, Options: opts}
}

func TestMarkdownOfA5000NodePlanFitsAGitHubComment(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 5,000 nodes")
	}
	for _, base := range []bool{false, true} {
		in := largeFleet(t)
		if !base {
			in.Base = nil
		}
		p := Make(in)
		if p.Summary.NodesChanged < fleetNodes/2 {
			t.Fatalf("only %d nodes change", p.Summary.NodesChanged)
		}
		md := string(render(t, p, renderings[1].write))
		if len(md) >= 65000 {
			t.Errorf("base=%v: Markdown is %d characters, over GitHub's comment limit", base, len(md))
		}
		for _, want := range []string{"(40 different values)", "more (see `nfd-fn plan -o json`)", "</details>"} {
			if !strings.Contains(md, want) {
				t.Errorf("base=%v: Markdown lacks %q", base, want)
			}
		}
		t.Logf("base=%v: %d nodes change, %d distinct changes, %d workloads, %d characters of Markdown",
			base, p.Summary.NodesChanged, p.Summary.Changes, p.Summary.WorkloadsChanged, len(md))
	}
}

// BenchmarkPlan5000 plans the rule change on 5,000 nodes with 200
// workloads: two renders, the diff and eligibility. Compare it with
// BenchmarkRender5000 (one render): the target is about two.
func BenchmarkPlan5000(b *testing.B) { benchPlan(b, largeFleet(b)) }

// benchPlan makes the plan of in once per iteration.
func benchPlan(b *testing.B, in Input) {
	for b.Loop() {
		Make(in)
	}
}

// BenchmarkRender5000 renders the same 5,000 nodes once.
func BenchmarkRender5000(b *testing.B) {
	in := largeFleet(b)
	for b.Loop() {
		renderOnce(in.Head, in.Options)
	}
}

// renderOnce renders every node of set, as render does, keeping none.
func renderOnce(set *objects.Set, opts master.Options) {
	st := master.Prepare(set, opts).Stream(master.StreamOptions{})
	st.Render(st.All(), nil)
	st.Finish()
}
