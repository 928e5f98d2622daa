package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/nfd-fn/nfd-fn/internal/golden"
	"github.com/nfd-fn/nfd-fn/internal/testkit"
)

// TestPlanGitHubAndJUnitReports runs the built binary's plan -o github
// and -o junit on the stale-labels fixture, whose change leaves a CronJob
// with no eligible node: github annotates each error and warning at its
// file and line (the CronJob's NFD043 error, a ::warning at each workload
// that loses nodes but keeps some) and ends with the headline as a
// ::notice; junit has a testsuite per node that changes (a passing
// testcase per change) and per workload (failing for the CronJob), and
// the other findings as validate's JUnit has them. Both exit 1, as text
// does (golden files).
func TestPlanGitHubAndJUnitReports(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	for _, format := range []string{"github", "junit"} {
		t.Run(format, func(t *testing.T) {
			cmd := exec.Command(bin, "plan", "-o", format, "--config", "config.yaml", "--workloads", "workloads", "snapshot.yaml", "rules")
			cmd.Dir = planFixture
			stdout, stderr, code := testkit.Exec(t, cmd, nil)
			if code != 1 || !strings.Contains(stderr, "error: CronJob/legacy-benchmark: no node is eligible") {
				t.Fatalf("exit %d, want 1 and the error on stderr\n%s", code, stderr)
			}
			golden.Check(t, "../testdata/plan-ci/stale-labels."+format+".golden", []byte(stdout))
		})
	}
}
