package main

import (
	"slices"
	"testing"
)

// nfdPrefixes pick the labels and annotations NFD's rules and tracking
// write in the apply fixture.
var nfdPrefixes = []string{"feature.node.kubernetes.io/", "nfd.node.kubernetes.io/", "nvidia.com/"}

// nfdState is what NFD owns on a Node: labels and annotations as
// key=value, taints as key=value:effect, extended resources as
// name=quantity (in capacity and allocatable alike).
type nfdState struct {
	labels, annotations, taints, resources []string
}

// stateOf reads NFD's part of a Node.
func stateOf(t *testing.T, n node) nfdState {
	t.Helper()
	s := nfdState{
		labels:      sortedKeys(n.Metadata.Labels, nfdPrefixes...),
		annotations: sortedKeys(n.Metadata.Annotations, nfdPrefixes...),
		taints:      n.taints(),
		resources:   sortedKeys(n.Status.Capacity, "nvidia.com/"),
	}
	if a := sortedKeys(n.Status.Allocatable, "nvidia.com/"); !slices.Equal(a, s.resources) {
		t.Errorf("Node %s: extended resources in capacity %q and allocatable %q differ", n.Metadata.Name, s.resources, a)
	}
	return s
}

func (s nfdState) diff(t *testing.T, name string, want nfdState) {
	t.Helper()
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"labels", s.labels, want.labels}, {"annotations", s.annotations, want.annotations},
		{"taints", s.taints, want.taints}, {"extended resources", s.resources, want.resources},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("Node %s %s:\n got %s\nwant %s", name, c.what, fmtList(c.got), fmtList(c.want))
		}
	}
}

var (
	gpuFirst = nfdState{
		labels: []string{"feature.node.kubernetes.io/cpu-avx2=true", "feature.node.kubernetes.io/cpu-avx512=true", "nvidia.com/gpu.present=true"},
		annotations: []string{
			"feature.node.kubernetes.io/cpu-vector-width=512", "feature.node.kubernetes.io/gpu-model=2330",
			"nfd.node.kubernetes.io/extended-resources=nvidia.com/gpu",
			"nfd.node.kubernetes.io/feature-annotations=cpu-vector-width,gpu-model",
			"nfd.node.kubernetes.io/feature-labels=cpu-avx2,cpu-avx512,nvidia.com/gpu.present",
			"nfd.node.kubernetes.io/taints=nvidia.com/gpu=present:NoSchedule",
		},
		taints:    []string{"nvidia.com/gpu=present:NoSchedule"},
		resources: []string{"nvidia.com/gpu=1"},
	}
	gpuRuleRemoved = nfdState{
		labels: []string{"feature.node.kubernetes.io/cpu-avx2=true", "feature.node.kubernetes.io/cpu-avx512=true"},
		annotations: []string{
			"feature.node.kubernetes.io/cpu-vector-width=512",
			"nfd.node.kubernetes.io/feature-annotations=cpu-vector-width",
			"nfd.node.kubernetes.io/feature-labels=cpu-avx2,cpu-avx512",
		},
	}
	gpuRuleChanged = nfdState{
		labels: []string{"feature.node.kubernetes.io/cpu-avx2=true", "feature.node.kubernetes.io/cpu-avx512=y"},
		annotations: []string{
			"feature.node.kubernetes.io/cpu-vector-width=512-bit",
			"nfd.node.kubernetes.io/feature-annotations=cpu-vector-width",
			"nfd.node.kubernetes.io/feature-labels=cpu-avx2,cpu-avx512",
		},
	}
	gpuOnly = nfdState{
		labels: []string{"nvidia.com/gpu.present=true"},
		annotations: []string{
			"feature.node.kubernetes.io/gpu-model=2330",
			"nfd.node.kubernetes.io/extended-resources=nvidia.com/gpu",
			"nfd.node.kubernetes.io/feature-annotations=gpu-model",
			"nfd.node.kubernetes.io/feature-labels=nvidia.com/gpu.present",
			"nfd.node.kubernetes.io/taints=nvidia.com/gpu=present:NoSchedule",
		},
		taints:    []string{"nvidia.com/gpu=present:NoSchedule"},
		resources: []string{"nvidia.com/gpu=1"},
	}
	cpuOnly = nfdState{
		labels:      []string{"feature.node.kubernetes.io/cpu-avx2=true"},
		annotations: []string{"nfd.node.kubernetes.io/feature-labels=cpu-avx2"},
	}
)

// testApply applies render's two apply streams with server-side apply,
// field manager nfd-fn, as the README says, step after step on Nodes a
// kubelet registered, and checks what the Nodes carry after each.
func testApply(t *testing.T, p *plane) {
	p.nfdSetup(t)
	for _, n := range []string{"gpu-1", "cpu-1"} {
		p.registerNode(t, n)
	}
	steps := []struct {
		name string
		// from is what render reads the nodes from: a
		// `kubectl get -A -o yaml` of these kinds.
		from  string
		rules []string
		want  map[string]nfdState
		// unchanged: the apply must be a no-op (resourceVersion kept).
		unchanged bool
		// notReadyGone lists the nodes whose registration not-ready
		// taint is gone after the step (others keep it).
		notReadyGone []string
	}{
		{"first apply sets labels, annotations, taints and extended resources, keeping others' taints", "nodes,nodefeatures",
			[]string{"rules/cpu.yaml", "rules/gpu.yaml"}, map[string]nfdState{"gpu-1": gpuFirst, "cpu-1": cpuOnly}, false, nil},
		{"reapplying the same output changes nothing", "nodes,nodefeatures",
			[]string{"rules/cpu.yaml", "rules/gpu.yaml"}, map[string]nfdState{"gpu-1": gpuFirst, "cpu-1": cpuOnly}, true, nil},
		{"a removed rule's label, annotation, taint and extended resource go, others' taints stay", "nodes,nodefeatures",
			[]string{"rules/cpu.yaml"}, map[string]nfdState{"gpu-1": gpuRuleRemoved, "cpu-1": cpuOnly}, false, nil},
		{"a changed rule's values change", "nodes,nodefeatures",
			[]string{"rules/cpu-changed.yaml"}, map[string]nfdState{"gpu-1": gpuRuleChanged, "cpu-1": cpuOnly}, false, nil},
		{"a node no rule matches any more gets a name-only Node, which removes all NFD set", "nodes,nodefeatures",
			[]string{"rules/gpu.yaml"}, map[string]nfdState{"gpu-1": gpuOnly, "cpu-1": {}}, false, nil},
		// Without the Node objects nfd-fn cannot see others' taints (render
		// warns, NFD315): on gpu-1 NFD's taint becomes the whole list;
		// cpu-1's list, which nfd-fn's earlier applies wrote whole (its
		// export had no managedFields to say whose it was), is no longer
		// applied and the API server removes it.
		{"without Node objects NFD's taints replace the whole list", "nodefeatures",
			[]string{"rules/gpu.yaml"}, map[string]nfdState{"gpu-1": gpuOnly, "cpu-1": {}}, false, []string{"gpu-1", "cpu-1"}},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			before := map[string]string{}
			for name := range step.want {
				before[name] = p.node(t, name).Metadata.ResourceVersion
			}
			dir := t.TempDir()
			snap := p.snapshot(t, dir, step.from)
			args := append([]string{"--config", "config.yaml", snap}, step.rules...)
			nodes := render(t, dir, "nodes.yaml", append([]string{"--output", "apply"}, args...)...)
			status := render(t, dir, "nodes-status.yaml", append([]string{"--output", "apply-status"}, args...)...)
			p.mustKubectl(t, "apply", "--server-side", "--field-manager=nfd-fn", "-f", nodes)
			p.mustKubectl(t, "apply", "--server-side", "--field-manager=nfd-fn", "--subresource=status", "-f", status)
			for name, want := range step.want {
				n := p.node(t, name)
				stateOf(t, n).diff(t, name, want)
				checkKubeletFields(t, n)
				if st := n.owner("nfd-fn", "status"); st.owns("f:metadata", "f:labels") || st.owns("f:metadata", "f:annotations") {
					t.Errorf("Node %s: nfd-fn's status apply owns metadata, so the next change would conflict: %s", name, st.FieldsV1)
				}
				if got, want := slices.Contains(n.allTaints(), notReady), !slices.Contains(step.notReadyGone, name); got != want {
					t.Errorf("Node %s: the registration's not-ready taint present=%v, want %v (taints %q)", name, got, want, n.allTaints())
				}
				if rv := n.Metadata.ResourceVersion; step.unchanged && rv != before[name] {
					t.Errorf("Node %s: a reapply of the same output changed it (resourceVersion %s -> %s)", name, before[name], rv)
				}
			}
		})
	}
	t.Run("a taint another manager set survives NFD's taint being added and removed", func(t *testing.T) { testOthersTaint(t, p) })
}
