package workload

import (
	"testing"

	api "github.com/nfd-fn/nfd-fn/pkg/api/v1alpha1"
	"github.com/nfd-fn/nfd-fn/pkg/diag"
	"github.com/nfd-fn/nfd-fn/pkg/objects"
)

// one reads a single workload from YAML.
func one(t *testing.T, doc string) *Workload {
	t.Helper()
	ws, ds := fromText([]byte(doc), "w.yaml")
	if len(ws) != 1 || len(ds) != 0 {
		t.Fatalf("got %d workloads, diagnostics %v", len(ws), ds)
	}
	return ws[0]
}

func TestEligibilityFollowsTheScheduler(t *testing.T) {
	gpu := objects.NodeState{
		Labels:   map[string]string{"feature.node.kubernetes.io/gpu": "true", "zone": "a"},
		Taints:   []api.Taint{{Key: "gpu", Value: "present", Effect: "NoSchedule"}},
		Capacity: map[string]string{"cpu": "8", "example.com/gpu": "2"},
	}
	plain := objects.NodeState{Labels: map[string]string{"zone": "b"}, Capacity: map[string]string{"cpu": "8"}}
	soft := objects.NodeState{Taints: []api.Taint{{Key: "soft", Effect: "PreferNoSchedule"}}}
	evict := objects.NodeState{Taints: []api.Taint{{Key: "drain", Effect: "NoExecute"}}}
	nodes := map[string]objects.NodeState{"gpu": gpu, "plain": plain, "soft": soft, "evict": evict}
	tests := []struct {
		name, spec string
		want       []string
	}{
		{"no-constraints-avoid-untolerated-taints", `{containers: [{name: c}]}`, []string{"plain", "soft"}},
		{"node-selector", `{nodeSelector: {zone: b}, containers: [{name: c}]}`, []string{"plain"}},
		{"toleration-opens-tainted-node", `{nodeSelector: {feature.node.kubernetes.io/gpu: "true"}, tolerations: [{key: gpu, operator: Exists}], containers: [{name: c}]}`, []string{"gpu"}},
		{"toleration-of-wrong-value", `{tolerations: [{key: gpu, value: absent, effect: NoSchedule}], containers: [{name: c}]}`, []string{"plain", "soft"}},
		{"required-affinity-expressions", `{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a, b]}]}]}}}, tolerations: [{operator: Exists}], containers: [{name: c}]}`, []string{"gpu", "plain"}},
		{"required-affinity-match-fields", `{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [evict]}]}]}}}, tolerations: [{key: drain, operator: Exists, effect: NoExecute}], containers: [{name: c}]}`, []string{"evict"}},
		{"preferred-affinity-ignored", `{affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {matchExpressions: [{key: zone, operator: In, values: [a]}]}}]}}, containers: [{name: c}]}`, []string{"plain", "soft"}},
		{"extended-resource-in-capacity", `{tolerations: [{operator: Exists}], containers: [{name: c, resources: {limits: {example.com/gpu: 1}}}]}`, []string{"gpu"}},
		{"extended-resource-beyond-capacity", `{tolerations: [{operator: Exists}], containers: [{name: c, resources: {limits: {example.com/gpu: 1}}}, {name: d, resources: {requests: {example.com/gpu: 2}, limits: {example.com/gpu: 2}}}]}`, nil},
		{"cpu-requests-out-of-scope", `{containers: [{name: c, resources: {requests: {cpu: "64"}}}]}`, []string{"plain", "soft"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := one(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: "+tt.spec+"\n")
			m, problem := NewMatcher(w)
			if problem != nil {
				t.Fatal(problem)
			}
			var got []string
			for _, name := range []string{"evict", "gpu", "plain", "soft"} {
				st := nodes[name]
				if m.Eligible(Node(name, &st)) {
					got = append(got, name)
				}
			}
			if !equal(got, tt.want) {
				t.Errorf("eligible %v, want %v", got, tt.want)
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDaemonSetPodsTolerateWhatTheControllerAdds(t *testing.T) {
	w := one(t, "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec: {template: {spec: {containers: [{name: c}]}}}\n")
	m, _ := NewMatcher(w)
	cordoned := objects.NodeState{Taints: []api.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"}}}
	if !m.Eligible(Node("n", &cordoned)) {
		t.Error("a DaemonSet pod should tolerate a cordoned node, as the DaemonSet controller makes it")
	}
	nfd := objects.NodeState{Taints: []api.Taint{{Key: "gpu", Effect: "NoSchedule"}}}
	if m.Eligible(Node("n", &nfd)) {
		t.Error("a DaemonSet pod should not tolerate an NFD taint it has no toleration for")
	}
}

func TestAffinityTheAPIServerRefusesMatchesNothingWithAWarning(t *testing.T) {
	w := one(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Near}]}]}}}, containers: [{name: c}]}\n")
	m, problem := NewMatcher(w)
	if problem == nil || problem.Severity != diag.Warning || problem.Object.Name != "p" {
		t.Fatalf("problem = %v, want a warning about Pod p", problem)
	}
	if m.Eligible(Node("n", &objects.NodeState{Labels: map[string]string{"zone": "a"}})) {
		t.Error("an affinity that does not parse should match no node")
	}
}
