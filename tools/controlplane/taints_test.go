package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// maintenance is the taint an admin sets with `kubectl taint` (field
// manager kubectl-taint, operation Update) in testOthersTaint.
const maintenance = "example.com/maintenance=true:NoExecute"

// testOthersTaint: on a Node an admin tainted with `kubectl taint`,
// nfd-fn's apply of the Node's whole taint list (exported with the
// NodeFeatures) adds NFD's taint and later removes it, and the admin's
// taint and the registration's not-ready taint stay throughout. The
// first apply conflicts with kubectl-taint, which owns the atomic list;
// it goes through with --force-conflicts, and nfd-fn then owns the list.
func testOthersTaint(t *testing.T, p *plane) {
	p.mustKubectl(t, "delete", "node", "gpu-1", "--ignore-not-found")
	p.registerNode(t, "gpu-1")
	p.mustKubectl(t, "taint", "node", "gpu-1", maintenance)
	apply := func(t *testing.T, force bool, rules ...string) (string, error) {
		dir := t.TempDir()
		snap := p.snapshot(t, dir, "nodes,nodefeatures")
		nodes := render(t, dir, "nodes.yaml", append([]string{"--output", "apply", "--config", "config.yaml", snap}, rules...)...)
		flags := []string{"apply", "--server-side", "--field-manager=nfd-fn", "-f", nodes}
		if force {
			flags = append(flags, "--force-conflicts")
		}
		out, errOut, err := p.kubectl(nil, flags...)
		return out + errOut, err
	}
	check := func(t *testing.T, want []string) {
		t.Helper()
		got := p.node(t, "gpu-1").allTaints()
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("Node gpu-1 taints %q, want %q", got, want)
		}
	}
	gpu := "nvidia.com/gpu=present:NoSchedule"
	t.Run("adding NFD's taint conflicts with kubectl-taint's list", func(t *testing.T) {
		out, err := apply(t, false, "rules/cpu.yaml", "rules/gpu.yaml")
		if err == nil {
			t.Fatalf("nfd-fn's apply of a list kubectl-taint owns went through without a conflict:\n%s", out)
		}
		if want := `conflict with "kubectl-taint" using v1: .spec.taints`; !strings.Contains(out, want) {
			t.Errorf("kubectl's refusal lacks %q:\n%s", want, out)
		}
		check(t, []string{notReady, maintenance})
	})
	t.Run("with --force-conflicts NFD's taint is added and the admin's stays", func(t *testing.T) {
		if out, err := apply(t, true, "rules/cpu.yaml", "rules/gpu.yaml"); err != nil {
			t.Fatalf("nfd-fn's forced apply: %v\n%s", err, out)
		}
		check(t, []string{notReady, maintenance, gpu})
		n := p.node(t, "gpu-1")
		if !n.owner("nfd-fn", "").owns("f:spec", "f:taints") || n.owner("kubectl-taint", "").owns("f:spec", "f:taints") {
			t.Errorf("after the forced apply nfd-fn alone must own spec.taints: %+v", n.Metadata.ManagedFields)
		}
	})
	t.Run("removing NFD's taint keeps the admin's", func(t *testing.T) {
		if out, err := apply(t, false, "rules/cpu.yaml"); err != nil {
			t.Fatalf("nfd-fn's apply without the GPU rule: %v\n%s", err, out)
		}
		check(t, []string{notReady, maintenance})
	})
	// nfd-fn now owns the list alone and NFD has no taint on the node
	// (its taints annotation is gone): leaving spec.taints out would make
	// the API server remove the whole list.
	t.Run("a later apply with no NFD taint keeps the list nfd-fn owns", func(t *testing.T) {
		if out, err := apply(t, false, "rules/cpu-changed.yaml"); err != nil {
			t.Fatalf("nfd-fn's apply: %v\n%s", err, out)
		}
		check(t, []string{notReady, maintenance})
	})
	t.Run("render without Node objects warns that its taints replace the list", func(t *testing.T) {
		dir := t.TempDir()
		snap := p.snapshot(t, dir, "nodefeatures")
		cmd := exec.Command(testkit.Binary(t), "render", "--output", "apply", "--config", "config.yaml", snap, "rules/gpu.yaml")
		cmd.Dir = "testdata/apply"
		_, stderr, code := testkit.Exec(t, cmd, nil)
		if code != 0 || !strings.Contains(stderr, "spec.taints is an atomic list for server-side apply") {
			t.Errorf("exit %d, stderr lacks the NFD315 warning:\n%s", code, stderr)
		}
	})
}
