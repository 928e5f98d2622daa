package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// upgradeExample is the gpu-operator#1469 example the tests of plan's
// sides run in: a fleet export published by nfd-worker v0.17.1, the
// operator's DaemonSets, the chart's worker configuration before and
// after the change, and a rule that needs v0.18's CRDs.
const upgradeExample = "../examples/upgrade-plan"

// sideRun is one run of the real binary in the upgrade example.
type sideRun struct {
	name string
	args []string
	code int
	// stdout and stderr are what the outputs must hold.
	stdout, stderr []string
}

// TestPlanSidesWithTheRealBinary runs the built binary once per flag of
// issue 37, each subtest named after its flag.
func TestPlanSidesWithTheRealBinary(t *testing.T) {
	bin := buildListTestBinary(t)
	t.Chdir(upgradeExample)
	renamed := []string{"- feature.node.kubernetes.io/pci-10de.present=true", "+ feature.node.kubernetes.io/pci-10de_2330.present=true  on node dgx-h100-01"}
	refused := `the API server of NFD v0.19.0 refuses this NodeFeatureRule whole (v0.17.1's CRD schema)`
	for _, r := range []sideRun{
		{name: "worker-config", args: []string{"plan", "--worker-config", "worker-after.yaml", "snapshot.yaml"},
			stdout: append([]string{"nfd-fn plan: worker config: as the snapshot shows → worker-after.yaml: 3 of 3 nodes change"}, renamed...)},
		{name: "worker-config-as-published-is-no-change", args: []string{"plan", "--detailed-exitcode", "--worker-config", "worker-before.yaml", "snapshot.yaml"},
			stdout: []string{"no changes: both sides give every node the same labels"}},
		{name: "base-worker-config", code: 1,
			args:   []string{"plan", "--base-worker-config", "worker-before.yaml", "--worker-config", "worker-after.yaml", "--workloads", "gpu-operator.yaml", "snapshot.yaml"},
			stdout: append([]string{"worker config: sources.pci.deviceLabelFields [vendor] → [vendor device]", "error: DaemonSet gpu-operator/nvidia-driver-daemonset         2 -> 0 eligible nodes"}, renamed...),
			stderr: []string{"gpu-operator.yaml:28:1: error: DaemonSet/nvidia-driver-daemonset: no node is eligible for its pods after the change"}},
		{name: "base-worker-config-detailed-exitcode", code: 2,
			args:   []string{"plan", "--detailed-exitcode", "--base-worker-config", "worker-before.yaml", "--worker-config", "worker-after.yaml", "snapshot.yaml"},
			stdout: renamed},
		{name: "base-nfd-version", args: []string{"plan", "--base-nfd-version", "v0.17.1", "--nfd-version", "v0.19.0", "snapshot.yaml", "rules.yaml"},
			stdout: []string{"nfd-fn plan: NFD v0.17.1 → v0.19.0: 2 of 3 nodes change", "+ feature.node.kubernetes.io/kernel-6-or-later=true  on 2 nodes (cpu-03, dgx-a100-02)",
				"Rules whose verdict changes:", "before: the API server of NFD v0.17.1 refuses this NodeFeatureRule whole", "after: no problem"},
			stderr: []string{"warning: NodeFeatureRule/kernel-generation spec.rules[0].matchFeatures[0].matchExpressions.major.op: on the before side: the API server of NFD v0.17.1 refuses"}},
		{name: "base-nfd-version-group", args: []string{"plan", "--base-nfd-version", "v0.17.1", "--nfd-version", "v0.19.0", "snapshot.yaml", "../../testdata/plan/upgrade/group.yaml"},
			stdout: []string{"  NodeFeatureGroup node-feature-discovery/kernel-6-nodes status.nodes\n    before: not evaluated\n    after: members: 2 nodes (cpu-03, dgx-a100-02)"}},
		{name: "crd-version", code: 1, args: []string{"plan", "--nfd-version", "v0.19.0", "--crd-version", "v0.17.1", "snapshot.yaml", "rules.yaml"},
			stdout: []string{"no changes"}, stderr: []string{"rules.yaml:15:21: error: NodeFeatureRule/kernel-generation", refused}},
		{name: "render-crd-version", code: 1, args: []string{"render", "--nfd-version", "v0.19.0", "--crd-version", "v0.17.1", "-o", "labels", "snapshot.yaml", "rules.yaml"},
			stderr: []string{refused}},
		{name: "validate-crd-version", code: 1, args: []string{"validate", "--nfd-version", "v0.19.0", "--crd-version", "v0.17.1", "rules.yaml"},
			stdout: []string{refused}},
		{name: "explain-crd-version", args: []string{"explain", "--node", "dgx-a100-02", "--nfd-version", "v0.19.0", "--crd-version", "v0.17.1", "snapshot.yaml", "rules.yaml"},
			stdout: []string{"node dgx-a100-02: 0 of 0 rules matched"}, stderr: []string{refused}},
		{name: "base-crd-version", args: []string{"plan", "--nfd-version", "v0.19.0", "--base-crd-version", "v0.17.1", "snapshot.yaml", "rules.yaml"},
			stdout: []string{"nfd-fn plan: CRDs v0.17.1 → v0.19.0: 2 of 3 nodes change", "before: " + refused}},
		{name: "base-config", args: []string{"plan", "--base-config", "../../testdata/plan/upgrade/master-before.yaml", "snapshot.yaml"},
			stdout: []string{"nfd-fn plan: nfd-master settings: ../../testdata/plan/upgrade/master-before.yaml → nfd-master's defaults: 3 of 3 nodes change",
				"+ feature.node.kubernetes.io/pci-10de.present=true  on 2 nodes"},
			stderr: []string{`on the before side: node cpu-03: label "feature.node.kubernetes.io/pci-8086.present" dropped`}},
		{name: "render-worker-config", args: []string{"render", "--worker-config", "worker-after.yaml", "-o", "labels", "snapshot.yaml"},
			stdout: []string{"dgx-h100-01  label  feature.node.kubernetes.io/pci-10de_2330.present    true", "dgx-a100-02  label  feature.node.kubernetes.io/pci-10de_20b5.present    true"}},
		{name: "crd-version-from-the-input", code: 1, args: []string{"validate", "--nfd-version", "v0.19.0", "rules.yaml", "../../testdata/plan/upgrade/crds-chart-v0.17.3.yaml"},
			stdout: []string{"warning: CustomResourceDefinition/nodefeaturerules.nfd.k8s-sigs.io: this CRD is NFD v0.17.3's (its helm.sh/chart label node-feature-discovery-0.17.3), not the operand's (v0.19.0", "(v0.17.3's CRD schema)"}},
		{name: "validate-worker-config", args: []string{"validate", "--worker-config", "worker-after.yaml", "snapshot.yaml", "gpu-operator.yaml"},
			stdout: []string{"gpu-operator.yaml:28:1: warning: DaemonSet/nvidia-driver-daemonset: selects label feature.node.kubernetes.io/pci-10de.present, which nfd-worker no longer publishes with the worker configuration worker-after.yaml (gone from 2 nodes (dgx-a100-02, dgx-h100-01))",
				"[NFD311]"}, stderr: []string{"nfd-fn validate: 0 errors, 3 warnings"}},
		{name: "validate-worker-config-as-published-warns-nothing", args: []string{"validate", "--worker-config", "worker-before.yaml", "snapshot.yaml", "gpu-operator.yaml"},
			stderr: []string{"nfd-fn validate: 0 errors, 0 warnings"}},
		{name: "bad-worker-config", code: 2, args: []string{"plan", "--worker-config", "does-not-exist.yaml", "snapshot.yaml"},
			stderr: []string{"nfd-fn plan: --worker-config: reading \"does-not-exist.yaml\""}},
		{name: "bad-base-nfd-version", code: 2, args: []string{"plan", "--base-nfd-version", "v0.99.0", "snapshot.yaml"},
			stderr: []string{`--base-nfd-version: unknown NFD release "v0.99.0"`}},
	} {
		t.Run(r.name, func(t *testing.T) {
			got := runBinary(t, bin, nil, r.args...)
			if got.code != r.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", got.code, r.code, got.stdout, got.stderr)
			}
			for _, want := range r.stdout {
				if !strings.Contains(got.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, got.stdout)
				}
			}
			for _, want := range r.stderr {
				if !strings.Contains(got.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, got.stderr)
				}
			}
		})
	}
	t.Run("render-worker-config-drops-the-old-name", func(t *testing.T) {
		got := runBinary(t, bin, nil, "render", "--worker-config", "worker-after.yaml", "-o", "labels", "snapshot.yaml")
		if strings.Contains(got.stdout, "pci-10de.present") {
			t.Errorf("the old label survives the recompute:\n%s", got.stdout)
		}
	})
	t.Run("json-sides-and-rules", func(t *testing.T) {
		got := runBinary(t, bin, nil, "plan", "-o", "json", "--base-nfd-version", "v0.17.1", "--nfd-version", "v0.19.0",
			"--base-worker-config", "worker-before.yaml", "--worker-config", "worker-after.yaml", "snapshot.yaml", "rules.yaml")
		var p struct {
			Rules []struct {
				Name          string
				Before, After []string
			}
			Summary struct{ Sides []string }
		}
		if err := json.Unmarshal([]byte(got.stdout), &p); err != nil {
			t.Fatalf("%v\n%s", err, got.stdout)
		}
		wantSides := []string{"worker config: sources.pci.deviceLabelFields [vendor] → [vendor device]", "NFD v0.17.1 → v0.19.0"}
		if strings.Join(p.Summary.Sides, "\n") != strings.Join(wantSides, "\n") {
			t.Errorf("sides %q, want %q", p.Summary.Sides, wantSides)
		}
		if len(p.Rules) != 1 || p.Rules[0].Name != "kernel-generation" || len(p.Rules[0].Before) != 1 || len(p.Rules[0].After) != 0 {
			t.Errorf("rules: %+v", p.Rules)
		}
	})
	t.Run("markdown-sides", func(t *testing.T) {
		got := runBinary(t, bin, nil, "plan", "-o", "markdown", "--base-worker-config", "worker-before.yaml", "--worker-config", "worker-after.yaml", "snapshot.yaml")
		if !strings.Contains(got.stdout, "- worker config: sources.pci.deviceLabelFields [vendor] → [vendor device]") {
			t.Errorf("the comment does not list the sides:\n%s", got.stdout)
		}
	})
}
