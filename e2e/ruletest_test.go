package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuleTestExampleRunsUnderNfdFnTest runs the rule-tests example's
// RuleTests as its README does, `nfd-fn test rule-tests` on a copy of the
// package, snapshot included: they pass, and a rule broken by hand makes
// the run fail at the expectation's line. (Under kpt, mode test, the
// example runs in TestExamples.)
func TestRuleTestExampleRunsUnderNfdFnTest(t *testing.T) {
	work := t.TempDir()
	pkg := filepath.Join(work, "rule-tests")
	if err := os.CopyFS(pkg, os.DirFS(filepath.Join(examplesRoot, "rule-tests"))); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(binDir, "nfd-fn")
	stdout, stderr, code := run(t, work, commandEnv(nil), nil, bin, "test", "--coverage", "rule-tests")
	if code != 0 || !strings.Contains(stdout, "PASS  gpu-rules (rule-tests/tests/gpu.ruletest.yaml)") {
		t.Fatalf("exit %d, want 0 and the suite passing\n%s%s", code, stdout, stderr)
	}
	rule := filepath.Join(pkg, "rules", "nvidia-gpu-operator.yaml")
	text, err := os.ReadFile(rule)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(text), "nvidia_fs:", "nvidia_fss:", 1)
	if err := os.WriteFile(rule, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code = run(t, work, commandEnv(nil), nil, bin, "test", "-o", "github", "rule-tests")
	want := "::error file=rule-tests/tests/gpu.ruletest.yaml,line=18,title=nfd-fn test%3A gpu-rules::node dgx-h100-01: label nvidia.com/gds.capable: expected \"true\", got absent"
	if code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d, want 1 and %q in:\n%s", code, want, stdout)
	}
}
