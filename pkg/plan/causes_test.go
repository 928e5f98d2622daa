package plan

import (
	"fmt"
	"testing"
)

// causeOf is the one cause planned for the workload kind/name, as
// "file:line field: change on nodes", or "" when it has none.
func causeOf(t *testing.T, p *Plan, kind, name string) string {
	t.Helper()
	for _, wc := range p.Workloads {
		if wc.Kind != kind || wc.Name != name {
			continue
		}
		if len(wc.Causes) > 1 {
			t.Fatalf("%s %s: %d causes, want at most one: %+v", kind, name, len(wc.Causes), wc.Causes)
		}
		for _, c := range wc.Causes {
			return fmt.Sprintf("%s %s: %s on %v", c.Rule.Pos.Where(c.Rule.Object), c.Rule.Field, c.Change, c.Nodes)
		}
		return ""
	}
	t.Fatalf("no %s %s among the workloads that change", kind, name)
	return ""
}

// TestCausesAreTheRulesWhoseChangeAloneTakesTheNode: a workload's lost
// node is put down to the change that, undone alone, gives the node back
// and to the rule that makes it: the head rule for a taint it adds, the
// base rule for a label the change removes; a stale label on a Node
// object (no --base) has no rule to blame.
func TestCausesAreTheRulesWhoseChangeAloneTakesTheNode(t *testing.T) {
	t.Run("taint-added-by-the-head-rule", func(t *testing.T) {
		in := fixtureInput(t, "")
		in.Causes = true
		p := Make(in)
		want := "rules/gpu.yaml:9 spec.rules[0]: taint nvidia.com/gpu=present:NoSchedule added on [gpu-1]"
		if got := causeOf(t, p, "DaemonSet", "node-exporter"); got != want {
			t.Errorf("cause %q, want %q", got, want)
		}
		if got := causeOf(t, p, "CronJob", "legacy-benchmark"); got != "" {
			t.Errorf("a stale label's cause %q, want none (no rule wrote it here)", got)
		}
	})
	t.Run("label-removed-from-the-base-rule", func(t *testing.T) {
		in := fixtureInput(t, "base")
		in.Causes = true
		selector := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: any-gpu, namespace: ml}\nspec:\n  template:\n    spec:\n      nodeSelector: {nvidia.com/gpu.present: \"true\"}\n      tolerations: [{operator: Exists}]\n      containers: [{name: c, image: c:1}]\n"
		ws, ds := workloadsIn([]byte(selector), "any-gpu.yaml")
		if len(ds) > 0 {
			t.Fatal(ds)
		}
		in.Workloads = append(in.Workloads, ws...)
		want := "base/gpu.yaml:8 spec.rules[0]: label nvidia.com/gpu.present=true removed on [gpu-2]"
		if got := causeOf(t, Make(in), "Deployment", "any-gpu"); got != want {
			t.Errorf("cause %q, want %q", got, want)
		}
	})
}
