package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// labelAsNFDMaster writes what nfd-master v0.19 writes on a node whose
// rules gave it s: labels, annotations and taints on the Node, extended
// resources on its status, each a patch of manager nfd-master, as its
// client-go patches are recorded (operation Update).
func (p *plane) labelAsNFDMaster(t *testing.T, name string, s nfdState) {
	t.Helper()
	split := func(kvs []string) map[string]string {
		m := map[string]string{}
		for _, kv := range kvs {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		return m
	}
	var taints []map[string]string
	for _, tt := range s.taints {
		kv, effect, _ := strings.Cut(tt, ":")
		k, v, _ := strings.Cut(kv, "=")
		taints = append(taints, map[string]string{"key": k, "value": v, "effect": effect})
	}
	resources := split(s.resources)
	patches := []struct {
		path string
		body map[string]any
	}{
		{"", map[string]any{"metadata": map[string]any{"labels": split(s.labels), "annotations": split(s.annotations)},
			"spec": map[string]any{"taints": taints}}},
		{"/status", map[string]any{"status": map[string]any{"capacity": resources, "allocatable": resources}}},
	}
	for _, patch := range patches {
		body, _ := json.Marshal(patch.body)
		r := p.do("PATCH", "/api/v1/nodes/"+name+patch.path+"?fieldManager=nfd-master", "application/merge-patch+json", body)
		if r.code != http.StatusOK {
			t.Fatalf("nfd-master's patch of Node %s%s: %d %v %s", name, patch.path, r.code, r.err, r.body)
		}
	}
	if n := p.node(t, name); n.owner("nfd-master", "") == nil || n.owner("nfd-master", "").Operation != "Update" {
		t.Fatalf("Node %s: no Update entry of nfd-master: %+v", name, n.Metadata.ManagedFields)
	}
}

// testTakeover applies nfd-fn's output to Nodes nfd-master labelled:
// equal values are shared, and what a removed rule made stays, owned by
// nfd-master alone and no longer listed in NFD's tracking annotations
// (orphaned), whatever nfd-fn applies.
func testTakeover(t *testing.T, p *plane) {
	p.nfdSetup(t)
	for _, name := range []string{"gpu-1", "cpu-1"} {
		p.mustKubectl(t, "delete", "node", name, "--ignore-not-found")
		p.registerNode(t, name)
	}
	p.labelAsNFDMaster(t, "gpu-1", gpuFirst)
	p.labelAsNFDMaster(t, "cpu-1", cpuOnly)
	apply := func(t *testing.T, rules []string, force bool) (string, error) {
		dir := t.TempDir()
		snap := p.snapshot(t, dir, "nodes,nodefeatures")
		args := append([]string{"--config", "config.yaml", snap}, rules...)
		nodes := render(t, dir, "nodes.yaml", append([]string{"--output", "apply"}, args...)...)
		status := render(t, dir, "nodes-status.yaml", append([]string{"--output", "apply-status"}, args...)...)
		flags := []string{"apply", "--server-side", "--field-manager=nfd-fn"}
		if force {
			flags = append(flags, "--force-conflicts")
		}
		var msgs []string
		for _, a := range [][]string{{"-f", nodes}, {"--subresource=status", "-f", status}} {
			out, errOut, err := p.kubectl(nil, append(flags, a...)...)
			if err != nil {
				return out + errOut, err
			}
			msgs = append(msgs, out)
		}
		return strings.Join(msgs, ""), nil
	}

	t.Run("equal values are shared without conflict", func(t *testing.T) {
		if out, err := apply(t, []string{"rules/cpu.yaml", "rules/gpu.yaml"}, false); err != nil {
			t.Fatalf("nfd-fn's apply over nfd-master's equal values: %v\n%s", err, out)
		}
		n := p.node(t, "gpu-1")
		stateOf(t, n).diff(t, "gpu-1", gpuFirst)
		for _, label := range []string{"f:feature.node.kubernetes.io/cpu-avx512", "f:nvidia.com/gpu.present"} {
			for _, m := range []string{"nfd-master", "nfd-fn"} {
				if !n.owner(m, "").owns("f:metadata", "f:labels", label) {
					t.Errorf("label %s is not owned by %s after the takeover apply", label, m)
				}
			}
		}
		if !n.owner("nfd-fn", "status").owns("f:status", "f:capacity", "f:nvidia.com/gpu") {
			t.Errorf("nfd-fn does not share the extended resource: %+v", n.Metadata.ManagedFields)
		}
	})

	removed := []string{"rules/cpu.yaml"}
	t.Run("a removed rule's changed tracking annotations conflict with nfd-master", func(t *testing.T) {
		out, err := apply(t, removed, false)
		if err == nil {
			t.Fatalf("nfd-fn's apply without the GPU rule took nfd-master's tracking annotations without a conflict:\n%s", out)
		}
		for _, want := range []string{"conflict", `"nfd-master"`, "nfd.node.kubernetes.io/feature-labels"} {
			if !strings.Contains(out, want) {
				t.Errorf("kubectl's refusal does not name %s:\n%s", want, out)
			}
		}
	})

	t.Run("with --force-conflicts a removed rule's label, annotation and extended resource stay, orphaned; its taint goes with the list", func(t *testing.T) {
		if out, err := apply(t, removed, true); err != nil {
			t.Fatalf("nfd-fn's forced apply: %v\n%s", err, out)
		}
		n := p.node(t, "gpu-1")
		s := stateOf(t, n)
		for _, c := range []struct {
			what, want string
			in         []string
		}{
			{"label", "nvidia.com/gpu.present=true", s.labels},
			{"annotation", "feature.node.kubernetes.io/gpu-model=2330", s.annotations},
			{"extended resource", "nvidia.com/gpu=1", s.resources},
		} {
			if !slices.Contains(c.in, c.want) {
				t.Errorf("the removed rule's %s %s went: nfd-master's Update keeps it (%q)", c.what, c.want, c.in)
			}
		}
		// nfd-fn writes the whole taint list (atomic), which the forced
		// apply takes over from nfd-master: the removed rule's taint goes.
		if len(s.taints) != 0 || !n.owner("nfd-fn", "").owns("f:spec", "f:taints") {
			t.Errorf("the removed rule's taint stayed (%q) or nfd-fn does not own the list: %+v", s.taints, n.Metadata.ManagedFields)
		}
		if got := n.Metadata.Annotations["nfd.node.kubernetes.io/feature-labels"]; got != "cpu-avx2,cpu-avx512" {
			t.Errorf("feature-labels is %q, want nfd-fn's cpu-avx2,cpu-avx512", got)
		}
		label := "f:nvidia.com/gpu.present"
		if n.owner("nfd-fn", "").owns("f:metadata", "f:labels", label) || !n.owner("nfd-master", "").owns("f:metadata", "f:labels", label) {
			t.Errorf("the orphaned label must be nfd-master's alone: %+v", n.Metadata.ManagedFields)
		}
		checkKubeletFields(t, n)
	})
}
