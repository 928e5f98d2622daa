package cli

import (
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// planFixture is the stale-labels example the plan tests run in.
const planFixture = "../testdata/plan/stale-labels"

// runIn runs nfd-fn with args inside dir.
func runIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	return testkit.Command(Main, "", args...)
}

func TestPlanDetailedExitCode(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"base-equals-head-is-0", []string{"--base", "rules", "--detailed-exitcode"}, 0},
		{"rule-change-is-2", []string{"--base", "base", "--detailed-exitcode"}, 2},
		{"rule-change-without-detailed-is-0", []string{"--base", "base"}, 0},
		{"workload-left-without-nodes-is-1", []string{"--detailed-exitcode"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"plan", "--config", "config.yaml", "--workloads", "workloads", "snapshot.yaml", "rules"}, tt.args...)
			_, stderr, code := runIn(t, planFixture, args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
		})
	}
}

func TestPlanOutputFormats(t *testing.T) {
	tests := map[string]string{
		"text":     "nfd-fn plan: 2 of 4 nodes change",
		"markdown": "### nfd-fn plan\n",
		"json":     "{\n  \"nodes\": [\n",
	}
	for format, prefix := range tests {
		for _, flag := range []string{"-o", "--output"} {
			t.Run(format+flag, func(t *testing.T) {
				stdout, stderr, code := runIn(t, planFixture, "plan", flag, format, "--config", "config.yaml", "--base", "base", "--workloads", "workloads", "snapshot.yaml", "rules")
				if code != 0 || !strings.HasPrefix(stdout, prefix) {
					t.Errorf("exit %d, output starts %q, want %q; stderr:\n%s", code, stdout[:min(len(stdout), 60)], prefix, stderr)
				}
			})
		}
	}
}

// TestPlanReportsBadInputOnStderr: the unknown kind is an info line, the
// workload without a template a warning naming file and object.
func TestPlanReportsBadInputOnStderr(t *testing.T) {
	_, stderr, _ := runIn(t, planFixture, "plan", "--config", "config.yaml", "--workloads", "workloads", "snapshot.yaml", "rules")
	for _, want := range []string{
		"workloads/ml.yaml: info: v1 Service: 1 object skipped, not a workload kind",
		"workloads/ml.yaml:53:1: warning: StatefulSet/no-template spec.template: no pod template",
		"workloads/ml.yaml:32:1: error: CronJob/legacy-benchmark: no node is eligible",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestPlanBadUsageIsExit2(t *testing.T) {
	tests := map[string][]string{
		"no-paths":       {"plan"},
		"unknown-output": {"plan", "-o", "yaml", "snapshot.yaml"},
		"missing-base":   {"plan", "--base", "does-not-exist", "snapshot.yaml"},
		"missing-config": {"plan", "--config", "does-not-exist.yaml", "snapshot.yaml"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			_, stderr, code := runIn(t, planFixture, args...)
			if code != 2 || !strings.HasPrefix(stderr, "nfd-fn plan: ") {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
		})
	}
}
